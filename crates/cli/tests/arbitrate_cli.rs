//! `referee arbitrate` as a user runs it: the real binary on real files.

mod common;

use std::path::PathBuf;

use common::referee;

fn case(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/arbitrate")
        .join(format!("{name}.jsonl"))
        .display()
        .to_string()
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn json_verdict_has_the_contract_shape() {
    let out = referee(&["arbitrate", &case("43a_contract_example"), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    for key in [
        "moves",
        "incidents",
        "result",
        "fen",
        "pgn",
        "events",
        "stats",
    ] {
        assert!(verdict.get(key).is_some(), "no {key}");
    }
    assert_eq!(verdict["moves"][1]["san"], "Nc6");
    assert_eq!(verdict["moves"][1]["uci"], "b8c6");
    let incident = &verdict["incidents"][0];
    assert_eq!(incident["kind"], "touch_move");
    assert_eq!(incident["article"], "4.3a");
    assert_eq!(incident["ply"], 2);
    assert_eq!(incident["side"], "black");
    assert_eq!(incident["claimable"], true);
    assert_eq!(verdict["result"], "*");
    // The events refereed come back with the verdict, as replay's do.
    let lines = std::fs::read_to_string(case("43a_contract_example")).expect("the case");
    assert_eq!(
        verdict["events"].as_array().map(Vec::len),
        Some(lines.lines().count())
    );
}

#[test]
fn a_byte_order_mark_is_read_past_and_binary_refused_with_its_line() {
    let marked = temp_file(
        "marked.jsonl",
        "\u{feff}{\"t\":1.0,\"type\":\"lift\",\"square\":\"e2\"}\n{\"t\":1.5,\"type\":\"release\",\"square\":\"e4\"}\n",
    );
    let out = referee(&["arbitrate", marked.to_str().expect("utf-8")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1. e4"));
    let binary = temp_file("binary.jsonl", "");
    std::fs::write(
        &binary,
        b"{\"t\":1.0,\"type\":\"clock\"}\n\x00\xff\xfe\x01\n",
    )
    .expect("write");
    let out = referee(&["arbitrate", binary.to_str().expect("utf-8")]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("binary.jsonl: line 2, byte 2: not UTF-8 text"),
        "{said}"
    );
}

#[test]
fn people_read_moves_incidents_and_pgn() {
    let out = referee(&[
        "arbitrate",
        &case("43a_contract_example"),
        "--tag",
        "White=Smith",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1. e4 Nc6"), "{text}");
    assert!(
        text.contains(
            "touched Ng8 first, and it could move: Ng8 had to be moved; Nb8-c6 was played"
        ),
        "{text}"
    );
    assert!(text.contains("[White \"Smith\"]"), "{text}");
}

#[test]
fn a_start_position_is_taken_from_fen() {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let out = referee(&[
        "arbitrate",
        &case("44b_castling_begun_with_rook"),
        "--json",
        "--fen",
        fen,
    ]);
    assert!(out.status.success());
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(verdict["moves"][0]["san"], "O-O");
    assert_eq!(verdict["incidents"][0]["article"], "4.4b");
}

#[test]
fn bad_input_is_one_line_naming_file_line_and_field() {
    let cases = [
        (
            "bad_square.jsonl",
            "{\"t\":1,\"type\":\"touch\",\"square\":\"e2\"}\n{\"t\":2,\"type\":\"lift\",\"square\":\"z9\"}\n",
            "line 2: field `square`",
        ),
        ("not_json.jsonl", "{\"t\":1,\n", "line 1: not JSON"),
        (
            "empty_square.jsonl",
            "{\"t\":1,\"type\":\"lift\",\"square\":\"e4\"}\n",
            "line 1: lift e4: no piece stands on e4",
        ),
        (
            "time_back.jsonl",
            "{\"t\":2,\"type\":\"clock\"}\n{\"t\":1,\"type\":\"clock\"}\n",
            "line 2: field `t`",
        ),
    ];
    for (name, text, want) in cases {
        let path = temp_file(name, text);
        let out = referee(&["arbitrate", path.to_str().expect("utf-8")]);
        assert!(!out.status.success(), "{name} accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(name) && err.contains(want), "{name}: {err}");
    }
    let out = referee(&["arbitrate", "/nonexistent/events.jsonl"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/events.jsonl"));
    let out = referee(&[
        "arbitrate",
        &case("43a_contract_example"),
        "--fen",
        "not a fen",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("referee: --fen: "));
}
