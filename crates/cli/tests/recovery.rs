//! `referee replay` on a rendered game whose camera went blank over one
//! move: the move made while nobody saw the board is read once the picture
//! comes back, and marked recovered for the arbiter; the moves watched are
//! not.

mod common;

use std::path::Path;

use common::{corners, referee_ok, scratch};
use opencv::core::{Mat, Scalar};
use opencv::prelude::*;
use opencv::videoio::{self, VideoCapture, VideoWriter};

const GAME: &str = "move e2e4\nclock\nmove e7e5\nclock\nmove g1f3\nclock\nmove b8c6\nclock\n";

/// Copies `video`, frames taken in `blank` (seconds) turned black.
fn blanked(video: &Path, blank: (f64, f64), out: &Path) {
    let mut source =
        VideoCapture::from_file_def(video.to_str().expect("utf-8")).expect("the video opens");
    let fps = source.get(videoio::CAP_PROP_FPS).expect("fps");
    let mut frame = Mat::default();
    let mut sink: Option<VideoWriter> = None;
    let mut index = 0u32;
    while source.read(&mut frame).expect("a frame read") && !frame.empty() {
        let writer = sink.get_or_insert_with(|| {
            let fourcc = VideoWriter::fourcc('M', 'J', 'P', 'G').expect("fourcc");
            let size = frame.size().expect("size");
            VideoWriter::new_def(out.to_str().expect("utf-8"), fourcc, fps, size).expect("a writer")
        });
        let t = f64::from(index) / fps;
        if (blank.0..blank.1).contains(&t) {
            frame.set_to_def(&Scalar::all(0.0)).expect("blanked");
        }
        writer.write(&frame).expect("a frame written");
        index += 1;
    }
    sink.expect("frames").release().expect("closed");
}

/// The time of the truth's `index`-th event of `kind`.
fn event_time(truth: &serde_json::Value, kind: &str, index: usize) -> f64 {
    truth["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["type"] == kind)
        .nth(index)
        .and_then(|e| e["t"].as_f64())
        .expect("the event")
}

#[test]
fn a_move_made_while_the_camera_was_blank_is_read_and_marked_recovered() {
    let out = scratch("recovery");
    std::fs::create_dir_all(&out).expect("scratch");
    let scenario = out.join("game.scn");
    std::fs::write(&scenario, GAME).expect("scenario");
    referee_ok(&[
        "synth",
        scenario.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("truth.json")).expect("truth"))
            .expect("json");
    // Blank from before Nf3's lift to after its release.
    let blank = (
        event_time(&truth, "lift", 2) - 0.3,
        event_time(&truth, "release", 2) + 0.3,
    );
    let video = out.join("blanked.avi");
    blanked(&out.join("video.avi"), blank, &video);
    let run = referee_ok(&[
        "replay",
        video.to_str().expect("utf-8"),
        "--json",
        "--corners",
        &corners(&truth),
    ]);
    let verdict: serde_json::Value = serde_json::from_slice(&run.stdout).expect("the verdict");
    let moves = verdict["moves"].as_array().expect("moves");
    let read: Vec<(&str, bool)> = moves
        .iter()
        .map(|m| {
            (
                m["san"].as_str().expect("san"),
                m["recovered"].as_bool().unwrap_or(false),
            )
        })
        .collect();
    assert_eq!(
        read,
        [("e4", false), ("e5", false), ("Nf3", true), ("Nc6", false)],
        "blank from {:.2} s to {:.2} s",
        blank.0,
        blank.1
    );
    assert!(
        verdict["pgn"]
            .as_str()
            .expect("pgn")
            .contains("{recovered}"),
        "the PGN marks it"
    );
    let _ = std::fs::remove_dir_all(out);
}
