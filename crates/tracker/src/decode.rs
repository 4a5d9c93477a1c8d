//! Moves decided by likelihood over legal continuations: on a still board,
//! the table and every position legal moves reach from it (the mover going
//! on, the reply, runs of a few plies) are scored against the eyes' belief,
//! and the likeliest is taken only when it beats the table and every other
//! position clearly.
//!
//! Input: the position the next move is made from (its board is the
//! table), a [`BoardBelief`], how many plies to look ahead, and the ways
//! the still board was glimpsed going since the table (which tell apart
//! ways to one board, [`Glimpses`], with the squares seen moving and the
//! earlier still boards, whose evidence a way gathers as it goes through
//! them: `earlier.rs`). Output:
//! the continuations ranked, each with its gain over the table, one marked
//! a guess where another way to its board was as likely and nothing the
//! frames showed tells them apart; which promotion a pawn made is left to
//! the caller (the eyes' colours cannot tell a queen from a knight). The
//! decisions followed over the frames of a still board are `still.rs`'s.

use std::collections::{HashMap, HashSet};

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role};

use crate::belief::BoardBelief;
use crate::earlier::Borne;
use crate::glimpse::Glimpses;
use crate::illegal;

/// How far a search looks and what each ply costs in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Search {
    /// Plies looked ahead.
    pub plies: usize,
    /// Positions kept at each depth.
    pub beam: usize,
    /// Log-likelihood each ply costs: the prior against one more ply, so
    /// that where the eyes cannot tell, the shorter explanation (and the
    /// table itself) wins.
    pub ply_cost: f32,
    /// Whether a run may take a piece back to the square it left: nothing
    /// on a still board shows such a pair, which only lets the other side
    /// move twice (a hand at the picture's edge read as a second move of
    /// its own). The searches for moves the eyes missed allow it: over the
    /// time they span it may have happened.
    pub back_and_forth: bool,
}

impl Search {
    /// On a still board: the mover going on, the reply, runs of moves made
    /// without a pause. Most still moments follow no ply or one, so a ply
    /// must be seen on about two squares' worth of evidence (a lifted
    /// piece's shadow, a queen's head over the next square, are one).
    pub const READ: Search = Search {
        plies: DECIDE_PLIES,
        beam: 24,
        ply_cost: 2.0,
        back_and_forth: false,
    };
    /// Once the board has read for [`RECOVER_SECONDS`] as a position no
    /// ordinary continuation reaches, after a time nobody watched (frames
    /// lost, a camera reconnected, the picture blank): plies are known to
    /// be missing, so each costs less, the prior only preferring the
    /// shorter of two ways.
    pub const RECOVER: Search = Search {
        plies: RECOVER_PLIES,
        beam: 64,
        ply_cost: 1.0,
        back_and_forth: true,
    };

    /// The search for moves the eyes missed: [`Search::RECOVER`] after a
    /// time nobody watched; as deep while the board was watched (a hand
    /// over the board at each still moment), but each ply costing what it
    /// does on a still board: nothing says plies are missing, and a hand
    /// resting by the board, read as pieces, is no cheap run of moves.
    pub fn recover(watched: bool) -> Search {
        if watched {
            Search {
                ply_cost: Search::READ.ply_cost,
                ..Search::RECOVER
            }
        } else {
            Search::RECOVER
        }
    }
}

/// One way the game may have gone on from the table.
#[derive(Debug, Clone)]
pub struct Continuation {
    pub moves: Vec<Move>,
    pub position: Chess,
    /// How much likelier than the table the eyes find it (on the still
    /// board now and the earlier ones), less what its plies cost.
    pub gain: f32,
    /// What its plies cost: the search's cost a ply, more for a move that
    /// gives castling up ([`FORGOING_CASTLING`]).
    pub cost: f32,
    /// What the hands' stops bear out of its plies (`set_down.rs`; counted
    /// in `gain`).
    pub set_down: f32,
    /// What the earlier still boards bear out of it (counted in `gain`).
    pub borne: Borne,
    /// Another way to the same squares' occupants, as many plies, was as
    /// likely and no glimpse told them apart (a bishop to c5 by b4 or by
    /// a3, unseen between): which was played is a guess, for the arbiter
    /// to check.
    pub guessed: bool,
}

