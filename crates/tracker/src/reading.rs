//! Reading a still change: the moves, run of moves or relocation it shows,
//! borne out by the eyes' colours, and the position the likelihood decoder
//! decided, played onto the record and the table.

use shakmaty::{Bitboard, Board, Chess, Color, Move, Piece, Position, Role, Square};

use crate::actions::transition;
use crate::belief::differing;
use crate::change::{ChangeSet, best, explain_sequence, promotes_as_read};
use crate::decode::{self, Continuation, Decided};
use crate::squares::{
    around, board_difference, detected_as, read_as, read_as_on, squares_in, squares_where,
};
use crate::still::{Unconfirmed, Watch};
use crate::{BoardBelief, Gap, Observation, Step, Tracker, result};

/// What a still change was read as.
#[derive(Debug, Clone)]
pub(crate) struct Reading {
    /// Moves the change completes, in order.
    pub(crate) completed: Vec<Move>,
    /// The boards the table passes through, each made by that side's hand.
    pub(crate) steps: Vec<(Color, Board)>,
    /// Found by the search for moves the eyes missed ([`Decided::Recovered`]).
    pub(crate) recovered: bool,
}

impl Reading {
    /// Whether this reading goes the way `other` does and on beyond it:
    /// the same boards, by the same hands, then more.
    pub(crate) fn goes_on_from(&self, other: &Reading) -> bool {
        self.steps.len() > other.steps.len() && self.steps.starts_with(&other.steps)
    }

    /// Whether this reading accounts for every square of `changed` that
    /// `other` accounts for, from `table`, and for more: a change read as
    /// one piece moved on again, beside squares left to noise or to a piece
    /// shifted in its square, where the whole board reads the opponent's
    /// move on those squares between (two moves made between two still
    /// frames).
    pub(crate) fn accounts_for_more(&self, other: &Reading, table: &Board, changed: u64) -> bool {
        let (mine, theirs) = (
            self.accounts_for(table, changed),
            other.accounts_for(table, changed),
        );
        theirs & !mine == 0 && mine & !theirs != 0
    }

    /// The squares of `changed` whose occupant this reading changes from `table`.
    fn accounts_for(&self, table: &Board, changed: u64) -> u64 {
        self.steps
            .last()
            .map_or(0, |(_, board)| board_difference(table, board) & changed)
    }

    /// Whether the eyes bear out a single move from `table`: each square it
    /// changes changed more than faintly, or reads the colour the move
    /// leaves there (to the colours or to the detector). A piece leaving or
    /// arriving changes its square strongly (though the colours may miss a
    /// light piece on a light square); the shadow of an arm coming in, or a
    /// sleeve over an empty square beside a piece, changes one faintly and
    /// leaves its colour.
    ///
    /// Where the colours do not bear out every square and the detector has
    /// read the picture, the detector must not read against the move: a
    /// hand gripping a piece, still for a moment and unseen by the hands'
    /// eyes, changes the piece's square and its neighbour strongly, while
    /// the detector (or both pairs of eyes) still reads the piece where it
    /// stood. Where the detector is sure of some of the move's squares, it
    /// must read one as the move leaves it and none as the table holds it;
    /// where it is sure of none, the colours must read one.
    pub(crate) fn seen_on_each(
        &self,
        table: &Board,
        change: &ChangeSet,
        obs: &Observation,
    ) -> bool {
        let Some((_, board)) = self.steps.last() else {
            return false;
        };
        let squares = board_difference(table, board);
        let faint = squares & change.faint_squares();
        let colours = read_as_on(squares, board, obs);
        let for_move = detected_as(squares, board, obs);
        if faint & !(colours | for_move) != 0 {
            return false;
        }
        let sure = squares_where(squares, |sq| obs.detected[usize::from(sq)].is_some());
        let detector_read = obs.detected.iter().any(Option::is_some);
        colours == squares
            || !detector_read
            || if sure == 0 {
                colours != 0
            } else {
                for_move != 0 && sure & !for_move == 0
            }
    }

    /// Whether some square the last step changes changed more than faintly.
    pub(crate) fn marked(&self, table: &Board, change: &ChangeSet) -> bool {
        self.steps.last().is_some_and(|(_, board)| {
            board_difference(table, board) & change.bits & !change.faint_squares() != 0
        })
    }

