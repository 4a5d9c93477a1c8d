//! What the earlier still boards since the table showed, as evidence for
//! the way the game went: a continuation is scored on the still board now
//! and on each earlier one, where the board stood at some point of its way
//! (in order: a later still board never stands earlier on the way than
//! one before it). A way that went through the boards seen on the way
//! (10. Qxc3 dxc4 seen still, then 11. Bxc4 Nd7) outweighs one that
//! reaches the board now as well but explains none of them (Qxc3 Nd7, the
//! d5 pawn read as taken left for the eyes' error).
//!
//! Input: the belief of each still board since the table (one a board
//! shown: a still board read as the one before it replaces it), the
//! boards along a way. Output: how much likelier than the table the
//! earlier still boards make the way, at best, never below nothing (the
//! table is on every way, and a hand lifting a piece to take another
//! shows a board no legal way goes through).

use shakmaty::{Board, Chess, Color, Position};

use crate::belief::BoardBelief;
use crate::decode::Shape;

/// Earlier still boards kept a turn: a hand hovering for minutes shows
/// many, and the latest tell most.
const KEPT: usize = 6;

/// The still boards seen since the table, oldest first.
#[derive(Debug, Clone, Default)]
pub struct Earlier {
    from: Option<(Board, Color)>,
    boards: Vec<(Shape, BoardBelief)>,
    /// The still board now, once the board moves on from it.
    now: Option<(Shape, BoardBelief)>,
}

/// How much the earlier still boards bear out a way, each as far as the
/// way has gone: for each earlier board (oldest first), the most the
/// boards up to it make any point of the way so far likelier than the
/// table, the way standing at those points in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Borne(Vec<f32>);

impl Borne {
    /// The most all the earlier still boards bear the way out.
    pub fn total(&self) -> f32 {
        self.0.last().copied().unwrap_or(0.0)
    }
}

impl Earlier {
    /// Nothing seen: a move was read.
    pub fn forget(&mut self) {
        self.from = None;
        self.boards.clear();
        self.now = None;
    }

    /// A still board at `from`, read as `belief`, best explained as
    /// `shape`: kept once the board moves on.
    pub fn still(&mut self, from: &Chess, shape: Shape, belief: &BoardBelief) {
        let origin = (from.board().clone(), from.turn());
        if self.from.as_ref() != Some(&origin) {
            self.forget();
            self.from = Some(origin);
        }
        self.now = Some((shape, belief.clone()));
    }

    /// The still board now shows nothing the table does not explain.
    pub fn nothing_shown(&mut self) {
        self.now = None;
    }

    /// The board moved: the still board it left is an earlier one now
    /// (replacing the last kept where it showed the same board).
    pub fn board_moved(&mut self) {
        let Some((shape, belief)) = self.now.take() else {
            return;
        };
        if self.boards.last().is_some_and(|(last, _)| *last == shape) {
            self.boards.pop();
        }
        self.boards.push((shape, belief));
        if self.boards.len() > KEPT {
            self.boards.remove(0);
        }
    }

    /// What the earlier boards bear out of a way from `from` that went
    /// as `before` and now stands on `board`.
    pub fn step(&self, from: &Chess, before: &Borne, board: &Board) -> Borne {
        if !self.here(from) || self.boards.is_empty() {
            return Borne::default();
        }
        let mut upto = 0.0f32;
        let mut borne = Vec::with_capacity(self.boards.len());
        for (k, (_, belief)) in self.boards.iter().enumerate() {
            let here = belief.gain(from.board(), board) + upto;
            let best = before.0.get(k).copied().unwrap_or(0.0).max(here);
            borne.push(best);
            upto = best;
        }
        Borne(borne)
    }

    fn here(&self, from: &Chess) -> bool {
        self.from
            .as_ref()
            .is_some_and(|(board, turn)| board == from.board() && *turn == from.turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::after;

    fn shape(position: &Chess) -> Shape {
        let board = position.board();
        (board.white(), board.black(), position.turn())
    }

    /// The earlier boards' support of the way through `ucis` from the
    /// position after `history`.
    fn borne(earlier: &Earlier, history: &[&str], ucis: &[&str]) -> f32 {
        let from = after(history);
        let mut all: Vec<&str> = history.to_vec();
        let mut borne = Borne::default();
        for uci in ucis {
            all.push(uci);
            borne = earlier.step(&from, &borne, after(&all).board());
        }
        borne.total()
    }

    const HISTORY: [&str; 2] = ["e2e4", "e7e5"];

    #[test]
    fn a_way_through_the_boards_seen_still_is_borne_out_and_no_way_is_held_against() {
        let from = after(&HISTORY);
        let seen = after(&["e2e4", "e7e5", "g1f3"]);
        let mut earlier = Earlier::default();
        earlier.still(&from, shape(&seen), &BoardBelief::seeing(seen.board(), 0.9));
        assert_eq!(
            borne(&earlier, &HISTORY, &["g1f3", "b8c6"]),
            0.0,
            "not yet an earlier board"
        );
        earlier.board_moved();
        let through = borne(&earlier, &HISTORY, &["g1f3", "b8c6"]);
        assert!(through > 3.0, "{through}");
        assert_eq!(
            borne(&earlier, &HISTORY, &["g1h3", "b8c6"]),
            0.0,
            "the table at worst"
        );
        // In order: a board seen later stands no earlier on the way.
        let later = after(&["e2e4", "e7e5", "g1f3", "b8c6"]);
        earlier.still(
            &from,
            shape(&later),
            &BoardBelief::seeing(later.board(), 0.9),
        );
        earlier.board_moved();
        let both = borne(&earlier, &HISTORY, &["g1f3", "b8c6"]);
        assert!(both > through + 3.0, "{both}");
        // The same board shown again counts once.
        earlier.still(
            &from,
            shape(&later),
            &BoardBelief::seeing(later.board(), 0.9),
        );
        earlier.board_moved();
        assert_eq!(borne(&earlier, &HISTORY, &["g1f3", "b8c6"]), both);
        // From another position, nothing was seen.
        assert_eq!(borne(&earlier, &["e2e4", "e7e5", "g1f3"], &["b8c6"]), 0.0);
    }
}
