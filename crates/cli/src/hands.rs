//! `referee hands VIDEO [--json] [--corners …]`: the real-hand path alone
//! over a video: each frame's hands (MediaPipe's models, followed frame to
//! frame), what their fingers do on the board's squares (a grip, a touch)
//! and which player's edge each arm comes from; then the figures: frames
//! with a hand, and the milliseconds a frame with and without one.
//!
//! The board is found in the first frame (or its corners given) and which
//! edge is White's is told from the pieces there, as `referee detect` does.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use opencv::prelude::MatTraitConst;
use referee_vision::hands::on_board::BoardGeometry;
use referee_vision::hands::{Contact, HandOnBoard};
use referee_vision::{BoardCorners, Detector, HandModels, HandTracker, VideoReader, read_still};
use serde_json::json;

use crate::replay::parse_corners;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The video file.
    video: PathBuf,
    /// Print one JSON object a frame, then the summary (JSON Lines).
    #[arg(long)]
    json: bool,
    /// The playing area's corners, clockwise from top-left:
    /// x1,y1,x2,y2,x3,y3,x4,y4 (default: found in the first frame).
    #[arg(long, value_parser = parse_corners)]
    corners: Option<BoardCorners>,
}

/// One frame's hands, as printed.
fn frame_report(
    index: usize,
    hands: &[HandOnBoard],
    presences: &[f32],
    ms: f64,
) -> serde_json::Value {
    let hands: Vec<_> = hands
        .iter()
        .zip(presences)
        .map(|(h, presence)| {
            let contact = h.contact.map(|c| match c {
                Contact::Grip(sq) => json!({"grip": sq.to_string()}),
                Contact::Touch(sq) => json!({"touch": sq.to_string()}),
            });
            json!({
                "presence": (f64::from(*presence) * 1000.0).round() / 1000.0,
                "contact": contact,
                "edge": h.reach.edge.name(),
                "player": h.reach.player.map(|c| c.to_string()),
                "index_tip": h.index_tip.map(|v| (v * 100.0).round() / 100.0),
                "thumb_tip": h.thumb_tip.map(|v| (v * 100.0).round() / 100.0),
            })
        })
        .collect();
    json!({"frame": index, "hands": hands, "ms": (ms * 100.0).round() / 100.0})
}

pub fn run(args: &Args) -> Result<()> {
    let mut video = VideoReader::open(&args.video)?;
    let (t, first) = video
        .next_timed_frame()?
        .ok_or_else(|| anyhow!("{}: the video has no frames", args.video.display()))?;
    let mut detector = Detector::load()?;
    let still = read_still(&mut detector, &first, args.corners, None)
        .with_context(|| format!("{}: the first frame", args.video.display()))?;
    let orientation = still.orientation.ok_or_else(|| {
        anyhow!(
            "{}: no piece in the first frame shows which edge is White's",
            args.video.display()
        )
    })?;
    let size = first.size()?;
    let board = BoardGeometry::new(&still.corners, size, orientation)?;
    let mut tracker = HandTracker::new(HandModels::load()?);
    let (mut with, mut without) = (Vec::new(), Vec::new());
    let mut frame = Some((t, first));
    let mut index = 0;
    while let Some((t, image)) = frame {
        let clock = Instant::now();
        let hands = tracker
            .track(&image, t)
            .with_context(|| format!("{}: frame {index}", args.video.display()))?;
        let ms = clock.elapsed().as_secs_f64() * 1e3;
        let on_board: Vec<HandOnBoard> = hands.iter().map(|h| board.read(&h.hand)).collect();
        let presences: Vec<f32> = hands.iter().map(|h| h.hand.presence).collect();
        if hands.is_empty() {
            &mut without
        } else {
            &mut with
        }
        .push(ms);
        let report = frame_report(index, &on_board, &presences, ms);
        if args.json {
            println!("{report}");
        } else {
            println!("{}", for_people(&report));
        }
        index += 1;
        frame = video.next_timed_frame()?;
    }
    let summary = json!({
        "frames": index,
        "frames_with_hand": with.len(),
        "palm_runs": tracker.palm_runs,
        "median_ms_with_hand": median(&mut with),
        "median_ms_without_hand": median(&mut without),
        "corners": still.corners.0,
        "white_side": orientation.white_side(),
    });
    if args.json {
        println!("{summary}");
    } else {
        println!("{}", summary_for_people(&summary));
    }
    Ok(())
}

/// The run's summary in words: frames, how many showed a hand, the
/// milliseconds a frame with and without one, where the board is.
fn summary_for_people(summary: &serde_json::Value) -> String {
    let ms = |key: &str| {
        summary[key]
            .as_f64()
            .map_or("-".to_string(), |ms| format!("{ms:.1} ms"))
    };
    format!(
        "{} frames, {} with a hand ({} palm runs); median {} a frame with a hand, {} without\n\
         board corners {}, White's side: {}",
        summary["frames"],
        summary["frames_with_hand"],
        summary["palm_runs"],
        ms("median_ms_with_hand"),
        ms("median_ms_without_hand"),
        summary["corners"],
        summary["white_side"].as_str().unwrap_or("?"),
    )
}

fn for_people(report: &serde_json::Value) -> String {
    let mut line = format!(
        "frame {:>4} {:>6.1} ms",
        report["frame"],
        report["ms"].as_f64().unwrap_or(0.0)
    );
    for hand in report["hands"].as_array().into_iter().flatten() {
        let contact = match &hand["contact"] {
            serde_json::Value::Object(c) => c
                .iter()
                .map(|(k, v)| format!("{k} {}", v.as_str().unwrap_or("?")))
                .collect::<String>(),
            _ => "off the board".into(),
        };
        line.push_str(&format!(
            "  | hand from {} ({}): {contact}",
            hand["edge"].as_str().unwrap_or("?"),
            hand["player"].as_str().unwrap_or("no player"),
        ));
    }
    line
}

fn median(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    values
        .get(values.len() / 2)
        .map(|v| (v * 100.0).round() / 100.0)
}
