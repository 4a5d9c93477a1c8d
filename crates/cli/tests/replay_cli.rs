//! `referee replay` on rendered games: the whole chain (OpenCV decode and
//! warp, the colour baseline, the tracker, the rules engine) reads back the
//! moves of a scenario from its video, with the corners of its truth; and
//! the real opening filmed from above in `../shared/data/real`.

mod common;

use common::{referee, referee_ok, render};

fn corners(truth: &serde_json::Value) -> String {
    let corners: Vec<f64> = truth["frames"][0]["corners"]
        .as_array()
        .expect("corners")
        .iter()
        .flat_map(|p| {
            p.as_array()
                .expect("point")
                .iter()
                .map(|v| v.as_f64().expect("number"))
        })
        .collect();
    corners
        .iter()
        .map(|v| format!("{v:.2}"))
        .collect::<Vec<_>>()
        .join(",")
}

fn sans(value: &serde_json::Value) -> Vec<String> {
    value["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["san"].as_str().expect("san").to_string())
        .collect()
}

/// The verdict `referee replay --json` gives `video` with the corners of
/// its `truth`, and `more` arguments.
fn replay_json(
    video: &std::path::Path,
    truth: &serde_json::Value,
    more: &[&str],
) -> serde_json::Value {
    let corners = corners(truth);
    let mut args = vec![
        "replay",
        video.to_str().expect("utf-8"),
        "--json",
        "--corners",
        &corners,
    ];
    args.extend(more);
    serde_json::from_slice(&referee_ok(&args).stdout).expect("JSON")
}

/// Writes the truth's `declare` events (announcements no camera sees) as an
/// app or a button would give them to `referee replay --events`.
fn declares_of(out: &std::path::Path, truth: &serde_json::Value) -> std::path::PathBuf {
    let declares = out.join("declares.jsonl");
    let lines: String = truth["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["type"] == "declare")
        .map(|e| format!("{e}\n"))
        .collect();
    std::fs::write(&declares, lines).expect("declares written");
    declares
}

/// An incident as the scenario suite compares them: kind, article, ply, side.
fn incident_keys(value: &serde_json::Value) -> Vec<String> {
    let mut keys: Vec<String> = value["incidents"]
        .as_array()
        .expect("incidents")
        .iter()
        .map(|i| {
            format!(
                "{} {} ply {} {}",
                i["kind"], i["article"], i["ply"], i["side"]
            )
        })
        .collect();
    keys.sort();
    keys
}

/// The scenario's starting FEN, when it gives one (`start fen …`).
fn start_fen(name: &str) -> Option<String> {
    std::fs::read_to_string(common::scenario(name))
        .expect("scenario")
        .lines()
        .find_map(|line| line.strip_prefix("start fen ").map(str::to_string))
}

#[test]
fn replays_every_short_scenario_into_its_moves_and_incidents() {
    // Every scenario of tests/data/scenarios but the five long public games
    // (scripts/measure_replay.py replays those too). The announced
    // adjustments, which no camera sees, come as an app would give them.
    for name in [
        "all_commands",
        "camera_bump",
        "castling_rook_first",
        "illegal_move",
        "move_unseen_by_the_colours",
        "opponent_touch",
        "promotion_changed",
        "release_final",
        "touch_move_nc6",
        "two_hands",
    ] {
        let (out, truth) = render(name, "replay");
        let declares = declares_of(&out, &truth);
        let evidence = out.join("evidence");
        let mut more = vec![
            "--events",
            declares.to_str().expect("utf-8"),
            "--evidence",
            evidence.to_str().expect("utf-8"),
        ];
        let fen = start_fen(name);
        if let Some(fen) = &fen {
            more.extend(["--fen", fen]);
        }
        let verdict = replay_json(&out.join("video.avi"), &truth, &more);
        assert_eq!(sans(&verdict), sans(&truth), "{name}: moves");
        assert_eq!(
            incident_keys(&verdict),
            incident_keys(&truth),
            "{name}: incidents"
        );
        let stats = &verdict["stats"];
        assert!(stats["frames"].as_u64().expect("frames") > 50, "{name}");
        for stage in ["decode", "locate", "detect", "track", "rules"] {
            assert!(
                stats["stage_ms"][stage].as_f64().is_some(),
                "{name}: no {stage} time"
            );
        }
        assert!(!verdict["events"].as_array().expect("events").is_empty());
        for incident in verdict["incidents"].as_array().expect("incidents") {
            clip_shows_the_touch(name, incident, &truth);
        }
        let _ = std::fs::remove_dir_all(out);
    }
}

/// The clip `referee replay --evidence` cut for `incident`: whole frames
/// in time order, at most 8 s, and its first touch marked on a frame
/// within 0.1 s of the truth's moment of that touch.
fn clip_shows_the_touch(name: &str, incident: &serde_json::Value, truth: &serde_json::Value) {
    let id = &incident["id"];
    let manifest = std::path::PathBuf::from(incident["clip"].as_str().expect("a clip"));
    let clip: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest).expect("manifest")).expect("JSON");
    let frames = clip["frames"].as_array().expect("frames");
    let times: Vec<f64> = frames.iter().map(|f| f["t"].as_f64().expect("t")).collect();
    assert!(times.len() >= 5, "{name} {id}: {times:?}");
    assert!(
        times.windows(2).all(|w| w[0] < w[1]),
        "{name} {id}: {times:?}"
    );
    assert!(
        times[times.len() - 1] - times[0] <= 8.0,
        "{name} {id}: {times:?}"
    );
    let folder = manifest.parent().expect("folder");
    for frame in frames {
        let jpeg =
            std::fs::read(folder.join(frame["file"].as_str().expect("file"))).expect("frame");
        assert!(jpeg.starts_with(&[0xff, 0xd8]), "{name} {id}: not a JPEG");
    }
    let Some(first) = clip["touches"].as_array().expect("touches").first() else {
        return;
    };
    let square = first["square"].as_str().expect("square");
    let shown = times[first["frame"].as_u64().expect("frame") as usize];
    let touched: Vec<f64> = truth["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["square"] == square)
        .filter(|e| {
            ["touch", "lift", "adjust", "capture"].contains(&e["type"].as_str().unwrap_or(""))
        })
        .map(|e| e["t"].as_f64().expect("t"))
        .collect();
    let off = touched
        .iter()
        .map(|t| (t - shown).abs())
        .fold(f64::INFINITY, f64::min);
    assert!(
        off <= 0.1,
        "{name} {id}: the touch of {square} shown at {shown} s, the truth's at {touched:?}"
    );
}

#[test]
fn a_board_the_record_no_longer_explains_is_raised_as_a_gap_in_the_record() {
    // Five of Black's pawns taken off after 1. e4: no legal moves explain
    // the board. The record keeps 1. e4 and says it has a gap; no move is
    // made up to explain the board.
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/unexplained/pawns_swept_off.scn");
    let (out, truth) = common::render_file(&path, "record-gap");
    let video = out.join("video.avi");
    let verdict = replay_json(&video, &truth, &[]);
    assert_eq!(sans(&verdict), ["e4"]);
    let incidents = verdict["incidents"].as_array().expect("incidents");
    assert_eq!(incidents.len(), 1, "{incidents:?}");
    let gap = &incidents[0];
    assert_eq!(gap["kind"], "record_gap");
    assert_eq!(gap["article"], "8.1");
    assert_eq!(
        (gap["ply"].as_u64(), gap["side"].as_str()),
        (Some(2), Some("black"))
    );
    assert_eq!(gap["claimable"], false, "no player's claim");
    let squares: Vec<&str> = gap["squares"]
        .as_array()
        .expect("squares")
        .iter()
        .filter_map(|s| s.as_str())
        .collect();
    assert_eq!(squares, ["a7", "b7", "c7", "g7", "h7"]);
    assert!(verdict["pgn"].as_str().expect("pgn").contains("record_gap"));
    let _ = std::fs::remove_dir_all(out);
}

/// The real opening clip in `../shared/data/real`.
fn opening_clip() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/real/opening_clip.avi")
}

