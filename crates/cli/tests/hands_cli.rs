//! `referee hands` on the real game clip: a line a frame, then the figures
//! (frames with a hand, milliseconds a frame with and without one); and a
//! clear error for a file that is not a video.

mod common;

use common::{referee, referee_ok};

#[test]
fn follows_the_hands_of_the_real_clip_and_prints_the_figures() {
    let clip = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/real/opening_clip.avi");
    let run = referee_ok(&["hands", clip.to_str().expect("utf-8"), "--json"]);
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let (summary, frames) = lines.split_last().expect("lines");
    assert_eq!(frames.len(), 131);
    assert_eq!(summary["frames"], 131);
    assert_eq!(summary["white_side"], "right");
    let with_hand = summary["frames_with_hand"].as_u64().expect("a count");
    assert!(
        (40..=80).contains(&with_hand),
        "{with_hand} frames with a hand"
    );
    assert!(summary["median_ms_with_hand"].as_f64().expect("ms") > 0.0);
    assert!(summary["median_ms_without_hand"].as_f64().expect("ms") > 0.0);
    // White's hand grips the e-pawn early in the clip (frames 30-42).
    let grips: Vec<&str> = frames[30..43]
        .iter()
        .flat_map(|f| f["hands"].as_array().expect("hands").iter())
        .filter_map(|h| h["contact"]["grip"].as_str())
        .collect();
    assert!(grips.contains(&"e2"), "{grips:?}");
    // Without --json the figures are in words.
    let run = referee_ok(&["hands", clip.to_str().expect("utf-8")]);
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        text.lines().all(|l| !l.trim_start().starts_with('{')),
        "{text}"
    );
    assert!(text.contains("131 frames, "), "{text}");
}

#[test]
fn a_file_that_is_not_a_video_is_a_clear_error() {
    let run = referee(&["hands", "Cargo.toml"]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("Cargo.toml"), "{stderr}");
}
