//! A ply read beside an arm nobody saw waits for the next still board.
//!
//! An arm cut off by the picture's edge is found by no hand model: the
//! eyes read it as pieces, and the decoder may explain part of it as a
//! move (a king stepped under it). A ply decided beside squares newly read
//! otherwise along the board's edge, where arms reach in, waits while the
//! board stands as it is; the plies before it are taken. Squares the eyes
//! misread while the table stood with nothing to decide (a tall piece
//! leaning over its neighbour) hold nothing.
//!
//! Input: each decision of a still board, the position it is made from,
//! the belief, the time. Output: the decision, cut short or held, or taken
//! marked recovered once the next still board shows the same.

use shakmaty::{Bitboard, Chess, Position};

use crate::belief::{BoardBelief, differing};
use crate::decode::{
    Continuation, DECIDE_MARGIN, Decided, Decision, Search, castling_forgone, read_otherwise, uci,
};
use crate::earlier::Borne;
use crate::squares::around;

/// How long a ply decided beside squares newly read otherwise waits on a
/// board that does not move for them to clear, before it is taken anyway,
/// marked for the arbiter to check.
pub const ARM_WAIT_SECONDS: f64 = 3.0;

/// The plies held beside squares newly read otherwise, and what the eyes
/// are known to misread.
#[derive(Debug, Clone, Default)]
pub(crate) struct Hold {
    /// The squares the eyes read otherwise than the table when it last
    /// stood with nothing to decide: their lasting misreadings, which tell
    /// nothing of a move.
    misread: Bitboard,
    /// A ply held, when one is (until a move is read).
    held: Option<Held>,
}

/// A ply held beside squares newly read otherwise.
#[derive(Debug, Clone, Copy)]
struct Held {
    since: f64,
    /// The board moved since: the still board now is the next one.
    moved: bool,
}

impl Hold {
    /// The table stood on a still board with nothing to decide: what the
    /// eyes read otherwise there is their own lasting misreading.
    pub(crate) fn table_stood(&mut self, from: &Chess, belief: &BoardBelief) {
        self.misread = read_otherwise(belief, from.board());
    }

    /// The board moved: a ply held is next weighed on the next still board.
    pub(crate) fn board_moved(&mut self) {
        if let Some(held) = self.held.as_mut() {
            held.moved = true;
        }
    }

    /// A move was read: nothing is held.
    pub(crate) fn forget(&mut self) {
        self.held = None;
    }

    /// The `decision` with the plies from the first beside squares newly
    /// read otherwise (read otherwise than its board, along the board's
    /// edge, and not among the eyes' lasting misreadings) left for a later
    /// frame; none while its first ply is beside them, until the board has
    /// moved and stood still again or [`ARM_WAIT_SECONDS`] have passed: then
    /// taken whole, recovered (a hand that stays is no arm passing). A
    /// decision by the search for moves missed is already for the arbiter
    /// to check.
    pub(crate) fn admit(
        &mut self,
        from: &Chess,
        belief: &BoardBelief,
        decision: Decision,
        how: Decided,
        t: f64,
    ) -> Option<(Decision, Decided)> {
        // Arms reach in over the board's edge, and one the picture cuts
        // off is where the hand models see none.
        let fresh = read_otherwise(belief, decision.best.position.board())
            & !self.misread
            & Bitboard::EDGES;
        let clear = clear_plies(from, &decision.best, fresh);
        if how == Decided::Recovered || clear == decision.best.moves.len() {
            return Some((decision, how));
        }
        let held = *self.held.get_or_insert(Held {
            since: t,
            moved: false,
        });
        if held.moved || t - held.since >= ARM_WAIT_SECONDS {
            tracing::debug!(
                t,
                since = held.since,
                best = ?uci(&decision.best.moves),
                fresh = ?fresh.into_iter().collect::<Vec<_>>(),
                "a ply held beside squares read otherwise, taken for the arbiter to check"
            );
            return Some((decision, Decided::Recovered));
        }
        tracing::trace!(
            t,
            best = ?uci(&decision.best.moves),
            clear,
            fresh = ?fresh.into_iter().collect::<Vec<_>>(),
            "plies held beside squares read otherwise"
        );
        let prefix = first_plies(from, &decision.best, clear, belief)?;
        Some((
            Decision {
                best: prefix,
                twin: None,
            },
            how,
        ))
    }
}

/// How many of `way`'s plies from `from`, from the first, change no
/// square beside a square of `fresh` (one a ply changes itself is its own
/// evidence, read well or badly, not something beside it).
fn clear_plies(from: &Chess, way: &Continuation, fresh: Bitboard) -> usize {
    let mut position = from.clone();
    way.moves
        .iter()
        .take_while(|m| {
            let before = position.board().clone();
            position.play_unchecked(**m);
            let changed = differing(&before, position.board());
            let beside = Bitboard(around(changed.0)) & !changed;
            (beside & fresh).is_empty()
        })
        .count()
}

/// The first `plies` of `way` (at least one) as a way of its own, when the
/// board makes it likelier than the table by [`DECIDE_MARGIN`].
fn first_plies(
    from: &Chess,
    way: &Continuation,
    plies: usize,
    belief: &BoardBelief,
) -> Option<Continuation> {
    if plies == 0 {
        return None;
    }
    let moves = way.moves[..plies].to_vec();
    let mut position = from.clone();
    for m in &moves {
        position.play_unchecked(*m);
    }
    let cost = Search::READ.ply_cost * plies as f32 + castling_forgone(from, &moves);
    let gain = belief.gain(from.board(), position.board()) - cost;
    (gain >= DECIDE_MARGIN).then_some(Continuation {
        moves,
        position,
        gain,
        cost,
        set_down: 0.0,
        borne: Borne::default(),
        guessed: way.guessed,
    })
}