/// The grips of the real opening: each moved piece touched by its own
/// side's hand.
const OPENING_GRIPS: [(&str, &str); 4] = [
    ("e2", "white"),
    ("e7", "black"),
    ("d1", "white"),
    ("b8", "black"),
];

/// The real opening as `referee replay` must read it, however it was
/// framed: its four moves at their times, no incident, the hands told
/// real, the grips of `required` (of [`OPENING_GRIPS`]) found, each touch
/// one of those grips, by its own side's hand, before the piece is lifted.
fn assert_reads_the_real_opening(verdict: &serde_json::Value, required: &[&str]) {
    assert_eq!(sans(verdict), ["e4", "e5", "Qh5", "Nc6"]);
    assert_eq!(verdict["stats"]["white_side"], "right");
    assert!(
        verdict["incidents"]
            .as_array()
            .expect("incidents")
            .is_empty(),
        "{}",
        verdict["incidents"]
    );
    assert_eq!(verdict["stats"]["hands"], "real");
    let events = verdict["events"].as_array().expect("events");
    let touches: Vec<(&str, &str)> = events
        .iter()
        .filter(|e| e["type"] == "touch")
        .map(|e| {
            (
                e["square"].as_str().expect("a square"),
                e["side"].as_str().unwrap_or("?"),
            )
        })
        .collect();
    let grips: Vec<(&str, &str)> = OPENING_GRIPS
        .into_iter()
        .filter(|grip| touches.contains(grip))
        .collect();
    assert_eq!(touches, grips, "only the grips, in order, by their side");
    for square in required {
        assert!(
            touches.iter().any(|(s, _)| s == square),
            "{square} gripped: {touches:?}"
        );
    }
    for (square, _) in touches {
        let at = |kind: &str| {
            events
                .iter()
                .position(|e| e["type"] == kind && e["square"] == square)
                .unwrap_or_else(|| panic!("no {kind} of {square}: {events:?}"))
        };
        assert!(
            at("touch") < at("lift"),
            "{square} touched before it is lifted"
        );
    }
    // Each event carries the time it happened, to the millisecond: the
    // moves are made one by one between frames 30 and 106 (1.5 s to 5.3 s),
    // though all four are read once the board is still at the end.
    let times: Vec<f64> = verdict["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["t"].as_f64().expect("a time"))
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] + 0.3 < w[1]),
        "each move at its own time: {times:?}"
    );
    assert!(
        times.iter().all(|t| (1.5..=5.35).contains(t)),
        "the moves within the frames they were made on: {times:?}"
    );
    for event in events {
        let t = event["t"].as_f64().expect("a time");
        assert_eq!(t, (t * 1000.0).round() / 1000.0, "{event}");
    }
}

