//! What the tests on the real photographs share: where `../shared/data/real`
//! is, its labelled photographs and the game clip's labels (`labels.json`).

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

/// The labels of the real game clip (`opening_clip.avi`).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct ClipLabel {
    pub file: String,
    pub corners: [[f32; 2]; 4],
    pub white_side: String,
    pub moves: Vec<String>,
    /// Sampled frames (every 4th) where a hand is clearly in view…
    pub hand_frames_clear: Vec<usize>,
    /// …or mostly cut off by the image's edge; other sampled frames show none.
    pub hand_frames_partial: Vec<usize>,
}

impl ClipLabel {
    /// The sampled frames (every 4th) that show no hand.
    pub fn no_hand_frames(&self, frames: usize) -> Vec<usize> {
        (0..frames)
            .step_by(4)
            .filter(|f| {
                !self.hand_frames_clear.contains(f) && !self.hand_frames_partial.contains(f)
            })
            .collect()
    }
}

/// The game clip's labels.
pub fn game_clip() -> ClipLabel {
    let path = real_dir().join("labels.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let labels: Vec<serde_json::Value> = serde_json::from_str(&text).expect("labels.json is valid");
    let clip = labels
        .into_iter()
        .find(|l| l["file"] == "opening_clip.avi")
        .expect("labels.json labels opening_clip.avi");
    serde_json::from_value(clip)
        .expect("the clip's labels have corners, white_side, moves and hand frames")
}
