//! Explaining the squares that changed: how well a set of squares fits the
//! change, the legal move that best explains it, and runs of moves made
//! with no still picture between them.

use shakmaty::{CastlingSide, Chess, Move, Piece, Position, Role, Square};

use crate::squares::{board_difference, squares_where};

/// The squares a move empties or fills, one bit per `Square` index.
pub fn squares_changed(pos: &Chess, m: &Move) -> u64 {
    let bit = |sq: Square| 1u64 << usize::from(sq);
    match *m {
        Move::Castle { king, rook } => {
            let side = m.castling_side().unwrap_or(CastlingSide::KingSide);
            let us = pos.turn();
            bit(king) | bit(rook) | bit(side.king_to(us)) | bit(side.rook_to(us))
        }
        Move::EnPassant { from, to } => {
            bit(from) | bit(to) | bit(Square::from_coords(to.file(), from.rank()))
        }
        Move::Normal { from, to, .. } => bit(from) | bit(to),
        Move::Put { to, .. } => bit(to),
    }
}

/// The squares that changed, and how strongly each did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangeSet {
    /// Squares over the eyes' threshold, one bit per `Square` index.
    pub bits: u64,
    pub scores: [f32; 64],
    /// A changed square left out of an explanation with a score at most
    /// this is a residue of an earlier picture (the light, a piece set down
    /// a little off), whatever the explanation's squares changed by.
    pub faint: f32,
}

/// A changed square left out of an explanation must have changed less than
/// this share of the weakest square the explanation changes (a shadow, a
/// leaning neighbour).
const WEAK_SHARE: f32 = 0.5;

impl ChangeSet {
    /// A change where every square in `bits` changed equally.
    pub fn exact(bits: u64) -> Self {
        let mut scores = [0.0; 64];
        for (index, score) in scores.iter_mut().enumerate() {
            if bits & (1 << index) != 0 {
                *score = 1.0;
            }
        }
        Self {
            bits,
            scores,
            faint: 0.0,
        }
    }

    /// The changed squares that changed only faintly.
    pub fn faint_squares(&self) -> u64 {
        squares_where(self.bits, |sq| self.scores[usize::from(sq)] <= self.faint)
    }

    /// How well `squares` explains the change: every one of them changed,
    /// and every other changed square changed much less. Returns the
    /// weakest change among them (the confidence), or `None`.
    pub fn fits(&self, squares: u64) -> Option<f32> {
        if squares == 0 || squares & !self.bits != 0 {
            return None;
        }
        let weakest = Square::ALL
            .into_iter()
            .map(usize::from)
            .filter(|i| squares & (1 << i) != 0)
            .map(|i| self.scores[i])
            .fold(f32::INFINITY, f32::min);
        let extra = self.bits & !squares;
        let strongest_extra = (0..64)
            .filter(|i| extra & (1 << i) != 0)
            .map(|i| self.scores[i])
            .fold(0.0, f32::max);
        (strongest_extra < WEAK_SHARE * weakest || strongest_extra <= self.faint).then_some(weakest)
    }
}

/// The candidate that fits best, unless another fits as well.
pub(crate) fn best<T>(candidates: impl Iterator<Item = (T, f32)>) -> Option<T> {
    let mut ranked: Vec<(T, f32)> = candidates.collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut ranked = ranked.into_iter();
    let (first, score) = ranked.next()?;
    match ranked.next() {
        Some((_, second)) if second >= score * 0.999 => None,
        _ => Some(first),
    }
}

/// The legal move that best explains the change (a promotion is taken to a
/// queen: the squares cannot tell the piece); `None` when no move does, or
/// two do equally well.
pub fn explain(pos: &Chess, change: &ChangeSet) -> Option<Move> {
    explain_as_read(pos, change, &[None; 64])
}