#[test]
fn reads_the_real_opening_filmed_with_a_webcam() {
    // Labels in ../shared/data/real/labels.json: corners read off the image
    // by eye, White on the right, the first four moves of a real game.
    let clip = opening_clip();
    let run = referee_ok(&[
        "replay",
        clip.to_str().expect("utf-8"),
        "--json",
        "--corners",
        "139,8,506,8,506,376,139,376",
    ]);
    let verdict: serde_json::Value = serde_json::from_slice(&run.stdout).expect("JSON");
    assert_reads_the_real_opening(&verdict, &["e2", "e7", "d1", "b8"]);
}

/// The real opening clip with a border of `border` pixels of a grey-brown
/// table round every frame: a camera that sees more than the board, whose
/// picture is not cropped to it, so that its hands are told real from how
/// the models follow them, not from the framing.
fn opening_clip_framed(border: i32) -> std::path::PathBuf {
    use opencv::core::{BORDER_CONSTANT, Mat, Scalar};
    use opencv::prelude::*;
    use opencv::videoio::{CAP_FFMPEG, CAP_PROP_FPS, VideoCapture, VideoWriter};
    let dir = common::scratch("framed_clip");
    std::fs::create_dir_all(&dir).expect("scratch");
    let path = dir.join("framed.avi");
    let mut clip =
        VideoCapture::from_file(opening_clip().to_str().expect("utf-8"), CAP_FFMPEG).expect("clip");
    let fps = clip.get(CAP_PROP_FPS).expect("fps");
    let mut writer: Option<VideoWriter> = None;
    let mut frame = Mat::default();
    while clip.read(&mut frame).expect("reads") && !frame.empty() {
        let mut framed = Mat::default();
        opencv::core::copy_make_border(
            &frame,
            &mut framed,
            border,
            border,
            border,
            border,
            BORDER_CONSTANT,
            Scalar::new(96.0, 104.0, 112.0, 0.0),
        )
        .expect("borders");
        let writer = writer.get_or_insert_with(|| {
            let fourcc = VideoWriter::fourcc('M', 'J', 'P', 'G').expect("fourcc");
            VideoWriter::new(
                path.to_str().expect("utf-8"),
                fourcc,
                fps,
                framed.size().expect("size"),
                true,
            )
            .expect("writer")
        });
        writer.write(&framed).expect("writes");
    }
    writer.expect("frames").release().expect("closes");
    path
}

