//! `referee detect` (contracts.md §4) on a real photograph of the starting
//! position and on a rendered frame: the board found with no help, every
//! square read, White's edge told from the pieces; read again adapted to
//! the set on another photograph of the same board (`--venue`); and the
//! errors a user meets (a file that is no picture, corners that make no
//! board, a venue position that is no FEN).

mod common;

use std::path::PathBuf;

use common::{referee, referee_ok, render};

fn real(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/real")
        .join(file)
}

fn json(output: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("detect prints JSON")
}

#[test]
fn a_real_starting_position_is_found_and_read() {
    // chessBoard006.jpg: labelled corners (250,108) (960,135) (947,819)
    // (242,828), the starting position with White on the left.
    let photo = real("chessBoard006.jpg");
    let run = referee_ok(&["detect", photo.to_str().expect("utf-8"), "--json"]);
    let report = json(&run);
    assert_eq!(report["corners_found"], true);
    let labelled = [
        [250.0, 108.0],
        [960.0, 135.0],
        [947.0, 819.0],
        [242.0, 828.0],
    ];
    for (k, want) in labelled.iter().enumerate() {
        let got = &report["corners"][k];
        let (x, y) = (got[0].as_f64().expect("x"), got[1].as_f64().expect("y"));
        let error = (x - want[0]).hypot(y - want[1]);
        assert!(
            error < 0.02 * 700.0,
            "corner {k}: ({x:.0},{y:.0}) not near {want:?}"
        );
    }
    let squares = report["squares"].as_array().expect("squares");
    assert_eq!(squares.len(), 64);
    assert_eq!(report["white_side"], "left");
    // Occupants by rank: White's two, four empty, Black's two. Real pieces
    // are not rendered ones: the model card counts what it misses on the
    // real photographs; here most squares must be right.
    let right = squares
        .iter()
        .filter(|s| {
            let rank = s["square"].as_str().expect("name").as_bytes()[1];
            let want = match rank {
                b'1' | b'2' => "white",
                b'7' | b'8' => "black",
                _ => "empty",
            };
            s["occupant"] == want
        })
        .count();
    assert!(right >= 60, "{right} of 64 right: {report}");
    // The same picture for people: a diagram from White's side.
    let run = referee_ok(&["detect", photo.to_str().expect("utf-8")]);
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(text.contains("White sits at the left"), "{text}");
    assert!(text.contains("  a b c d e f g h"), "{text}");
}

#[test]
fn a_rendered_frame_is_read_at_given_corners() {
    let (out, truth) = render("touch_move_nc6", "detect");
    let corners: Vec<String> = truth["frames"][0]["corners"]
        .as_array()
        .expect("corners")
        .iter()
        .flat_map(|p| p.as_array().expect("point").clone())
        .map(|v| format!("{:.2}", v.as_f64().expect("number")))
        .collect();
    let video = out.join("video.avi");
    let run = referee_ok(&[
        "detect",
        video.to_str().expect("utf-8"),
        "--json",
        "--corners",
        &corners.join(","),
    ]);
    let report = json(&run);
    assert_eq!(report["corners_found"], false);
    assert_eq!(report["white_side"], truth["frames"][0]["white_side"]);
    let unknown = report["squares"]
        .as_array()
        .expect("squares")
        .iter()
        .filter(|s| s["occupant"] == "unknown")
        .count();
    assert_eq!(unknown, 0, "{report}");
    assert_eq!(
        report["placement"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "{report}"
    );
}

/// Squares of a starting position with White on the left read otherwise.
fn wrong_on_the_start(report: &serde_json::Value) -> usize {
    let squares = report["squares"].as_array().expect("squares");
    squares
        .iter()
        .filter(|s| {
            let want = match s["square"].as_str().expect("name").as_bytes()[1] {
                b'1' | b'2' => "white",
                b'7' | b'8' => "black",
                _ => "empty",
            };
            s["occupant"] != want
        })
        .count()
}

#[test]
fn a_photograph_of_the_same_board_adapts_the_reading_to_its_set() {
    // chessBoard005 and 006: one wooden board, both the starting position.
    let (venue, photo) = (real("chessBoard005.jpg"), real("chessBoard006.jpg"));
    let alone = json(&referee_ok(&[
        "detect",
        photo.to_str().expect("utf-8"),
        "--json",
    ]));
    let adapted = json(&referee_ok(&[
        "detect",
        photo.to_str().expect("utf-8"),
        "--json",
        "--venue",
        venue.to_str().expect("utf-8"),
        "--venue-fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]));
    assert_eq!(adapted["white_side"], "left");
    let (alone, adapted) = (wrong_on_the_start(&alone), wrong_on_the_start(&adapted));
    assert!(
        adapted <= alone,
        "adapted to the venue {adapted} squares wrong, alone {alone}"
    );
}

#[test]
fn bad_input_is_refused_with_what_is_wrong() {
    let not_a_picture = real("labels.json");
    let run = referee(&["detect", not_a_picture.to_str().expect("utf-8")]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("labels.json"), "{stderr}");

    let photo = real("chessBoard006.jpg");
    let run = referee(&[
        "detect",
        photo.to_str().expect("utf-8"),
        "--corners",
        "0,0,10,0,10,10",
    ]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("expected 8 numbers"), "{stderr}");

    let run = referee(&[
        "detect",
        photo.to_str().expect("utf-8"),
        "--venue",
        photo.to_str().expect("utf-8"),
        "--venue-fen",
        "rnbqkbnr/ppp",
    ]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("not a FEN placement"), "{stderr}");
}

#[test]
fn an_empty_library_variable_is_taken_as_unset() {
    // `ORT_DYLIB_PATH= referee …` is how a shell unsets it for one command:
    // the library is then found where scripts/setup put it.
    let photo = real("chessBoard006.jpg");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["detect", photo.to_str().expect("utf-8"), "--json"])
        .env("ORT_DYLIB_PATH", "")
        .output()
        .expect("detect runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}
