//! When each square's picture moved since the last move was read, and the
//! times the actions of a reading are stamped with from it: each move at
//! the moments it was made (its pieces taken hold of, set down), not at the
//! moment the still board was read, so that a run of moves read at once
//! keeps each move's own time.

use std::collections::VecDeque;

use referee_rules::Action;
use shakmaty::{Bitboard, Color, Square};

/// A square's picture moved in a frame where more than this share of it
/// (percent of its pixels) changed since the frame before: a hand or a
/// carried piece over it, not the camera's noise.
pub const MOVED_MOTION: f32 = 5.0;

/// The moments kept a square: a hand held over the board for minutes
/// keeps only its latest.
const KEPT_MOMENTS: usize = 512;

/// The frames on which each square's picture moved.
#[derive(Debug, Clone)]
pub struct Moments {
    moved: [VecDeque<f64>; 64],
}

impl Default for Moments {
    fn default() -> Self {
        Self {
            moved: std::array::from_fn(|_| VecDeque::new()),
        }
    }
}

impl Moments {
    /// Takes one frame's motion, by `Square` index.
    pub fn follow(&mut self, t: f64, motion: &[f32; 64]) {
        for (moments, &share) in self.moved.iter_mut().zip(motion) {
            if share > MOVED_MOTION {
                if moments.len() == KEPT_MOMENTS {
                    moments.pop_front();
                }
                moments.push_back(t);
            }
        }
    }

    /// The squares whose picture moved on some frame since they were
    /// last forgotten.
    pub fn moved(&self) -> Bitboard {
        Square::ALL
            .into_iter()
            .filter(|&sq| !self.moved[usize::from(sq)].is_empty())
            .collect()
    }

    /// Forgets everything: nothing is under way.
    pub fn clear(&mut self) {
        self.moved.iter_mut().for_each(VecDeque::clear);
    }

    /// The time of each action of each move read at `read_at`, given when
    /// each move's first touch was seen. A move begins (its actions before
    /// the first piece set down) when one of the squares it takes a piece
    /// from first moved after its touch and the move before; it is made
    /// (the rest) when a square it sets a piece on last moved before the
    /// next move's touch (an arm reaching across later is not the move).
    /// A move whose squares never moved in that window begins at its touch
    /// and is made at the next move's touch (or `read_at`).
    pub fn stamp(
        &self,
        moves: &[(Color, Vec<Action>)],
        touched: &[Option<f64>],
        read_at: f64,
    ) -> Vec<Vec<f64>> {
        let mut ended = f64::NEG_INFINITY;
        let mut stamps = Vec::with_capacity(moves.len());
        for (k, (_, actions)) in moves.iter().enumerate() {
            let touch = touched.get(k).copied().flatten();
            let floor = touch.map_or(ended, |t| t.max(ended)).min(read_at);
            let next_touch = touched.get(k + 1).copied().flatten();
            let limit = next_touch.unwrap_or(read_at).clamp(floor, read_at);
            let taken = squares(actions, |a| match a {
                Action::Lift(sq) | Action::Capture(sq) => Some(*sq),
                _ => None,
            });
            let set = squares(actions, |a| match a {
                Action::Release(sq) | Action::Add(sq, _) => Some(*sq),
                _ => None,
            });
            let began = self
                .first_within(&taken, floor, limit)
                .unwrap_or(if floor.is_finite() { floor } else { limit });
            let made = self.last_within(&set, began, limit).unwrap_or(limit);
            ended = made;
            let first_set = actions
                .iter()
                .position(|a| matches!(a, Action::Release(_) | Action::Add(..)))
                .unwrap_or(actions.len());
            stamps.push(
                (0..actions.len())
                    .map(|i| if i < first_set { began } else { made })
                    .collect(),
            );
        }
        tracing::trace!(?stamps, ?touched, read_at, "the moments of the moves read");
        stamps
    }

    /// The first moment one of `squares` moved within `[from, to]`.
    fn first_within(&self, squares: &[Square], from: f64, to: f64) -> Option<f64> {
        self.moved_within(squares, from, to).reduce(f64::min)
    }

    /// The last moment one of `squares` moved within `[from, to]`.
    fn last_within(&self, squares: &[Square], from: f64, to: f64) -> Option<f64> {
        self.moved_within(squares, from, to).reduce(f64::max)
    }

    /// The moments `squares` moved within `[from, to]`.
    fn moved_within(&self, squares: &[Square], from: f64, to: f64) -> impl Iterator<Item = f64> {
        squares
            .iter()
            .flat_map(move |sq| self.moved[usize::from(*sq)].iter().copied())
            .filter(move |t| (from..=to).contains(t))
    }
}

fn squares(actions: &[Action], square: impl Fn(&Action) -> Option<Square>) -> Vec<Square> {
    actions.iter().filter_map(square).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moved(moments: &mut Moments, t: f64, squares: &[Square]) {
        let mut motion = [0.0; 64];
        for sq in squares {
            motion[usize::from(*sq)] = 40.0;
        }
        moments.follow(t, &motion);
    }

    fn step(color: Color, from: Square, to: Square) -> (Color, Vec<Action>) {
        (color, vec![Action::Lift(from), Action::Release(to)])
    }

    #[test]
    fn a_run_read_at_once_keeps_each_moves_time() {
        let mut moments = Moments::default();
        moved(&mut moments, 1.0, &[Square::E2]);
        moved(&mut moments, 1.5, &[Square::E2, Square::E4]);
        moved(&mut moments, 3.0, &[Square::E7]);
        moved(&mut moments, 3.4, &[Square::E5]);
        let moves = [
            step(Color::White, Square::E2, Square::E4),
            step(Color::Black, Square::E7, Square::E5),
        ];
        assert_eq!(
            moments.stamp(&moves, &[None, None], 5.0),
            vec![vec![1.0, 1.5], vec![3.0, 3.4]]
        );
    }

    #[test]
    fn arms_reaching_across_before_or_after_are_not_the_move() {
        let mut moments = Moments::default();
        // White's arm over d1 on its way to e2, Black's over e4 later.
        moved(&mut moments, 1.0, &[Square::D1, Square::E2]);
        moved(&mut moments, 1.5, &[Square::E4]);
        moved(&mut moments, 2.5, &[Square::E7, Square::E4]);
        moved(&mut moments, 2.8, &[Square::E5]);
        moved(&mut moments, 3.5, &[Square::D1]);
        moved(&mut moments, 3.9, &[Square::H5]);
        let moves = [
            step(Color::White, Square::E2, Square::E4),
            step(Color::Black, Square::E7, Square::E5),
            step(Color::White, Square::D1, Square::H5),
        ];
        let touched = [Some(1.0), Some(2.4), Some(3.4)];
        assert_eq!(
            moments.stamp(&moves, &touched, 5.0),
            vec![vec![1.0, 1.5], vec![2.5, 2.8], vec![3.5, 3.9]]
        );
    }

    #[test]
    fn unseen_squares_take_the_time_of_reading() {
        let moments = Moments::default();
        let moves = [step(Color::White, Square::E2, Square::E4)];
        assert_eq!(moments.stamp(&moves, &[None], 2.0), vec![vec![2.0, 2.0]]);
    }
}
