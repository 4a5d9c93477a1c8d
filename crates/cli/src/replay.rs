//! `referee replay VIDEO [--json] [--pgn-out FILE] [--corners …] [--fen FEN]
//! [--evidence DIR]`: referees a recorded video offline through the whole
//! chain (decode, locate, detect, track, rules), with a progress bar on the
//! terminal.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use indicatif::{ProgressBar, ProgressStyle};
use referee_rules::pgn::Tags;
use referee_rules::{Action, Event, Referee, Verdict};
use referee_vision::{BoardCorners, VideoReader};
use referee_watch::{BoardWatch, HandSource};

use crate::clips::Clips;
use crate::report;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The video file.
    video: PathBuf,
    /// Print the verdict as JSON (contracts.md §2).
    #[arg(long)]
    json: bool,
    /// Also write the PGN to this file.
    #[arg(long)]
    pgn_out: Option<PathBuf>,
    /// The playing area's corners in the image, clockwise from top-left:
    /// x1,y1,x2,y2,x3,y3,x4,y4 (default: found in the first frame).
    #[arg(long, value_parser = parse_corners)]
    corners: Option<BoardCorners>,
    /// The starting position (default: the standard one).
    #[arg(long)]
    fen: Option<String>,
    /// Which model sees the hands: `auto` (told from the footage), `real`
    /// (MediaPipe's hand models, for camera footage) or `rendered` (the
    /// detector's hand outputs, for `referee synth` videos).
    #[arg(long, default_value = "auto")]
    hands: HandSource,
    /// Events the camera cannot see, JSON Lines as contracts.md §1 (an
    /// announced adjustment from an app or a button, a connected clock's
    /// presses), merged by time with those read from the video.
    #[arg(long)]
    events: Option<PathBuf>,
    /// A PGN tag, `Name=Value` (repeatable).
    #[arg(long = "tag", value_parser = crate::arbitrate::parse_tag)]
    tags: Vec<(String, String)>,
    /// Referee every K-th frame only, the others decoded and left out, as
    /// a service under load does (the chain keeps the frames' own times).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Cut each incident's clip (its frames drawn on, and a manifest) into
    /// this folder, as the service keeps it for the arbiter's panel.
    #[arg(long)]
    evidence: Option<PathBuf>,
}

/// Parses `x1,y1,…,x4,y4`.
pub fn parse_corners(text: &str) -> Result<BoardCorners, String> {
    let numbers: Vec<f32> = text
        .split(',')
        .map(|v| {
            v.trim()
                .parse::<f32>()
                .map_err(|_| format!("`{v}` is not a number"))
        })
        .collect::<Result<_, _>>()?;
    let [x1, y1, x2, y2, x3, y3, x4, y4] = numbers[..] else {
        return Err(format!(
            "expected 8 numbers x1,y1,…,x4,y4, got {}",
            numbers.len()
        ));
    };
    let corners = BoardCorners([[x1, y1], [x2, y2], [x3, y3], [x4, y4]]);
    corners.validate().map_err(|e| e.to_string())?;
    Ok(corners)
}

/// The events of a JSON Lines file.
fn outside_events(path: &Path) -> Result<Vec<Event>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let events = referee_rules::event_log_text(&bytes)
        .and_then(referee_rules::parse_event_log)
        .with_context(|| format!("{}: not an event log", path.display()))?;
    Ok(events.into_iter().map(|(_, event)| event).collect())
}

pub fn run(args: &Args) -> Result<()> {
    let outside = match &args.events {
        Some(path) => outside_events(path)?,
        None => Vec::new(),
    };
    let verdict = replay(args, outside, true)?;
    if let Some(path) = &args.pgn_out {
        std::fs::write(path, &verdict.pgn)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&verdict)?);
    } else {
        print!("{}", report::for_people(&verdict));
        print!("{}", caveats(&verdict.stats));
    }
    Ok(())
}

