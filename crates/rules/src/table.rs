//! The table: what physically stands on the board during a turn, what is
//! held in the hand, and which piece is which.
//!
//! Every piece keeps the square it stood on when the turn began (its
//! origin), so that a touch of a piece already carried elsewhere still names
//! the right piece. Pieces brought from outside the board (promotion) have
//! no origin; while held they keep the square they were put on, so that a
//! `capture` of that square can take one back off before it is released.
//! A piece set down on an occupied square displaces the occupant until a
//! `capture` takes it away.

use shakmaty::{Board, Piece, Square};

use crate::error::ApplyError;

/// A piece off the board surface, in a hand.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Held {
    pub piece: Piece,
    /// Where it stood when the turn began; `None` for a piece added from outside.
    pub origin: Option<Square>,
    /// For a piece added from outside: the square it was put on.
    pub placed: Option<Square>,
}

impl Held {
    /// Whether a `capture` of `square` names this held piece: lifted from
    /// there, or added there and not yet released.
    fn taken_from(&self, square: Square) -> bool {
        self.origin.or(self.placed) == Some(square)
    }
}

/// A piece covered by another set down on its square, waiting to be captured.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Displaced {
    square: Square,
    piece: Piece,
}

/// The physical board during a turn.
#[derive(Debug, Clone)]
pub struct Table {
    board: Board,
    origins: [Option<Square>; 64],
    hand: Vec<Held>,
    displaced: Vec<Displaced>,
}

impl Table {
    /// The table at the start of a turn: `board` as it stands, every piece its own origin.
    pub fn new(board: Board) -> Self {
        let mut origins = [None; 64];
        for (square, _) in board.iter() {
            origins[usize::from(square)] = Some(square);
        }
        Self {
            board,
            origins,
            hand: Vec::new(),
            displaced: Vec::new(),
        }
    }

    /// What stands on the board now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The pieces in the hand, the last lifted last.
    pub fn hand(&self) -> &[Held] {
        &self.hand
    }

    /// True when nothing is held and no piece lies under another: the board
    /// is a position.
    pub fn is_settled(&self) -> bool {
        self.hand.is_empty() && self.displaced.is_empty()
    }

    /// The piece on `square` and its origin.
    pub fn piece_at(&self, square: Square) -> Option<(Piece, Option<Square>)> {
        self.board
            .piece_at(square)
            .map(|piece| (piece, self.origins[usize::from(square)]))
    }

    /// Finds the piece a `capture` of `square` takes: one displaced there, on
    /// the board there, or held after being lifted from there.
    pub fn capture_target(&self, square: Square) -> Option<(Piece, Option<Square>)> {
        if let Some(d) = self.displaced.iter().find(|d| d.square == square) {
            return Some((d.piece, None));
        }
        self.piece_at(square).or_else(|| {
            self.hand
                .iter()
                .rev()
                .find(|h| h.taken_from(square))
                .map(|h| (h.piece, h.origin))
        })
    }

    /// Picks up the piece on `square`.
    pub fn lift(&mut self, square: Square) -> Result<Held, ApplyError> {
        let piece = self
            .board
            .remove_piece_at(square)
            .ok_or(ApplyError::EmptySquare {
                action: "lift",
                square,
            })?;
        let held = Held {
            piece,
            origin: self.origins[usize::from(square)].take(),
            placed: None,
        };
        self.hand.push(held);
        Ok(held)
    }

    /// Sets the last held piece down on `square`.
    pub fn release(&mut self, square: Square) -> Result<Held, ApplyError> {
        let held = self.hand.pop().ok_or(ApplyError::NothingHeld { square })?;
        if let Some(piece) = self.board.remove_piece_at(square) {
            self.displaced.push(Displaced { square, piece });
        }
        self.board.set_piece_at(square, held.piece);
        self.origins[usize::from(square)] = held.origin;
        Ok(held)
    }

    /// Takes the piece [`Table::capture_target`] names off the board for good.
    pub fn capture(&mut self, square: Square) -> Result<(Piece, Option<Square>), ApplyError> {
        if let Some(index) = self.displaced.iter().position(|d| d.square == square) {
            let d = self.displaced.remove(index);
            return Ok((d.piece, None));
        }
        if let Some(piece) = self.board.remove_piece_at(square) {
            let origin = self.origins[usize::from(square)].take();
            return Ok((piece, origin));
        }
        if let Some(index) = self.hand.iter().rposition(|h| h.taken_from(square)) {
            let held = self.hand.remove(index);
            return Ok((held.piece, held.origin));
        }
        Err(ApplyError::EmptySquare {
            action: "capture",
            square,
        })
    }

    /// Takes `piece` from outside the board and puts it on `square`, still
    /// held (to be released).
    pub fn add(&mut self, piece: Piece, square: Square) {
        self.hand.push(Held {
            piece,
            origin: None,
            placed: Some(square),
        });
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Color, Role};

    use super::*;

    #[test]
    fn pieces_keep_their_origin_when_carried() {
        let mut table = Table::new(Board::default());
        table.lift(Square::G1).expect("knight");
        table.release(Square::F3).expect("held");
        let (piece, origin) = table.piece_at(Square::F3).expect("knight on f3");
        assert_eq!(piece.role, Role::Knight);
        assert_eq!(origin, Some(Square::G1));
        assert!(table.is_settled());
    }

    #[test]
    fn a_piece_set_on_an_occupied_square_waits_for_the_capture() {
        let mut table = Table::new(Board::default());
        table.lift(Square::D1).expect("queen");
        table.release(Square::D7).expect("held");
        assert!(!table.is_settled());
        let (victim, _) = table.capture(Square::D7).expect("the pawn underneath");
        assert_eq!(
            victim,
            Piece {
                color: Color::Black,
                role: Role::Pawn
            }
        );
        assert!(table.is_settled());
        assert_eq!(
            table.piece_at(Square::D7).map(|(p, _)| p.role),
            Some(Role::Queen)
        );
    }

    #[test]
    fn an_added_piece_can_be_taken_back_before_it_is_released() {
        let mut table = Table::new(Board::empty());
        let queen = Piece {
            color: Color::White,
            role: Role::Queen,
        };
        table.add(queen, Square::E8);
        assert_eq!(table.capture(Square::E8).expect("the queen"), (queen, None));
        assert!(table.hand().is_empty());
    }

    #[test]
    fn contradictions_are_errors() {
        let mut table = Table::new(Board::default());
        assert!(table.lift(Square::E4).is_err());
        assert!(table.release(Square::E4).is_err());
        assert!(table.capture(Square::E4).is_err());
    }
}
