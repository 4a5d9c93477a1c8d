//! Dataset mode for training (`referee synth --dataset N --seed S --out DIR`):
//! single frames varied at random across everything the renderer varies
//! (position, board and set colours, light, camera pose, noise, blur, JPEG
//! quality) with a hand touching, hovering or carrying in most of them.
//!
//! With [`Moments::Whole`], a touch or hover frame is taken at any moment
//! of its gesture (the hand coming in, over the squares, going away) and a
//! hover passes one to three squares at any height that clears them: what
//! a hand near pieces looks like when it does not touch them.
//!
//! Writes DIR/images/NNNNNN.jpg and DIR/labels.jsonl, one line an image:
//! the file, the board corners, the camera's yaw, and for every square its
//! occupant, piece, hand cover and fingertip contact.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use opencv::core::Vector;
use opencv::imgcodecs;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position, Square, attacks};

use crate::render::{FrameTruth, Renderer};
use crate::scenario::{HOVER_CLEARANCE, HOVER_LOWEST};
use crate::style::Looks;
use crate::{RenderError, Scenario, choreograph, pieces};

/// Longest random opening played before a sample, in plies.
const MAX_PLIES: usize = 80;

/// When in its gesture a touch or hover frame is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Moments {
    /// At the touch, or halfway through a hover over one square at the
    /// usual height (the frames a seed always gave).
    #[default]
    Key,
    /// Any moment of the gesture, hovers over one to three squares at
    /// heights from just over the pieces' heads to well above.
    Whole,
}

/// Highest hover drawn with [`Moments::Whole`], in squares over the board.
const HIGHEST_HOVER: f64 = 3.0;

#[derive(Debug, Serialize)]
struct Label<'a> {
    file: String,
    yaw: f64,
    action: &'a str,
    #[serde(flatten)]
    truth: FrameTruth,
}

/// Writes `count` labelled frames drawn from `seed` in `looks`; returns
/// how many. The classic looks of a seed are the frames it always gave.
pub fn write_dataset(
    count: usize,
    seed: u64,
    looks: Looks,
    moments: Moments,
    out: &Path,
) -> Result<usize, RenderError> {
    let write_error = |path: &Path, e: std::io::Error| RenderError::Write {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    let images = out.join("images");
    std::fs::create_dir_all(&images).map_err(|e| write_error(&images, e))?;
    let labels_path = out.join("labels.jsonl");
    let mut labels = std::io::BufWriter::new(
        std::fs::File::create(&labels_path).map_err(|e| write_error(&labels_path, e))?,
    );
    for index in 0..count {
        let mut rng =
            ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(index as u64));
        let (text, action, yaw) =
            random_scene(&mut rng, index as u64 ^ seed.rotate_left(17), moments);
        let scenario = Scenario::parse(&text).map_err(|error| RenderError::Scenario {
            path: format!("dataset sample {index}"),
            error,
        })?;
        let played = choreograph(&scenario).map_err(|error| RenderError::Scenario {
            path: format!("dataset sample {index}"),
            error,
        })?;
        let start = crate::output::start_position(&scenario).map_err(|e| RenderError::Write {
            path: format!("dataset sample {index}"),
            reason: e,
        })?;
        let style = looks.style(scenario.camera.seed, &mut rng);
        let renderer = Renderer::new(&scenario.camera, &start, &played, style)?;
        let t = sample_time(&played, action, moments, &mut rng);
        let (frame, truth) = renderer.frame(t, index as u64)?;
        let file = format!("images/{index:06}.jpg");
        let quality = rng.random_range(55..96);
        let params = Vector::<i32>::from(vec![imgcodecs::IMWRITE_JPEG_QUALITY, quality]);
        let path = out.join(&file);
        imgcodecs::imwrite(path.to_str().unwrap_or_default(), &frame, &params)?;
        let label = Label {
            file,
            yaw,
            action,
            truth,
        };
        let line = serde_json::to_string(&label).map_err(|e| RenderError::Write {
            path: labels_path.display().to_string(),
            reason: e.to_string(),
        })?;
        writeln!(labels, "{line}").map_err(|e| write_error(&labels_path, e))?;
    }
    labels.flush().map_err(|e| write_error(&labels_path, e))?;
    Ok(count)
}

