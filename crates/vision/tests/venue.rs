//! What adapting to the venue gains on real footage (`../shared/data/real`,
//! a test set): a picture of a known position calibrates, another picture
//! of the same board is read, and the squares read wrong are counted for
//! the per-game colour baseline (the reference and fallback), the detector
//! alone, and the detector with its venue model. Pairs: the three photographs
//! of one wooden board (each calibrating for the two others), and the real
//! game's first frame calibrating for its last (after 1.e4 e5 2.Qh5 Nc6).
//! `cargo test -p referee-vision --test venue -- --nocapture` prints the
//! table the model card quotes.

use std::path::PathBuf;

use opencv::core::{Mat, MatTraitConst};
use referee_vision::{
    BoardCorners, ColourBaseline, Detection, Detector, HAND_THRESHOLD, Occupant, Orientation,
    Rectifier, VenueModel, VideoReader, read_image,
};
use shakmaty::san::San;
use shakmaty::{Board, Chess, Position};

fn real(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/real")
        .join(file)
}

/// Occupants by rectified cell of `board` lying `orientation`.
fn by_cell(board: &Board, orientation: Orientation) -> [Occupant; 64] {
    let mut cells = [Occupant::Empty; 64];
    for (square, piece) in board.iter() {
        cells[orientation.cell(usize::from(square.file()), usize::from(square.rank()))] =
            match piece.color {
                shakmaty::Color::White => Occupant::White,
                shakmaty::Color::Black => Occupant::Black,
            };
    }
    cells
}

/// A picture of a known position.
struct Known {
    name: String,
    image: Mat,
    corners: BoardCorners,
    cells: [Occupant; 64],
}

fn wrong(read: &[Occupant; 64], truth: &[Occupant; 64]) -> usize {
    read.iter().zip(truth).filter(|(a, b)| a != b).count()
}

/// Squares read wrong on `target` after calibrating on `start`:
/// (colour baseline, detector, detector with venue model).
fn errors(detector: &mut Detector, start: &Known, target: &Known) -> [usize; 3] {
    let rectifier = Rectifier::default();
    let board = rectifier
        .rectify(&start.image, &start.corners)
        .expect("warps");
    let baseline = ColourBaseline::calibrate(&board, &start.cells)
        .expect("calibrates")
        .expect("both sides and empty squares");
    let read = baseline
        .read(
            &rectifier
                .rectify(&target.image, &target.corners)
                .expect("warps"),
        )
        .expect("reads");
    let colour = wrong(&read, &target.cells);

    let first = detector
        .detect(&start.image, &start.corners)
        .expect("detects");
    let known = start.cells.map(Some);
    let venue = VenueModel::calibrate(&first, &known).expect("the model gives features");
    let later = detector
        .detect(&target.image, &target.corners)
        .expect("detects");
    let occupants = |d: &referee_vision::Detection| -> [Occupant; 64] {
        std::array::from_fn(|cell| d.cells[cell].occupant().0)
    };
    let alone = wrong(&occupants(&later), &target.cells);
    let adapted = wrong(&occupants(&venue.adapt(&later)), &target.cells);
    [colour, alone, adapted]
}

/// A labelled starting position from `labels.json`.
fn photograph(file: &str) -> Known {
    let labels: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(real("labels.json")).expect("labels.json"))
            .expect("valid");
    let label = labels
        .as_array()
        .expect("entries")
        .iter()
        .find(|l| l["file"] == file)
        .expect("labelled");
    assert_eq!(label["white_side"], "left");
    let corners: [[f32; 2]; 4] = serde_json::from_value(label["corners"].clone()).expect("corners");
    Known {
        name: file.into(),
        image: read_image(&real(file)).expect("reads"),
        corners: BoardCorners(corners),
        cells: by_cell(&Board::default(), Orientation::WhiteLeft),
    }
}

fn clip_frames() -> (Known, Known) {
    let mut video = VideoReader::open(&real("opening_clip.avi")).expect("opens");
    let mut frames = Vec::new();
    while let Some(frame) = video.next_frame().expect("decodes") {
        frames.push(frame);
    }
    let corners = BoardCorners([[139.0, 8.0], [506.0, 8.0], [506.0, 376.0], [139.0, 376.0]]);
    let mut game = Chess::default();
    for san in ["e4", "e5", "Qh5", "Nc6"] {
        let m = san
            .parse::<San>()
            .expect("san")
            .to_move(&game)
            .expect("legal");
        game.play_unchecked(m);
    }
    let last = frames.pop().expect("frames");
    let first = frames.swap_remove(0);
    (
        Known {
            name: "opening_clip frame 0".into(),
            image: first,
            corners,
            cells: by_cell(&Board::default(), Orientation::WhiteRight),
        },
        Known {
            name: "opening_clip last frame".into(),
            image: last,
            corners,
            cells: by_cell(game.board(), Orientation::WhiteRight),
        },
    )
}