/// What tells continuations apart: the squares' occupants (empty, White,
/// Black: all the eyes can see) and the side to move (which they cannot).
pub(crate) type Shape = (Bitboard, Bitboard, Color);

impl Continuation {
    pub(crate) fn shape(&self) -> Shape {
        let board = self.position.board();
        (board.white(), board.black(), self.position.turn())
    }

    /// The same squares' occupants as `other`, the other side to move.
    fn other_turn_of(&self, other: &Continuation) -> bool {
        let (white, black, turn) = self.shape();
        let (other_white, other_black, other_turn) = other.shape();
        (white, black) == (other_white, other_black) && turn != other_turn
    }

    /// This continuation decided `how`, or recovered where it is a guess:
    /// the arbiter checks what the eyes could not tell.
    pub(crate) fn with(self, how: Decided) -> (Continuation, Decided) {
        let how = if self.guessed {
            Decided::Recovered
        } else {
            how
        };
        (self, how)
    }

    /// This way on from `from`, then `next` on from its position.
    pub(crate) fn then(&self, next: Continuation) -> Continuation {
        let mut moves = self.moves.clone();
        moves.extend(next.moves);
        Continuation {
            moves,
            position: next.position,
            gain: next.gain,
            cost: self.cost + next.cost,
            set_down: self.set_down + next.set_down,
            borne: next.borne,
            guessed: self.guessed || next.guessed,
        }
    }
}

