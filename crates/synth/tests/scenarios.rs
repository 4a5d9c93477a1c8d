//! Every bundled scenario of `tests/data/scenarios` parses and plays out,
//! with the incidents its comments promise.

use std::path::PathBuf;

use referee_synth::{Scenario, choreograph};

fn play(name: &str) -> referee_synth::Choreography {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/scenarios")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let scenario = Scenario::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    choreograph(&scenario).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn incidents(played: &referee_synth::Choreography) -> Vec<(&'static str, &'static str, u32)> {
    played
        .verdict
        .incidents
        .iter()
        .map(|i| (i.kind.name(), i.article, i.ply))
        .collect()
}

#[test]
fn touch_move_nc6() {
    let played = play("touch_move_nc6.scn");
    assert_eq!(played.moves().len(), 2);
    assert_eq!(incidents(&played), [("touch_move", "4.3a", 2)]);
    assert!(played.verdict.pgn.contains("[White \"Smith\"]"));
}

#[test]
fn castling_rook_first() {
    let played = play("castling_rook_first.scn");
    let sans: Vec<&str> = played.moves().iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O", "Bc5"]);
    assert_eq!(
        incidents(&played),
        [
            ("touch_move", "4.4b", 7),
            ("adjust_undeclared", "4.2", 8),
            ("touch_move", "4.3a", 8)
        ]
    );
}
