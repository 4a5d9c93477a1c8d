//! The vision crate's errors: each says what failed and on which file or input.

use std::path::PathBuf;

/// Everything that can go wrong between a frame and its squares.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read image {path}: {reason}")]
    ReadImage { path: PathBuf, reason: String },

    #[error("cannot read video {path}: {reason}")]
    ReadVideo { path: PathBuf, reason: String },

    #[error("cannot calibrate on the first frame: {0}")]
    Calibration(String),

    #[error("corners must be 4 distinct points in the image, clockwise from top-left: {0}")]
    BadCorners(String),

    #[error("OpenCV failed while {doing}: {source}")]
    OpenCv {
        doing: &'static str,
        #[source]
        source: opencv::Error,
    },

    #[error(
        "ONNX Runtime library not found at {path}; run scripts/setup, or set ORT_DYLIB_PATH to libonnxruntime.so.1"
    )]
    RuntimeMissing { path: PathBuf },

    #[error("model file {path} is missing: {remedy}")]
    ModelMissing { path: PathBuf, remedy: &'static str },

    #[error("cannot load the ONNX Runtime library {path}: {reason}")]
    RuntimeLoad { path: PathBuf, reason: String },

    #[error("ONNX Runtime failed while {doing}: {source}")]
    Onnx {
        doing: String,
        #[source]
        source: ort::Error,
    },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Attaches what was being done to an OpenCV error.
pub(crate) trait OpenCvContext<T> {
    fn doing(self, doing: &'static str) -> Result<T>;
}

impl<T> OpenCvContext<T> for opencv::Result<T> {
    fn doing(self, doing: &'static str) -> Result<T> {
        self.map_err(|source| Error::OpenCv { doing, source })
    }
}
