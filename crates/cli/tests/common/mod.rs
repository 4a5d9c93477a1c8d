//! What the command-line tests share: running the real binary, fresh
//! scratch folders, and rendering a bundled scenario.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// Runs the `referee` binary cargo built for these tests.
pub fn referee(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .output()
        .expect("the referee binary runs")
}

/// Runs the `referee` binary and requires it to succeed (its error output
/// in the failure message otherwise).
pub fn referee_ok(args: &[&str]) -> Output {
    let run = referee(args);
    assert!(
        run.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    run
}

/// A scratch folder of its own for this test run, emptied.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The path of a bundled scenario file.
pub fn scenario(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/data/scenarios/{name}.scn"))
}

/// Renders a bundled scenario with `referee synth` into a scratch folder of
/// the calling test's own (`label`); returns the folder and the truth.
pub fn render(name: &str, label: &str) -> (PathBuf, serde_json::Value) {
    render_file(&scenario(name), &format!("{label}-{name}"))
}

/// Renders the scenario file at `path` into the scratch folder `label`;
/// returns the folder and the truth.
pub fn render_file(path: &Path, label: &str) -> (PathBuf, serde_json::Value) {
    let out = scratch(label);
    referee_ok(&[
        "synth",
        path.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    let truth =
        serde_json::from_str(&std::fs::read_to_string(out.join("truth.json")).expect("truth"))
            .expect("json");
    (out, truth)
}

/// A running `referee serve`, killed when dropped.
pub struct Service {
    pub child: Child,
    pub url: String,
}

impl Service {
    /// SIGKILL: no chance to flush or close anything.
    pub fn kill_9(mut self) {
        let pid = self.child.id().to_string();
        Command::new("kill")
            .args(["-9", &pid])
            .status()
            .expect("kill runs");
        let _ = self.child.wait();
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// Starts the service on `port` (and `extra` arguments) with its record in `db`; returns once it
/// says where it serves.
pub fn serve(db: &Path, port: u16, extra: &[&str]) -> Service {
    serve_with_env(db, port, extra, &[])
}

/// [`serve`] with these environment variables set.
pub fn serve_with_env(db: &Path, port: u16, extra: &[&str], env: &[(&str, &str)]) -> Service {
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["serve", "--db", db.to_str().expect("utf-8"), "--grpc"])
        .arg(format!("127.0.0.1:{port}"))
        .args(extra)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("serve starts");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    out.read_line(&mut first).expect("a line");
    assert!(
        first.contains("serving gRPC on http://127.0.0.1:"),
        "{first}"
    );
    // Keep reading what it says, so that it never writes to a closed pipe.
    std::thread::spawn(move || for _ in out.lines() {});
    Service {
        child,
        url: format!("http://127.0.0.1:{port}"),
    }
}

pub fn corners(truth: &serde_json::Value) -> String {
    truth["frames"][0]["corners"]
        .as_array()
        .expect("corners")
        .iter()
        .flat_map(|p| [p[0].as_f64().expect("x"), p[1].as_f64().expect("y")])
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

pub fn json(args: &[&str]) -> serde_json::Value {
    let run = referee_ok(args);
    serde_json::from_slice(&run.stdout).expect("json")
}