/// Milliseconds each stage took, one entry a frame.
#[derive(Debug, Default)]
struct StageTimes {
    decode: Vec<f64>,
    locate: Vec<f64>,
    detect: Vec<f64>,
    track: Vec<f64>,
    rules: Vec<f64>,
    /// Frames refereed on which the detector ran, and the real-hand models.
    detector_ran: u64,
    real_hands_ran: u64,
}

impl StageTimes {
    /// Medians and means of each stage, the whole chain's mean cost a
    /// frame over the decode's, and the share of refereed frames each
    /// model ran on.
    fn figures(&mut self) -> serde_json::Map<String, serde_json::Value> {
        let refereed = self.locate.len().max(1) as f64;
        let means = serde_json::json!({
            "decode": mean(&self.decode),
            "locate": mean(&self.locate),
            "detect": mean(&self.detect),
            "track": mean(&self.track),
            "rules": mean(&self.rules),
        });
        // Every frame is decoded; the others' stages run on refereed frames.
        let decode_total: f64 = self.decode.iter().sum();
        let rest_total: f64 = [&self.locate, &self.detect, &self.track, &self.rules]
            .iter()
            .flat_map(|stage| stage.iter())
            .sum();
        let chain_over_decode = if decode_total > 0.0 {
            (decode_total + rest_total) / decode_total
        } else {
            0.0
        };
        let medians = serde_json::json!({
            "decode": median(&mut self.decode),
            "locate": median(&mut self.locate),
            "detect": median(&mut self.detect),
            "track": median(&mut self.track),
            "rules": median(&mut self.rules),
        });
        let mut figures = serde_json::Map::new();
        figures.insert("stage_ms".into(), medians);
        figures.insert("stage_ms_mean".into(), means);
        figures.insert("chain_over_decode".into(), chain_over_decode.into());
        figures.insert(
            "models_share".into(),
            serde_json::json!({
                "detector": self.detector_ran as f64 / refereed,
                "real_hands": self.real_hands_ran as f64 / refereed,
            }),
        );
        figures
    }
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn elapsed_ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

/// Runs the chain over a whole video, with the events no camera sees.
pub fn replay(args: &Args, outside: Vec<Event>, progress: bool) -> Result<Verdict> {
    let started = Instant::now();
    let video = args.video.as_path();
    let mut reader = VideoReader::open(video)?;
    let referee = Referee::from_fen(args.fen.as_deref(), Tags(args.tags.clone()))
        .map_err(|e| anyhow!("--fen: {e}"))?;
    let mut watch = BoardWatch::new(referee, args.corners).with_hands(args.hands);
    for event in outside {
        watch.add_outside(event);
    }
    let bar = if progress {
        ProgressBar::new(reader.length.unwrap_or(0))
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} frames {per_sec} {wide_bar} {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut clips = args
        .evidence
        .as_deref()
        .map(Clips::writing_to)
        .transpose()?;
    let mut times = StageTimes::default();
    let mut events: Vec<Event> = Vec::new();
    let mut rejected = 0u64;
    // Seconds from the last motion before a move to the frame that reports it.
    let mut latencies: Vec<f64> = Vec::new();
    let mut index = 0u64;
    let mut refereed = 0u64;
    let mut clock = Instant::now();
    while let Some((t, image)) = reader.next_timed_frame()? {
        times.decode.push(elapsed_ms(clock));
        index += 1;
        if !(index - 1).is_multiple_of(args.every) {
            bar.inc(1);
            clock = Instant::now();
            continue;
        }
        refereed += 1;
        let seen = if index == 1 {
            watch
                .look(&image, t)
                .with_context(|| format!("{}: calibrating on the first frame", video.display()))?
        } else {
            watch.look(&image, t)?
        };
        times.locate.push(watch.times.locate);
        times.detect.push(watch.times.detect);
        times.track.push(watch.times.track);
        times.rules.push(watch.times.rules);
        let run = watch.models_run();
        times.detector_ran += u64::from(run.detector);
        times.real_hands_ran += u64::from(run.real_hands);
        // The move's last release stands at the hand leaving it (the clock
        // press and touches are not the move being read).
        let released = seen
            .events
            .iter()
            .rev()
            .find(|e| matches!(e.action, Action::Release(_)));
        if let Some(last) = released {
            latencies.push(t - last.t);
        }
        if let Some(clips) = &mut clips {
            clips.follow(&watch, &image, t, &seen)?;
        }
        rejected += u64::from(seen.rejected);
        events.extend(seen.events);
        bar.inc(1);
        clock = Instant::now();
    }
    if index == 0 {
        return Err(anyhow!("{}: the video has no frames", video.display()));
    }
    bar.finish_and_clear();
    let last = watch.flush_outside();
    rejected += u64::from(last.rejected);
    events.extend(last.events);
    let finished = watch.finish();
    rejected += u64::from(finished.rejected);
    events.extend(finished.events);
    let mut verdict = watch.referee().verdict();
    verdict.events = events;
    if let Some(clips) = &clips {
        for incident in &mut verdict.incidents {
            incident.clip = clips.of(&incident.id).map(|p| p.display().to_string());
        }
        verdict.stats.insert("evidence".into(), clips.figures());
    }
    let seconds = started.elapsed().as_secs_f64();
    let stats = &mut verdict.stats;
    stats.insert("frames".into(), index.into());
    stats.insert("frames_refereed".into(), refereed.into());
    if let Some(expected) = reader.length {
        // Frames the file announces that could not be decoded (corrupt, skipped).
        stats.insert("frames_expected".into(), expected.into());
        stats.insert(
            "frames_missing".into(),
            expected.saturating_sub(index).into(),
        );
    }
    stats.insert("seconds".into(), seconds.into());
    stats.insert("fps".into(), (index as f64 / seconds).into());
    stats.extend(times.figures());
    stats.insert("events_rejected".into(), rejected.into());
    let max_latency = latencies.iter().copied().fold(0.0, f64::max);
    stats.insert(
        "latency_ms".into(),
        serde_json::json!({"median": median(&mut latencies) * 1e3, "max": max_latency * 1e3}),
    );
    if let Some(corners) = watch.corners() {
        stats.insert("corners".into(), serde_json::json!(corners.0));
    }
    stats.insert(
        "hands".into(),
        match watch.hand_source() {
            HandSource::Auto => "undecided",
            HandSource::Real => "real",
            HandSource::Rendered => "rendered",
        }
        .into(),
    );
    if let Some(orientation) = watch.orientation() {
        stats.insert("white_side".into(), orientation.white_side().into());
    }
    let missing: Vec<serde_json::Value> = watch
        .missing_models()
        .iter()
        .map(|m| serde_json::json!({"model": m.model, "blind_to": m.blind_to, "reason": m.reason}))
        .collect();
    if !missing.is_empty() {
        stats.insert("missing_models".into(), missing.into());
    }
    Ok(verdict)
}

/// What the reader should know of how the replay saw the game, after the
/// verdict: frames the video announced that could not be decoded, and the
/// models it ran without (from the verdict's `stats`).
fn caveats(stats: &serde_json::Map<String, serde_json::Value>) -> String {
    let mut out = String::new();
    let count = |key: &str| {
        stats
            .get(key)
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0)
    };
    if count("frames_missing") > 0 {
        out.push_str(&format!(
            "Frames: {} of the {} the video announces could not be decoded; moves made meanwhile may be missing or recovered\n",
            count("frames_missing"),
            count("frames_expected"),
        ));
    }
    for model in stats
        .get("missing_models")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
    {
        out.push_str(&format!(
            "Not seen: no {}: {} ({})\n",
            model["model"].as_str().unwrap_or("?"),
            model["blind_to"].as_str().unwrap_or("?"),
            model["reason"].as_str().unwrap_or("?"),
        ));
    }
    out
}