/// A one-action scenario: a random position, camera and action.
fn random_scene(
    rng: &mut ChaCha8Rng,
    camera_seed: u64,
    moments: Moments,
) -> (String, &'static str, f64) {
    let mut pos = Chess::default();
    let plies = rng.random_range(0..MAX_PLIES);
    for _ in 0..plies {
        let legal = pos.legal_moves();
        let Some(m) = legal.choose(rng) else { break };
        pos.play_unchecked(*m);
        if pos.is_game_over() {
            break;
        }
    }
    let fen = Fen::from_position(&pos, EnPassantMode::Legal);
    let yaw: f64 = rng.random_range(-180.0..180.0);
    let mut text = format!("start fen {fen}\n");
    let _ = writeln!(
        text,
        "camera seed={camera_seed} tilt={:.1} yaw={yaw:.1} roll={:.1} light={:.2} noise={:.2} blur={:.2} zoom={:.2} occlusion={:.2}",
        rng.random_range(0.0..25.0),
        rng.random_range(-6.0..6.0),
        rng.random_range(0.7..1.3),
        rng.random_range(0.0..0.4),
        rng.random_range(0.0..0.5),
        rng.random_range(0.6..1.15),
        if rng.random_bool(0.15) {
            rng.random_range(0.05..0.3)
        } else {
            0.0
        },
    );
    let occupied: Vec<Square> = pos.board().occupied().into_iter().collect();
    let own: Vec<Square> = pos.us().into_iter().collect();
    let any = Square::ALL[rng.random_range(0..64)];
    let action = match rng.random_range(0..10) {
        0..=2 => "none",
        3..=5 => {
            let sq = occupied.choose(rng).copied().unwrap_or(any);
            let _ = writeln!(text, "touch {sq}");
            "touch"
        }
        6..=7 => {
            let line = match moments {
                Moments::Key => format!("hover {any}"),
                Moments::Whole => hover_near(&pos, any, rng),
            };
            let _ = writeln!(text, "{line}");
            "hover"
        }
        _ => {
            let from = own.choose(rng).copied().unwrap_or(any);
            let to = Square::ALL
                .into_iter()
                .filter(|sq| !pos.board().occupied().contains(*sq))
                .collect::<Vec<_>>();
            let to = to.choose(rng).copied().unwrap_or(from);
            let _ = writeln!(text, "lift {from}\nrelease {to}");
            "carry"
        }
    };
    if action == "none" {
        text.push_str("wait 1\n");
    }
    (text, action, yaw)
}

/// A hover from `first` over up to two more squares next to it in turn, at
/// a height that clears every piece on them by [`HOVER_CLEARANCE`] or more.
fn hover_near(pos: &Chess, first: Square, rng: &mut ChaCha8Rng) -> String {
    let mut passed = vec![first];
    for _ in 0..rng.random_range(0..=2) {
        let last = passed[passed.len() - 1];
        let near: Vec<Square> = attacks::king_attacks(last)
            .into_iter()
            .filter(|sq| !passed.contains(sq))
            .collect();
        if let Some(sq) = near.choose(rng) {
            passed.push(*sq);
        }
    }
    let head = passed
        .iter()
        .filter_map(|sq| pos.board().role_at(*sq))
        .map(pieces::height)
        .fold(0.0, f64::max);
    let low = (head + HOVER_CLEARANCE).max(HOVER_LOWEST);
    let height = rng.random_range(low..HIGHEST_HOVER.max(low + 0.1));
    let squares: Vec<String> = passed.iter().map(ToString::to_string).collect();
    format!(
        "hover {} height={height:.2} seconds={:.2}",
        squares.join(" "),
        rng.random_range(0.4..2.0)
    )
}

/// When to take the frame: at the touch, mid-hover, mid-carry, or any time
/// (with [`Moments::Whole`], a touch or hover at any moment of its gesture).
fn sample_time(
    played: &crate::Choreography,
    action: &str,
    moments: Moments,
    rng: &mut ChaCha8Rng,
) -> f64 {
    if moments == Moments::Whole
        && matches!(action, "touch" | "hover")
        && let Some(gesture) = played.gestures.first()
    {
        return rng.random_range(gesture.start..=gesture.end);
    }
    match (action, played.events.as_slice(), played.gestures.first()) {
        ("touch", [touch, ..], _) => touch.t,
        ("carry", [lift, release, ..], _) => {
            lift.t + (release.t - lift.t) * rng.random_range(0.3..0.7)
        }
        ("hover", _, Some(hover)) => (hover.start + hover.end) / 2.0,
        _ => rng.random_range(0.0..played.duration),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_gestures_hover_clear_of_the_pieces_and_are_taken_at_any_moment() {
        let mut hovers = 0;
        let mut off_the_key_moment = 0;
        for index in 0..200 {
            let mut rng = ChaCha8Rng::seed_from_u64(index);
            let (text, action, _) = random_scene(&mut rng, index, Moments::Whole);
            let scenario = Scenario::parse(&text).expect("a dataset scene parses");
            // The choreography refuses a hover through a piece's head.
            let played = choreograph(&scenario).expect("a dataset scene is played");
            if action == "hover" {
                hovers += 1;
                assert!(text.contains("height="), "{text}");
            }
            if matches!(action, "touch" | "hover") {
                let gesture = &played.gestures[0];
                let t = sample_time(&played, action, Moments::Whole, &mut rng);
                assert!((gesture.start..=gesture.end).contains(&t));
                let key = sample_time(&played, action, Moments::Key, &mut rng);
                off_the_key_moment += usize::from((t - key).abs() > 0.3);
            }
        }
        assert!(hovers > 20, "{hovers} hovers");
        assert!(off_the_key_moment > 30, "{off_the_key_moment}");
    }
}
