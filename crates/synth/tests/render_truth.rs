//! The rendered frames agree with their truth. On frames with no hand, every
//! square's occupant is read back by plain colour statistics inside the
//! known corners (nearest centroid, calibrated on the first frame, whose
//! position is known); renders are byte-identical for the same scenario and
//! seed; every command of contracts.md §3 is parsed and drawn.

use std::path::{Path, PathBuf};

use opencv::prelude::*;
use opencv::videoio::VideoCapture;
use referee_vision::{BoardCorners, Rectifier};
use serde_json::Value;

fn scenario(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/scenarios")
        .join(name)
}

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-synth-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn frames(video: &Path) -> Vec<Mat> {
    let mut capture = VideoCapture::from_file_def(video.to_str().expect("utf-8")).expect("opens");
    let mut frames = Vec::new();
    let mut frame = Mat::default();
    while capture.read(&mut frame).expect("reads") {
        frames.push(frame.clone());
    }
    frames
}

/// Square name of the rectified cell `index` (row 0 is rank 8: White at the bottom).
fn square_of(index: usize) -> String {
    let (row, col) = (index / 8, index % 8);
    format!("{}{}", char::from(b'a' + col as u8), 8 - row)
}

/// Light or dark square: cells of one parity share a colour.
fn parity(index: usize) -> usize {
    (index / 8 + index % 8) % 2
}

/// Per square: mean B, G, R and the grey spread (a piece brings edges and shading).
fn features(frame: &Mat, corners: &Value) -> Vec<[f32; 4]> {
    let c: [[f32; 2]; 4] = serde_json::from_value(corners.clone()).expect("corners");
    let board = Rectifier::default()
        .rectify(frame, &BoardCorners(c))
        .expect("rectifies");
    let colours = board.square_colours(0.25).expect("colours");
    let stats = board.square_stats(0.25).expect("stats");
    (0..64)
        .map(|i| {
            [
                colours[i][0],
                colours[i][1],
                colours[i][2],
                2.0 * stats[i].spread,
            ]
        })
        .collect()
}

fn distance(a: [f32; 4], b: [f32; 4]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum()
}

const OCCUPANTS: [&str; 3] = ["empty", "white", "black"];

