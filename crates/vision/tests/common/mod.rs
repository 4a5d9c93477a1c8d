//! What the tests on the real photographs share: where `../shared/data/real`
//! is, and its labelled photographs (`labels.json`; the videos are left to
//! the tests that play them).

#![allow(dead_code)]

use std::path::PathBuf;

/// One photograph's labels.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Label {
    pub file: String,
    /// FEN field 1: the empty board or the starting position.
    #[serde(default)]
    pub placement: String,
    pub corners: Option<[[f32; 2]; 4]>,
    pub white_side: Option<String>,
}

impl Label {
    pub fn corners(&self) -> [[f32; 2]; 4] {
        self.corners.expect("every photograph has corners")
    }
}

pub fn real_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/real")
}

/// The labelled photographs, in file order.
pub fn photographs() -> Vec<Label> {
    let path = real_dir().join("labels.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let labels: Vec<Label> = serde_json::from_str(&text).expect("labels.json is valid");
    labels
        .into_iter()
        .filter(|l| l.file.ends_with(".jpg"))
        .collect()
}
