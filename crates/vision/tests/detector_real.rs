//! The committed detector on the real photographs of `../shared/data/real`
//! (a test set, never trained on), read at the labelled corners, with no
//! adaptation (a single photograph has no known start to adapt on): once
//! as a video frame is read (one run of the model), once as `referee
//! detect` reads a still (the board in its four quarter turns, averaged).
//! The issue asks for every square of all 13 right; the committed model is
//! not there yet (models/README.md): this guards what it reaches.
//! Per-photograph errors print with `-- --nocapture`.

mod common;

use common::{photographs, real_dir};
use referee_vision::{
    BoardCorners, DETECTOR_RECTIFIER, Detection, Detector, Occupant, Orientation, read_image,
};
use shakmaty::Board;

fn orientation(white_side: Option<&str>) -> Orientation {
    match white_side {
        Some("top") => Orientation::WhiteTop,
        Some("left") => Orientation::WhiteLeft,
        Some("right") => Orientation::WhiteRight,
        // An empty board reads the same whichever way it lies.
        _ => Orientation::WhiteBottom,
    }
}

/// What the committed model reaches (21 and 16 of 832 wrong), with a
/// little room.
const MOST_WRONG_ONE_RUN: usize = 24;
const MOST_WRONG_TURNED: usize = 18;

/// The squares whose occupant `detection` reads wrong, described.
fn wrong_squares(detection: &Detection, placement: &Board, o: Orientation) -> Vec<String> {
    let mut wrong = Vec::new();
    for square in shakmaty::Square::ALL {
        let truth = match placement.color_at(square) {
            None => Occupant::Empty,
            Some(shakmaty::Color::White) => Occupant::White,
            Some(shakmaty::Color::Black) => Occupant::Black,
        };
        let reading = detection.square(o, usize::from(square.file()), usize::from(square.rank()));
        let (read, p) = reading.occupant();
        if read != truth {
            wrong.push(format!("{square} {read:?} ({p:.2}) not {truth:?}"));
        }
    }
    wrong
}

#[test]
fn the_squares_of_the_real_photographs_are_read() {
    let mut detector = Detector::load().expect("the detector loads");
    let (mut one_run_total, mut turned_total) = (0, 0);
    for label in photographs() {
        let image = read_image(&real_dir().join(&label.file)).expect("photograph reads");
        let corners = BoardCorners(label.corners());
        let placement: Board = label.placement.parse().expect("placement");
        let o = orientation(label.white_side.as_deref());
        let board = DETECTOR_RECTIFIER
            .rectify(&image, &corners)
            .expect("rectifies");
        let one_run = detector.detect_rectified(&board.image).expect("detects");
        let turned = detector.detect_turned(&board.image).expect("detects");
        let (one_run, turned) = (
            wrong_squares(&one_run, &placement, o),
            wrong_squares(&turned, &placement, o),
        );
        println!(
            "{}: {} of 64 wrong in one run {one_run:?}; {} turned {turned:?}",
            label.file,
            one_run.len(),
            turned.len()
        );
        one_run_total += one_run.len();
        turned_total += turned.len();
    }
    println!(
        "of {} squares, read wrong: {one_run_total} in one run, {turned_total} turned",
        13 * 64
    );
    assert!(
        one_run_total <= MOST_WRONG_ONE_RUN,
        "{one_run_total} squares read wrong in one run"
    );
    assert!(
        turned_total <= MOST_WRONG_TURNED,
        "{turned_total} squares read wrong in four turns"
    );
}
