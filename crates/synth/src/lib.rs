//! Ground truth for the referee, drawn from scenario files.
//!
//! - [`scenario`]: the scenario format of contracts.md §3, parsed line by
//!   line; a bad line is refused with its number and what was expected.
//! - [`choreography`]: a scenario played out in time: the physical events a
//!   player's hands make (with people's timing, seeded), the moves, and a
//!   check that every `move` is legal where it is played.
//! - [`render`]: the overhead camera's view of it, frame by frame, with the
//!   truth of each frame; [`camera`], [`style`], [`pieces`] and [`draw`]
//!   make the picture.
//! - [`output`]: `referee synth`: video.avi and truth.json.
//! - [`dataset`]: `referee synth --dataset`: labelled single frames for training.

pub mod camera;
pub mod choreography;
pub mod dataset;
pub mod draw;
mod error;
pub mod output;
pub mod pieces;
pub mod render;
pub mod scenario;
pub mod style;

pub use choreography::{Choreography, choreograph};
pub use error::ScenarioError;
pub use output::{RenderError, Rendered, render, render_file, stage, start_position};
pub use render::Renderer;
pub use scenario::{Camera, Command, Hover, Scenario, Step};
