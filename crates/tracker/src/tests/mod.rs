//! The tracker's tests, fed observations frame by frame, and their
//! shared helpers.

use super::*;
use shakmaty::{Bitboard, Board, Chess, Color, Rank, Role, Square};

use crate::squares::{colour_on, squares_in};

mod moves;
mod promotion;
mod touches;
mod unseen;

/// The position `moves` (UCI) reach from the start.
pub(crate) fn after(moves: &[&str]) -> Chess {
    let mut pos = Chess::default();
    for uci in moves {
        let m = uci
            .parse::<shakmaty::uci::UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        pos.play_unchecked(m);
    }
    pos
}

/// The position a test starts from.
fn from_fen(fen: &str) -> Chess {
    fen.parse::<shakmaty::fen::Fen>()
        .expect("fen")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("position")
}

/// What the events of 1. e4 played with nothing else seen are.
const E4_PLAYED: [Action; 2] = [Action::Lift(Square::E2), Action::Release(Square::E4)];

/// What `events` did, in order.
fn actions_of(events: &[Event]) -> Vec<Action> {
    events.iter().map(|e| e.action).collect()
}

fn bits(squares: &[Square]) -> u64 {
    squares.iter().fold(0, |b, sq| b | 1 << usize::from(*sq))
}

pub(crate) fn frame(
    t: f64,
    changed: &[Square],
    still: bool,
    fingertip: Option<Square>,
) -> Observation {
    let change = ChangeSet::exact(bits(changed));
    let mut scores = change.scores;
    if let Some(tip) = fingertip {
        // A finger over a piece covers part of its square.
        scores[usize::from(tip)] += 2.0 * REST_RISE;
    }
    Observation {
        t,
        changed: change.bits,
        scores,
        faint: 0.0,
        occupancy: [None; 64],
        detected: [None; 64],
        fingertip,
        toucher: None,
        at_clock: false,
        two_hands: None,
        covered: 0,
        promoted: [None; 64],
        still,
        motion: [0.0; 64],
        head_scores: [0.0; 64],
        head_motion: [0.0; 64],
        beyond_motion: [0.0; 64],
        belief: BoardBelief::unknown(),
    }
}

/// Feeds still frames with `changed` until the tracker accepts; returns its events.
fn settle(tracker: &mut Tracker, t: &mut f64, changed: &[Square]) -> Vec<Event> {
    let mut events = Vec::new();
    for _ in 0..8 {
        *t += 0.05;
        let step = tracker.push(&frame(*t, changed, true, None));
        events.extend(step.events);
        if step.accept != 0 {
            break;
        }
    }
    events
}
