//! The piece a pawn promotes to: the first one read on its square
//! (art. 4.4d), even if it is exchanged before the picture is still.

use shakmaty::{Bitboard, Move, Position, Rank, Role, Square};

use crate::{DWELL_FRAMES, Observation, Tracker, streak};

impl Tracker {
    /// Follows the piece read on the squares the side to move may promote
    /// on, frame by frame, still or not (a hand exchanging the new piece
    /// keeps the picture moving): the first read for [`DWELL_FRAMES`] in a
    /// row is the piece chosen.
    pub(crate) fn follow_promotion(&mut self, obs: &Observation) {
        let us = self.pos.turn();
        let seventh = Bitboard::from_rank(us.relative_rank(Rank::Seventh));
        if self.promotion_chosen.is_some() || (self.pos.our(Role::Pawn) & seventh).is_empty() {
            return;
        }
        // Pieces of ours read on our last rank, no hand over them; then
        // (the legal moves asked only when there are) one a pawn may
        // promote on.
        let last = Bitboard::from_rank(us.relative_rank(Rank::Eighth));
        let read: Vec<(Square, Role)> = (last & !Bitboard(obs.covered))
            .into_iter()
            .filter_map(|sq| {
                let piece = obs.promoted[usize::from(sq)].filter(|p| p.color == us)?;
                Some((sq, piece.role))
            })
            .collect();
        let seen = if read.is_empty() {
            None
        } else {
            let targets: Bitboard = self
                .pos
                .legal_moves()
                .iter()
                .filter(|m| m.promotion().is_some())
                .map(|m| m.to())
                .collect();
            read.into_iter().find(|(sq, _)| targets.contains(*sq))
        };
        self.promotion_read = streak(self.promotion_read, seen);
        if let Some((chosen, DWELL_FRAMES)) = self.promotion_read {
            self.promotion_chosen = Some(chosen);
        }
    }

    /// The promotion first chosen, when `m` promotes on its square to
    /// another piece.
    pub(crate) fn promotion_changed(&self, m: &Move) -> Option<Move> {
        let (square, role) = self.promotion_chosen?;
        if square != m.to() || m.promotion().is_none_or(|r| r == role) {
            return None;
        }
        self.promotion_to(m, role)
    }

    /// The legal move promoting as `m` does (same pawn, same square) to
    /// `role` instead.
    pub(crate) fn promotion_to(&self, m: &Move, role: Role) -> Option<Move> {
        self.pos
            .legal_moves()
            .into_iter()
            .find(|c| c.from() == m.from() && c.to() == m.to() && c.promotion() == Some(role))
    }
}