#[test]
fn reads_the_real_opening_through_a_camera_that_sees_the_table_too() {
    let video = opening_clip_framed(40);
    let run = referee_ok(&["replay", video.to_str().expect("utf-8"), "--json"]);
    let verdict: serde_json::Value = serde_json::from_slice(&run.stdout).expect("JSON");
    // Black's grip of b8, its hand coming in over the picture's edge, is
    // found in some framings and not others (`scripts/measure_real_clip`:
    // 3/4 with this border in Python's encoding of it); the others are
    // asked for.
    assert_reads_the_real_opening(&verdict, &["e2", "e7", "d1"]);
    let _ = std::fs::remove_file(video);
}

#[test]
fn a_damaged_video_is_read_past_and_the_loss_counted() {
    let (out, truth) = render("touch_move_nc6", "damaged");
    let video = out.join("video.avi");
    let mut bytes = std::fs::read(&video).expect("video");
    let middle = bytes.len() / 2;
    bytes[middle..middle + 20_000].fill(0);
    let damaged = out.join("damaged.avi");
    std::fs::write(&damaged, bytes).expect("write");
    let verdict = replay_json(&damaged, &truth, &[]);
    assert_eq!(
        sans(&verdict),
        sans(&truth),
        "the moves survive a damaged stretch"
    );
    let stats = &verdict["stats"];
    let (read, missing, expected) = (
        stats["frames"].as_u64().expect("frames"),
        stats["frames_missing"].as_u64().expect("missing"),
        stats["frames_expected"].as_u64().expect("expected"),
    );
    assert_eq!(read + missing, expected);
    assert!(read > expected / 2, "{read} of {expected} frames read");
    // Read by people, the loss is told too.
    let run = referee_ok(&[
        "replay",
        damaged.to_str().expect("utf-8"),
        "--corners",
        &corners(&truth),
    ]);
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        text.contains(&format!(
            "Frames: {missing} of the {expected} the video announces could not be decoded"
        )),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn a_replay_without_its_models_says_what_it_cannot_see() {
    let (out, truth) = render("touch_move_nc6", "no-models");
    let video = out.join("video.avi");
    let replay = |json: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_referee"));
        command
            .args([
                "replay",
                video.to_str().expect("utf-8"),
                "--corners",
                &corners(&truth),
            ])
            .env("ORT_DYLIB_PATH", "/nonexistent/libonnxruntime.so.1");
        if json {
            command.arg("--json");
        }
        let run = command.output().expect("replay runs");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        String::from_utf8(run.stdout).expect("utf-8")
    };
    let text = replay(false);
    assert!(
        text.contains("Not seen: no detector: no touch can be seen on rendered footage"),
        "{text}"
    );
    let verdict: serde_json::Value = serde_json::from_str(&replay(true)).expect("JSON");
    let missing: Vec<&str> = verdict["stats"]["missing_models"]
        .as_array()
        .expect("the models it ran without")
        .iter()
        .map(|m| m["model"].as_str().expect("a model"))
        .collect();
    assert_eq!(missing, ["real-hand models", "detector"]);
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn missing_corners_or_video_are_clear_errors() {
    let run = referee(&[
        "replay",
        "/nonexistent/game.avi",
        "--corners",
        "10,10,300,10,300,300,10,300",
    ]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("/nonexistent/game.avi") && err.lines().count() == 1,
        "{err}"
    );
    // No corners given and no board in the picture: said, with the file.
    let blank = no_board_video();
    let run = referee(&["replay", blank.to_str().expect("utf-8")]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("no chessboard found") && err.contains("blank.avi"),
        "{err}"
    );
    let run = referee(&["replay", "x.avi", "--corners", "1,2,3"]);
    assert!(String::from_utf8_lossy(&run.stderr).contains("expected 8 numbers"));
}

/// A short video of a plain grey picture.
fn no_board_video() -> std::path::PathBuf {
    use opencv::core::{CV_8UC3, Mat, Scalar, Size};
    use opencv::prelude::*;
    use opencv::videoio::VideoWriter;
    let dir = common::scratch("blank");
    std::fs::create_dir_all(&dir).expect("scratch");
    let path = dir.join("blank.avi");
    let fourcc = VideoWriter::fourcc('M', 'J', 'P', 'G').expect("fourcc");
    let mut writer = VideoWriter::new(
        path.to_str().expect("utf-8"),
        fourcc,
        10.0,
        Size::new(320, 240),
        true,
    )
    .expect("writer");
    let grey =
        Mat::new_rows_cols_with_default(240, 320, CV_8UC3, Scalar::all(128.0)).expect("grey");
    for _ in 0..5 {
        writer.write(&grey).expect("writes");
    }
    writer.release().expect("closes");
    path
}

#[test]
fn the_board_is_found_when_no_corners_are_given() {
    let (out, truth) = render("touch_move_nc6", "found");
    let video = out.join("video.avi");
    let run = referee_ok(&["replay", video.to_str().expect("utf-8"), "--json"]);
    let verdict: serde_json::Value = serde_json::from_slice(&run.stdout).expect("json");
    assert_eq!(sans(&verdict), sans(&truth), "{verdict}");
    let found = &verdict["stats"]["corners"];
    let want = &truth["frames"][0]["corners"];
    for k in 0..4 {
        for axis in 0..2 {
            let (a, b) = (
                found[k][axis].as_f64().expect("found"),
                want[k][axis].as_f64().expect("truth"),
            );
            assert!((a - b).abs() < 4.0, "corner {k}: {found} not {want}");
        }
    }
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn a_touch_on_the_opponent_s_turn_is_seen_with_the_clock_and_the_hand_s_side() {
    // White touches g1 after pressing the clock on d4 (Black to move), then
    // Black announces an adjustment and adjusts g8. The clock press and the
    // side of White's hand come from the video; the announcement, which no
    // camera sees, from outside (`--events`, as an app or a button gives it).
    let (out, truth) = render("opponent_touch", "outside");
    let video = out.join("video.avi");
    let declares = declares_of(&out, &truth);
    let verdict = replay_json(
        &video,
        &truth,
        &["--events", declares.to_str().expect("utf-8")],
    );
    assert_eq!(sans(&verdict), ["d4", "d5"]);
    let events = verdict["events"].as_array().expect("events");
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "clock").count(),
        2,
        "{kinds:?}"
    );
    assert!(kinds.contains(&"declare"), "{kinds:?}");
    let incidents: Vec<(String, String, u64)> = verdict["incidents"]
        .as_array()
        .expect("incidents")
        .iter()
        .map(|i| {
            (
                i["kind"].as_str().expect("kind").to_string(),
                i["side"].as_str().expect("side").to_string(),
                i["ply"].as_u64().expect("ply"),
            )
        })
        .collect();
    assert_eq!(
        incidents,
        [("touch_on_opponent_turn".to_string(), "white".to_string(), 2)]
    );
    // A log that is not one is refused, naming the file and the line.
    let bad = out.join("bad.jsonl");
    std::fs::write(&bad, "{\"t\": 1.0, \"type\": \"jump\"}\n").expect("write");
    let run = referee(&[
        "replay",
        video.to_str().expect("utf-8"),
        "--events",
        bad.to_str().expect("utf-8"),
    ]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("bad.jsonl") && stderr.contains("line 1"),
        "{stderr}"
    );
}
