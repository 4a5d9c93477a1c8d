//! The data-driven suite: every `tests/data/arbitrate/NAME.jsonl` is
//! refereed and compared with `NAME.expected.json` (written by hand in
//! `make_cases.py` there): moves in SAN, incidents by kind, article, ply,
//! side and squares (and the claim window where given), result, ending.

use std::path::{Path, PathBuf};

use referee_rules::pgn::Tags;
use referee_rules::{Verdict, arbitrate_log};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
struct Expected {
    moves: Vec<String>,
    incidents: Vec<ExpectedIncident>,
    result: String,
    fen: Option<String>,
    termination: Option<String>,
    #[serde(default)]
    claims: Vec<String>,
    #[serde(default)]
    pgn_contains: Vec<String>,
}

#[derive(Debug, Deserialize, PartialEq)]
struct ExpectedIncident {
    kind: String,
    article: String,
    ply: u32,
    side: String,
    squares: Vec<String>,
    claimable: Option<bool>,
}

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/arbitrate")
}

fn load_cases() -> Vec<(String, PathBuf)> {
    let mut cases: Vec<(String, PathBuf)> = std::fs::read_dir(cases_dir())
        .expect("tests/data/arbitrate exists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .map(|path| {
            (
                path.file_stem()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned(),
                path,
            )
        })
        .collect();
    cases.sort();
    cases
}

fn check_case(name: &str, log: &Path) -> Result<(), String> {
    let read =
        |path: &Path| std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
    let expected: Expected = serde_json::from_str(&read(&log.with_extension("expected.json"))?)
        .map_err(|e| format!("{name}.expected.json: {e}"))?;
    let verdict = arbitrate_log(&read(log)?, expected.fen.as_deref(), Tags::default())
        .map_err(|e| e.to_string())?;
    compare(&expected, &verdict)
}

fn compare(expected: &Expected, verdict: &Verdict) -> Result<(), String> {
    let moves: Vec<&str> = verdict.moves.iter().map(|m| m.san.as_str()).collect();
    if moves != expected.moves {
        return Err(format!("moves {moves:?}, expected {:?}", expected.moves));
    }
    let incidents: Vec<ExpectedIncident> = verdict
        .incidents
        .iter()
        .zip(
            expected
                .incidents
                .iter()
                .map(|e| e.claimable)
                .chain(std::iter::repeat(None)),
        )
        .map(|(i, claimable)| ExpectedIncident {
            kind: i.kind.name().to_string(),
            article: i.article.to_string(),
            ply: i.ply,
            side: i.side.name().to_string(),
            squares: i.squares.clone(),
            claimable: claimable.map(|_| i.claimable),
        })
        .collect();
    if incidents != expected.incidents {
        return Err(format!(
            "incidents {incidents:#?}\nexpected {:#?}",
            expected.incidents
        ));
    }
    if verdict.result != expected.result || verdict.termination != expected.termination {
        return Err(format!(
            "result {} ({:?}), expected {} ({:?})",
            verdict.result, verdict.termination, expected.result, expected.termination
        ));
    }
    let mut claims: Vec<&str> = verdict.claims.iter().map(|c| c.kind).collect();
    claims.dedup();
    if claims != expected.claims {
        return Err(format!("claims {claims:?}, expected {:?}", expected.claims));
    }
    for needle in &expected.pgn_contains {
        if !verdict.pgn.contains(needle.as_str()) {
            return Err(format!("PGN lacks {needle:?}:\n{}", verdict.pgn));
        }
    }
    Ok(())
}

#[test]
fn every_case_gives_its_expected_verdict() {
    let cases = load_cases();
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(name, path)| check_case(name, path).err().map(|e| format!("{name}: {e}")))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
