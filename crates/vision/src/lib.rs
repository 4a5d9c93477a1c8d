//! The referee's eyes: from a camera frame to what stands on each square.
//!
//! - [`rectify`]: the board's four corners in the image → a square, top-down
//!   image of the board (OpenCV's perspective warp), with a margin around the
//!   playing area since pieces lean out of their squares in perspective.
//! - [`runtime`]: ONNX Runtime, loaded from the shared library that
//!   `scripts/setup` extracts from PyPI's wheel, and the sessions that run
//!   the project's models.

mod error;
pub mod rectify;
pub mod runtime;

pub use error::{Error, Result};
pub use rectify::{BoardCorners, RectifiedBoard, Rectifier, SquareStats, read_image};
