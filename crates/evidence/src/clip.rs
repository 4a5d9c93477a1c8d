//! An incident's clip: the kept frames from [`LEAD_SECONDS`] before its
//! first touch to the moment it was raised (at most [`CLIP_SECONDS`]: a
//! longer turn keeps its first seconds and its last [`CLOSING_SECONDS`]),
//! each drawn on, as JPEG, with a manifest that says when each frame was
//! taken and which frames show each touch and the move.

use std::str::FromStr;

use referee_rules::{Incident, IncidentKind, MoveRecord, Referee};
use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Position, Square};

use crate::Result;
use crate::draw::{Frame, Overlay};
use crate::ring::{FrameRing, LEAD_SECONDS, Sighting};

/// The longest clip (s).
pub const CLIP_SECONDS: f64 = 8.0;

/// What a clip longer than [`CLIP_SECONDS`] keeps of its end: the move.
pub const CLOSING_SECONDS: f64 = 3.0;

/// The frames that may show a touch: from this long before its time (s)…
const CONTACT_BEFORE: f64 = 0.3;

/// … to this long after it (the fingertip's arrival, for most touches): a
/// fingertip resting longer there holds the piece it lifted, and the touch
/// was at the beginning of that rest.
const CONTACT_AFTER: f64 = 0.4;

/// A fingertip rests on its square where at most this share of the
/// square's pixels (percent) changed since the frame before.
const REST_MOTION: f32 = 2.0;

/// What the clip tells: the incident's touches in the Laws' order, and the
/// move played on that turn.
#[derive(Debug, Clone)]
pub struct Story {
    pub incident: String,
    /// When the incident was raised (its own time, s).
    pub t: f64,
    pub touches: Vec<Touched>,
    pub played: Option<Played>,
    /// The position before the incident's ply (FEN), for its diagram.
    pub fen: String,
}

/// A touch of the incident's turn.
#[derive(Debug, Clone)]
pub struct Touched {
    pub square: Square,
    /// FEN letter of the piece (upper case white).
    pub piece: String,
    pub t: f64,
}

/// The move played on the incident's turn.
#[derive(Debug, Clone)]
pub struct Played {
    pub san: String,
    pub from: Square,
    pub to: Square,
    /// When the piece was let go (s).
    pub t: f64,
}

impl Story {
    /// The story of `incident` (its id `id`), in the game `referee` keeps.
    pub fn of(incident: &Incident, id: &str, referee: &Referee) -> Self {
        let moves = referee.moves();
        let played = moves.iter().find(|m| m.ply == incident.ply).and_then(|m| {
            let (from, to) = match UciMove::from_str(&m.uci).ok()? {
                UciMove::Normal { from, to, .. } => (from, to),
                UciMove::Put { to, .. } => (to, to),
                UciMove::Null => return None,
            };
            Some(Played {
                san: m.san.clone(),
                from,
                to,
                t: m.t,
            })
        });
        let mut touches: Vec<Touched> = incident
            .touches
            .iter()
            .filter_map(|touch| {
                Some(Touched {
                    square: touch.square.parse().ok()?,
                    piece: touch.piece.clone(),
                    t: touch.t,
                })
            })
            .collect();
        if touches.is_empty()
            && matches!(
                incident.kind,
                IncidentKind::TouchOnOpponentTurn | IncidentKind::AdjustUndeclared
            )
        {
            // A touch out of turn, an adjustment, name their square and time only.
            touches = incident
                .squares
                .iter()
                .filter_map(|sq| {
                    Some(Touched {
                        square: sq.parse().ok()?,
                        piece: String::new(),
                        t: incident.t,
                    })
                })
                .collect();
        }
        Self {
            incident: id.to_string(),
            t: incident.t,
            touches,
            played,
            fen: before(referee.start(), moves, incident.ply),
        }
    }

    /// When the clip begins: a moment before the turn's first touch.
    fn begins(&self) -> f64 {
        let first = self.touches.iter().map(|t| t.t).fold(self.t, f64::min);
        first - LEAD_SECONDS
    }
}

