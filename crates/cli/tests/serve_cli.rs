//! The service as people run it: `referee serve` as a process, fed by
//! `referee ingest`, read with `referee games|game`, decided with `referee
//! decide`; and killed with SIGKILL mid-game, restarted, resumed.

mod common;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{
    corners, free_port, json, referee, referee_ok, render, scratch, serve, serve_with_env,
};

fn sans(verdict: &serde_json::Value) -> Vec<String> {
    verdict["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["san"].as_str().expect("san").to_string())
        .collect()
}

fn kinds(verdict: &serde_json::Value) -> Vec<String> {
    verdict["incidents"]
        .as_array()
        .expect("incidents")
        .iter()
        .map(|i| {
            format!(
                "{} {}",
                i["kind"].as_str().expect("kind"),
                i["article"].as_str().expect("article")
            )
        })
        .collect()
}

#[test]
fn a_video_streamed_through_ingest_gives_the_record_replay_gives() {
    let (dir, truth) = render("release_final", "serve");
    let video = dir.join("video.avi");
    let corners = corners(&truth);
    let replayed = json(&[
        "replay",
        video.to_str().expect("utf-8"),
        "--corners",
        &corners,
        "--json",
    ]);

    let service = serve(&dir.join("referee.db"), free_port(), &[]);
    let ingest = referee(&[
        "ingest",
        "--server",
        &service.url,
        "--board",
        "b1",
        "--white",
        "Alice",
        "--black",
        "Bob",
        "--corners",
        &corners,
        "--fast",
        video.to_str().expect("utf-8"),
    ]);
    let said = String::from_utf8_lossy(&ingest.stdout);
    assert!(
        ingest.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&ingest.stderr)
    );
    assert!(said.contains("INCIDENT b1-1-1: release_final"), "{said}");
    assert!(said.contains("dropped 0"), "{said}");

    let served = json(&["game", "b1-1", "--server", &service.url, "--json"]);
    assert_eq!(sans(&served), sans(&replayed));
    assert_eq!(kinds(&served), kinds(&replayed));
    assert_eq!(served["fen"], replayed["fen"]);
    assert_eq!(
        served["events"].as_array().map(Vec::len),
        replayed["events"].as_array().map(Vec::len)
    );

    let games = json(&["games", "--server", &service.url, "--json"]);
    assert_eq!(games[0]["id"], "b1-1");
    assert_eq!(games[0]["white"], "Alice");
    referee_ok(&[
        "decide",
        "b1-1-1",
        "--server",
        &service.url,
        "--decision",
        "dismissed",
        "--note",
        "no claim",
    ]);
    let after = json(&["game", "b1-1", "--server", &service.url, "--json"]);
    assert_eq!(after["incidents"][0]["decision"], "dismissed");
    let _ = std::fs::remove_dir_all(dir);
}

/// `referee ingest` of `video` for board b1 at the video's pace, its
/// output piped.
fn ingest(url: &str, corners: &str, video: &std::path::Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_referee"))
        .args([
            "ingest",
            "--server",
            url,
            "--board",
            "b1",
            "--corners",
            corners,
        ])
        .arg(video)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ingest starts")
}

