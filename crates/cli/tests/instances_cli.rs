//! Two `referee serve` processes on one PostgreSQL database (a server of
//! the test's own), a camera's `referee ingest` listing both: the
//! instance refereeing the board is killed with SIGKILL mid-game, the
//! camera moves to the other, which takes the board once its lease runs
//! out and carries the game on. The record is the one replay gives from
//! the same video, and every move acknowledged before the kill is in it.

mod common;

#[path = "../../server/tests/common/postgres.rs"]
mod postgres;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{corners, free_port, json, render, scratch, serve};

fn record(verdict: &serde_json::Value) -> (Vec<String>, Vec<String>) {
    let texts = |key: &str, field: &str| -> Vec<String> {
        verdict[key]
            .as_array()
            .expect(key)
            .iter()
            .map(|v| v[field].as_str().expect(field).to_string())
            .collect()
    };
    (texts("moves", "san"), texts("incidents", "article"))
}

#[test]
fn a_board_whose_instance_is_killed_goes_on_on_the_other() {
    let db = postgres::Postgres::start();
    let (dir, truth) = render("release_final", "instances");
    let video = dir.join("video.avi");
    let corners = corners(&truth);
    let replayed = json(&[
        "replay",
        video.to_str().expect("utf-8"),
        "--corners",
        &corners,
        "--json",
    ]);
    let url = Path::new(&db.url);
    let a = serve(url, free_port(), &["--instance", "a"]);
    let b = serve(url, free_port(), &["--instance", "b"]);

    // At the video's pace, a listed first: a referees until it is killed.
    let mut ingest = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["ingest", "--server", &format!("{},{}", a.url, b.url)])
        .args(["--board", "b1", "--corners", &corners])
        .arg(&video)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ingest starts");
    let mut lines = BufReader::new(ingest.stdout.take().expect("stdout")).lines();
    let started = Instant::now();
    let acknowledged = loop {
        let Some(Ok(line)) = lines.next() else {
            let out = ingest.wait_with_output().expect("ingest ends");
            panic!(
                "ingest ended early: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        if let Some(rest) = line.split(" move 1 ").nth(1) {
            break rest.split(' ').next().expect("san").to_string();
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no move acknowledged"
        );
    };
    a.kill_9();
    let killed = Instant::now();

    let status = ingest.wait().expect("ingest ends");
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut ingest.stderr.take().expect("stderr"), &mut stderr)
        .expect("stderr");
    assert!(status.success(), "ingest gave up: {rest:?} {stderr}");
    let again = stderr
        .lines()
        .find(|l| l.contains("streaming again on"))
        .unwrap_or_else(|| panic!("the camera never streamed again: {stderr}"));
    assert!(again.contains(&b.url), "{again}");
    eprintln!(
        "{again}; ingest done {:.1} s after the kill",
        killed.elapsed().as_secs_f64()
    );
    let on_b = json(&["game", "b1-1", "--server", &b.url, "--json"]);
    let (moves, articles) = record(&on_b);
    assert_eq!(moves.first(), Some(&acknowledged), "{moves:?}");
    assert_eq!((moves, articles), record(&replayed));
    drop(b);
    let _ = std::fs::remove_dir_all(dir);
    let _ = scratch("instances");
}
