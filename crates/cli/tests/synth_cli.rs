//! `referee synth` as a user runs it: the real binary writes a video and its
//! truth, a dataset, and refuses a bad scenario in one line naming the line.

mod common;

use common::{referee, referee_ok, render, scratch};

#[test]
fn renders_a_scenario_to_video_and_truth() {
    let (out, truth) = render("two_hands", "synth");
    for key in ["events", "moves", "fps", "frames"] {
        assert!(truth.get(key).is_some(), "truth lacks {key}");
    }
    assert_eq!(
        truth["frames"][0]["squares"]
            .as_array()
            .expect("squares")
            .len(),
        64
    );
    assert!(
        std::fs::metadata(out.join("video.avi"))
            .expect("video")
            .len()
            > 10_000
    );
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn writes_a_labelled_dataset() {
    let out = scratch("dataset");
    referee_ok(&[
        "synth",
        "--dataset",
        "6",
        "--seed",
        "3",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    let labels = std::fs::read_to_string(out.join("labels.jsonl")).expect("labels");
    assert_eq!(labels.lines().count(), 6);
    for line in labels.lines() {
        let label: serde_json::Value = serde_json::from_str(line).expect("json");
        assert!(out.join(label["file"].as_str().expect("file")).exists());
        assert_eq!(label["squares"].as_array().expect("squares").len(), 64);
    }
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn a_bad_scenario_is_refused_in_one_line() {
    let dir = scratch("bad");
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("bad.scn");
    std::fs::write(&path, "move e2e4\nclock\nmove e2e4\n").expect("write");
    let run = referee(&[
        "synth",
        path.to_str().expect("utf-8"),
        "--out",
        dir.join("out").to_str().expect("utf-8"),
    ]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.scn: line 3: move e2e4 is not legal"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
