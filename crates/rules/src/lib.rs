//! The referee's rules engine: physical events in, moves, incidents and PGN out.
//!
//! Input: the physical events of contracts.md §1 (touch, lift, release,
//! capture, add, adjust, declare, clock, two_hands), in time order, and the
//! starting position. Output: the [`Verdict`] of contracts.md §2: the moves
//! played, each incident the Laws of Chess (FIDE art. 4 and 7) name with its
//! article and evidence, the result and the PGN.
//!
//! - [`event`]: the event log format, parsed line by line with errors that
//!   name the line and the field.
//! - [`table`]: what physically stands on the board during a turn, and which
//!   piece is which.
//! - [`obligation`]: what the touches of a turn oblige (art. 4.3-4.5).
//! - [`referee`]: the state machine that joins them on the game position.
//! - [`verdict`] and [`pgn`]: what is reported, times in [`seconds`].
//!
//! No native dependency: this crate builds and tests anywhere.

pub mod correction;
mod error;
pub mod event;
pub mod notation;
pub mod obligation;
pub mod ordinary;
pub mod pgn;
pub mod referee;
pub mod seconds;
pub mod table;
pub mod verdict;

pub use error::{ApplyError, EventLogError, ParseEventError};
pub use event::{Action, Event, event_log_text, parse_event_log};
pub use obligation::{Obligation, Touch};
pub use referee::{ArbitrateError, Referee, Update, arbitrate_log};
pub use verdict::{
    ARTICLES, Article, Claim, Incident, IncidentKind, MoveRecord, Side, Verdict, article, law,
};
