//! An incident's evidence, cut from the frames a board's camera sent.
//!
//! - [`ring`]: the board's last seconds of frames, kept in a bounded ring,
//!   and the first seconds of the turn under way held in it while the turn
//!   lasts (a touch is told only once the hand's doing is read).
//! - [`clip`]: the frames of one incident, from a second before its first
//!   touch to the moment it was raised, with a manifest the panel plays.
//! - [`draw`]: what is drawn on each frame of a clip: the board's grid, the
//!   touched squares numbered in the order the Laws weigh them, the
//!   fingertip's track, the moved piece's path.

pub mod clip;
mod draw;
pub mod ring;

pub use clip::{Clip, Manifest, Story, cut};
pub use ring::{FrameRing, Sighting};

/// What can go wrong while cutting evidence.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("OpenCV failed while {doing}: {source}")]
    OpenCv {
        doing: &'static str,
        #[source]
        source: opencv::Error,
    },
    #[error("a kept frame at {t:.2} s cannot be decoded")]
    Undecodable { t: f64 },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Attaches what was being done to an OpenCV error.
pub(crate) trait Doing<T> {
    fn doing(self, doing: &'static str) -> Result<T>;
}

impl<T> Doing<T> for opencv::Result<T> {
    fn doing(self, doing: &'static str) -> Result<T> {
        self.map_err(|source| Error::OpenCv { doing, source })
    }
}
