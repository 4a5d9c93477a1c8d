//! Reading video with OpenCV's VideoCapture (files, cameras, streams).

use std::path::Path;

use opencv::core::Mat;
use opencv::prelude::*;
use opencv::videoio::{self, VideoCapture};

use crate::error::OpenCvContext;
use crate::{Error, Result};

/// Frames a video is assumed to run at when its file does not say.
const DEFAULT_FPS: f64 = 20.0;

/// A video being read frame by frame.
#[derive(Debug)]
pub struct VideoReader {
    capture: VideoCapture,
    pub fps: f64,
    /// Frames in the file, when it says.
    pub length: Option<u64>,
}

impl VideoReader {
    pub fn open(path: &Path) -> Result<Self> {
        let fail = |reason: &str| Error::ReadVideo {
            path: path.to_path_buf(),
            reason: reason.into(),
        };
        let name = path.to_str().ok_or_else(|| fail("path is not UTF-8"))?;
        if !path.exists() {
            return Err(fail("no such file"));
        }
        // FFmpeg reads the files the referee writes and reads (MJPG .avi, .mp4);
        // letting OpenCV try every backend fills the terminal with their complaints.
        let capture =
            VideoCapture::from_file(name, videoio::CAP_FFMPEG).doing("opening the video")?;
        if !capture.is_opened().doing("opening the video")? {
            return Err(fail("OpenCV cannot open it as a video"));
        }
        let fps = capture
            .get(videoio::CAP_PROP_FPS)
            .doing("reading the frame rate")?;
        let count = capture
            .get(videoio::CAP_PROP_FRAME_COUNT)
            .doing("reading the frame count")?;
        Ok(Self {
            capture,
            fps: if fps.is_finite() && fps > 0.0 {
                fps
            } else {
                DEFAULT_FPS
            },
            length: (count > 0.0).then_some(count as u64),
        })
    }

    /// The next frame, or `None` at the end.
    pub fn next_frame(&mut self) -> Result<Option<Mat>> {
        let mut frame = Mat::default();
        let ok = self.capture.read(&mut frame).doing("decoding a frame")?;
        Ok((ok && !frame.empty()).then_some(frame))
    }
}