    /// Whether the eyes' colours bear out a run of moves. A hand or an arm
    /// resting still over a file can look like one; the colours under it
    /// are not those of the pieces the run would leave. On the changed
    /// squares, no piece may read as the other side's, and at most
    /// [`RUN_MISREADS`], or one in four of them, may read as empty when
    /// occupied or the other way.
    pub(crate) fn seen_in(&self, obs: &Observation) -> bool {
        let Some((_, board)) = self.steps.last() else {
            return false;
        };
        let wrong = obs.changed & !read_as(board, obs);
        let flipped = squares_in(wrong).any(|sq| {
            let seen = obs.occupancy[usize::from(sq)];
            seen.is_some() && board.piece_at(sq).is_some()
        });
        !flipped
            && wrong.count_ones() as usize
                <= RUN_MISREADS.max(obs.changed.count_ones() as usize / 4)
    }
}

/// A change seen still, waiting to be read.
#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub(crate) changed: u64,
    /// The scores when it was last seen still.
    pub(crate) scores: [f32; 64],
    pub(crate) since: f64,
    /// Still frames that saw it.
    pub(crate) frames: u32,
}

impl Pending {
    /// Whether a still frame shows this change again: the same squares
    /// changed, give or take squares changed only faintly (a square beside
    /// a move flickering in the camera's noise does not make it another).
    pub(crate) fn seen_again_in(&self, obs: &Observation) -> bool {
        let faint_in = |bits: u64, scores: &[f32; 64]| {
            squares_in(bits).all(|sq| scores[usize::from(sq)] <= obs.faint)
        };
        faint_in(obs.changed & !self.changed, &obs.scores)
            && faint_in(self.changed & !obs.changed, &self.scores)
            && obs.changed & self.changed != 0
    }

    /// Whether a frame that moves leaves this change as it was: its squares
    /// all changed as much as before, and whatever moves is not beside them.
    pub(crate) fn holds_in(&self, obs: &Observation) -> bool {
        if obs.changed & self.changed != self.changed {
            return false;
        }
        let unchanged = (0..64)
            .filter(|i| self.changed & (1 << i) != 0)
            .all(|i| (obs.scores[i] - self.scores[i]).abs() <= HELD_SHARE * self.scores[i]);
        unchanged && obs.changed & !self.changed & around(self.changed) == 0
    }
}

/// A change waiting to be read holds through a frame that moves elsewhere
/// when each of its squares changed by at most this share since.
pub const HELD_SHARE: f32 = 0.1;

/// A run of several moves is read only when the eyes take at most this many
/// of its changed squares for empty when occupied or the other way.
pub const RUN_MISREADS: usize = 1;

impl Tracker {
    /// Plays what a still picture was read as: the moves it completes, the
    /// pieces on `shifted` shifted in their squares, then each step's
    /// events, put in order with the touches held, as of the last motion.
    pub(crate) fn take_reading(&mut self, reading: Reading, shifted: u64, step: &mut Step) {
        let t = self.last_motion.max(self.last_t);
        // Several moves read at once, frames dropped meanwhile: their
        // order was not seen.
        let unseen_order = reading.steps.len() > 1 && self.cadence.dropped();
        for m in reading.completed {
            self.pos.play_unchecked(m);
        }
        self.mark_shifted(shifted);
        step.accept |= shifted;
        let mut moves = Vec::new();
        for (mover, target) in reading.steps {
            moves.push((mover, transition(&self.table, &target, mover)));
            step.accept |= board_difference(&self.table, &target);
            self.table = target;
        }
        let reported = step.events.len();
        self.report_held(&mut step.events, &moves, t);
        if reading.recovered || self.watch != Watch::Throughout || unseen_order {
            for event in &mut step.events[reported..] {
                event.recovered = true;
            }
        } else if self.cadence.dropped() {
            // Frames lost in the turn: a touch seen may not have been the
            // first (the king's before the rook's, lost).
            for event in &mut step.events[reported..] {
                event.recovered |= event.action.is_touch();
            }
        }
        // Read as the shortest way while whose turn it was is untold: a
        // move may be missing, and only the arbiter can tell.
        if let Some(since) = self.decision.turn_untold().filter(|_| reading.recovered) {
            step.gap = Some(Gap {
                since,
                t,
                squares: Bitboard(step.accept),
            });
        }
        self.move_read(step.accept);
    }