#[test]
fn occupants_read_back_by_colour_on_frames_without_a_hand() {
    let out = out_dir("truth");
    let rendered =
        referee_synth::render_file(&scenario("touch_move_nc6.scn"), &out).expect("renders");
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(&rendered.truth).expect("truth"))
            .expect("json");
    let frames = frames(&rendered.video);
    let truth_frames = truth["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), truth_frames.len(), "one truth entry a frame");

    let occupant = |frame: &Value, index: usize| -> usize {
        let square = square_of(index);
        let entry = frame["squares"]
            .as_array()
            .expect("squares")
            .iter()
            .find(|s| s["square"] == square.as_str());
        let name = entry.expect("every square")["occupant"]
            .as_str()
            .expect("occupant");
        OCCUPANTS
            .iter()
            .position(|o| *o == name)
            .expect("a known occupant")
    };
    // Calibrate on the first frame, whose position is known: for each square
    // colour, the centroid of empty squares, white pieces and black pieces.
    let first = features(&frames[0], &truth_frames[0]["corners"]);
    let mut sums = [[[0.0f32; 4]; 3]; 2];
    let mut counts = [[0.0f32; 3]; 2];
    for (index, feature) in first.iter().enumerate() {
        let class = occupant(&truth_frames[0], index);
        for c in 0..4 {
            sums[parity(index)][class][c] += feature[c];
        }
        counts[parity(index)][class] += 1.0;
    }
    let centroid = |p: usize, class: usize| sums[p][class].map(|s| s / counts[p][class]);

    let mut checked = 0;
    for (frame, entry) in frames.iter().zip(truth_frames).step_by(5) {
        let has_hand = entry["squares"]
            .as_array()
            .expect("squares")
            .iter()
            .any(|s| s["hand"] == true);
        if has_hand {
            continue;
        }
        for (index, feature) in features(frame, &entry["corners"]).iter().enumerate() {
            let nearest = (0..3)
                .min_by(|&a, &b| {
                    distance(*feature, centroid(parity(index), a))
                        .total_cmp(&distance(*feature, centroid(parity(index), b)))
                })
                .expect("three classes");
            let want = occupant(entry, index);
            assert_eq!(
                OCCUPANTS[nearest],
                OCCUPANTS[want],
                "t={} {}",
                entry["t"],
                square_of(index)
            );
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} frames without a hand");
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn the_same_scenario_renders_byte_identical() {
    let (a, b) = (out_dir("det-a"), out_dir("det-b"));
    for dir in [&a, &b] {
        referee_synth::render_file(&scenario("touch_move_nc6.scn"), dir).expect("renders");
    }
    for file in ["video.avi", "truth.json"] {
        let (x, y) = (
            std::fs::read(a.join(file)).expect("a"),
            std::fs::read(b.join(file)).expect("b"),
        );
        assert!(x == y, "{file} differs between two renders");
    }
    let _ = (std::fs::remove_dir_all(a), std::fs::remove_dir_all(b));
}

#[test]
fn a_bumped_camera_moves_the_corners_in_the_truth() {
    let out = out_dir("bump");
    let rendered = referee_synth::render_file(&scenario("camera_bump.scn"), &out).expect("renders");
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(&rendered.truth).expect("truth"))
            .expect("json");
    let corners_at = |t: f64| -> [[f64; 2]; 4] {
        let frame = truth["frames"]
            .as_array()
            .expect("frames")
            .iter()
            .find(|f| (f["t"].as_f64().expect("t") - t).abs() < 1e-6)
            .expect("a frame at t");
        serde_json::from_value(frame["corners"].clone()).expect("corners")
    };
    let shift = |a: [[f64; 2]; 4], b: [[f64; 2]; 4]| {
        a.iter()
            .zip(b)
            .map(|(p, q)| ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt())
            .fold(0.0, f64::max)
    };
    // Slow drift: under a pixel in a twentieth of a second; the bump: many pixels at once.
    assert!(shift(corners_at(1.0), corners_at(1.05)) < 1.0);
    assert!(shift(corners_at(4.45), corners_at(4.5)) > 5.0);
    let _ = std::fs::remove_dir_all(out);
}

/// The frames of a scenario with one event, at its start and at its end.
fn frames_around_the_event(text: &str) -> (Mat, Mat) {
    let scenario = referee_synth::Scenario::parse(text).expect("parses");
    let (renderer, played) = referee_synth::stage(&scenario).expect("stages");
    assert_eq!(played.events.len(), 1, "one event");
    let frame = |t: f64| renderer.frame(t, 0).expect("frame").0;
    (frame(0.0), frame(played.duration))
}

#[test]
fn an_adjusted_piece_stands_off_centre_until_it_is_set_straight() {
    let (touch, touched) = frames_around_the_event("camera seed=11 noise=0\ntouch e2\n");
    let (adjust, adjusted) = frames_around_the_event("camera seed=11 noise=0\nadjust e2\n");
    let differing = |a: &Mat, b: &Mat| {
        let mut diff = Mat::default();
        opencv::core::absdiff(a, b, &mut diff).expect("absdiff");
        let mut grey = Mat::default();
        opencv::imgproc::cvt_color_def(&diff, &mut grey, opencv::imgproc::COLOR_BGR2GRAY)
            .expect("grey");
        opencv::core::count_non_zero(&grey).expect("count")
    };
    // Before: the pawn to be adjusted stands a fifth of a square off its
    // centre: a few hundred pixels at 640x480, not the whole picture.
    let before = differing(&touch, &adjust);
    assert!(
        (40..20_000).contains(&before),
        "{before} pixels differ before the touch and the adjustment"
    );
    // After: set straight, it stands as the touched pawn does.
    let after = differing(&touched, &adjusted);
    assert_eq!(after, 0, "pixels differ after the touch and the adjustment");
}

#[test]
fn a_move_made_with_two_hands_shows_two_arms() {
    let scenario =
        referee_synth::Scenario::parse("camera seed=9 noise=0\ntwo-hands e2e4\n").expect("parses");
    let (renderer, played) = referee_synth::stage(&scenario).expect("stages");
    let lift = played
        .events
        .iter()
        .find(|e| matches!(e.action, referee_rules::Action::Lift(_)))
        .expect("a lift");
    let (_, truth) = renderer.frame(lift.t + 0.2, 0).expect("frame");
    // The files with a hand over them: the moving hand's e-file and the
    // other hand's, with a bare file between.
    let files: std::collections::BTreeSet<u8> = truth
        .squares
        .iter()
        .filter(|s| s.hand)
        .map(|s| s.square.as_bytes()[0])
        .collect();
    assert!(
        files.contains(&b'e'),
        "the moving hand over the e-file: {files:?}"
    );
    let gap = files
        .iter()
        .zip(files.iter().skip(1))
        .any(|(a, b)| b - a >= 2);
    assert!(gap, "two arms apart: {files:?}");
}

#[test]
fn the_scenario_light_dims_and_brightens_the_picture() {
    let mean_grey = |light: &str| {
        let scenario =
            referee_synth::Scenario::parse(&format!("camera seed=5 noise=0 light={light}\n"))
                .expect("parses");
        let (renderer, _) = referee_synth::stage(&scenario).expect("stages");
        let frame = renderer.frame(0.0, 0).expect("frame").0;
        let mut grey = Mat::default();
        opencv::imgproc::cvt_color_def(&frame, &mut grey, opencv::imgproc::COLOR_BGR2GRAY)
            .expect("grey");
        opencv::core::mean_def(&grey).expect("mean")[0]
    };
    let (dim, daylight, bright) = (mean_grey("0.6"), mean_grey("1"), mean_grey("1.3"));
    // Dimmed by nearly the light's share (nothing saturates at 0.6), and
    // brighter at 1.3 (less than by its share where white squares burn out).
    assert!(
        (dim / daylight - 0.6).abs() < 0.03,
        "mean grey {dim:.1} at light 0.6 against {daylight:.1} at 1"
    );
    assert!(
        bright > daylight * 1.1,
        "mean grey {bright:.1} at light 1.3 against {daylight:.1} at 1"
    );
}
