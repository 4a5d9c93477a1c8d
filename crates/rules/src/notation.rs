//! How moves and pieces are written for people: `Nb8-c6`, `e7xd8=Q`,
//! `O-O`, `Ng8`, `pawn e2`.

use shakmaty::{CastlingSide, Move, Piece, Role, Square};

/// Long algebraic notation with the piece letter.
pub fn long_move(m: &Move) -> String {
    match *m {
        Move::Castle { .. } => match m.castling_side() {
            Some(CastlingSide::QueenSide) => "O-O-O".into(),
            _ => "O-O".into(),
        },
        Move::Put { role, to } => format!("{}@{to}", role.upper_char()),
        _ => {
            let from = m.from().map(|sq| sq.to_string()).unwrap_or_default();
            let sep = if m.is_capture() { 'x' } else { '-' };
            let promotion = m
                .promotion()
                .map(|r| format!("={}", r.upper_char()))
                .unwrap_or_default();
            format!("{}{from}{sep}{}{promotion}", letter(m.role()), m.to())
        }
    }
}

/// A piece on a square: `Ng8`, or `pawn e2`.
pub fn piece_on(piece: Piece, square: Square) -> String {
    match piece.role {
        Role::Pawn => format!("pawn {square}"),
        role => format!("{}{square}", role.upper_char()),
    }
}

fn letter(role: Role) -> &'static str {
    match role {
        Role::Pawn => "",
        Role::Knight => "N",
        Role::Bishop => "B",
        Role::Rook => "R",
        Role::Queen => "Q",
        Role::King => "K",
    }
}