/// The position before `ply`, from `start` through the record `moves`.
fn before(start: &Chess, moves: &[MoveRecord], ply: u32) -> String {
    let mut pos = start.clone();
    for m in moves.iter().filter(|m| m.ply < ply) {
        let played = UciMove::from_str(&m.uci)
            .ok()
            .and_then(|uci| uci.to_move(&pos).ok());
        match played.and_then(|mv| pos.clone().play(mv).ok()) {
            Some(next) => pos = next,
            None => break,
        }
    }
    Fen::from_position(&pos, EnPassantMode::Legal).to_string()
}

/// A clip cut: its frames as JPEG, and its manifest.
#[derive(Debug)]
pub struct Clip {
    pub frames: Vec<Vec<u8>>,
    pub manifest: Manifest,
}

/// What the panel needs to play a clip (serialized as the clip's JSON).
#[derive(Debug, Clone, Serialize)]
pub struct Manifest {
    pub incident: String,
    /// The position before the incident's ply (FEN).
    pub fen: String,
    /// Frames a second the clip was kept at (at most the camera's).
    pub fps: f64,
    pub width: i32,
    pub height: i32,
    pub frames: Vec<ClipFrame>,
    /// The touches in the Laws' order, each with the frame that shows the
    /// fingertip on the piece (the middle of its stay there).
    pub touches: Vec<MarkedTouch>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played: Option<MarkedMove>,
    /// Seconds of the turn left out of the middle of a long clip, when some were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_out: Option<[f64; 2]>,
    /// The JPEG bytes of all its frames.
    pub bytes: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct ClipFrame {
    pub t: f64,
    /// The frame's file, beside the manifest.
    pub file: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct MarkedTouch {
    pub order: usize,
    pub square: String,
    pub piece: String,
    pub t: f64,
    /// The frame showing it, an index into `frames`.
    pub frame: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct MarkedMove {
    pub san: String,
    pub from: String,
    pub to: String,
    pub t: f64,
    pub frame: usize,
}

/// Cuts the clip of `story` from what `ring` holds, up to now; its frames'
/// files are named `PREFIX-NNN.jpg`. `None` when no kept frame falls in it.
pub fn cut(ring: &FrameRing, story: &Story, prefix: &str) -> Result<Option<Clip>> {
    let kept: Vec<&Sighting> = ring.frames().collect();
    let Some(end) = kept.last().map(|f| f.t) else {
        return Ok(None);
    };
    let begins = story.begins().min(end);
    let long = end - begins > CLIP_SECONDS;
    let opening_ends = begins + CLIP_SECONDS - CLOSING_SECONDS;
    let closing_begins = end - CLOSING_SECONDS;
    let chosen: Vec<&Sighting> = kept
        .into_iter()
        .filter(|f| f.t >= begins - 1e-6)
        .filter(|f| !long || f.t <= opening_ends || f.t >= closing_begins)
        .collect();
    if chosen.is_empty() {
        return Ok(None);
    }
    let marks: Vec<usize> = story
        .touches
        .iter()
        .map(|touch| shown_at(&chosen, touch))
        .collect();
    let moved_at = story.played.as_ref().map(|p| nearest(&chosen, p.t));
    let overlay = Overlay {
        touches: &story.touches,
        marks: &marks,
        played: story.played.as_ref().zip(moved_at),
    };
    let mut frames = Vec::with_capacity(chosen.len());
    let mut size = (0, 0);
    for k in 0..chosen.len() {
        let drawn = Frame::decode(chosen[k])?.drawn(&chosen, k, &overlay)?;
        size = drawn.size;
        frames.push(drawn.jpeg);
    }
    let manifest = Manifest {
        incident: story.incident.clone(),
        fen: story.fen.clone(),
        fps: rate(&chosen),
        width: size.0,
        height: size.1,
        frames: chosen
            .iter()
            .enumerate()
            .map(|(k, f)| ClipFrame {
                t: round_ms(f.t),
                file: format!("{prefix}-{k:03}.jpg"),
            })
            .collect(),
        touches: story
            .touches
            .iter()
            .zip(&marks)
            .enumerate()
            .map(|(k, (touch, &frame))| MarkedTouch {
                order: k + 1,
                square: touch.square.to_string(),
                piece: touch.piece.clone(),
                t: round_ms(touch.t),
                frame,
            })
            .collect(),
        played: story
            .played
            .as_ref()
            .zip(moved_at)
            .map(|(p, frame)| MarkedMove {
                san: p.san.clone(),
                from: p.from.to_string(),
                to: p.to.to_string(),
                t: round_ms(p.t),
                frame,
            }),
        left_out: long.then_some([round_ms(opening_ends), round_ms(closing_begins)]),
        bytes: frames.iter().map(Vec::len).sum(),
    };
    Ok(Some(Clip { frames, manifest }))
}

/// The frame that shows `touch`. Where a fingertip was read on its square
/// near the touch's time: the middle of the fingertip's rest there (from
/// the first to the last frame on which the fingertip stayed there and the
/// square's picture all but did not move: not the hand arriving, maybe
/// still above the piece, nor the piece lifted), or of its stay
/// when it never rests. Else the first frame before the touch's time on
/// which the square's picture differed from the board's (the hand reaching
/// the piece, as a lift is seen); else the frame nearest the touch's time.
fn shown_at(frames: &[&Sighting], touch: &Touched) -> usize {
    let sq = touch.square;
    let near: Vec<usize> = (0..frames.len())
        .filter(|&k| (touch.t - CONTACT_BEFORE..=touch.t + CONTACT_AFTER).contains(&frames[k].t))
        .collect();
    let on = |k: usize| frames[k].glance.fingertip == Some(sq);
    let tip: Vec<usize> = near.iter().copied().filter(|&k| on(k)).collect();
    // A rest is a fingertip staying: on the square the frame before too
    // (its first frame there is its arrival, maybe still above the piece)
    // and the square's picture all but still.
    let resting: Vec<usize> = tip
        .iter()
        .copied()
        .filter(|&k| k > 0 && on(k - 1))
        .filter(|&k| frames[k].glance.motion[usize::from(sq)] <= REST_MOTION)
        .collect();
    if let (Some(&first), Some(&last)) = (resting.first(), resting.last()) {
        return nearest(frames, (frames[first].t + frames[last].t) / 2.0);
    }
    if let (Some(&first), Some(&last)) = (tip.first(), tip.last()) {
        // A fingertip that never rests: the middle of its stay.
        return nearest(frames, (frames[first].t + frames[last].t) / 2.0);
    }
    near.iter()
        .copied()
        .find(|&k| frames[k].t <= touch.t && frames[k].glance.changed.contains(sq))
        .unwrap_or_else(|| nearest(frames, touch.t))
}

/// The frame taken nearest `t`.
fn nearest(frames: &[&Sighting], t: f64) -> usize {
    (0..frames.len())
        .min_by(|&a, &b| (frames[a].t - t).abs().total_cmp(&(frames[b].t - t).abs()))
        .unwrap_or(0)
}

/// Frames a second over the clip (its median spacing).
fn rate(frames: &[&Sighting]) -> f64 {
    let mut gaps: Vec<f64> = frames.windows(2).map(|w| w[1].t - w[0].t).collect();
    gaps.sort_by(f64::total_cmp);
    match gaps.get(gaps.len() / 2) {
        Some(&gap) if gap > 0.0 => (1.0 / gap * 10.0).round() / 10.0,
        _ => 0.0,
    }
}

fn round_ms(t: f64) -> f64 {
    (t * 1000.0).round() / 1000.0
}

impl Clip {
    /// The manifest's file name for a clip whose frames are `PREFIX-NNN.jpg`.
    pub fn manifest_name(prefix: &str) -> String {
        format!("{prefix}.json")
    }

    /// Its frames' files: name and JPEG bytes.
    pub fn files(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.manifest
            .frames
            .iter()
            .zip(&self.frames)
            .map(|(f, jpeg)| (f.file.as_str(), jpeg.as_slice()))
    }

    /// The manifest as JSON.
    pub fn manifest_json(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(&self.manifest).unwrap_or_default()
    }
}
