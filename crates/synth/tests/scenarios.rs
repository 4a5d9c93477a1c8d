//! The scenario library: every `tests/data/scenarios/NAME.scn` parses,
//! plays out and renders, and its truth has the moves and incidents of
//! `NAME.expected.json` (kind, article, ply, side), written by hand.

use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Debug, Deserialize)]
struct Expected {
    moves: Vec<String>,
    incidents: Vec<ExpectedIncident>,
}

#[derive(Debug, Deserialize, PartialEq)]
struct ExpectedIncident {
    kind: String,
    article: String,
    ply: u32,
    side: String,
}

fn library() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("scenario library")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "scn"))
        .collect();
    files.sort();
    files
}

fn check(path: &Path) -> Result<(), String> {
    let name = path
        .file_stem()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let expected: Expected = serde_json::from_str(
        &std::fs::read_to_string(path.with_extension("expected.json"))
            .map_err(|e| format!("{name}.expected.json: {e}"))?,
    )
    .map_err(|e| format!("{name}.expected.json: {e}"))?;
    let out = std::env::temp_dir().join(format!("referee-scenario-{}-{name}", std::process::id()));
    let rendered = referee_synth::render_file(path, &out).map_err(|e| e.to_string())?;
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rendered.truth).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&out);
    let moves: Vec<&str> = truth["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["san"].as_str().expect("san"))
        .collect();
    if moves != expected.moves {
        return Err(format!(
            "{name}: moves {moves:?}, expected {:?}",
            expected.moves
        ));
    }
    let incidents: Vec<ExpectedIncident> = truth["incidents"]
        .as_array()
        .expect("incidents")
        .iter()
        .map(|i| ExpectedIncident {
            kind: i["kind"].as_str().expect("kind").into(),
            article: i["article"].as_str().expect("article").into(),
            ply: i["ply"].as_u64().expect("ply") as u32,
            side: i["side"].as_str().expect("side").into(),
        })
        .collect();
    if incidents != expected.incidents {
        return Err(format!(
            "{name}: incidents {incidents:#?}\nexpected {:#?}",
            expected.incidents
        ));
    }
    if rendered.frames < 20 {
        return Err(format!("{name}: only {} frames", rendered.frames));
    }
    Ok(())
}

#[test]
fn every_scenario_renders_with_its_expected_moves_and_incidents() {
    let files = library();
    assert!(files.len() >= 8, "{} scenarios", files.len());
    // Each scenario renders on a thread of its own: the full games are long.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = files.iter().map(|f| scope.spawn(|| check(f))).collect();
        runs.into_iter()
            .filter_map(|run| run.join().expect("scenario thread").err())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_library_covers_every_incident_kind_and_command() {
    let mut kinds = std::collections::BTreeSet::new();
    let mut commands = std::collections::BTreeSet::new();
    for file in library() {
        let expected: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(file.with_extension("expected.json")).expect("expected"),
        )
        .expect("json");
        for incident in expected["incidents"].as_array().expect("incidents") {
            kinds.insert(incident["kind"].as_str().expect("kind").to_string());
        }
        for line in std::fs::read_to_string(&file).expect("scenario").lines() {
            let content = line.split('#').next().unwrap_or_default();
            let mut words = content.split_whitespace();
            if let Some(word) = words.next() {
                commands.insert(word.to_string());
                if word == "by" {
                    commands.extend(words.nth(1).map(str::to_string));
                }
            }
        }
    }
    for kind in [
        "touch_move",
        "release_final",
        "promotion_changed",
        "two_hands",
        "adjust_undeclared",
        "touch_on_opponent_turn",
        "illegal_move",
    ] {
        assert!(kinds.contains(kind), "no scenario gives {kind}");
    }
    for command in [
        "start",
        "tag",
        "camera",
        "move",
        "clock",
        "touch",
        "hover",
        "adjust",
        "declare",
        "lift",
        "release",
        "capture",
        "add",
        "wait",
        "by",
        "two-hands",
    ] {
        assert!(commands.contains(command), "no scenario uses {command}");
    }
}

#[test]
fn the_public_games_are_long_and_hold_every_special_move() {
    use shakmaty::{Chess, Move, Position, san::San};
    let games: Vec<PathBuf> = library()
        .into_iter()
        .filter(|f| {
            f.file_stem()
                .is_some_and(|s| s.to_string_lossy().starts_with("game_"))
        })
        .collect();
    assert!(games.len() >= 5, "{} full games", games.len());
    let mut seen = std::collections::BTreeSet::new();
    for file in games {
        let expected: Expected = serde_json::from_str(
            &std::fs::read_to_string(file.with_extension("expected.json")).expect("expected"),
        )
        .expect("json");
        assert!(
            expected.moves.len() >= 60,
            "{file:?}: {} plies",
            expected.moves.len()
        );
        let mut position = Chess::default();
        for san in &expected.moves {
            let played = san
                .parse::<San>()
                .expect("san")
                .to_move(&position)
                .unwrap_or_else(|e| panic!("{file:?}: {san}: {e}"));
            seen.insert(match &played {
                Move::EnPassant { .. } => "en passant",
                Move::Castle { king, rook } if rook.file() > king.file() => "castling kingside",
                Move::Castle { .. } => "castling queenside",
                Move::Normal {
                    promotion: Some(_), ..
                } => "promotion",
                _ => "other",
            });
            position.play_unchecked(played);
        }
    }
    for special in [
        "en passant",
        "castling kingside",
        "castling queenside",
        "promotion",
    ] {
        assert!(seen.contains(special), "no public game has {special}");
    }
}
