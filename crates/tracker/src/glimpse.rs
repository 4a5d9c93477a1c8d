//! The ways a still board was seen going since the table, however briefly:
//! each still moment ranks the continuations of the table, and its
//! likeliest (by its margin over the next board) is a glimpse of the way
//! the game went, though too short or too unsure to decide on. When the
//! board later settles on an arrangement two ways reach alike (a queen to
//! c2 or d3 before taking on c3; a knight taking on c3 or on f2, then the
//! queen taking it, when the eyes read only colours), the glimpses tell
//! which way it went.
//!
//! The frames between still moments tell too: a square a way sets a piece
//! on or takes one from moved on some frame (a hand, a piece carried).
//! Where every frame was seen, a way with a square that never moved (a
//! bishop to c5 by a3, where only b4 moved) is not the way it went.
//!
//! The still boards themselves are kept too, as evidence any way may
//! gather by going through them (`earlier.rs`).
//!
//! Input: each still moment's likeliest way and its margin, the position
//! the ways start from, the squares seen moving, the still boards' beliefs.
//! Output: how much the glimpses bear out a way, whether the motion does,
//! what the earlier still boards bear out of it, and the positions the
//! search must keep and go on from, as from the table (a run of moves
//! longer than the search looks ahead, seen part way).

use shakmaty::{Bitboard, Board, ByColor, Chess, Color, Move, Position};

use crate::belief::BoardBelief;
use crate::decode::Shape;
use crate::earlier::{Borne, Earlier};
use crate::set_down::set_down_gain;
use crate::squares::board_difference;

/// Glimpses kept a turn: a hand hovering for minutes keeps the clearest.
const KEPT: usize = 32;

/// The ways glimpsed from one position, each with the clearest margin it
/// was seen by.
#[derive(Debug, Clone, Default)]
pub struct Glimpses {
    from: Option<(Board, Color)>,
    seen: Vec<(Vec<Move>, f32)>,
    /// The squares seen moving since the table, where every frame was
    /// seen (`None` where moves may have been made unwatched).
    moved: Option<Bitboard>,
    /// The still boards seen since the table.
    earlier: Earlier,
    /// The empty squares each side's hand stopped over since the table
    /// (`set_down.rs`).
    stopped: ByColor<Bitboard>,
}

impl Glimpses {
    /// Nothing glimpsed: a move was read.
    pub fn forget(&mut self) {
        self.from = None;
        self.seen.clear();
        self.earlier.forget();
    }

    /// A still board at `from`, read as `belief`, best explained as
    /// `shape` (`None`: read as the table, or explained by nothing).
    pub fn still_board(&mut self, from: &Chess, shown: Option<(Shape, &BoardBelief)>) {
        self.at(from);
        self.earlier.still(shown);
    }

    /// The board moved on from the still board it showed.
    pub fn board_moved(&mut self) {
        self.earlier.board_moved();
    }

    /// What the earlier still boards bear out of a way from `from` that
    /// went as `before` and now stands on `board`.
    pub fn borne(&self, from: &Chess, before: &Borne, board: &Board) -> Borne {
        if self.here(from) {
            self.earlier.step(from.board(), before, board)
        } else {
            Borne::default()
        }
    }

    /// The squares seen moving since the table, or `None` where moves may
    /// have been made while nobody watched.
    pub fn moving(&mut self, moved: Option<Bitboard>) {
        self.moved = moved;
    }

    /// The empty squares each side's hand stopped over since the table.
    pub fn hands_stopped(&mut self, stopped: ByColor<Bitboard>) {
        self.stopped = stopped;
    }

    /// What the hands' stops bear out of `m`, played from `position` after
    /// `earlier` ([`set_down_gain`]).
    pub fn set_down(&self, position: &Chess, earlier: &[Move], m: &Move) -> f32 {
        set_down_gain(&self.stopped, position, earlier, m)
    }

    /// The motion and the hands' stops alone, for ways on from a position
    /// none was glimpsed from.
    pub fn motion(&self) -> Glimpses {
        Glimpses {
            moved: self.moved,
            stopped: self.stopped,
            ..Glimpses::default()
        }
    }

    /// Whether the motion bears out `moves` from `from`: every square
    /// they set a piece on or take one from was seen moving (true where
    /// motion was not followed).
    pub fn moved_for(&self, from: &Chess, moves: &[Move]) -> bool {
        let Some(moved) = self.moved else {
            return true;
        };
        let mut position = from.clone();
        let mut touched = Bitboard::EMPTY;
        for &m in moves {
            let before = position.board().clone();
            position.play_unchecked(m);
            touched |= Bitboard(board_difference(&before, position.board()));
        }
        touched.without(moved).is_empty()
    }

