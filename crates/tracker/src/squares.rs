//! Sets of squares, one bit per `Square` index, and what the eyes read on
//! them against a board: the small vocabulary every reading is built of.

use shakmaty::{Board, Color, Square};

use crate::Observation;

/// The squares of `bits` (one bit per `Square` index).
pub(crate) fn squares_in(bits: u64) -> impl Iterator<Item = Square> {
    Square::ALL
        .into_iter()
        .filter(move |sq| bits & (1 << usize::from(*sq)) != 0)
}

/// The squares of `bits` for which `keep` holds (one bit per `Square` index).
pub(crate) fn squares_where(bits: u64, keep: impl Fn(Square) -> bool) -> u64 {
    squares_in(bits)
        .filter(|sq| keep(*sq))
        .fold(0, |kept, sq| kept | 1 << usize::from(sq))
}

/// The colour of the piece on `sq` of `board` (`None`: empty).
pub(crate) fn colour_on(board: &Board, sq: Square) -> Option<Color> {
    board.piece_at(sq).map(|p| p.color)
}

/// The squares of `bits` whose colour the eyes read as `board` holds it.
pub(crate) fn read_as_on(bits: u64, board: &Board, obs: &Observation) -> u64 {
    squares_where(bits, |sq| {
        obs.occupancy[usize::from(sq)] == colour_on(board, sq)
    })
}

/// The changed squares whose colour the eyes read as `board` holds it.
pub(crate) fn read_as(board: &Board, obs: &Observation) -> u64 {
    read_as_on(obs.changed, board, obs)
}

/// The squares of `bits` the detector surely reads as `board` holds them.
pub(crate) fn detected_as(bits: u64, board: &Board, obs: &Observation) -> u64 {
    squares_where(bits, |sq| {
        obs.detected[usize::from(sq)] == Some(colour_on(board, sq))
    })
}

/// The squares next to any of `squares` (one bit per `Square` index).
pub(crate) fn around(squares: u64) -> u64 {
    Square::ALL
        .into_iter()
        .filter(|sq| squares & (1 << usize::from(*sq)) != 0)
        .fold(0, |near, sq| near | shakmaty::attacks::king_attacks(sq).0)
}

/// The squares whose content differs between two boards.
pub fn board_difference(a: &Board, b: &Board) -> u64 {
    squares_where(u64::MAX, |sq| a.piece_at(sq) != b.piece_at(sq))
}
