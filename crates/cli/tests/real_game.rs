//! `referee replay` on a real game on a wooden set: the 77 labelled stills
//! of `../shared/data/real/bgu_game2` (a test set: read from `../shared`,
//! never copied here) shown as a video, each still held a while, MJPG
//! written by OpenCV; the moves read are compared with the game's PGN.
//!
//! `cargo test -p referee --test real_game -- --nocapture` prints, for each
//! way of showing it (each still held 1.5 s or 0.5 s; the corners given or
//! found; the camera on White's left), the plies read exactly before the
//! first wrong or missing one, of how many, and the incidents raised (none
//! happened).

mod common;

use std::path::{Path, PathBuf};

use common::{referee_ok, scratch};
use opencv::core::{Mat, RotateFlags, Size};
use opencv::imgcodecs;
use opencv::prelude::*;
use opencv::videoio::{VideoWriter, VideoWriterTrait};

fn game_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/real/bgu_game2")
}

/// The stills of the game, in order.
fn stills(dir: &Path) -> Vec<PathBuf> {
    let labels = std::fs::read_to_string(dir.join("labels.csv")).expect("labels.csv");
    labels
        .lines()
        .skip(1)
        .map(|row| {
            let from: u32 = row
                .split(',')
                .next()
                .and_then(|f| f.parse().ok())
                .expect("from_frame");
            dir.join(format!("frames/frame_{from:06}.jpg"))
        })
        .collect()
}

/// The game's moves in SAN, from its PGN.
fn game_sans(dir: &Path) -> Vec<String> {
    let pgn = std::fs::read_to_string(dir.join("game.pgn")).expect("game.pgn");
    pgn.lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter(|w| !w.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(w))
        .map(|w| w.split('.').next_back().unwrap_or(w).to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Writes the stills as a video, each held `hold` seconds at 10 frames a second.
fn write_video(stills: &[PathBuf], hold: f64, turn: Option<RotateFlags>, out: &Path) -> PathBuf {
    const FPS: f64 = 10.0;
    let turned = if turn.is_some() { "_turned" } else { "" };
    let path = out.join(format!("game_{:.0}ms{turned}.avi", hold * 1000.0));
    let still = |path: &PathBuf| -> Mat {
        let image = imgcodecs::imread_def(path.to_str().expect("utf-8")).expect("a still");
        match turn {
            None => image,
            Some(turn) => {
                let mut turned = Mat::default();
                opencv::core::rotate(&image, &mut turned, turn as i32).expect("turned");
                turned
            }
        }
    };
    let size: Size = still(&stills[0]).size().expect("size");
    let fourcc = VideoWriter::fourcc('M', 'J', 'P', 'G').expect("fourcc");
    let mut writer = VideoWriter::new_def(path.to_str().expect("utf-8"), fourcc, FPS, size)
        .expect("a video writer");
    let frames = (hold * FPS).round() as usize;
    for path in stills {
        let image = still(path);
        for _ in 0..frames {
            writer.write(&image).expect("a frame written");
        }
    }
    writer.release().expect("the video closed");
    path
}

/// How a replay of the game went: plies read exactly before the first
/// difference, plies read, incidents raised.
struct Read {
    exact: usize,
    read: usize,
    incidents: usize,
}

impl Read {
    /// Prints how the game shown `how` was read, and asserts every ply was
    /// read as played, nothing more, with no incident.
    fn is_whole(&self, truth: &[String], how: &str) {
        eprintln!(
            "bgu_game2, {how}: {} of {} plies exact before the first difference ({} read), {} incidents",
            self.exact,
            truth.len(),
            self.read,
            self.incidents
        );
        assert_eq!(
            (self.exact, self.read, self.incidents),
            (truth.len(), truth.len(), 0),
            "{how}: every ply read as played, nothing more, no incident"
        );
    }
}

fn replay(video: &Path, corners: Option<&str>, truth: &[String]) -> Read {
    // The defaults, as a club runs it: the stills are cropped to the
    // playing area, which tells real footage (the players' arms reach in
    // from the edges, cut off, and MediaPipe seldom finds a hand; the
    // detector's hands, trusted on a render, would misread the game).
    let mut args = vec!["replay", video.to_str().expect("utf-8"), "--json"];
    if let Some(corners) = corners {
        args.extend(["--corners", corners]);
    }
    let run = referee_ok(&args);
    let verdict: serde_json::Value = serde_json::from_slice(&run.stdout).expect("the verdict");
    assert_eq!(verdict["stats"]["hands"], "real", "a crop is real footage");
    let read: Vec<String> = verdict["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["san"].as_str().expect("san").to_string())
        .collect();
    let exact = read.iter().zip(truth).take_while(|(a, b)| a == b).count();
    if exact < truth.len() {
        eprintln!(
            "first difference at ply {}: read {:?}, played {:?}",
            exact + 1,
            read.get(exact),
            truth.get(exact)
        );
    }
    Read {
        exact,
        read: read.len(),
        incidents: verdict["incidents"].as_array().map_or(0, Vec::len),
    }
}

#[test]
fn the_real_game_on_a_wooden_set_is_read_as_played() {
    let dir = game_dir();
    let (stills, truth) = (stills(&dir), game_sans(&dir));
    assert_eq!(truth.len(), stills.len() - 1, "one still a ply");
    let out = scratch("real-game");
    std::fs::create_dir_all(&out).expect("scratch");
    for hold in HOLDS {
        let video = write_video(&stills, hold, None, &out);
        for corners in [Some("0,0,480,0,480,480,0,480"), None] {
            let how = if corners.is_some() { "given" } else { "found" };
            replay(&video, corners, &truth)
                .is_whole(&truth, &format!("each still {hold} s, corners {how}"));
        }
    }
}

/// How long each still is held, in seconds: a move every few seconds, and
/// moves in quick succession.
const HOLDS: [f64; 2] = [1.5, 0.5];

/// A camera on White's left, as a club may set one beside the board: the
/// same stills turned a quarter (White on the picture's left, the pieces
/// leaning across the ranks, the rooks' corners cut off by the picture's
/// edge), the corners given.
#[test]
fn the_real_game_filmed_from_whites_left_is_read_as_played() {
    let dir = game_dir();
    let (stills, truth) = (stills(&dir), game_sans(&dir));
    let out = scratch("real-game-left");
    std::fs::create_dir_all(&out).expect("scratch");
    for hold in HOLDS {
        let video = write_video(&stills, hold, Some(RotateFlags::ROTATE_90_CLOCKWISE), &out);
        replay(&video, Some("0,0,480,0,480,480,0,480"), &truth)
            .is_whole(&truth, &format!("from White's left, each still {hold} s"));
    }
}
