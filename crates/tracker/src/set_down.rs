//! Where each side's hand stopped over an empty square since the last move
//! read: its fingertip read there on frames that stood still, for a moment.
//! A hand sets its piece down where it goes, so of two ways on that the eyes
//! read alike (a light pawn gone from a light square, the eyes reading both
//! squares it may have gone to empty), the one whose piece arrives where its
//! side's hand stopped is the likelier.
//!
//! Input: each frame's fingertip, whose arm it is on, the motion on its
//! square (still as a resting touch's is: `touch::REST_MOTION`), and the
//! table. Output: what the stops bear out of a way on.

use shakmaty::{Bitboard, Board, ByColor, Chess, Color, Move, Position, Square};

use crate::Observation;
use crate::touch::stood_still;

/// How long (seconds), over at least two frames, a fingertip must stand
/// still on an empty square for its hand to have stopped there: a piece
/// set down is let go of over about a quarter of a second; a hand carrying
/// one over the board does not stop.
pub const SET_DOWN_SECONDS: f64 = 0.1;

/// What a way on gains (log-likelihood) for each of its plies that sets a
/// piece down where its side's hand stopped: more than
/// [`crate::DECIDE_MARGIN`], to tell apart two ways the eyes read alike;
/// less than one square read clearly, so that a fingertip read a square
/// off, or a hand pausing over the board, never outweighs what the eyes
/// see.
pub const SET_DOWN_GAIN: f32 = 1.5;

/// The squares each side's hand stopped over, empty, since the last move read.
#[derive(Debug, Clone, Default)]
pub struct SetDowns {
    stopped: ByColor<Bitboard>,
    stop: Option<Stop>,
    last_t: Option<f64>,
}

/// A fingertip standing still on one empty square, on consecutive frames.
#[derive(Debug, Clone, Copy)]
struct Stop {
    square: Square,
    side: Color,
    since: f64,
    frames: u32,
}

impl SetDowns {
    /// Takes one frame, `table` standing on the board as the record has it.
    pub fn follow(&mut self, obs: &Observation, table: &Board) {
        let interval = self.last_t.replace(obs.t).map_or(0.0, |last| obs.t - last);
        let standing = |square: Square| {
            interval > 0.0 && stood_still(obs.motion[usize::from(square)], interval)
        };
        let here = match (obs.fingertip, obs.toucher) {
            (Some(square), Some(side)) if table.piece_at(square).is_none() && standing(square) => {
                Some((square, side))
            }
            _ => None,
        };
        self.stop = here.map(|(square, side)| match self.stop {
            Some(stop) if stop.square == square && stop.side == side => Stop {
                frames: stop.frames + 1,
                ..stop
            },
            _ => Stop {
                square,
                side,
                since: obs.t - interval,
                frames: 1,
            },
        });
        if let Some(stop) = self.stop
            && stop.frames >= 2
            && obs.t - stop.since >= SET_DOWN_SECONDS - 1e-3
        {
            self.stopped[stop.side].add(stop.square);
        }
    }

    /// The squares each side's hand stopped over.
    pub fn stopped(&self) -> ByColor<Bitboard> {
        self.stopped
    }

    /// A move was read: the stops so far were its.
    pub fn clear(&mut self) {
        self.stopped = ByColor::default();
        self.stop = None;
    }
}

/// What the stops `stopped` bear out of `m`, played from `position` after
/// `earlier` (the way's plies before it, from where the stops were seen):
/// [`SET_DOWN_GAIN`] where it sets a piece down on an empty square its
/// side's hand stopped over, unless an earlier ply of that side already
/// did there.
pub fn set_down_gain(
    stopped: &ByColor<Bitboard>,
    position: &Chess,
    earlier: &[Move],
    m: &Move,
) -> f32 {
    let side = position.turn();
    let to = m.to();
    let onto_empty = !m.is_castle() && position.board().piece_at(to).is_none();
    let again = earlier
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .any(|e| e.to() == to);
    if onto_empty && !again && stopped[side].contains(to) {
        SET_DOWN_GAIN
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{after, frame};

    /// White's fingertip on `tip` at `t`, its square's picture `motion`
    /// changed since the frame before.
    fn white_tip(t: f64, tip: Square, motion: f32) -> Observation {
        let mut obs = frame(t, &[], true, Some(tip));
        obs.toucher = Some(Color::White);
        obs.motion[usize::from(tip)] = motion;
        obs
    }

    fn stops(frames: &[Observation]) -> ByColor<Bitboard> {
        let mut set_down = SetDowns::default();
        for obs in frames {
            set_down.follow(obs, &Board::default());
        }
        set_down.stopped()
    }

    #[test]
    fn a_hand_stops_where_it_stands_still_over_an_empty_square_for_a_moment() {
        let at_25 = |n: usize, motion: f32| {
            (0..n)
                .map(|k| white_tip(1.0 + 0.04 * k as f64, Square::C4, motion))
                .collect::<Vec<_>>()
        };
        assert_eq!(stops(&at_25(4, 0.0)).white, Bitboard::from(Square::C4));
        assert!(stops(&at_25(2, 0.0)).white.is_empty(), "too short");
        assert!(stops(&at_25(6, 30.0)).white.is_empty(), "carried over it");
        let on_a_piece: Vec<_> = (0..6)
            .map(|k| white_tip(1.0 + 0.04 * f64::from(k), Square::C2, 0.0))
            .collect();
        assert!(stops(&on_a_piece).white.is_empty(), "a touch, not a stop");
    }

    #[test]
    fn a_stop_bears_out_a_ply_of_its_side_onto_it_once() {
        let from = after(&["h2h3", "c7c5"]);
        let mut stopped = ByColor::<Bitboard>::default();
        stopped.white.add(Square::C4);
        let play = |uci: &str, pos: &Chess| {
            uci.parse::<shakmaty::uci::UciMove>()
                .expect("uci")
                .to_move(pos)
                .expect("legal")
        };
        let c4 = play("c2c4", &from);
        assert_eq!(set_down_gain(&stopped, &from, &[], &c4), SET_DOWN_GAIN);
        let c3 = play("c2c3", &from);
        assert_eq!(set_down_gain(&stopped, &from, &[], &c3), 0.0);
        let black = after(&["h2h3", "c7c5", "g1f3"]);
        let c5c4 = play("c5c4", &black);
        assert_eq!(
            set_down_gain(&stopped, &black, &[], &c5c4),
            0.0,
            "White's hand stopped there"
        );
    }
}