    /// The one piece of the side to move that the change and the colours
    /// show gone from its square to another (empty, or the opponent's piece
    /// taken), maybe with one of the opponent's pieces taken off elsewhere,
    /// where no legal move takes it: the move standing on the table before
    /// it (the mover is its opponent), and the table after it.
    pub(crate) fn relocation(
        &self,
        change: &ChangeSet,
        obs: &Observation,
    ) -> Option<(Option<Move>, Board)> {
        let standing = self.standing();
        let us = if standing.is_some() {
            !self.pos.turn()
        } else {
            self.pos.turn()
        };
        let seen = |sq: Square| obs.occupancy[usize::from(sq)];
        let theirs = |sq: Square| self.table.piece_at(sq).is_some_and(|p| p.color != us);
        let mut candidates = Vec::new();
        for from in squares_in(change.bits) {
            let Some(piece) = self.table.piece_at(from).filter(|p| p.color == us) else {
                continue;
            };
            for to in squares_in(change.bits) {
                let free = self.table.piece_at(to).is_none_or(|p| p.color != us);
                if to == from || !free || seen(from).is_some() || seen(to) != Some(us) {
                    continue;
                }
                let mut board = self.table.clone();
                board.discard_piece_at(from);
                board.set_piece_at(to, piece);
                // Also with one of the opponent's pieces taken off elsewhere.
                let taken = squares_in(change.bits)
                    .filter(|&sq| sq != to && theirs(sq) && seen(sq).is_none())
                    .map(Some);
                for off in std::iter::once(None).chain(taken) {
                    let mut board = board.clone();
                    if let Some(sq) = off {
                        board.discard_piece_at(sq);
                    }
                    if let Some(fit) = change.fits(board_difference(&self.table, &board)) {
                        candidates.push((board, fit));
                    }
                }
            }
        }
        best(candidates.into_iter()).map(|board| (standing, board))
    }

    /// The legal move of the record's position that the table shows made
    /// (not yet completed by the opponent's reply).
    pub(crate) fn standing(&self) -> Option<Move> {
        self.pos
            .legal_moves()
            .into_iter()
            .find(|m| result(&self.pos, m).board() == &self.table)
    }

    /// What a still change was read as, when a move or a run explains it
    /// and the colours bear it out. Once the mover has pressed the clock
    /// and the change has stayed still a while, a single move need only be
    /// borne out as a run is: the colours may miss one light piece on a
    /// light square, never show a piece of the other side.
    pub(crate) fn read_change(
        &self,
        change: &ChangeSet,
        obs: &Observation,
        patient: bool,
    ) -> Option<Reading> {
        let clocked = patient && self.press_waiting;
        self.interpret(change, &obs.promoted, patient)
            .filter(|reading| {
                // The decoder reads the board reached as likely with
                // either side to move, and the moves on from it: the change
                // is read from the table, short of both ways (a move, or a
                // run, the shorter way to the board the next move made).
                if self.decision.two_ways() {
                    tracing::trace!(t = obs.t, "a change read past two ways to the board");
                    return false;
                }
                let seen = if reading.steps.len() < 2 {
                    reading.seen_on_each(&self.table, change, obs)
                        || clocked && reading.marked(&self.table, change) && reading.seen_in(obs)
                } else {
                    reading.seen_in(obs)
                };
                if !seen {
                    tracing::trace!(
                        t = obs.t,
                        steps = reading.steps.len(),
                        "a reading the colours do not bear out"
                    );
                }
                seen && self.belief_allows(reading, &obs.belief, obs.t)
            })
    }

    /// Whether the eyes' whole-board belief leaves a reading of the change
    /// standing: no way on from the table that it weighs is likelier than
    /// the reading's board. The colours see where a square's picture
    /// changed, not what now stands there (a queen set on a square lit
    /// warmer reads as moved to its neighbour, a bishop's head leaning over
    /// the next square as the bishop there); where the belief cannot tell
    /// the two apart either, the decoder waits, and the search for moves
    /// missed takes over, marked for the arbiter.
    fn belief_allows(&self, reading: &Reading, belief: &BoardBelief, t: f64) -> bool {
        let (Some((_, read)), Some((_, from))) = (reading.steps.last(), self.next_move_from())
        else {
            return true;
        };
        // A step the eyes cannot tell from the one before (a promotion
        // piece changed for another) is no ply to them.
        let mut before = from.board();
        let plies = reading
            .steps
            .iter()
            .filter(|(_, board)| {
                let seen = !differing(before, board).is_empty();
                before = board;
                seen
            })
            .count() as f32;
        // Its moves cost what the decoder's do: more where castling is given up.
        let forgone = decode::castling_forgone(&from, &reading.completed);
        let read_gain =
            belief.gain(from.board(), read) - decode::Search::READ.ply_cost * plies - forgone;
        // A reading that gains what any way on could needs no search.
        if read_gain + decode::TIED >= decode::most_gained(&from, belief, decode::Search::READ) {
            return true;
        }
        let Some((best, _)) = decode::ranked(&from, belief, decode::Search::READ) else {
            return true;
        };
        let same_colours = differing(best.position.board(), read).is_empty();
        let allowed = same_colours || best.gain <= read_gain + decode::TIED;
        if !allowed {
            tracing::debug!(
                t,
                read_gain,
                best = ?decode::uci(&best.moves),
                best_gain = best.gain,
                "a reading of the change the whole board reads against"
            );
        }
        allowed
    }

