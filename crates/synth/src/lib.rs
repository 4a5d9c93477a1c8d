//! Ground truth for the referee, drawn from scenario files.
//!
//! - [`scenario`]: the scenario format of contracts.md §3, parsed line by
//!   line; a bad line is refused with its number and what was expected.
//! - [`choreography`]: a scenario played out in time: the physical events a
//!   player's hands make (with people's timing, seeded), the moves, and a
//!   check that every `move` is legal where it is played.
//!
//! The renderer that turns a choreography into an overhead video and the
//! per-frame truth builds on these.

pub mod choreography;
mod error;
pub mod scenario;

pub use choreography::{Choreography, choreograph};
pub use error::ScenarioError;
pub use scenario::{Camera, Command, Scenario, Step};
