//! The committed detector and the board localisation on rendered frames
//! that training never saw (dataset seed 2001; the model trained on seeds
//! 1-4): occupants, piece types, hands and fingertips against the renderer's
//! exact truth, and the corners found with no help. The model card's
//! figures come from `scripts/train_detector evaluate` on 2,000 frames;
//! this is the small version that runs with every test.

use referee_synth::dataset::{Moments, write_dataset};
use referee_synth::style::Looks;
use referee_vision::{
    BoardCorners, Detector, HAND_THRESHOLD, Occupant, Orientation, locate_board, read_image,
};
use serde_json::Value;

const FRAMES: usize = 60;
const SEED: u64 = 2001;

fn orientation(white_side: &str) -> Orientation {
    match white_side {
        "bottom" => Orientation::WhiteBottom,
        "top" => Orientation::WhiteTop,
        "left" => Orientation::WhiteLeft,
        "right" => Orientation::WhiteRight,
        other => panic!("white_side {other}"),
    }
}

fn occupant(name: &str) -> Occupant {
    match name {
        "white" => Occupant::White,
        "black" => Occupant::Black,
        _ => Occupant::Empty,
    }
}

fn corners(label: &Value) -> BoardCorners {
    let c: [[f32; 2]; 4] = serde_json::from_value(label["corners"].clone()).expect("corners");
    BoardCorners(c)
}

#[derive(Debug, Default)]
struct Tally {
    uncovered: usize,
    occupant_wrong: usize,
    pieces: usize,
    piece_right: usize,
    hand_squares: usize,
    hand_found: usize,
    touch_frames: usize,
    touch_right: usize,
    located: usize,
    located_within: usize,
}

#[test]
fn the_detector_reads_rendered_frames_it_never_trained_on() {
    let dir = std::env::temp_dir().join(format!("referee-detector-{}", std::process::id()));
    write_dataset(FRAMES, SEED, Looks::Classic, Moments::Key, &dir).expect("renders");
    let labels = std::fs::read_to_string(dir.join("labels.jsonl")).expect("labels");
    let mut detector = Detector::load().expect("the detector loads");
    let mut tally = Tally::default();
    for line in labels.lines() {
        let label: Value = serde_json::from_str(line).expect("a label");
        let image = read_image(&dir.join(label["file"].as_str().expect("file"))).expect("image");
        let corners = corners(&label);
        let o = orientation(label["white_side"].as_str().expect("white_side"));
        let detection = detector.detect(&image, &corners).expect("detects");
        let mut touched = None;
        for square in label["squares"].as_array().expect("squares") {
            let named = square["square"].as_str().expect("name");
            let name = named.as_bytes();
            let (file, rank) = (usize::from(name[0] - b'a'), usize::from(name[1] - b'1'));
            let reading = detection.square(o, file, rank);
            if square["touch"].as_bool() == Some(true) {
                touched = Some(named.to_string());
            }
            if square["hand"].as_bool() == Some(true) {
                tally.hand_squares += 1;
                tally.hand_found += usize::from(reading.hand >= HAND_THRESHOLD);
                continue;
            }
            tally.uncovered += 1;
            let truth = occupant(square["occupant"].as_str().expect("occupant"));
            tally.occupant_wrong += usize::from(reading.occupant().0 != truth);
            if let Some(piece) = square["piece"].as_str() {
                tally.pieces += 1;
                let read = reading.piece().map(|p| p.char().to_string());
                tally.piece_right += usize::from(read.as_deref() == Some(piece));
            }
        }
        if let Some(cell) = touched {
            tally.touch_frames += 1;
            tally.touch_right +=
                usize::from(detection.fingertip(o).map(|sq| sq.to_string()) == Some(cell));
        }
        if let Some(found) = locate_board(&image).expect("localisation runs") {
            tally.located += 1;
            let side = (corners.0[0][0] - corners.0[1][0]).hypot(corners.0[0][1] - corners.0[1][1]);
            let error = (0..4)
                .map(|k| {
                    let (a, b) = (found.corners.0[k], corners.0[k]);
                    (a[0] - b[0]).hypot(a[1] - b[1])
                })
                .fold(0.0, f32::max);
            tally.located_within += usize::from(error <= 0.02 * side);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("{tally:?}");
    let share = |part: usize, whole: usize| part as f64 / whole.max(1) as f64;
    // Guards a little below what the committed model measures here (the
    // model card's figures are on 2,000 frames, by scripts/train_detector).
    assert!(
        share(tally.occupant_wrong, tally.uncovered) <= 0.003,
        "occupants wrong on {} of {} uncovered squares",
        tally.occupant_wrong,
        tally.uncovered
    );
    assert!(share(tally.piece_right, tally.pieces) >= 0.88, "{tally:?}");
    assert!(
        share(tally.hand_found, tally.hand_squares) >= 0.85,
        "{tally:?}"
    );
    assert!(
        tally.touch_frames >= 10 && share(tally.touch_right, tally.touch_frames) >= 0.75,
        "{tally:?}"
    );
    assert!(share(tally.located_within, FRAMES) >= 0.9, "{tally:?}");
}