    /// The position the likelihood decoder has decided on this still board,
    /// from where the next move is made, as a reading: each move a step of
    /// its side's hand, a pawn promoting to the piece the eyes read on its
    /// square (a queen when they read none).
    pub(crate) fn decoded(&mut self, obs: &Observation) -> Option<Reading> {
        let (completed, from) = self.next_move_from()?;
        self.decision.hands_stopped(self.set_down.stopped());
        let (best, how) = self.decision.observe(
            &from,
            &obs.belief,
            obs.t,
            self.watching(),
            self.moments.moved(),
        )?;
        tracing::debug!(
            t = obs.t,
            plies = best.moves.len(),
            gain = best.gain,
            ?how,
            "a still board decided by likelihood"
        );
        Some(reading_of(
            completed,
            from,
            best,
            how == Decided::Recovered,
            &obs.promoted,
        ))
    }

    /// What the still board showed and had not yet stood long enough to
    /// be read, when nobody watches any more: a reading, recovered.
    pub(crate) fn unconfirmed(&self) -> Option<(Reading, Unconfirmed)> {
        let (completed, from) = self.next_move_from()?;
        let (way, how) = self.decision.unconfirmed(&from, self.last_bare.as_ref())?;
        tracing::debug!(
            plies = way.moves.len(),
            ?how,
            "a still board taken unconfirmed"
        );
        Some((reading_of(completed, from, way, true, &[None; 64]), how))
    }

    /// The squares the still board reads otherwise than the table, when
    /// neither the table nor the move standing explains it (empty when one
    /// does); `None` when nothing of the board is seen.
    pub(crate) fn unexplained(&self, belief: &BoardBelief) -> Option<Bitboard> {
        if !belief.is_informed() {
            return None;
        }
        let explains = |board: &Board| decode::explains(belief, board);
        let explained = explains(&self.table)
            || self
                .next_move_from()
                .is_some_and(|(_, from)| explains(from.board()));
        Some(if explained {
            Bitboard::EMPTY
        } else {
            decode::read_otherwise(belief, &self.table)
        })
    }

    /// The moves that complete the record up to the table, and the position
    /// the next move is made from: the move standing on the table completed,
    /// or the record's own position when the table shows it.
    pub(crate) fn next_move_from(&self) -> Option<(Vec<Move>, Chess)> {
        match self.standing() {
            Some(m0) => Some((vec![m0], result(&self.pos, &m0))),
            None if &self.table == self.pos.board() => Some((Vec::new(), self.pos.clone())),
            None => None,
        }
    }