#[test]
fn a_killed_service_restarts_with_every_acknowledged_move_incident_and_decision() {
    let (dir, truth) = render("release_final", "kill");
    let video = dir.join("video.avi");
    let corners = corners(&truth);
    let db = dir.join("referee.db");
    let port = free_port();
    let service = serve(&db, port, &[]);

    // Streamed at the video's pace: the service is killed while it plays.
    let mut ingest = ingest(&service.url, &corners, &video);
    let mut lines = BufReader::new(ingest.stdout.take().expect("stdout")).lines();
    let mut acknowledged = Vec::new();
    let started = Instant::now();
    while acknowledged.is_empty() {
        let Some(Ok(line)) = lines.next() else {
            let out = ingest.wait_with_output().expect("ingest ends");
            panic!(
                "ingest ended early: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        if let Some(rest) = line.split(" move 1 ").nth(1) {
            acknowledged.push(rest.split(' ').next().expect("san").to_string());
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no move acknowledged"
        );
    }
    service.kill_9();

    let service = serve(&db, port, &[]);
    let status = ingest.wait().expect("ingest ends");
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(status.success(), "ingest gave up: {rest:?}");
    let verdict = json(&["game", "b1-1", "--server", &service.url, "--json"]);
    let moves = sans(&verdict);
    assert!(
        moves.starts_with(&acknowledged),
        "{moves:?} lost {acknowledged:?}"
    );

    // A whole game on a second board, its incident decided, then the
    // service killed again: the decision is still there.
    referee_ok(&[
        "ingest",
        "--server",
        &service.url,
        "--board",
        "b2",
        "--corners",
        &corners,
        "--fast",
        "--quiet",
        video.to_str().expect("utf-8"),
    ]);
    referee_ok(&[
        "decide",
        "b2-1-1",
        "--server",
        &service.url,
        "--decision",
        "upheld",
    ]);
    service.kill_9();
    let service = serve(&db, port, &[]);
    let verdict = json(&["game", "b2-1", "--server", &service.url, "--json"]);
    assert_eq!(kinds(&verdict), ["release_final 4.7"]);
    assert_eq!(verdict["incidents"][0]["decision"], "upheld");
    drop(service);
    let _ = std::fs::remove_dir_all(dir);
    let _ = scratch("kill");
}

#[test]
fn an_announced_adjustment_reaches_the_live_game_in_its_place() {
    // Black announces "j'adoube" (a button, say) and adjusts g8 while the
    // camera streams: no touch-move for the adjusted knight; White's touch
    // on Black's turn stays an incident.
    let (dir, truth) = render("opponent_touch", "announce");
    let video = dir.join("video.avi");
    let corners = corners(&truth);
    let declared = truth["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["type"] == "declare")
        .and_then(|e| e["t"].as_f64())
        .expect("the scenario announces an adjustment");
    let service = serve(&dir.join("referee.db"), free_port(), &[]);
    let ingest = ingest(&service.url, &corners, &video);
    let started = Instant::now();
    while json(&["games", "--server", &service.url, "--json"])
        .as_array()
        .is_none_or(Vec::is_empty)
    {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the game never opened"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let t = format!("{declared}");
    let said = referee_ok(&[
        "announce",
        "b1-1",
        "--server",
        &service.url,
        "--type",
        "declare",
        "--t",
        &t,
        "--side",
        "black",
    ]);
    assert!(String::from_utf8_lossy(&said.stdout).contains("declare"));
    let unknown = referee(&[
        "announce",
        "b9-1",
        "--server",
        &service.url,
        "--type",
        "clock",
        "--t",
        "1",
    ]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no game b9-1"));

    let done = ingest.wait_with_output().expect("ingest ends");
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let served = json(&["game", "b1-1", "--server", &service.url, "--json"]);
    assert_eq!(sans(&served), ["d4", "d5"]);
    assert_eq!(kinds(&served), ["touch_on_opponent_turn 4.0"]);
    let events = served["events"].as_array().expect("events");
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "declare" && e["side"] == "black"),
        "{events:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// ONNX Runtime where it is not: neither the detector nor the real-hand
/// models load.
const NO_MODELS: (&str, &str) = ("ORT_DYLIB_PATH", "/nonexistent/libonnxruntime.so.1");

#[test]
fn a_service_that_cannot_see_touches_refuses_to_start_unless_told_and_then_says_so() {
    let dir = scratch("serve-no-models");
    std::fs::create_dir_all(&dir).expect("scratch");
    let db = dir.join("referee.db");
    let refused = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args([
            "serve",
            "--db",
            db.to_str().expect("utf-8"),
            "--grpc",
            "127.0.0.1:0",
        ])
        .env(NO_MODELS.0, NO_MODELS.1)
        .output()
        .expect("serve runs");
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("no detector: no touch can be seen"), "{said}");
    assert!(said.contains("--allow-no-models"), "{said}");

    let web = free_port();
    let service = serve_with_env(
        &db,
        free_port(),
        &["--allow-no-models", "--http", &format!("127.0.0.1:{web}")],
        &[NO_MODELS],
    );
    let listed = referee_ok(&["games", "--server", &service.url]);
    let warned = String::from_utf8_lossy(&listed.stderr);
    assert!(
        warned.contains("the service cannot see everything: no detector"),
        "{warned}"
    );
    assert!(warned.contains("no real-hand models"), "{warned}");
    let status = http_get(web, "/api/status");
    assert!(
        status.contains("\"not_seen\":[\"no real-hand models"),
        "{status}"
    );
    assert!(http_get(web, "/metrics").contains("referee_models_missing 2"));
}

/// The body of a plain HTTP/1.1 GET on 127.0.0.1.
fn http_get(port: u16, path: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .expect("writes");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("reads");
    answer
}

#[test]
fn an_unreadable_source_is_one_line_without_opencvs_chatter() {
    let not_a_video = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let run = referee(&[
        "ingest",
        "--server",
        "http://127.0.0.1:1",
        "--board",
        "1",
        not_a_video.to_str().expect("utf-8"),
    ]);
    assert!(!run.status.success());
    let said = String::from_utf8_lossy(&run.stderr);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains("cannot open it as a camera or a video"),
        "{said}"
    );
}