#[test]
fn adapting_to_the_venue_reads_real_footage_at_least_as_well_as_the_colour_baseline() {
    let mut detector = Detector::load().expect("the detector loads");
    let photos = [
        "chessBoard005.jpg",
        "chessBoard006.jpg",
        "chessBoard007.jpg",
    ]
    .map(photograph);
    let mut pairs: Vec<(&Known, &Known)> = Vec::new();
    for a in &photos {
        for b in &photos {
            if a.name != b.name {
                pairs.push((a, b));
            }
        }
    }
    let (first, last) = clip_frames();
    pairs.push((&first, &last));
    let mut totals = [0usize; 3];
    println!("squares read wrong (of 64): colour baseline, detector, detector + venue");
    for (start, target) in pairs {
        let e = errors(&mut detector, start, target);
        println!(
            "{} -> {}: {} {} {}",
            start.name, target.name, e[0], e[1], e[2]
        );
        for (t, v) in totals.iter_mut().zip(e) {
            *t += v;
        }
    }
    println!("total: {} {} {}", totals[0], totals[1], totals[2]);
    assert!(
        totals[2] <= totals[0],
        "the adapted detector reads worse than the colour baseline: {totals:?}"
    );
}

/// The real game's stills in order (`bgu_game2`), each with its position.
fn game_stills() -> Vec<Known> {
    let dir = real("bgu_game2");
    let labels = std::fs::read_to_string(dir.join("labels.csv")).expect("labels.csv");
    labels
        .lines()
        .skip(1)
        .map(|line| {
            let mut fields = line.split(',');
            let frame: usize = fields
                .next()
                .and_then(|f| f.parse().ok())
                .expect("from_frame");
            let fen = fields.nth(1).expect("fen");
            let board: Board = fen.parse().expect("a placement");
            let name = format!("frame_{frame:06}.jpg");
            let image = read_image(&dir.join("frames").join(&name)).expect("reads");
            let (w, h) = (image.cols() as f32, image.rows() as f32);
            Known {
                name,
                image,
                corners: BoardCorners([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]),
                cells: by_cell(&board, Orientation::WhiteBottom),
            }
        })
        .collect()
}

#[test]
fn learning_from_each_position_read_reads_the_rest_of_a_real_game_better() {
    let mut detector = Detector::load().expect("the detector loads");
    let stills = game_stills();
    let detections: Vec<_> = stills
        .iter()
        .map(|s| detector.detect(&s.image, &s.corners).expect("detects"))
        .collect();
    // What the game has taught: the squares no hand covers, as they are.
    let known = |k: usize| -> [Option<Occupant>; 64] {
        std::array::from_fn(|cell| {
            (detections[k].cells[cell].hand < HAND_THRESHOLD).then_some(stills[k].cells[cell])
        })
    };
    let start = VenueModel::calibrate(&detections[0], &known(0)).expect("features");
    let mut learning = start.clone();
    let occupants = |d: &Detection| -> [Occupant; 64] {
        std::array::from_fn(|cell| d.cells[cell].occupant().0)
    };
    let mut totals = [0usize; 3];
    for k in 1..stills.len() {
        let truth = &stills[k].cells;
        let e = [
            wrong(&occupants(&detections[k]), truth),
            wrong(&occupants(&start.adapt(&detections[k])), truth),
            wrong(&occupants(&learning.adapt(&detections[k])), truth),
        ];
        for (t, v) in totals.iter_mut().zip(e) {
            *t += v;
        }
        learning.learn(&detections[k], &known(k));
    }
    let squares = 64 * (stills.len() - 1);
    let share = |n: usize| 100.0 * n as f64 / squares as f64;
    println!(
        "bgu_game2, each still read before it is learnt ({squares} squares): \
         detector {} ({:.2}%), venue from the start {} ({:.2}%), venue learning {} ({:.2}%)",
        totals[0],
        share(totals[0]),
        totals[1],
        share(totals[1]),
        totals[2],
        share(totals[2])
    );
    assert!(
        totals[2] < totals[1],
        "learning from the positions read gains nothing: {totals:?}"
    );
}