    /// A still moment found `moves` from `from` the likeliest way, by
    /// `margin` over the next board.
    pub fn see(&mut self, from: &Chess, moves: &[Move], margin: f32) {
        if moves.is_empty() || margin <= 0.0 {
            return;
        }
        self.at(from);
        match self.seen.iter_mut().find(|(way, _)| way == moves) {
            Some((_, clearest)) => *clearest = clearest.max(margin),
            None => self.seen.push((moves.to_vec(), margin)),
        }
        if self.seen.len() > KEPT {
            self.seen.sort_by(|a, b| b.1.total_cmp(&a.1));
            self.seen.truncate(KEPT);
        }
    }

    /// Whether the board was glimpsed as `moves` from `from` left it, on
    /// its way or at its end: a position the search keeps, however
    /// unlike the board now it is.
    pub fn saw(&self, from: &Chess, moves: &[Move]) -> bool {
        self.here(from)
            && self
                .seen
                .iter()
                .any(|(way, _)| way.len() >= moves.len() && way[..moves.len()] == *moves)
    }

    /// The most moves of a way glimpsed from `from`.
    pub fn longest(&self, from: &Chess) -> usize {
        if !self.here(from) {
            return 0;
        }
        self.seen
            .iter()
            .map(|(way, _)| way.len())
            .max()
            .unwrap_or(0)
    }

    /// How many of `moves` go beyond the last position on their way that
    /// the board was glimpsed in from `from` (all of them when none was).
    pub fn beyond(&self, from: &Chess, moves: &[Move]) -> usize {
        let glimpsed = if self.here(from) {
            self.seen
                .iter()
                .filter(|(way, _)| moves.starts_with(way))
                .map(|(way, _)| way.len())
                .max()
                .unwrap_or(0)
        } else {
            0
        };
        moves.len() - glimpsed
    }

    /// What is seen from here on is seen from `from`: what was seen from
    /// another position is let go.
    fn at(&mut self, from: &Chess) {
        if !self.here(from) {
            self.from = Some((from.board().clone(), from.turn()));
            self.seen.clear();
            self.earlier.forget();
        }
    }

    fn here(&self, from: &Chess) -> bool {
        self.from
            .as_ref()
            .is_some_and(|(board, turn)| board == from.board() && *turn == from.turn())
    }

    /// How much the glimpses from `from` bear out `moves`: the margins of
    /// those it goes the same way as, as far as both go.
    pub fn support(&self, from: &Chess, moves: &[Move]) -> f32 {
        if !self.here(from) {
            return 0.0;
        }
        self.seen
            .iter()
            .filter(|(way, _)| {
                let shared = way.len().min(moves.len());
                shared > 0 && way[..shared] == moves[..shared]
            })
            .map(|(_, margin)| margin)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    fn moves(from: &Chess, ucis: &[&str]) -> Vec<Move> {
        let mut pos = from.clone();
        ucis.iter()
            .map(|uci| {
                let m = uci
                    .parse::<UciMove>()
                    .expect("uci")
                    .to_move(&pos)
                    .expect("legal");
                pos.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn a_way_is_borne_out_by_the_glimpses_it_goes_through() {
        let start = Chess::default();
        let mut glimpses = Glimpses::default();
        glimpses.see(&start, &moves(&start, &["e2e4"]), 3.0);
        glimpses.see(&start, &moves(&start, &["e2e4"]), 5.0);
        glimpses.see(&start, &moves(&start, &["e2e4", "e7e5"]), 0.5);
        glimpses.see(&start, &moves(&start, &["d2d4"]), -1.0);
        let support = |ucis: &[&str]| glimpses.support(&start, &moves(&start, ucis));
        assert_eq!(support(&["e2e4", "e7e5", "g1f3"]), 5.5);
        assert_eq!(support(&["e2e4", "c7c5"]), 5.0);
        assert_eq!(
            support(&["d2d4"]),
            0.0,
            "a way less likely than another is no glimpse"
        );
        let on = |ucis: &[&str]| moves(&start, ucis);
        assert!(glimpses.saw(&start, &on(&["e2e4", "e7e5"])));
        assert!(!glimpses.saw(&start, &on(&["e2e4", "c7c5"])));
        assert_eq!(glimpses.longest(&start), 2);
        assert_eq!(glimpses.beyond(&start, &on(&["e2e4", "e7e5", "g1f3"])), 1);
        assert_eq!(glimpses.beyond(&start, &on(&["e2e4", "c7c5", "g1f3"])), 2);
        assert_eq!(glimpses.beyond(&start, &on(&["d2d4", "d7d5"])), 2);
        let after = {
            let mut pos = start.clone();
            pos.play_unchecked(moves(&start, &["e2e4"])[0]);
            pos
        };
        assert_eq!(
            glimpses.support(&after, &moves(&after, &["e7e5"])),
            0.0,
            "glimpsed from another position"
        );
        glimpses.forget();
        assert_eq!(glimpses.support(&start, &moves(&start, &["e2e4"])), 0.0);
    }
}
