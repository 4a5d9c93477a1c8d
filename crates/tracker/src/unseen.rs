//! Moves the colours missed, read by the detector: after a press of the
//! clock that ends no move seen, or before a move seen that only such a
//! move makes legal.

use shakmaty::{Board, Position};

use crate::change::ChangeSet;
use crate::reading::Reading;
use crate::squares::{board_difference, detected_as, read_as_on, squares_in, squares_where};
use crate::{Observation, STABLE_SECONDS, Step, Tracker, result};

/// How long (seconds) after a press of the clock that ends no move seen the
/// detector is asked whether a move was made that the colours missed.
pub const UNSEEN_PRESS_SECONDS: f64 = 2.0;

/// The detector reads a move the colours missed only when it is sure of at
/// least this many squares, all but the move's as the table holds them.
pub const UNSEEN_MOVE_SURE_SQUARES: u32 = 48;

impl Tracker {
    /// After a press of the clock that ends no move seen: the move the
    /// detector reads made where the colours saw nothing change (a light
    /// piece from one light square to another, in a bright light, changes
    /// neither square enough to be seen). Read, then clocked, once the
    /// picture is still; given up once a change shows or after
    /// [`UNSEEN_PRESS_SECONDS`].
    pub(crate) fn read_unseen_move(&mut self, step: &mut Step, obs: &Observation) {
        let Some(pressed_at) = self.press_unseen else {
            return;
        };
        if obs.t - pressed_at > UNSEEN_PRESS_SECONDS || obs.changed & !self.last_accepted != 0 {
            self.press_unseen = None;
            return;
        }
        let settled = obs.still && obs.t - self.last_motion >= STABLE_SECONDS;
        let Some(reading) = settled.then(|| self.unseen_move(obs, !0)).flatten() else {
            return;
        };
        tracing::debug!(
            t = obs.t,
            "a move the colours missed, read by the detector after a press of the clock"
        );
        self.take_reading(reading, 0, step);
        self.press_clock(&mut step.events, obs.t);
    }

    /// The one legal move that the change shows in part, the rest of its
    /// squares unchanged but read by the detector as the move leaves them
    /// (the mover has pressed the clock: the move is made): the reply to
    /// the move standing on the table, or the next move of the record.
    /// Every square changed more than faintly must be the move's. Where the
    /// detector is sure a square the move leaves is empty, the squares it
    /// arrives on need only not be read otherwise (a light piece on a light
    /// square, neither pair of eyes sure of it): the piece has gone, and
    /// the one legal move takes it there.
    pub(crate) fn completed_by_detector(
        &self,
        change: &ChangeSet,
        obs: &Observation,
    ) -> Option<Reading> {
        let marked = change.bits & !change.faint_squares();
        let reading = self.the_one_move(|board| {
            let squares = board_difference(&self.table, board);
            let seen = squares & change.bits;
            let unseen = squares & !change.bits;
            let left = squares_where(seen, |sq| board.piece_at(sq).is_none());
            let unseen_sure = squares_where(unseen, |sq| obs.detected[usize::from(sq)].is_some());
            // Where it changed, one pair of eyes at least reads it as the
            // move leaves it; where it did not, the detector does, or is
            // unsure and sure the piece left.
            let seen_borne_out =
                seen & !(read_as_on(seen, board, obs) | detected_as(seen, board, obs)) == 0;
            let unseen_borne_out = detected_as(unseen, board, obs) == unseen
                || (detected_as(left, board, obs) != 0
                    && detected_as(unseen_sure, board, obs) == unseen_sure);
            marked != 0
                && marked & !squares == 0
                && unseen != 0
                && seen_borne_out
                && unseen_borne_out
        })?;
        tracing::debug!(
            t = obs.t,
            "a move completed by the detector's reading, the clock pressed"
        );
        Some(reading)
    }

    /// The one legal move that the detector reads made, sure of every
    /// square it changes and of at least [`UNSEEN_MOVE_SURE_SQUARES`] of
    /// `looked_at`, reading every other square there as the table holds
    /// it: the reply to the move standing on the table, or the next move of
    /// the record. A single square the detector misreads makes it read
    /// nothing.
    pub(crate) fn unseen_move(&self, obs: &Observation, looked_at: u64) -> Option<Reading> {
        let sure = squares_where(looked_at, |sq| obs.detected[usize::from(sq)].is_some());
        let differs = sure & !detected_as(sure, &self.table, obs);
        tracing::trace!(t = obs.t, sure = sure.count_ones(), differs = ?squares_in(differs).collect::<Vec<_>>(), "looking for a move the colours missed");
        if differs == 0 || sure.count_ones() < UNSEEN_MOVE_SURE_SQUARES {
            return None;
        }
        self.the_one_move(|board| {
            let squares = board_difference(&self.table, board);
            squares & !sure == 0
                && detected_as(squares, board, obs) == squares
                && differs & !squares == 0
        })
    }

    /// A move the colours never saw ([`Self::unseen_move`], the squares of
    /// the change left out), then the move the change shows, which only
    /// the unseen one makes legal: the press of the clock that would have
    /// had the detector read the first was missed (a frame lost, a hand
    /// hiding the clock).
    pub(crate) fn unseen_before(&self, change: &ChangeSet, obs: &Observation) -> Option<Reading> {
        let unseen = self.unseen_move(obs, !change.bits)?;
        let mut after = self.clone();
        for m in &unseen.completed {
            after.pos.play_unchecked(*m);
        }
        if let Some((_, board)) = unseen.steps.last() {
            after.table = board.clone();
        }
        let then = after.read_change(change, obs, true)?;
        tracing::debug!(
            t = obs.t,
            "a move the colours missed, read by the detector before the move seen after it"
        );
        Some(Reading {
            completed: [unseen.completed, then.completed].concat(),
            steps: [unseen.steps, then.steps].concat(),
            recovered: false,
        })
    }

    /// The one legal move, from where the next move is made
    /// ([`Self::next_move_from`]), whose board `fits`; none when no move
    /// or several fit.
    pub(crate) fn the_one_move(&self, fits: impl Fn(&Board) -> bool) -> Option<Reading> {
        let (completed, from) = self.next_move_from()?;
        let mut found = from
            .legal_moves()
            .into_iter()
            .map(|m| result(&from, &m))
            .filter(|after| fits(after.board()));
        let board = found.next()?.board().clone();
        if found.next().is_some() {
            return None;
        }
        Some(Reading {
            completed,
            steps: vec![(from.turn(), board)],
            recovered: false,
        })
    }
}
