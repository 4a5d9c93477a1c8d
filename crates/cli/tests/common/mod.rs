//! What the command-line tests share: running the real binary, fresh
//! scratch folders, and rendering a bundled scenario.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the `referee` binary cargo built for these tests.
pub fn referee(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .output()
        .expect("the referee binary runs")
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
    let out = scratch(&format!("{label}-{name}"));
    let run = referee(&[
        "synth",
        scenario(name).to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let truth =
        serde_json::from_str(&std::fs::read_to_string(out.join("truth.json")).expect("truth"))
            .expect("json");
    (out, truth)
}
