//! The committed detector on the real photographs of `../shared/data/real`
//! (a test set, never trained on), read at the labelled corners, with no
//! adaptation (a single photograph has no known start to adapt on). The
//! issue asks for every square of all 13 right; the committed model is not
//! there yet (models/README.md): this guards what it reaches. Per-photograph
//! errors print with `-- --nocapture`.

mod common;

use common::{photographs, real_dir};
use referee_vision::{BoardCorners, Detector, Occupant, Orientation, read_image};
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

/// What the committed model reaches (20 of 832 wrong), with a little room.
const MOST_WRONG: usize = 24;

#[test]
fn the_squares_of_the_real_photographs_are_read() {
    let mut detector = Detector::load().expect("the detector loads");
    let mut wrong_total = 0;
    for label in photographs() {
        let image = read_image(&real_dir().join(&label.file)).expect("photograph reads");
        let corners = BoardCorners(label.corners());
        let placement: Board = label.placement.parse().expect("placement");
        let o = orientation(label.white_side.as_deref());
        let detection = detector.detect(&image, &corners).expect("detects");
        let mut wrong = Vec::new();
        for square in shakmaty::Square::ALL {
            let truth = match placement.color_at(square) {
                None => Occupant::Empty,
                Some(shakmaty::Color::White) => Occupant::White,
                Some(shakmaty::Color::Black) => Occupant::Black,
            };
            let reading =
                detection.square(o, usize::from(square.file()), usize::from(square.rank()));
            let (read, p) = reading.occupant();
            if read != truth {
                wrong.push(format!("{square} {read:?} ({p:.2}) not {truth:?}"));
            }
        }
        println!("{}: {} of 64 wrong {wrong:?}", label.file, wrong.len());
        wrong_total += wrong.len();
    }
    println!("{wrong_total} of {} squares read wrong", 13 * 64);
    assert!(
        wrong_total <= MOST_WRONG,
        "{wrong_total} squares read wrong on the real photographs"
    );
}
