//! Reading video with OpenCV's VideoCapture (files, cameras, streams), each
//! frame with the time it was taken.

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
    /// The container's time stamp of the first frame (seconds), and the
    /// time given to the last frame read.
    first_stamp: Option<f64>,
    last_t: Option<f64>,
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
            first_stamp: None,
            last_t: None,
        })
    }

    /// The next frame, or `None` at the end.
    pub fn next_frame(&mut self) -> Result<Option<Mat>> {
        Ok(self.next_timed_frame()?.map(|(_, frame)| frame))
    }

    /// The next frame and when it was taken, in seconds from the first:
    /// the container's time stamp, so that a recording which lost frames
    /// keeps its times (the tracker's rules are in seconds); where the
    /// container gives none that runs forward, a frame period after the
    /// frame before.
    pub fn next_timed_frame(&mut self) -> Result<Option<(f64, Mat)>> {
        let mut frame = Mat::default();
        let ok = self.capture.read(&mut frame).doing("decoding a frame")?;
        if !ok || frame.empty() {
            return Ok(None);
        }
        let stamp = self
            .capture
            .get(videoio::CAP_PROP_POS_MSEC)
            .doing("reading the frame's time stamp")?
            / 1e3;
        Ok(Some((self.time_of(stamp), frame)))
    }

    /// The time of the next frame, whose container stamp is `stamp`
    /// (seconds), kept as the last frame's.
    fn time_of(&mut self, stamp: f64) -> f64 {
        let stamped = stamp.is_finite() && stamp >= 0.0;
        let t = match (self.last_t, self.first_stamp) {
            (None, _) => {
                self.first_stamp = stamped.then_some(stamp);
                0.0
            }
            (Some(last), Some(first)) if stamped && stamp - first > last => stamp - first,
            (Some(last), _) => last + 1.0 / self.fps,
        };
        self.last_t = Some(t);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(fps: f64) -> VideoReader {
        VideoReader {
            capture: VideoCapture::default().expect("an empty capture"),
            fps,
            length: None,
            first_stamp: None,
            last_t: None,
        }
    }

    /// The times `reader` gives frames stamped `stamps`.
    fn times(reader: &mut VideoReader, stamps: &[f64]) -> Vec<f64> {
        stamps
            .iter()
            .map(|&stamp| (reader.time_of(stamp) * 1e3).round() / 1e3)
            .collect()
    }

    #[test]
    fn a_frame_is_timed_by_its_stamp_from_the_first_frame() {
        // A stream joined 3.2 s in, two frames lost after the second.
        assert_eq!(
            times(&mut reader(10.0), &[3.2, 3.3, 3.6, 3.7]),
            [0.0, 0.1, 0.4, 0.5]
        );
    }

    #[test]
    fn a_stamp_that_does_not_run_forward_gives_way_to_the_frame_rate() {
        // No stamps at all (a camera), then a stamp repeated or going back.
        assert_eq!(
            times(&mut reader(20.0), &[f64::NAN, f64::NAN, -1.0]),
            [0.0, 0.05, 0.1]
        );
        assert_eq!(
            times(&mut reader(10.0), &[0.0, 0.1, 0.1, 0.05, 0.4]),
            [0.0, 0.1, 0.2, 0.3, 0.4]
        );
    }
}
