//! `referee detect IMAGE [--json] [--corners …]`: one still picture read
//! whole (contracts.md §4): the board's corners found (or given), what
//! stands on each square, and which edge is White's. A video file is read
//! by its first frame. `--venue START` first adapts the detector to the
//! set on a still of the same board in a known position (`--venue-fen`,
//! default the start position), as a game's first frame adapts it.
//! `--repeat N` reads it N times and prints the median milliseconds of
//! each stage (the speed figure of the model card).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use opencv::core::Mat;
use referee_vision::{
    BoardCorners, Detector, Occupant, SquareVerdict, StillReading, VenueModel, VideoReader,
    read_image, read_still,
};
use serde_json::json;
use shakmaty::Board;

use crate::replay::parse_corners;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The picture (or a video: its first frame).
    image: PathBuf,
    /// Print JSON (contracts.md §4).
    #[arg(long)]
    json: bool,
    /// The playing area's corners, clockwise from top-left:
    /// x1,y1,x2,y2,x3,y3,x4,y4 (default: found in the picture).
    #[arg(long, value_parser = parse_corners)]
    corners: Option<BoardCorners>,
    /// A still of the same set in a known position to adapt the detector
    /// on before reading (a picture, or a video: its first frame).
    #[arg(long)]
    venue: Option<PathBuf>,
    /// The position the venue still shows (FEN, or its first field).
    #[arg(long, requires = "venue", value_parser = parse_placement)]
    venue_fen: Option<Board>,
    /// The venue still's corners (default: those of --corners, or found).
    #[arg(long, requires = "venue", value_parser = parse_corners)]
    venue_corners: Option<BoardCorners>,
    /// Read the picture this many times and report the median time of each stage.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
}

pub fn run(args: &Args) -> Result<()> {
    let mut detector = Detector::load()?;
    let venue = match &args.venue {
        Some(path) => Some(learn_venue(&mut detector, path, args)?),
        None => None,
    };
    let mut stages: [Vec<f64>; 5] = Default::default();
    let mut last = None;
    for _ in 0..args.repeat {
        let clock = Instant::now();
        let image = decode(&args.image)?;
        stages[0].push(clock.elapsed().as_secs_f64() * 1e3);
        let reading = read_still(&mut detector, &image, args.corners, venue.as_ref())
            .with_context(|| format!("{}", args.image.display()))?;
        for (stage, ms) in stages[1..].iter_mut().zip(reading.stage_ms) {
            stage.push(ms);
        }
        let clock = Instant::now();
        let report = json_report(&reading, &image);
        stages[4].push(clock.elapsed().as_secs_f64() * 1e3);
        last = Some((reading, report));
    }
    let (reading, mut report) = last.ok_or_else(|| anyhow!("nothing read"))?;
    let names = ["decode", "locate", "detect", "orient", "report"];
    let stage_ms: serde_json::Map<_, _> = names
        .iter()
        .zip(stages.iter_mut())
        .map(|(name, values)| (name.to_string(), json!(median(values))))
        .collect();
    report["stage_ms"] = json!(stage_ms);
    report["repeat"] = json!(args.repeat);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", for_people(&reading));
        if args.repeat > 1 {
            println!("median ms a reading: {}", report["stage_ms"]);
        }
    }
    Ok(())
}

/// The venue model the still at `path` teaches.
fn learn_venue(detector: &mut Detector, path: &Path, args: &Args) -> Result<VenueModel> {
    let image = decode(path)?;
    let corners = args.venue_corners.or(args.corners);
    let still = read_still(detector, &image, corners, None)
        .with_context(|| format!("{} (the venue)", path.display()))?;
    let position = args.venue_fen.clone().unwrap_or_default();
    still.teach(&position).ok_or_else(|| {
        anyhow!(
            "{} (the venue): no White piece, Black piece or empty square to learn from where {} stands",
            path.display(),
            position
        )
    })
}

/// A position's placement from a FEN (its first field is enough).
fn parse_placement(text: &str) -> Result<Board, String> {
    let placement = text.split_whitespace().next().unwrap_or_default();
    placement
        .parse()
        .map_err(|e| format!("{placement:?} is not a FEN placement: {e}"))
}

fn decode(path: &Path) -> Result<Mat> {
    if let Ok(image) = read_image(path) {
        return Ok(image);
    }
    let mut video = VideoReader::open(path)
        .with_context(|| format!("{}: neither a picture nor a video", path.display()))?;
    video
        .next_frame()?
        .ok_or_else(|| anyhow!("{}: the video has no frames", path.display()))
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

fn occupant_name(verdict: &SquareVerdict) -> &'static str {
    match verdict.occupant {
        None => "unknown",
        Some(Occupant::Empty) => "empty",
        Some(Occupant::White) => "white",
        Some(Occupant::Black) => "black",
    }
}

/// FEN's first field.
fn placement(reading: &StillReading) -> String {
    reading.board().to_string()
}

fn json_report(reading: &StillReading, image: &Mat) -> serde_json::Value {
    use opencv::prelude::MatTraitConst;
    let squares: Vec<_> = reading
        .squares()
        .iter()
        .map(|v| {
            json!({
                "square": v.square.to_string(),
                "occupant": occupant_name(v),
                "piece": v.piece.map(|p| p.char().to_string()),
                "confidence": round3(v.confidence),
                "hand": round3(v.reading.hand),
                "touch": round3(v.reading.touch),
            })
        })
        .collect();
    let size = image.size().map(|s| [s.width, s.height]).unwrap_or([0, 0]);
    json!({
        "corners": reading.corners.0,
        "corners_found": reading.found,
        "image_size": size,
        "placement": placement(reading),
        "squares": squares,
        "white_side": reading.orientation.map(|o| o.white_side()),
        "hand_present": round3(reading.detection.hand_present),
        "fingertip": reading
            .orientation
            .and_then(|o| reading.detection.fingertip(o))
            .map(|sq| sq.to_string()),
    })
}

fn round3(value: f32) -> f64 {
    (f64::from(value) * 1000.0).round() / 1000.0
}

/// The board as a diagram from White's side, `?` for squares not judged.
fn for_people(reading: &StillReading) -> String {
    let squares = reading.squares();
    let mut out = String::new();
    let [a, b, c, d] = reading.corners.0;
    out.push_str(&format!(
        "board {} at ({:.0},{:.0}) ({:.0},{:.0}) ({:.0},{:.0}) ({:.0},{:.0})\n",
        if reading.found { "found" } else { "given" },
        a[0],
        a[1],
        b[0],
        b[1],
        c[0],
        c[1],
        d[0],
        d[1]
    ));
    match reading.orientation {
        Some(o) => out.push_str(&format!("White sits at the {}\n", o.white_side())),
        None => out.push_str("no piece shows which side is White's\n"),
    }
    for rank in (0..8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let v = &squares[rank * 8 + file];
            let ch = match (v.occupant, v.piece) {
                (None, _) => '?',
                (Some(Occupant::Empty), _) => '.',
                (Some(_), Some(piece)) => piece.char(),
                (Some(_), None) => '?',
            };
            out.push(ch);
            out.push(' ');
        }
        out.push('\n');
    }
    out.push_str("  a b c d e f g h\n");
    out.push_str(&format!("placement {}\n", placement(reading)));
    out
}
