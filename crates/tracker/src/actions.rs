//! The physical events (lift, capture, add, release) that turn one board
//! into another by one side's hand.

use shakmaty::{Board, Color, Piece, Role, Square};

use referee_rules::Action;

/// The physical events of one piece of `mover` taken to where no legal
/// move goes, from board `from` to board `to`: lifted, the opponent's pieces
/// it leaves gone taken off while it is held, then set down (so the rules
/// see one move, not a move and a capture after it).
pub(crate) fn relocating(from: &Board, to: &Board, mover: Color) -> Vec<Action> {
    let differs = |sq: &Square| from.piece_at(*sq) != to.piece_at(*sq);
    let changed: Vec<Square> = Square::ALL.into_iter().filter(differs).collect();
    let lifted = changed
        .iter()
        .filter(|sq| {
            from.piece_at(**sq).is_some_and(|p| p.color == mover) && to.piece_at(**sq).is_none()
        })
        .map(|sq| Action::Lift(*sq));
    let taken = changed
        .iter()
        .filter(|sq| from.piece_at(**sq).is_some_and(|p| p.color != mover))
        .map(|sq| Action::Capture(*sq));
    let set_down = changed
        .iter()
        .filter(|sq| to.piece_at(**sq).is_some_and(|p| p.color == mover))
        .map(|sq| Action::Release(*sq));
    lifted.chain(taken).chain(set_down).collect()
}

/// The physical events that turn board `from` into board `to`, the mover's
/// hand doing it: each of its pieces lifted and set down on its new square
/// (the king before the rook), a piece standing there captured first,
/// opponent's pieces left over taken off, a pawn that became another piece
/// (or a piece just promoted to) exchanged for it.
pub fn transition(from: &Board, to: &Board, mover: Color) -> Vec<Action> {
    let differs = |sq: &Square| from.piece_at(*sq) != to.piece_at(*sq);
    let mut sources: Vec<(Square, Piece)> = Square::ALL
        .into_iter()
        .filter(differs)
        .filter_map(|sq| {
            from.piece_at(sq)
                .filter(|p| p.color == mover)
                .map(|p| (sq, p))
        })
        .collect();
    let mut victims: Vec<Square> = Square::ALL
        .into_iter()
        .filter(differs)
        .filter(|sq| from.piece_at(*sq).is_some_and(|p| p.color != mover))
        .collect();
    let mut targets: Vec<(Square, Piece)> = Square::ALL
        .into_iter()
        .filter(differs)
        .filter_map(|sq| to.piece_at(sq).map(|p| (sq, p)))
        .collect();
    // The king first, as castling is made.
    targets.sort_by_key(|(_, p)| p.role != Role::King);
    let mut actions = Vec::new();
    for (to_sq, piece) in targets {
        let source = sources
            .iter()
            .position(|(_, p)| *p == piece)
            .or_else(|| sources.iter().position(|(_, p)| p.role == Role::Pawn))
            // A promoted piece exchanged for another where it stands.
            .or_else(|| sources.iter().position(|(sq, _)| *sq == to_sq));
        let Some(index) = source else { continue };
        let (from_sq, moved) = sources.remove(index);
        let capture_here = victims
            .iter()
            .position(|v| *v == to_sq)
            .map(|i| victims.remove(i));
        if moved == piece {
            actions.push(Action::Lift(from_sq));
            actions.extend(capture_here.map(Action::Capture));
            actions.push(Action::Release(to_sq));
        } else {
            // Promotion: the pawn off, the new piece in.
            actions.extend(capture_here.map(Action::Capture));
            actions.push(Action::Capture(from_sq));
            actions.push(Action::Add(to_sq, piece.role));
            actions.push(Action::Release(to_sq));
        }
    }
    actions.extend(victims.into_iter().map(Action::Capture));
    actions
}
