//! The decoder's one hypothesis outside the rules: the mover's piece taken
//! from its square to one it may not reach, perhaps taking a piece beside
//! where it lands (art. 7.5). A still board this explains better than any
//! legal continuation is not decided as a legal move (the reading of the
//! move where it may not go, and the arbiter, take it).
//!
//! Input: the position the move is made from, the eyes' belief. Output:
//! the gain over the table of the likeliest such board, less its prior.

use shakmaty::{Bitboard, Board, Chess, Color, Position};

use crate::belief::{BoardBelief, differing};
use crate::decode::{RESIDUE_MARGIN, Search};

/// Log-likelihood an illegal move costs as an explanation: twice a legal
/// ply's on a still board, so that a legal move leaving one square misread
/// still wins, and one leaving a square clearly changed unexplained does not.
pub const ILLEGAL_COST: f32 = 2.0 * Search::READ.ply_cost;

/// The gain over the table, less [`ILLEGAL_COST`], of the likeliest board
/// that no legal move reaches and the eyes read on every square it
/// changes: the mover's piece gone from a square read emptied to one read
/// as the mover's (taking what stood there), with at most one more of the
/// opponent's pieces gone from a square read emptied next to it (the hand
/// that takes a piece sets its own down there or beside it: a piece gone
/// from across the board, an arm shading a corner, is no part of the move).
pub fn likeliest_gain(from: &Chess, belief: &BoardBelief) -> Option<f32> {
    let table = from.board();
    let mover = from.turn();
    // Only where the picture shows it: squares read otherwise than the
    // table, emptied or taken by the mover.
    let changed = belief.read_otherwise(table, RESIDUE_MARGIN);
    let read_as = |occupant: Option<Color>| -> Bitboard {
        changed
            .into_iter()
            .filter(|&sq| belief.get(sq).is_some_and(|b| b.likeliest().0 == occupant))
            .collect()
    };
    let (emptied, taken_by_mover) = (read_as(None), read_as(Some(mover)));
    let origins = emptied & table.by_color(mover);
    if origins.is_empty() || taken_by_mover.is_empty() {
        return None;
    }
    let removed = (emptied & table.by_color(!mover)).into_iter().map(Some);
    let legal: Vec<Board> = from
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut after = from.clone();
            after.play_unchecked(m);
            after.board().clone()
        })
        .collect();
    let reached_legally =
        |board: &Board| legal.iter().any(|after| differing(after, board).is_empty());
    origins
        .into_iter()
        .flat_map(|origin| {
            taken_by_mover
                .into_iter()
                .map(move |target| (origin, target))
        })
        .flat_map(|(origin, target)| {
            removed
                .clone()
                .filter(move |taken| taken.is_some_and(|sq| sq.distance(target) <= 1))
                .chain([None])
                .map(move |taken| (origin, target, taken))
        })
        .filter_map(|(origin, target, taken)| {
            let mut board = table.clone();
            let piece = board.remove_piece_at(origin)?;
            board.set_piece_at(target, piece);
            if let Some(taken) = taken {
                board.discard_piece_at(taken);
            }
            (!reached_legally(&board)).then(|| belief.gain(table, &board) - ILLEGAL_COST)
        })
        .max_by(f32::total_cmp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Square, fen::Fen};

    #[test]
    fn a_pawn_taking_a_piece_it_cannot_reach_is_likelier_than_its_step() {
        // After 1.e4 e5 2.d3 a6: d3-d4 with the e5 pawn taken off.
        let pos: Chess = "rnbqkbnr/1ppp1ppp/p7/4p3/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 0 3"
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal");
        let mut step = pos.board().clone();
        let pawn = step.remove_piece_at(Square::D3).expect("d3");
        step.set_piece_at(Square::D4, pawn);
        let mut taking = step.clone();
        taking.discard_piece_at(Square::E5);

        let belief = BoardBelief::seeing(&taking, 0.94);
        let illegal = likeliest_gain(&pos, &belief).expect("d3 to d4 taking e5");
        let legal = belief.gain(pos.board(), &step) - crate::Search::READ.ply_cost;
        assert!(illegal > legal, "{illegal} against d4's {legal}");

        // The step alone, e5 still standing: the legal move explains it all.
        let belief = BoardBelief::seeing(&step, 0.94);
        let legal = belief.gain(pos.board(), &step) - crate::Search::READ.ply_cost;
        assert!(likeliest_gain(&pos, &belief).is_none_or(|g| g < legal));

        // The step, and the opponent's rook far away read emptied (an arm
        // over a8): the legal move, and a square misread.
        let mut shaded = step.clone();
        shaded.discard_piece_at(Square::A8);
        let belief = BoardBelief::seeing(&shaded, 0.94);
        let legal = belief.gain(pos.board(), &step) - crate::Search::READ.ply_cost;
        assert!(likeliest_gain(&pos, &belief).is_none_or(|g| g < legal));
    }
}
