//! `referee synth SCENARIO --out DIR`: renders a scenario to DIR/video.avi
//! (Motion JPEG, which the referee itself reads) and DIR/truth.json
//! (contracts.md §3: events, moves, fps, frames).

use std::path::{Path, PathBuf};

use opencv::core::Size;
use opencv::prelude::*;
use opencv::videoio::{self, VideoWriter};
use referee_rules::{Event, MoveRecord};
use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use crate::render::{FrameTruth, Renderer};
use crate::{Choreography, Scenario, choreograph};

/// What `truth.json` holds.
#[derive(Debug, Serialize)]
pub struct Truth {
    pub events: Vec<Event>,
    pub moves: Vec<MoveRecord>,
    pub incidents: Vec<referee_rules::Incident>,
    pub fps: f64,
    pub width: u32,
    pub height: u32,
    pub frames: Vec<FrameTruth>,
}

/// What a render produced.
#[derive(Debug)]
pub struct Rendered {
    pub video: PathBuf,
    pub truth: PathBuf,
    pub frames: usize,
}

/// Why a scenario could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("{path}: {error}")]
    Scenario {
        path: String,
        error: crate::ScenarioError,
    },
    #[error("cannot read {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("cannot write {path}: {reason}")]
    Write { path: String, reason: String },
    #[error("OpenCV failed while rendering: {0}")]
    OpenCv(#[from] opencv::Error),
}

/// The starting position a scenario names.
pub fn start_position(scenario: &Scenario) -> Result<Chess, String> {
    match &scenario.start_fen {
        None => Ok(Chess::default()),
        Some(text) => text
            .parse::<Fen>()
            .map_err(|e| format!("FEN `{text}`: {e}"))?
            .into_position(CastlingMode::Standard)
            .map_err(|e| format!("FEN `{text}`: {e}")),
    }
}

/// A scenario played out and ready to draw: its renderer and choreography.
pub fn stage(scenario: &Scenario) -> Result<(Renderer, Choreography), RenderError> {
    let scenario_error = |error| RenderError::Scenario {
        path: String::new(),
        error,
    };
    let played = choreograph(scenario).map_err(scenario_error)?;
    let start = start_position(scenario).map_err(|e| {
        scenario_error(crate::ScenarioError {
            line: 0,
            message: e,
        })
    })?;
    let renderer = Renderer::new(&scenario.camera, &start, &played, None)?;
    Ok((renderer, played))
}

/// Renders the scenario file at `path` into `out`.
pub fn render_file(path: &Path, out: &Path) -> Result<Rendered, RenderError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| RenderError::Read {
        path: name.clone(),
        reason: e.to_string(),
    })?;
    let scenario = Scenario::parse(&text).map_err(|error| RenderError::Scenario {
        path: name.clone(),
        error,
    })?;
    render(&scenario, out).map_err(|e| match e {
        RenderError::Scenario { error, .. } => RenderError::Scenario { path: name, error },
        other => other,
    })
}

/// Renders a parsed scenario into `out`.
pub fn render(scenario: &Scenario, out: &Path) -> Result<Rendered, RenderError> {
    let (renderer, played) = stage(scenario)?;
    let camera = &scenario.camera;
    let write_error = |path: &Path, reason: String| RenderError::Write {
        path: path.display().to_string(),
        reason,
    };
    std::fs::create_dir_all(out).map_err(|e| write_error(out, e.to_string()))?;
    let video = out.join("video.avi");
    let fourcc = VideoWriter::fourcc('M', 'J', 'P', 'G')?;
    let size = Size::new(camera.width as i32, camera.height as i32);
    let mut writer = VideoWriter::new(
        video.to_str().unwrap_or_default(),
        fourcc,
        camera.fps,
        size,
        true,
    )?;
    if !writer.is_opened()? {
        return Err(write_error(
            &video,
            "OpenCV could not open a Motion JPEG writer".into(),
        ));
    }
    writer.set(videoio::VIDEOWRITER_PROP_QUALITY, 90.0)?;
    let count = (played.duration * camera.fps).ceil() as u64;
    let mut frames = Vec::with_capacity(count as usize);
    for index in 0..count {
        let t = index as f64 / camera.fps;
        let (frame, truth) = renderer.frame(t, index)?;
        writer.write(&frame)?;
        frames.push(truth);
    }
    writer.release()?;
    let truth = Truth {
        events: played.events.clone(),
        moves: played.moves().to_vec(),
        incidents: played.verdict.incidents.clone(),
        fps: camera.fps,
        width: camera.width,
        height: camera.height,
        frames,
    };
    let truth_path = out.join("truth.json");
    let json =
        serde_json::to_string(&truth).map_err(|e| write_error(&truth_path, e.to_string()))?;
    std::fs::write(&truth_path, json).map_err(|e| write_error(&truth_path, e.to_string()))?;
    Ok(Rendered {
        video,
        truth: truth_path,
        frames: count as usize,
    })
}