/// The continuations of `from` up to `plies` plies (`beam` positions kept
/// at each depth), likeliest first, one for each arrangement of the
/// squares' occupants and side to move (a promotion is searched as a
/// queen; the caller names the piece). The table itself (no ply, gain 0)
/// is among them. A position the board was glimpsed in counts as the
/// table does: up to `plies` more are searched from it. Of two ways to one
/// arrangement, equally likely, the one the `glimpses` bear out most is
/// kept.
pub fn continuations(
    from: &Chess,
    belief: &BoardBelief,
    search: Search,
    glimpses: &Glimpses,
) -> Vec<Continuation> {
    let table = from.board().clone();
    let root = Continuation {
        moves: Vec::new(),
        position: from.clone(),
        gain: 0.0,
        cost: 0.0,
        set_down: 0.0,
        borne: Borne::default(),
        guessed: false,
    };
    let mut seen: HashSet<Shape> = HashSet::from([root.shape()]);
    let mut found = vec![root.clone()];
    let mut level = vec![root];
    for _ in 1..=search.plies + glimpses.longest(from) {
        let mut next: Vec<Continuation> = level
            .iter()
            .filter(|c| glimpses.beyond(from, &c.moves) < search.plies)
            .flat_map(|c| {
                let legal = c.position.legal_moves();
                let castles = Castles::of(&legal);
                legal
                    .into_iter()
                    .filter(|m| m.promotion().is_none_or(|r| r == Role::Queen))
                    .filter(|m| search.back_and_forth || !takes_back(&c.moves, m))
                    .map(|m| {
                        let mut position = c.position.clone();
                        position.play_unchecked(m);
                        let cost = c.cost + search.ply_cost + castles.forgone_by(&m);
                        let set_down = c.set_down + glimpses.set_down(&c.position, &c.moves, &m);
                        let borne = glimpses.borne(from, &c.borne, position.board());
                        let gain =
                            belief.gain(&table, position.board()) - cost + borne.total() + set_down;
                        let mut moves = c.moves.clone();
                        moves.push(m);
                        Continuation {
                            moves,
                            position,
                            gain,
                            cost,
                            set_down,
                            borne,
                            guessed: c.guessed,
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        next.sort_by(|a, b| {
            b.gain.total_cmp(&a.gain).then_with(|| {
                glimpses
                    .support(from, &b.moves)
                    .total_cmp(&glimpses.support(from, &a.moves))
            })
        });
        let next = distinct(next, &mut seen, |a, b| {
            let evidence = |c: &Continuation| {
                (
                    glimpses.support(from, &c.moves),
                    glimpses.moved_for(from, &c.moves),
                )
            };
            let ((a_seen, a_moved), (b_seen, b_moved)) = (evidence(a), evidence(b));
            if (a_seen - b_seen).abs() >= TIED {
                a_seen.total_cmp(&b_seen)
            } else {
                a_moved.cmp(&b_moved)
            }
        });
        // The beam, and every position the board was glimpsed in on the
        // way (unlike the board now, it may be the way to it).
        let next: Vec<Continuation> = next
            .into_iter()
            .enumerate()
            .filter(|(rank, c)| *rank < search.beam || glimpses.saw(from, &c.moves))
            .map(|(_, c)| c)
            .collect();
        found.extend(next.iter().cloned());
        level = next;
    }
    found.sort_by(|a, b| b.gain.total_cmp(&a.gain));
    found
}

/// Whether `m`, played after `run`, takes a piece of its side back to the
/// square one of that side's plies of the run took it from.
fn takes_back(run: &[Move], m: &Move) -> bool {
    run.iter()
        .rev()
        .skip(1)
        .step_by(2)
        .any(|earlier| m.from() == Some(earlier.to()) && earlier.from() == Some(m.to()))
}

/// What a move that gives castling up costs beyond a ply, where its side
/// could castle now (a king's move, a rook's from its corner): players
/// castle, and a king leaning over its rook's corner square reads as the
/// king's step, a rook cut off by the picture's edge as gone.
pub const FORGOING_CASTLING: f32 = 3.5;

/// What the plies `moves` from `from` cost beyond a ply each for the
/// castling they give up ([`FORGOING_CASTLING`] a move that does; counted
/// as far as they are legal).
pub(crate) fn castling_forgone(from: &Chess, moves: &[Move]) -> f32 {
    let mut position = from.clone();
    let mut cost = 0.0;
    for m in moves {
        if !position.is_legal(*m) {
            break;
        }
        cost += Castles::of(&position.legal_moves()).forgone_by(m);
        position.play_unchecked(*m);
    }
    cost
}

/// The rooks a side may castle with now.
struct Castles(Bitboard);

impl Castles {
    fn of(legal: &[Move]) -> Castles {
        Castles(
            legal
                .iter()
                .filter_map(|m| match m {
                    Move::Castle { rook, .. } => Some(*rook),
                    _ => None,
                })
                .collect(),
        )
    }

    /// What `m` costs beyond a ply for the castling it gives up: any
    /// king's move but castling, where its side may castle now; a rook's
    /// from the square it would castle with.
    fn forgone_by(&self, m: &Move) -> f32 {
        let forgoes = match m {
            Move::Castle { .. } => false,
            _ if m.role() == Role::King => self.0.any(),
            _ => m.role() == Role::Rook && m.from().is_some_and(|from| self.0.contains(from)),
        };
        if forgoes { FORGOING_CASTLING } else { 0.0 }
    }
}

/// Gains this close are the same: two ways to one board score alike.
pub(crate) const TIED: f32 = 1e-4;

/// The continuations of one depth, best first, one for each shape not
/// `seen` before. Of two ways to one shape as likely, the one the frames
/// between bear out more (`evidence`: glimpses, then motion) is kept; where
/// they tell them apart neither, the one kept is marked
/// [`Continuation::guessed`].
fn distinct(
    ranked: Vec<Continuation>,
    seen: &mut HashSet<Shape>,
    evidence: impl Fn(&Continuation, &Continuation) -> std::cmp::Ordering,
) -> Vec<Continuation> {
    let mut kept: Vec<Continuation> = Vec::new();
    let mut at: HashMap<Shape, usize> = HashMap::new();
    for c in ranked {
        let shape = c.shape();
        if seen.insert(shape) {
            at.insert(shape, kept.len());
            kept.push(c);
        } else if let Some(&index) = at.get(&shape) {
            let first = &mut kept[index];
            if (first.gain - c.gain).abs() >= TIED {
                continue;
            }
            match evidence(first, &c) {
                std::cmp::Ordering::Greater => {}
                std::cmp::Ordering::Less => *first = c,
                std::cmp::Ordering::Equal => first.guessed = true,
            }
        }
    }
    kept
}

/// How much likelier (log-likelihood) the position decided must be than the
/// table and than any other continuation: about one square read clearly.
pub const DECIDE_MARGIN: f32 = 1.0;
/// Plies looked ahead on a still board ([`Search::READ`]).
pub const DECIDE_PLIES: usize = 4;
/// Frames, and seconds from the first, that a decision must stand on a
/// still board before it is taken.
pub const DECIDE_FRAMES: u32 = 2;
pub const DECIDE_SECONDS: f64 = 0.15;

/// Plies searched for moves the eyes missed ([`Search::RECOVER`]).
pub const RECOVER_PLIES: usize = 8;
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

/// Moves as the arbiter's log writes them.
pub(crate) fn uci(moves: &[Move]) -> Vec<String> {
    moves
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect()
}

/// How many squares the belief reads otherwise than `board`, each by at
/// least [`RESIDUE_MARGIN`].
pub(crate) fn residue(belief: &BoardBelief, board: &Board) -> usize {
    read_otherwise(belief, board).count()
}

/// Whether `board` explains the picture: at most [`MAX_RESIDUE`] squares
/// read otherwise.
pub fn explains(belief: &BoardBelief, board: &Board) -> bool {
    residue(belief, board) <= MAX_RESIDUE
}

/// The squares the belief reads otherwise than `board` by at least
/// [`RESIDUE_MARGIN`].
pub fn read_otherwise(belief: &BoardBelief, board: &Board) -> Bitboard {
    belief.read_otherwise(board, RESIDUE_MARGIN)
}

/// A still board decided: the likeliest way on, and the same board with
/// the other side to move when that is as likely as the eyes can tell.
#[derive(Debug, Clone)]
pub struct Decision {
    pub best: Continuation,
    pub twin: Option<Continuation>,
}

/// The likeliest continuation the `search` finds, when it is not the table,
/// beats the table, every other board and the likeliest illegal move
/// ([`illegal::likeliest_gain`]) by [`DECIDE_MARGIN`], and explains the
/// picture (at most [`MAX_RESIDUE`] squares read otherwise); with its twin,
/// the same board with the other side to move, when the twin is not a ply
/// and [`DECIDE_MARGIN`] less likely (a tempo lost is no rarer than the ply
/// it costs).
pub fn decide(
    from: &Chess,
    belief: &BoardBelief,
    search: Search,
    glimpses: &Glimpses,
) -> Option<Decision> {
    weigh(from, belief, search, glimpses)?.decision()
}

/// A still board weighed: the likeliest continuation, when it is not the
/// table, by how much it beats the next board, and whether it may be
/// decided.
#[derive(Debug, Clone)]
pub struct Weighed {
    pub best: Continuation,
    pub margin: f32,
    twin: Option<Continuation>,
    /// It explains the picture (at most [`MAX_RESIDUE`] squares read otherwise).
    pub(crate) explains: bool,
    /// It may be decided ([`decide`]).
    clear: bool,
}

impl Weighed {
    /// The decision, when the board is clear enough to decide.
    pub fn decision(self) -> Option<Decision> {
        self.clear.then_some(Decision {
            best: self.best,
            twin: self.twin,
        })
    }

    /// What it tells of the way the game went, however briefly the board
    /// stands: its margin, when it explains the picture.
    pub fn glimpse_margin(&self) -> f32 {
        if self.explains { self.margin } else { 0.0 }
    }
}

/// The still board weighed by the `search` ([`decide`] when clear).
pub fn weigh(
    from: &Chess,
    belief: &BoardBelief,
    search: Search,
    glimpses: &Glimpses,
) -> Option<Weighed> {
    // A still board read as the table costs no search.
    if most_gained(from, belief, search) < DECIDE_MARGIN {
        return None;
    }
    let (best, margin, twin) = ranked_with_twin(from, belief, search, glimpses)?;
    let explains = residue(belief, best.position.board()) <= MAX_RESIDUE;
    // A piece moved where it may not go is no legal move misread: looked
    // for only when the legal move would otherwise be decided, and weighed
    // on this still board alone (what earlier ones bore out of the legal
    // way, they may bear out of the illegal one too).
    let now = best.gain - best.borne.total();
    let clear = best.gain >= DECIDE_MARGIN
        && margin >= DECIDE_MARGIN
        && explains
        && illegal::likeliest_gain(from, belief).is_none_or(|g| now - g >= DECIDE_MARGIN);
    let twin = twin.filter(|twin| best.gain - twin.gain < search.ply_cost + DECIDE_MARGIN);
    Some(Weighed {
        best,
        margin,
        twin,
        explains,
        clear,
    })
}

/// The most any continuation of `from` by the `search` can gain: the
/// margins of every square the belief reads otherwise than the table, less
/// a ply.
pub(crate) fn most_gained(from: &Chess, belief: &BoardBelief, search: Search) -> f32 {
    let otherwise: f32 = belief.against(from.board()).iter().map(|(_, m)| m).sum();
    otherwise - search.ply_cost
}

/// The likeliest continuation and by how much it beats the next likeliest
/// board (the table included), when it is not the table.
pub fn ranked(from: &Chess, belief: &BoardBelief, search: Search) -> Option<(Continuation, f32)> {
    ranked_with_twin(from, belief, search, &Glimpses::default())
        .map(|(best, margin, _)| (best, margin))
}

/// [`ranked`], and the likeliest continuation to the same board as the
/// best with the other side to move.
fn ranked_with_twin(
    from: &Chess,
    belief: &BoardBelief,
    search: Search,
    glimpses: &Glimpses,
) -> Option<(Continuation, f32, Option<Continuation>)> {
    let mut ranked = continuations(from, belief, search, glimpses).into_iter();
    let best = ranked.next()?;
    if best.moves.is_empty() {
        return None;
    }
    let (twins, others): (Vec<Continuation>, Vec<Continuation>) =
        ranked.partition(|c| c.other_turn_of(&best));
    let runner_up = others.first().map_or(f32::NEG_INFINITY, |c| c.gain);
    let margin = best.gain - runner_up;
    // A twin whose squares never moved, every frame seen, is no way the
    // game went.
    let twin = twins
        .into_iter()
        .find(|twin| glimpses.moved_for(from, &twin.moves));
    Some((best, margin, twin))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belief::SquareBelief;
    use crate::tests::after;
    use shakmaty::{ByColor, Square};

    /// `belief` with `sq` read as the probabilities `p` of empty, White
    /// and Black instead.
    fn read_as(belief: &mut BoardBelief, sq: Square, p: [f32; 3]) {
        belief.hide(Bitboard::from_square(sq));
        belief.add(sq, SquareBelief::from_probabilities(p));
    }

    #[test]
    fn the_still_table_is_kept_and_a_move_read_is_decided() {
        let start = Chess::default();
        assert!(
            ranked(
                &start,
                &BoardBelief::seeing(start.board(), 0.9),
                Search::READ
            )
            .is_none()
        );
        let played = after(&["e2e4"]);
        let (best, margin) = ranked(
            &start,
            &BoardBelief::seeing(played.board(), 0.9),
            Search::READ,
        )
        .expect("a move");
        assert_eq!(best.position.board(), played.board());
        assert_eq!(best.moves.len(), 1);
        assert!(margin > 3.0, "margin {margin}");
    }

    #[test]
    fn a_piece_gone_and_back_is_no_way_to_read_two_moves_of_the_other_side() {
        let start = Chess::default();
        let shuffled = after(&["g1f3", "e7e5", "f3g1", "d7d5"]);
        let mut belief = BoardBelief::seeing(shuffled.board(), 0.9);
        // A hand by the knight's squares: its going and coming cost no evidence.
        belief.hide(Bitboard::from_square(Square::G1) | Bitboard::from_square(Square::F3));
        let reaches = |search| {
            continuations(&start, &belief, search, &Glimpses::default())
                .iter()
                .any(|c| c.position.board() == shuffled.board())
        };
        assert!(!reaches(Search::READ), "on a still board");
        assert!(reaches(Search::RECOVER), "after a time nobody watched");
    }

    #[test]
    fn a_run_of_plies_made_unseen_is_found_whole() {
        let start = Chess::default();
        let played = after(&["d2d4", "d7d5", "c2c4", "e7e6"]);
        let best = decide(
            &start,
            &BoardBelief::seeing(played.board(), 0.9),
            Search::READ,
            &Glimpses::default(),
        )
        .expect("moves")
        .best;
        assert_eq!(best.position.board(), played.board());
        assert_eq!(best.moves.len(), 4);
    }

    #[test]
    fn of_ways_alike_the_motion_tells_which_else_the_one_kept_is_a_guess() {
        // Bc4 by e2, by d3 or by b5, Nc6 between: alike to the eyes.
        let from = after(&["e2e4", "e7e5"]);
        let played = after(&["e2e4", "e7e5", "f1e2", "b8c6", "e2c4"]);
        let belief = BoardBelief::seeing(played.board(), 0.9);
        let way = |glimpses: &Glimpses| {
            continuations(&from, &belief, Search::READ, glimpses)
                .into_iter()
                .find(|c| c.position.board() == played.board() && c.moves.len() == 3)
                .expect("found")
        };
        let unwatched = way(&Glimpses::default());
        assert!(unwatched.guessed, "{:?}", uci(&unwatched.moves));
        let mut glimpses = Glimpses::default();
        let moved = [Square::F1, Square::E2, Square::C4, Square::B8, Square::C6];
        glimpses.moving(Some(moved.into_iter().collect()));
        let watched = way(&glimpses);
        assert!(!watched.guessed);
        assert_eq!(uci(&watched.moves), ["f1e2", "b8c6", "e2c4"]);
    }

    #[test]
    fn castling_outweighs_the_kings_step_the_eyes_read_alike() {
        // O-O, the king's head leaning over h1: h1 reads White more than
        // g1 does, as if the king had stepped to f1 and the rook stayed.
        let from = after(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"]);
        let castled = after(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1g1"]);
        let mut belief = BoardBelief::seeing(castled.board(), 0.9);
        read_as(&mut belief, Square::G1, [0.4, 0.55, 0.05]);
        read_as(&mut belief, Square::H1, [0.3, 0.65, 0.05]);
        let step = after(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1f1"]);
        assert!(
            belief.gain(from.board(), step.board()) > belief.gain(from.board(), castled.board()),
            "the eyes alone favour Kf1"
        );
        let (best, _) = ranked(&from, &belief, Search::READ).expect("a move");
        assert_eq!(uci(&best.moves), ["e1g1"]);
        // The king's step, and a rook's from the square it would castle
        // with, give castling up; where the king cannot castle now, its
        // step costs a ply like any other.
        let king_step = |position: &Chess, to: Square| {
            position
                .legal_moves()
                .into_iter()
                .find(|m| m.role() == Role::King && m.to() == to)
                .expect("the king steps")
        };
        assert_eq!(
            castling_forgone(&from, &[king_step(&from, Square::F1)]),
            FORGOING_CASTLING
        );
        let rook_step = from
            .legal_moves()
            .into_iter()
            .find(|m| m.role() == Role::Rook && m.to() == Square::G1)
            .expect("the rook steps");
        assert_eq!(castling_forgone(&from, &[rook_step]), FORGOING_CASTLING);
        let open = after(&["e2e4", "e7e5"]);
        assert_eq!(
            castling_forgone(&open, &[king_step(&open, Square::E2)]),
            0.0
        );
    }

    #[test]
    fn a_way_through_an_earlier_still_board_outweighs_a_shorter_one() {
        // bgu_game2 under a warm lamp: 10. Qxc3 dxc4 stood still, then
        // 11. Bxc4 Nd7; the bishop's square f1 reads taken still (a leaning
        // king), so on the last board alone Qxc3 Nd7 is likelier, the d5
        // pawn read as gone the eyes' error.
        let game = [
            "d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5", "f8e7", "e2e3", "e8g8", "g1f3",
            "h7h6", "g5h4", "f6e4", "h4e7", "d8e7", "d1c2", "e4c3",
        ];
        let from = after(&game);
        let on = |ucis: &[&str]| after(&[&game[..], ucis].concat());
        let seen = on(&["c2c3", "d5c4"]);
        let mut now = BoardBelief::seeing(on(&["c2c3", "d5c4", "f1c4", "b8d7"]).board(), 0.9);
        read_as(&mut now, Square::F1, [0.35, 0.6, 0.05]);
        let best = |glimpses: &Glimpses| {
            ranked_with_twin(&from, &now, Search::READ, glimpses)
                .map(|(best, _, _)| uci(&best.moves))
                .expect("a way")
        };
        assert_eq!(best(&Glimpses::default()), ["c2c3", "b8d7"]);
        let mut glimpses = Glimpses::default();
        let shape = (seen.board().white(), seen.board().black(), seen.turn());
        glimpses.still_board(
            &from,
            Some((shape, &BoardBelief::seeing(seen.board(), 0.9))),
        );
        glimpses.board_moved();
        assert_eq!(best(&glimpses), ["c2c3", "d5c4", "f1c4", "b8d7"]);
        let decision = decide(&from, &now, Search::READ, &glimpses).expect("decided");
        assert_eq!(uci(&decision.best.moves), ["c2c3", "d5c4", "f1c4", "b8d7"]);
    }

    #[test]
    fn a_move_whose_arrival_a_hand_hides_is_not_guessed() {
        let start = Chess::default();
        let played = after(&["g1f3"]);
        let mut belief = BoardBelief::seeing(played.board(), 0.9);
        belief.hide(Bitboard::from_square(Square::F3) | Bitboard::from_square(Square::H3));
        let (_, margin) = ranked(
            &start,
            &belief,
            Search {
                plies: 2,
                ..Search::READ
            },
        )
        .expect("the knight left");
        assert!(margin < 0.5, "Nf3 and Nh3 are alike to the eyes: {margin}");
    }

    #[test]
    fn of_two_squares_the_eyes_read_alike_the_one_the_mover_s_hand_stopped_over_is_taken() {
        // 5. c4 f5: the white pawn on c4, a light square in a bright light,
        // shows to neither pair of eyes, which read c3 and c4 both empty.
        let from = after(&["h2h3", "c7c5", "b1a3", "b8a6"]);
        let played = after(&["h2h3", "c7c5", "b1a3", "b8a6", "c2c4", "f7f5"]);
        let mut belief = BoardBelief::seeing(played.board(), 0.97);
        read_as(&mut belief, Square::C4, [0.97, 0.015, 0.015]);
        assert!(
            decide(&from, &belief, Search::READ, &Glimpses::default()).is_none(),
            "c4 f5 and c3 f5 alike"
        );
        let mut stopped = ByColor::<Bitboard>::default();
        stopped.white.add(Square::C4);
        stopped.black.add(Square::F5);
        let mut glimpses = Glimpses::default();
        glimpses.hands_stopped(stopped);
        let decision = decide(&from, &belief, Search::READ, &glimpses).expect("decided");
        assert_eq!(uci(&decision.best.moves), ["c2c4", "f7f5"]);
        // A stop the eyes see nothing arrive on tells nothing against them.
        let mut elsewhere = ByColor::<Bitboard>::default();
        elsewhere.white.add(Square::C3);
        let mut glimpses = Glimpses::default();
        glimpses.hands_stopped(elsewhere);
        let seen = after(&["h2h3", "c7c5", "b1a3", "b8a6", "g1f3"]);
        let decision = decide(
            &from,
            &BoardBelief::seeing(seen.board(), 0.97),
            Search::READ,
            &glimpses,
        )
        .expect("decided");
        assert_eq!(uci(&decision.best.moves), ["g1f3"]);
    }
}
