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

use shakmaty::Board;

use crate::belief::BoardBelief;
use crate::decode::Shape;

/// Earlier still boards kept a turn: a hand hovering for minutes shows
/// many, and the latest tell most.
const KEPT: usize = 6;

/// The still boards seen since the table (the owner keeps which position
/// that is), oldest first.
#[derive(Debug, Clone, Default)]
pub struct Earlier {
    boards: Vec<(Shape, BoardBelief)>,
    /// The still board now, once the board moves on from it.
    now: Option<(Shape, BoardBelief)>,
}

/// How much the earlier still boards bear out a way, each as far as the
/// way has gone: for each earlier board (oldest first), the most the
/// boards up to it make any point of the way so far likelier than the
/// table, the way standing at those points in order.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Borne {
    by: [f32; KEPT],
    boards: usize,
}

impl Borne {
    /// The most all the earlier still boards bear the way out.
    pub fn total(&self) -> f32 {
        self.boards.checked_sub(1).map_or(0.0, |last| self.by[last])
    }
}

impl Earlier {
    /// Nothing seen: a move was read.
    pub fn forget(&mut self) {
        self.boards.clear();
        self.now = None;
    }

    /// The still board now, read as `belief`, best explained as `shape`
    /// (kept once the board moves on), or showing nothing the table does
    /// not explain (`None`).
    pub fn still(&mut self, shown: Option<(Shape, &BoardBelief)>) {
        self.now = shown.map(|(shape, belief)| (shape, belief.clone()));
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

    /// What the earlier boards bear out of a way from the `table` that
    /// went as `before` and now stands on `board`.
    pub fn step(&self, table: &Board, before: &Borne, board: &Board) -> Borne {
        let mut borne = Borne {
            boards: self.boards.len(),
            ..Borne::default()
        };
        let mut upto = 0.0f32;
        for (k, (_, belief)) in self.boards.iter().enumerate() {
            let here = belief.gain(table, board) + upto;
            borne.by[k] = before.by[k].max(here);
            upto = borne.by[k];
        }
        borne
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::glimpse::Glimpses;
    use crate::tests::after;

    const HISTORY: [&str; 2] = ["e2e4", "e7e5"];

    /// The still board after `ucis` from [`HISTORY`], shown to `glimpses`.
    fn show(glimpses: &mut Glimpses, ucis: &[&str]) {
        let seen = after(&[&HISTORY[..], ucis].concat());
        let shape = (seen.board().white(), seen.board().black(), seen.turn());
        let belief = BoardBelief::seeing(seen.board(), 0.9);
        glimpses.still_board(&after(&HISTORY), Some((shape, &belief)));
    }

    /// What the earlier boards bear out of the way through `ucis` from the
    /// position after `history`.
    fn borne(glimpses: &Glimpses, history: &[&str], ucis: &[&str]) -> f32 {
        let from: Chess = after(history);
        let mut all: Vec<&str> = history.to_vec();
        let mut borne = Borne::default();
        for uci in ucis {
            all.push(uci);
            borne = glimpses.borne(&from, &borne, after(&all).board());
        }
        borne.total()
    }

    #[test]
    fn a_way_through_the_boards_seen_still_is_borne_out_and_no_way_is_held_against() {
        let mut glimpses = Glimpses::default();
        show(&mut glimpses, &["g1f3"]);
        let way = ["g1f3", "b8c6"];
        assert_eq!(
            borne(&glimpses, &HISTORY, &way),
            0.0,
            "not yet an earlier board"
        );
        glimpses.board_moved();
        let through = borne(&glimpses, &HISTORY, &way);
        assert!(through > 3.0, "{through}");
        assert_eq!(
            borne(&glimpses, &HISTORY, &["g1h3", "b8c6"]),
            0.0,
            "the table at worst"
        );
        // In order: a board seen later stands no earlier on the way.
        show(&mut glimpses, &way);
        glimpses.board_moved();
        let both = borne(&glimpses, &HISTORY, &way);
        assert!(both > through + 3.0, "{both}");
        // The same board shown again counts once.
        show(&mut glimpses, &way);
        glimpses.board_moved();
        assert_eq!(borne(&glimpses, &HISTORY, &way), both);
        // From another position, nothing was seen.
        assert_eq!(borne(&glimpses, &["e2e4", "e7e5", "g1f3"], &["b8c6"]), 0.0);
    }
}
