//! Frames read from video files carry the times they were taken: from the
//! container's time stamps, so that a recording which lost frames keeps its
//! times, and by the frame rate where the stamps run evenly.

mod common;

use std::path::{Path, PathBuf};

use common::real_dir;
use referee_vision::VideoReader;

/// The times of every frame of `path`, to the millisecond.
fn times(path: &Path) -> Vec<f64> {
    let mut reader = VideoReader::open(path).expect("the video opens");
    let mut times = Vec::new();
    while let Some((t, _)) = reader.next_timed_frame().expect("a frame decodes") {
        times.push((t * 1e3).round() / 1e3);
    }
    times
}

#[test]
fn a_recording_that_lost_frames_keeps_its_times() {
    // Made by tests/data/video/make_frames_lost.py: two frames lost after
    // the third, at a nominal 10 frames a second.
    let video =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/video/frames_lost.mkv");
    assert_eq!(times(&video), [0.0, 0.1, 0.2, 0.5, 0.6, 0.7]);
}

#[test]
fn an_even_recording_runs_at_its_frame_rate() {
    let times = times(&real_dir().join("opening_clip.avi"));
    assert!(times.len() > 20, "{} frames", times.len());
    for (index, t) in times.iter().enumerate() {
        assert!(
            (t - index as f64 / 20.0).abs() < 1e-3,
            "frame {index} at {t} s"
        );
    }
}