/// [`explain`], a promotion taken to the piece the eyes read on its square
/// (`promoted`, by `Square` index; a queen where they cannot tell).
pub(crate) fn explain_as_read(
    pos: &Chess,
    change: &ChangeSet,
    promoted: &[Option<Piece>; 64],
) -> Option<Move> {
    best(
        pos.legal_moves()
            .into_iter()
            .filter(|m| promotes_as_read(m, promoted))
            .filter_map(|m| change.fits(squares_changed(pos, &m)).map(|fit| (m, fit))),
    )
}

/// Whether `m`, if it promotes, promotes to the piece read on its square
/// (`promoted`, by `Square` index; a queen where the eyes cannot tell).
pub(crate) fn promotes_as_read(m: &Move, promoted: &[Option<Piece>; 64]) -> bool {
    let read = promoted[usize::from(m.to())].map(|p| p.role);
    m.promotion()
        .is_none_or(|r| r == read.unwrap_or(Role::Queen))
}

/// Longest run of moves made with no still picture between them that the
/// tracker untangles.
pub const MAX_SEQUENCE: usize = 4;

/// The moves that together change exactly `changed` when several were made
/// with no still picture between them (up to [`MAX_SEQUENCE`]), every move
/// within the changed squares. Among several orders, the one whose squares
/// changed in that order (by `first_changed`) wins; a promotion is to the
/// piece read on its square (`promoted`, a queen where the eyes cannot
/// tell). `None` when nothing explains the change, or two different end
/// positions would.
pub fn explain_sequence(
    pos: &Chess,
    change: &ChangeSet,
    first_changed: &[Option<f64>; 64],
    promoted: &[Option<Piece>; 64],
) -> Option<Vec<Move>> {
    if let Some(m) = explain_as_read(pos, change, promoted) {
        return Some(vec![m]);
    }
    let mut found: Vec<Vec<Move>> = Vec::new();
    let mut path = Vec::new();
    let run = Run {
        start: pos,
        change,
        promoted,
    };
    run.search(pos, &mut path, &mut found);
    let end = |moves: &[Move]| {
        let mut after = pos.clone();
        for m in moves {
            after.play_unchecked(*m);
        }
        after.board().clone()
    };
    let first_end = end(found.first()?);
    if found.iter().any(|moves| end(moves) != first_end) {
        return None;
    }
    // Order: each move's squares should have changed no earlier than the previous move's.
    let when = |m: &Move| {
        let squares = squares_changed(pos, m);
        Square::ALL
            .into_iter()
            .filter(|sq| squares & (1 << usize::from(*sq)) != 0)
            .filter_map(|sq| first_changed[usize::from(sq)])
            .fold(f64::INFINITY, f64::min)
    };
    found.into_iter().min_by(|a, b| {
        let disorder = |moves: &Vec<Move>| {
            moves
                .windows(2)
                .filter(|w| when(&w[0]) > when(&w[1]))
                .count()
        };
        disorder(a).cmp(&disorder(b))
    })
}

/// What a run of moves is searched for: from where, the change it must
/// make, the pieces read where pawns may promote.
struct Run<'a> {
    start: &'a Chess,
    change: &'a ChangeSet,
    promoted: &'a [Option<Piece>; 64],
}

impl Run<'_> {
    /// Every run from `pos` on `path` that makes the change, into `found`.
    fn search(&self, pos: &Chess, path: &mut Vec<Move>, found: &mut Vec<Vec<Move>>) {
        if path.len() >= MAX_SEQUENCE || found.len() > 64 {
            return;
        }
        for m in pos.legal_moves() {
            if !promotes_as_read(&m, self.promoted)
                || squares_changed(pos, &m) & !self.change.bits != 0
            {
                continue;
            }
            let mut after = pos.clone();
            after.play_unchecked(m);
            path.push(m);
            if path.len() >= 2
                && self
                    .change
                    .fits(board_difference(self.start.board(), after.board()))
                    .is_some()
            {
                found.push(path.clone());
            } else {
                self.search(&after, path, found);
            }
            path.pop();
        }
    }
}