    /// What a still change means: the moves it completes (played on the
    /// record's position) and the boards it passes through, each with the
    /// side whose hand makes it. Tried in order: the opponent's reply to the
    /// move standing on the table; a legal move of the side to move, seen
    /// from the table (it may finish a move begun, like castling after the
    /// rook, or move on a piece already set down); a run of moves made with
    /// no pause between them.
    pub(crate) fn interpret(
        &self,
        change: &ChangeSet,
        promoted: &[Option<Piece>; 64],
        allow_runs: bool,
    ) -> Option<Reading> {
        // A pawn promotes to the piece read on its square (a queen when the
        // eyes cannot tell).
        let as_read = |m: &Move| promotes_as_read(m, promoted);
        let unique = |pos: &Chess| -> Option<Move> {
            best(pos.legal_moves().into_iter().filter_map(|m| {
                let fit = change.fits(board_difference(&self.table, result(pos, &m).board()))?;
                as_read(&m).then_some((m, fit))
            }))
        };
        let us = self.pos.turn();
        let standing = self.standing();
        // The opponent's reply to a move standing on the table: ordinary play,
        // so it is preferred to the mover going on with the same turn.
        if let Some(m0) = standing {
            let after = result(&self.pos, &m0);
            if let Some(m) = unique(&after) {
                let board = result(&after, &m).board().clone();
                return Some(Reading {
                    completed: vec![m0],
                    steps: vec![(!us, board)],
                    recovered: false,
                });
            }
        }
        if let Some(m) = unique(&self.pos) {
            let mut steps = Vec::new();
            if let Some(chosen) = self.promotion_changed(&m) {
                // Art. 4.4d: the piece first set there, then the one now.
                steps.push((us, result(&self.pos, &chosen).board().clone()));
            }
            steps.push((us, result(&self.pos, &m).board().clone()));
            return Some(Reading {
                completed: Vec::new(),
                steps,
                recovered: false,
            });
        }
        // The piece a pawn just promoted to exchanged for another (art.
        // 4.4d): the same promotion to the piece now read there.
        if let Some(m0) = standing
            && m0.promotion().is_some()
            && change.bits == 1 << usize::from(m0.to())
            && let Some(read) = promoted[usize::from(m0.to())]
            && m0.promotion() != Some(read.role)
            && let Some(m) = self.promotion_to(&m0, read.role)
        {
            return Some(Reading {
                completed: Vec::new(),
                steps: vec![(us, result(&self.pos, &m).board().clone())],
                recovered: false,
            });
        }
        // A piece moved where it may not go, put back: the table is the
        // record's position again.
        if standing.is_none()
            && &self.table != self.pos.board()
            && change
                .fits(board_difference(&self.table, self.pos.board()))
                .is_some()
        {
            return Some(Reading {
                completed: Vec::new(),
                steps: vec![(us, self.pos.board().clone())],
                recovered: false,
            });
        }
        let (mut completed, from) = match standing {
            Some(m0) => (vec![m0], result(&self.pos, &m0)),
            None if &self.table == self.pos.board() => (Vec::new(), self.pos.clone()),
            None => return None,
        };
        if !allow_runs {
            return None;
        }
        let run = explain_sequence(&from, change, &self.first_changed, promoted)?;
        let mut steps = Vec::new();
        let mut pos = from;
        for (index, m) in run.iter().enumerate() {
            let mover = pos.turn();
            let next = result(&pos, m);
            steps.push((mover, next.board().clone()));
            // Every move but the last is completed by the next one.
            if index + 1 < run.len() {
                completed.push(*m);
            }
            pos = next;
        }
        Some(Reading {
            completed,
            steps,
            recovered: false,
        })
    }

    /// The changed squares whose colours read as the table holds.
    pub(crate) fn as_table(&self, obs: &Observation) -> u64 {
        read_as(&self.table, obs)
    }

    /// Whether the colours read on the changed squares are those the table holds.
    pub(crate) fn reads_as_table(&self, obs: &Observation) -> bool {
        self.as_table(obs) == obs.changed
    }

    /// The squares not changed whose colours read otherwise than the table
    /// holds, for traces.
    pub(crate) fn unchanged_misread(&self, obs: &Observation) -> String {
        squares_in(!obs.changed & !read_as_on(!obs.changed, &self.table, obs))
            .map(|sq| sq.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The squares the detector reads otherwise than the table holds, for
    /// traces.
    pub(crate) fn detected_otherwise(&self, obs: &Observation) -> String {
        let sure = squares_where(u64::MAX, |sq| obs.detected[usize::from(sq)].is_some());
        squares_in(sure & !detected_as(sure, &self.table, obs))
            .map(|sq| sq.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The continuation `best` of `from` (the moves before it, `completed`)
/// as a reading: each move a step of its side's hand, a pawn promoting to
/// the piece `promoted` reads on its square (a queen where none is read).
fn reading_of(
    mut completed: Vec<Move>,
    from: Chess,
    best: Continuation,
    recovered: bool,
    promoted: &[Option<Piece>; 64],
) -> Reading {
    let mut position = from;
    let mut steps = Vec::new();
    let plies = best.moves.len();
    for (index, m) in best.moves.into_iter().enumerate() {
        let m = match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion: Some(_),
            } => Move::Normal {
                role,
                from,
                capture,
                to,
                promotion: Some(
                    promoted[usize::from(to)]
                        .filter(|p| p.color == position.turn())
                        .map_or(Role::Queen, |p| p.role),
                ),
            },
            m => m,
        };
        let mover = position.turn();
        position.play_unchecked(m);
        steps.push((mover, position.board().clone()));
        // Every move but the last is completed by the next one.
        if index + 1 < plies {
            completed.push(m);
        }
    }
    Reading {
        completed,
        steps,
        recovered,
    }
}
