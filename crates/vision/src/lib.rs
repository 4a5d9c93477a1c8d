//! The referee's eyes: from a camera frame to what stands on each square.
//!
//! - [`rectify`]: the board's four corners in the image → a square, top-down
//!   image of the board (OpenCV's perspective warp), with a margin around the
//!   playing area since pieces lean out of their squares in perspective.
//! - [`baseline`]: the per-game colour baseline (occupancy by nearest
//!   centroid, calibrated on the start position) and the change detector
//!   (which squares differ from the last accepted picture).
//! - [`locate`]: the board's corners found in a picture with no help (the
//!   lattice of its squares, refined to sub-pixel).
//! - [`realign`]: following a camera that drifts or is bumped (phase
//!   correlation of the board's quarters).
//! - [`detector`]: the ONNX model that reads every square, the hand and
//!   the fingertip from the rectified board.
//! - [`hands`]: real hands (MediaPipe's palm and landmark models, made
//!   ONNX on this machine), followed frame to frame, fingertips on squares.
//! - [`clock`]: a hand reaching the clock beside the board.
//! - [`eyes`]: both on one board, frame after frame, squares named a1..h8.
//! - [`still`]: one still picture read whole (`referee detect`).
//! - [`venue`]: the detector adapted to this board, set and light on the
//!   game's known start.
//! - [`video`]: reading video files with OpenCV.
//! - [`runtime`]: ONNX Runtime, loaded from the shared library that
//!   `scripts/setup` extracts from PyPI's wheel, and the sessions that run
//!   the project's models.

pub mod baseline;
pub mod clock;
pub mod detector;
mod error;
pub mod eyes;
pub mod hands;
pub mod locate;
pub mod realign;
pub mod rectify;
pub mod runtime;
pub mod still;
pub mod thumbnail;
pub mod venue;
pub mod video;

pub use baseline::{
    Change, ChangeDetector, ColourBaseline, FAINT_CHANGE, Heads, Occupant, Orientation,
};
pub use clock::ClockWatch;
pub use detector::{
    CellReading, DETECTOR_RECTIFIER, Detection, Detector, HAND_THRESHOLD, PRESENT_THRESHOLD,
    SURE_HAND_THRESHOLD, patch_around,
};
pub use error::{Error, Result};
pub use eyes::{BoardReading, EYES_RECTIFIER, Eyes};
pub use hands::{HandModels, HandTracker};
pub use locate::{Localisation, locate_board};
pub use rectify::{
    BoardCorners, CameraView, RectifiedBoard, Rectifier, SquareStats, Window, read_image,
};
pub use still::{SquareVerdict, StillReading, read_still};
pub use thumbnail::Thumbnail;
pub use venue::{VenueModel, known_cells};
pub use video::VideoReader;
