//! Moves decided by likelihood over legal continuations: on a still board,
//! the table and every position legal moves reach from it (the mover going
//! on, the reply, runs of a few plies) are scored against the eyes' belief,
//! and the likeliest is taken only when it beats the table and every other
//! position clearly.
//!
//! Input: the position the next move is made from (its board is the
//! table), a [`BoardBelief`], how many plies to look ahead. Output: the
//! continuations ranked, each with its gain over the table; which
//! promotion a pawn made is left to the caller (the eyes' colours cannot
//! tell a queen from a knight).

use std::collections::HashSet;

use shakmaty::{Bitboard, Board, Chess, Move, Position, Role};

use crate::belief::BoardBelief;

/// Log-likelihood each ply costs: where the eyes cannot tell, the shorter
/// explanation (and the table itself) wins.
pub const PLY_COST: f32 = 1.0;
/// Positions kept at each depth of the search.
pub const BEAM: usize = 24;

/// One way the game may have gone on from the table.
#[derive(Debug, Clone)]
pub struct Continuation {
    pub moves: Vec<Move>,
    pub position: Chess,
    /// How much likelier than the table the eyes find it, less [`PLY_COST`] a ply.
    pub gain: f32,
}

impl Continuation {
    /// The squares' occupants (empty, White, Black): all the eyes can tell apart.
    fn shape(&self) -> (Bitboard, Bitboard) {
        let board = self.position.board();
        (board.white(), board.black())
    }
}

/// The continuations of `from` up to `plies` plies (`beam` positions kept
/// at each depth), likeliest first, one
/// for each arrangement of the squares' occupants (a promotion is searched
/// as a queen; the caller names the piece). The table itself (no ply,
/// gain 0) is among them.
pub fn continuations(
    from: &Chess,
    belief: &BoardBelief,
    plies: usize,
    beam: usize,
) -> Vec<Continuation> {
    let table = from.board().clone();
    let root = Continuation {
        moves: Vec::new(),
        position: from.clone(),
        gain: 0.0,
    };
    let mut seen: HashSet<(Bitboard, Bitboard)> = HashSet::from([root.shape()]);
    let mut found = vec![root.clone()];
    let mut level = vec![root];
    for depth in 1..=plies {
        let mut next: Vec<Continuation> = level
            .iter()
            .flat_map(|c| {
                c.position
                    .legal_moves()
                    .into_iter()
                    .filter(|m| m.promotion().is_none_or(|r| r == Role::Queen))
                    .map(|m| {
                        let mut position = c.position.clone();
                        position.play_unchecked(m);
                        let gain = belief.gain(&table, position.board()) - PLY_COST * depth as f32;
                        let mut moves = c.moves.clone();
                        moves.push(m);
                        Continuation {
                            moves,
                            position,
                            gain,
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        next.sort_by(|a, b| b.gain.total_cmp(&a.gain));
        next.retain(|c| seen.insert(c.shape()));
        next.truncate(beam);
        found.extend(next.iter().cloned());
        level = next;
    }
    found.sort_by(|a, b| b.gain.total_cmp(&a.gain));
    found
}

/// How much likelier (log-likelihood) the position decided must be than the
/// table and than any other continuation: about one square read clearly.
pub const DECIDE_MARGIN: f32 = 1.0;
/// Plies looked ahead on a still board: the mover going on, the reply,
/// runs of moves made without a pause.
pub const DECIDE_PLIES: usize = 4;
/// Frames, and seconds from the first, that a decision must stand on a
/// still board before it is taken.
pub const DECIDE_FRAMES: u32 = 2;
pub const DECIDE_SECONDS: f64 = 0.15;

/// Plies searched, and positions kept at each depth, when the board has
/// read for [`RECOVER_SECONDS`] as a position no ordinary continuation
/// reaches: moves made while the eyes missed them (a hand over the board
/// at each still moment, frames lost, a camera reconnected).
pub const RECOVER_PLIES: usize = 8;
pub const RECOVER_BEAM: usize = 64;
pub const RECOVER_SECONDS: f64 = 1.0;
/// Squares the belief may read otherwise (each by at least
/// [`RESIDUE_MARGIN`]) than the position decided: more, and the picture
/// is not explained by it (a blank frame, the camera moved, a hand the
/// eyes took for pieces).
pub const MAX_RESIDUE: usize = 4;
pub const RESIDUE_MARGIN: f32 = 2.0;

/// How a still board was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// The ordinary way: the mover going on, the reply, a run of moves.
    Read,
    /// By the search for moves the eyes missed: the arbiter should check them.
    Recovered,
}

/// The decoder's verdict followed over the frames of a still board: the
/// same continuation, decided with a clear margin, on [`DECIDE_FRAMES`]
/// frames over [`DECIDE_SECONDS`], is taken.
#[derive(Debug, Clone, Default)]
pub struct StillDecision {
    /// The occupants decided, since when, on how many frames, and how.
    standing: Option<((Bitboard, Bitboard), f64, u32, Decided)>,
    /// When the deep search last ran.
    searched_at: Option<f64>,
    /// Since when the still board has read as a position the table does
    /// not explain, when it has.
    unexplained_since: Option<f64>,
}

impl StillDecision {
    /// The board moved, or a move was read: start again.
    pub fn reset(&mut self) {
        self.standing = None;
        self.unexplained_since = None;
        self.searched_at = None;
    }

    /// Whether a decision is being borne out.
    pub fn pending(&self) -> bool {
        self.standing.is_some()
    }

    /// Whether the last still frame read as the table, as well as a
    /// position decided must explain the picture (at most [`MAX_RESIDUE`]
    /// squares read otherwise).
    pub fn explained(&self) -> bool {
        self.unexplained_since.is_none()
    }

    /// One still frame at `t`, the next move made from `from`: the
    /// continuation decided, once it has stood long enough, and how.
    pub fn observe(
        &mut self,
        from: &Chess,
        belief: &BoardBelief,
        t: f64,
    ) -> Option<(Continuation, Decided)> {
        if !belief.is_informed() {
            self.reset();
            return None;
        }
        let unexplained = residue(belief, from.board()) > MAX_RESIDUE;
        if tracing::enabled!(tracing::Level::TRACE) {
            let best = ranked(from, belief, DECIDE_PLIES, BEAM);
            tracing::trace!(
                t,
                table_residue = ?belief.against(from.board()),
                best = ?best.as_ref().map(|(c, margin)| (
                    c.moves.iter().map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()).collect::<Vec<_>>(),
                    c.gain,
                    *margin,
                    residue(belief, c.position.board()),
                )),
                "still board"
            );
        }
        self.unexplained_since = unexplained.then(|| self.unexplained_since.unwrap_or(t));
        let mut decided = decide(from, belief, DECIDE_PLIES, BEAM).map(|d| (d, Decided::Read));
        // The deep search once the board has read unexplained a while,
        // then again each while it still does.
        let recovering = self
            .standing
            .is_some_and(|(_, _, _, how)| how == Decided::Recovered);
        if decided.is_none()
            && (recovering
                || self.unexplained_since.is_some_and(|since| {
                    t - since >= RECOVER_SECONDS
                        && self.searched_at.is_none_or(|at| t - at >= RECOVER_SECONDS)
                }))
        {
            self.searched_at = Some(t);
            decided =
                decide(from, belief, RECOVER_PLIES, RECOVER_BEAM).map(|d| (d, Decided::Recovered));
        }
        let Some((best, how)) = decided else {
            self.standing = None;
            return None;
        };
        let shape = best.shape();
        let (since, frames) = match self.standing {
            Some((standing, since, frames, _)) if standing == shape => (since, frames + 1),
            _ => (t, 1),
        };
        self.standing = Some((shape, since, frames, how));
        (frames >= DECIDE_FRAMES && t - since >= DECIDE_SECONDS).then_some((best, how))
    }
}

/// How many squares the belief reads otherwise than `board`, each by at
/// least [`RESIDUE_MARGIN`].
fn residue(belief: &BoardBelief, board: &Board) -> usize {
    belief.read_otherwise(board, RESIDUE_MARGIN)
}

/// The likeliest continuation up to `plies` plies (`beam` positions kept
/// at each depth), when it is not the table, beats the table and every
/// other continuation by [`DECIDE_MARGIN`], and explains the picture
/// (at most [`MAX_RESIDUE`] squares read otherwise).
pub fn decide(
    from: &Chess,
    belief: &BoardBelief,
    plies: usize,
    beam: usize,
) -> Option<Continuation> {
    // No continuation gains more than the squares read otherwise than the
    // table, by all their margins, less a ply: a still board read as the
    // table costs no search.
    let bound: f32 = belief.against(from.board()).iter().map(|(_, m)| m).sum();
    if bound - PLY_COST < DECIDE_MARGIN {
        return None;
    }
    let (best, margin) = ranked(from, belief, plies, beam)?;
    (best.gain >= DECIDE_MARGIN
        && margin >= DECIDE_MARGIN
        && residue(belief, best.position.board()) <= MAX_RESIDUE)
        .then_some(best)
}

/// The likeliest continuation and by how much it beats the next likeliest
/// (the table included), when it is not the table.
pub fn ranked(
    from: &Chess,
    belief: &BoardBelief,
    plies: usize,
    beam: usize,
) -> Option<(Continuation, f32)> {
    let mut ranked = continuations(from, belief, plies, beam).into_iter();
    let best = ranked.next()?;
    let runner_up = ranked.next().map_or(f32::NEG_INFINITY, |c| c.gain);
    (!best.moves.is_empty()).then(|| {
        let margin = best.gain - runner_up;
        (best, margin)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belief::SquareBelief;
    use shakmaty::{Color, Square};

    /// A belief that reads `board` on every square, sure to `p`.
    fn reading(board: &Board, p: f32) -> BoardBelief {
        let mut belief = BoardBelief::unknown();
        for sq in Square::ALL {
            let q = (1.0 - p) / 2.0;
            let probabilities = match board.color_at(sq) {
                None => [p, q, q],
                Some(Color::White) => [q, p, q],
                Some(Color::Black) => [q, q, p],
            };
            belief.add(sq, SquareBelief::from_probabilities(probabilities));
        }
        belief
    }

    fn after(moves: &[&str]) -> Chess {
        let mut pos = Chess::default();
        for uci in moves {
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .expect("uci")
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(m);
        }
        pos
    }

    #[test]
    fn the_still_table_is_kept_and_a_move_read_is_decided() {
        let start = Chess::default();
        assert!(ranked(&start, &reading(start.board(), 0.9), 4, BEAM).is_none());
        let played = after(&["e2e4"]);
        let (best, margin) =
            ranked(&start, &reading(played.board(), 0.9), 4, BEAM).expect("a move");
        assert_eq!(best.position.board(), played.board());
        assert_eq!(best.moves.len(), 1);
        assert!(margin > 3.0, "margin {margin}");
    }

    #[test]
    fn a_run_of_plies_made_unseen_is_found_whole() {
        let start = Chess::default();
        let played = after(&["d2d4", "d7d5", "c2c4", "e7e6"]);
        let best = decide(&start, &reading(played.board(), 0.9), 4, BEAM).expect("moves");
        assert_eq!(best.position.board(), played.board());
        assert_eq!(best.moves.len(), 4);
    }

    #[test]
    fn a_move_whose_arrival_a_hand_hides_is_not_guessed() {
        let start = Chess::default();
        let played = after(&["g1f3"]);
        let mut belief = reading(played.board(), 0.9);
        belief.hide(Bitboard::from_square(Square::F3) | Bitboard::from_square(Square::H3));
        let (_, margin) = ranked(&start, &belief, 2, BEAM).expect("the knight left");
        assert!(margin < 0.5, "Nf3 and Nh3 are alike to the eyes: {margin}");
    }

    #[test]
    fn moves_missed_beyond_a_run_are_recovered_once_the_board_has_read_so_a_while() {
        let pos = after(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
        let belief = reading(pos.board(), 0.9);
        let mut decision = StillDecision::default();
        let start = Chess::default();
        assert!(decision.observe(&start, &belief, 0.0).is_none());
        assert!(
            decision.observe(&start, &belief, 0.5).is_none(),
            "not before a second"
        );
        let mut t = 1.0;
        let (found, how) = loop {
            if let Some(found) = decision.observe(&start, &belief, t) {
                break found;
            }
            t += 0.1;
            assert!(t < 2.0, "recovered within the second after");
        };
        assert_eq!(how, Decided::Recovered);
        assert_eq!(found.position.board(), pos.board());
        assert_eq!(found.moves.len(), 6);
    }

    #[test]
    fn a_picture_no_position_explains_decides_nothing() {
        // A blank frame: every square read as a black piece.
        let mut belief = BoardBelief::unknown();
        for sq in Square::ALL {
            belief.add(sq, SquareBelief::from_probabilities([0.05, 0.05, 0.9]));
        }
        let mut decision = StillDecision::default();
        for k in 0..30 {
            assert!(
                decision
                    .observe(&Chess::default(), &belief, f64::from(k) * 0.1)
                    .is_none()
            );
        }
    }
}
