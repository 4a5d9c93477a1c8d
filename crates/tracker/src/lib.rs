//! The tracker: per-frame observations of one board → physical events
//! (contracts.md §1), in time order.
//!
//! Input: for each frame its time, which squares differ from the last
//! accepted picture of the board, whether the picture is still, and where a
//! fingertip rests (when the eyes can tell). Output: `touch` when a
//! fingertip dwells on a piece (and, where the touch alone would accuse the
//! player, its piece neither moved nor taken, stops there: a hand passing
//! over pieces does not), `adjust` when a piece a fingertip rested on
//! (however briefly) is found shifted in its square, and the `lift`,
//! `capture`, `add` and `release` events of a move once the board is still
//! again; and when to take the present picture as the new accepted one.
//!
//! The position decides what is possible: a change is read only when one
//! legal move (the mover going on with the turn, or the opponent replying),
//! or one run of moves made without a pause, changes those squares, every
//! other changed square having changed much less (a shadow, a leaning
//! neighbour); and only after the picture has been still with that change
//! for a while. So a square misread for a few frames, or a hand resting on
//! the board, never becomes a move. The events describe what the hands did
//! (castling begun with the rook shows as such); the rules engine judges.

mod actions;
mod belief;
mod cadence;
mod change;
mod decode;
mod earlier;
mod gap;
mod glimpse;
mod illegal;
mod moments;
mod observation;
mod promotion;
mod reading;
mod set_down;
mod squares;
mod still;
mod touch;
mod unseen;
mod unseen_arm;

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square};

use referee_rules::{Action, Event};

use actions::relocating;
pub use actions::transition;
pub use belief::{Bias, BoardBelief, FLOOR, SquareBelief};
use cadence::Cadence;
pub use cadence::SPARSE_GAP;
pub use change::{ChangeSet, MAX_SEQUENCE, explain, explain_sequence, squares_changed};
pub use decode::{
    DECIDE_FRAMES, DECIDE_MARGIN, DECIDE_PLIES, DECIDE_SECONDS, Decided, MAX_RESIDUE,
    RECOVER_PLIES, RECOVER_SECONDS, RESIDUE_MARGIN, Search,
};
use gap::GapWatch;
pub use gap::{Gap, RECORD_GAP_SECONDS};
pub use moments::MOVED_MOTION;
use moments::Moments;
pub use observation::{Observation, Step};
use observation::{describe, promoted_named};
use reading::Pending;
pub use reading::{HELD_SHARE, RUN_MISREADS};
use set_down::SetDowns;
pub use squares::board_difference;
use still::{StillDecision, Unconfirmed, Watch};
pub use touch::{
    ACCUSING_CONTACT_SECONDS, ACCUSING_REST_SECONDS, DWELL_FRAMES, REACH_SECONDS, REST_MOTION,
    REST_RISE,
};
use touch::{Bare, HeldTouch};
pub use unseen::{UNSEEN_MOVE_SURE_SQUARES, UNSEEN_PRESS_SECONDS};

/// Frames in a row a hand must be at the clock for a press (a press is quick).
pub const CLOCK_FRAMES: u32 = 1;

/// Still frames with the same change before a move is accepted…
pub const STABLE_FRAMES: u32 = 2;

/// …spanning at least this long (seconds), whatever the frame rate.
pub const STABLE_SECONDS: f64 = 0.15;

/// How long (seconds, still) squares must stay changed, unexplained, while
/// reading as the table says, before they are refreshed.
pub const STALE_SECONDS: f64 = 1.0;

/// A run of several moves is accepted only after this long still: a hand
/// resting mid-move for a moment can look like two moves.
pub const STABLE_RUN_SECONDS: f64 = 0.35;

/// Seconds between two frames past which nobody watched the board.
pub const GAP_SECONDS: f64 = 1.0;

/// Squares the eyes may read otherwise than the table (each by at least
/// [`RESIDUE_MARGIN`]) and still be looking at the board: more, and the
/// picture is not the board (the camera covered or blank, knocked aside),
/// so nobody watched while it lasted.
pub const BLIND_SQUARES: usize = 16;

/// Turns observations into events.
#[derive(Debug, Clone)]
pub struct Tracker {
    /// The position after the last completed move (the rules engine's record).
    pos: Chess,
    /// What stands on the board as the events so far leave it: the position,
    /// or the position with a move (or part of one) made on it.
    table: Board,
    /// Touches already seen this turn.
    touched: Vec<Square>,
    /// Touches seen and not yet reported: they wait for what the hand does
    /// (a move, read only once the hand has left, or nothing) to be put in
    /// order with it.
    held: Vec<HeldTouch>,
    /// Fingertips seen on a piece this turn, each from the first frame it
    /// was seen there, however briefly: a touch after all if that piece is
    /// then found shifted in its square (the shift bears out what a glimpse
    /// alone would not).
    glimpsed: Vec<HeldTouch>,
    /// The fingertip's stay on one square ([`touch::Dwell`]).
    dwell: Option<touch::Dwell>,
    /// Each square's change scores on the frame before
    /// ([`Observation::scores`], [`Observation::head_scores`]).
    last_scores: [Bare; 64],
    /// When the latest frame was taken.
    last_frame: Option<f64>,
    /// The last frame's belief, when no hand was over the board in it.
    last_bare: Option<BoardBelief>,
    /// When the fingertip was last seen on each square.
    tip_last_seen: [Option<f64>; 64],
    /// The pieces of the move just read that the mover's fingertip was on
    /// as it was read (one bit per `Square` index), and the mover: the hand
    /// letting go, no touch of the next turn until it has left them.
    letting_go: Option<(Color, u64)>,
    /// The same change seen still.
    pending: Option<Pending>,
    /// The squares the last move read changed (one bit per `Square` index).
    last_accepted: u64,
    /// When the picture last moved.
    last_motion: f64,
    last_t: f64,
    /// When each square was first seen changed since the last accepted picture.
    first_changed: [Option<f64>; 64],
    /// When each square's picture moved since the last move read.
    moments: Moments,
    /// Where each side's hand stopped over an empty square since the last
    /// move read.
    set_down: SetDowns,
    /// Moves read so far.
    moves_read: u64,
    /// Frames in a row with a hand at the clock.
    at_clock: u32,
    /// A move was read and no clock press seen after it.
    unclocked: bool,
    /// A press seen before the move it ends was read.
    press_waiting: bool,
    /// When the clock was pressed with no move seen that the press ends
    /// (the last move read was clocked already, and nothing changed).
    press_unseen: Option<f64>,
    /// Frames in a row with both hands of one side gripping pieces.
    two_hands: Option<(Color, u32)>,
    /// Sides already seen using two hands this turn.
    two_handed: Vec<Color>,
    /// The piece read on a square the side to move may promote on, and
    /// frames in a row it was read there.
    promotion_read: Option<((Square, Role), u32)>,
    /// The piece first read there for [`DWELL_FRAMES`]: the choice made
    /// once it touched the square (art. 4.4d), even if it was exchanged
    /// before the picture was still.
    promotion_chosen: Option<(Square, Role)>,
    /// The likelihood decoder's verdict on the still board.
    decision: StillDecision,
    /// How the board was watched since the table was last seen: when not
    /// throughout (frames lost for [`GAP_SECONDS`], the camera
    /// reconnected), the next move read was made unseen, and is recovered.
    watch: Watch,
    /// Whether the record explains the still board.
    gap: GapWatch,
    /// How evenly the frames come, and whether some were dropped.
    cadence: Cadence,
}

impl Tracker {
    /// A tracker for a game from `start`.
    pub fn new(start: Chess) -> Self {
        Self {
            table: start.board().clone(),
            pos: start,
            touched: Vec::new(),
            held: Vec::new(),
            glimpsed: Vec::new(),
            dwell: None,
            last_scores: [Bare::default(); 64],
            last_frame: None,
            last_bare: None,
            tip_last_seen: [None; 64],
            letting_go: None,
            pending: None,
            last_accepted: 0,
            last_motion: 0.0,
            last_t: 0.0,
            first_changed: [None; 64],
            moments: Moments::default(),
            set_down: SetDowns::default(),
            moves_read: 0,
            at_clock: 0,
            unclocked: false,
            press_waiting: false,
            press_unseen: None,
            two_hands: None,
            two_handed: Vec::new(),
            promotion_read: None,
            promotion_chosen: None,
            decision: StillDecision::default(),
            watch: Watch::Throughout,
            gap: GapWatch::default(),
            cadence: Cadence::default(),
        }
    }

    /// A tracker for a game resumed at `pos` after nobody watched it (a
    /// camera reconnected, the service restarted), `on_table` standing on
    /// the table as the record left it: the position, or the position
    /// with a move made that its opponent's reply has not yet completed
    /// (anything else, a piece still in hand, is taken as the position).
    /// Moves made meanwhile are recovered once the board has read as the
    /// position they reach.
    pub fn resumed(pos: Chess, on_table: &Board) -> Self {
        let mut tracker = Self {
            watch: Watch::Resumed,
            table: on_table.clone(),
            ..Self::new(pos)
        };
        if tracker.next_move_from().is_none() {
            tracker.table = tracker.pos.board().clone();
        }
        tracker
    }

    /// The position after the moves seen so far.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// What stands on the board as the events so far leave it.
    pub fn table(&self) -> &Board {
        &self.table
    }

    /// Takes one frame.
    pub fn push(&mut self, obs: &Observation) -> Step {
        let pressed = self.follow_clock(obs);
        let two_handed = self.follow_two_hands(obs);
        self.follow_promotion(obs);
        let read_before = self.moves_read;
        let mut step = Step::default();
        if let Some(side) = two_handed {
            // Art. 4.1: each move with one hand; seen as it happens.
            self.record(
                &mut step.events,
                Event::new(obs.t, Action::TwoHands).by(side),
            );
        }
        let read = self.read_frame(obs);
        step.events.extend(read.events);
        step.accept = read.accept;
        step.gap = read.gap;
        let moved = self.moves_read != read_before;
        if pressed {
            // Squares changed beyond the last move's (whose picture may
            // still be refreshing): the move this press ends is not read yet.
            if obs.changed & !self.last_accepted != 0 && !moved {
                self.press_waiting = true;
            } else if self.unclocked {
                self.press_clock(&mut step.events, obs.t);
            } else if !moved {
                self.press_unseen = Some(obs.t);
            }
        }
        if !moved && self.press_unseen.is_some() {
            self.read_unseen_move(&mut step, obs);
        }
        let moved = self.moves_read != read_before;
        step.moved = moved;
        if moved && std::mem::take(&mut self.press_waiting) && self.unclocked {
            self.press_clock(&mut step.events, obs.t);
        }
        if obs.changed == 0 && !moved {
            self.press_waiting = false;
        }
        step.idle = obs.changed == 0
            && !self.decision.pending()
            && self.held.is_empty()
            && !self.press_waiting
            && self.press_unseen.is_none();
        if step.idle {
            // Nothing under way: motion so far belongs to no move.
            self.moments.clear();
        }
        step
    }

    /// Nobody watches any more (the camera's stream ended, the footage
    /// is over) at `t`. A move the still board showed, decided but not yet
    /// borne out over the frames a move needs (the last frames came too
    /// far apart, or too soon after it), is read, marked recovered for the
    /// arbiter's check: left out, the record would be short with nobody
    /// told. Where it was a board reached as likely with either side to
    /// move, the shorter way is read and the gap raised over its squares
    /// too: a move may be missing. Otherwise the gap in the record when the
    /// still board last read as a position the record does not explain,
    /// for the arbiter's look (moves are missing from the record, and no
    /// later frame tells).
    pub fn left_open(&mut self, t: f64) -> Step {
        let mut step = Step::default();
        match self.unconfirmed() {
            Some((reading, how)) => {
                let since = self.still_since();
                self.take_reading(reading, 0, &mut step);
                step.moved = true;
                if how == Unconfirmed::EitherTurn {
                    step.gap = Some(Gap {
                        since,
                        t,
                        squares: Bitboard(step.accept),
                    });
                }
            }
            None => step.gap = self.gap.left_open(t).or_else(|| self.left_unread(t)),
        }
        step
    }

    /// Since when the board has stood as it is now: when its picture last
    /// moved, or the last event was reported, whichever is later.
    fn still_since(&self) -> f64 {
        self.last_motion.max(self.last_t)
    }

    /// The gap a stream's end leaves where the still board last read as
    /// moves on from the table, clearly, but no way there stood out: the
    /// record is short of them, and no later frame will tell which.
    fn left_unread(&self, t: f64) -> Option<Gap> {
        let (_, from) = self.next_move_from()?;
        let squares = self.decision.left_unread(&from, self.last_bare.as_ref())?;
        Some(Gap {
            since: self.still_since(),
            t,
            squares,
        })
    }

    /// How the board has been watched since the table was last seen, the
    /// frames' spacing counted: [`Watch::Sparse`] where they come too far
    /// apart to see every still moment.
    fn watching(&self) -> Watch {
        match self.watch {
            Watch::Throughout if self.cadence.sparse() => Watch::Sparse,
            watch => watch,
        }
    }

    /// Whether a still board's reading is being borne out as a move (or
    /// two ways to one board followed): what changed on the board is
    /// explained by the game, not by the camera.
    pub fn deciding(&self) -> bool {
        self.decision.pending()
    }

    /// Whether the tracker asks for the detector's reading of the next
    /// still picture even where the colours see no change: the clock was
    /// pressed, and no move is seen that the press ends.
    pub fn asks_detector(&self) -> bool {
        self.press_unseen.is_some()
    }

    /// Whether this frame completes a press of the clock: a hand at it for
    /// [`CLOCK_FRAMES`] frames in a row (one press while it stays).
    fn follow_clock(&mut self, obs: &Observation) -> bool {
        self.at_clock = if obs.at_clock { self.at_clock + 1 } else { 0 };
        self.at_clock == CLOCK_FRAMES
    }

    /// A move (or a run, or a relocation) was read, its squares accepted:
    /// a new turn for touches, two hands and the clock.
    fn move_read(&mut self, accepted: u64) {
        self.moves_read += 1;
        self.touched.clear();
        self.glimpsed.clear();
        self.two_handed.clear();
        self.unclocked = true;
        self.press_unseen = None;
        self.pending = None;
        self.first_changed = [None; 64];
        self.moments.clear();
        self.set_down.clear();
        self.last_accepted = accepted;
        self.promotion_read = None;
        self.promotion_chosen = None;
        self.decision.clear();
        self.gap.clear();
        self.cadence.move_read();
        // A fingertip resting as the move is read is the mover's hand
        // leaving it: it becomes no touch (nor glimpse) of the next turn
        // unless it goes elsewhere and rests again.
        if let Some(dwell) = &mut self.dwell {
            dwell.spent = true;
        }
        self.letting_go = self.hand_on_move(accepted);
    }

    /// The mover pressed the clock, ending the move read last.
    fn press_clock(&mut self, events: &mut Vec<Event>, t: f64) {
        self.unclocked = false;
        self.record(events, Event::new(t, Action::Clock));
    }

    /// Whether frames were lost just before the frame at `t`: nobody
    /// watched the board for [`GAP_SECONDS`] or more.
    fn frames_lost_before(&self, t: f64) -> bool {
        self.last_frame.is_some_and(|last| t - last >= GAP_SECONDS)
    }

    /// Reads one frame's board: touches, and moves once the board is still.
    fn read_frame(&mut self, obs: &Observation) -> Step {
        let mut step = Step::default();
        let blind = obs
            .belief
            .read_otherwise(&self.table, RESIDUE_MARGIN)
            .count()
            > BLIND_SQUARES;
        let lapsed = blind || self.frames_lost_before(obs.t);
        if lapsed && self.watch == Watch::Throughout {
            self.watch = Watch::Lapsed;
        }
        if let Some(last) = self.last_frame {
            self.cadence.frame(obs.t - last);
        } else {
            // The first frame watched: what the board shows was done
            // before it (moves made while nobody watched are dated here).
            self.last_motion = obs.t;
        }
        self.follow_fingertip(obs);
        self.set_down.follow(obs, &self.table);
        self.moments.follow(obs.t, &obs.motion);
        self.last_bare = (obs.covered == 0 && obs.fingertip.is_none()).then(|| obs.belief.clone());
        for (index, first) in self.first_changed.iter_mut().enumerate() {
            if obs.changed & (1 << index) != 0 && first.is_none() {
                *first = Some(obs.t);
            }
        }
        tracing::trace!(
            t = obs.t,
            still = obs.still,
            changed = %describe(obs),
            covered = obs.covered,
            fingertip = ?obs.fingertip,
            toucher = ?obs.toucher,
            fingertip_motion = ?obs.fingertip.map(|sq| obs.motion[usize::from(sq)]),
            unchanged_reading_otherwise = %self.unchanged_misread(obs),
            detected_otherwise = %self.detected_otherwise(obs),
            press_waiting = self.press_waiting,
            promoted = %promoted_named(obs),
            "frame"
        );
        // A hand resting over a changed square: the picture may be still,
        // the board under the hand is not seen.
        if !obs.still || obs.changed & obs.covered != 0 {
            if obs.covered == 0 && obs.fingertip.is_none() {
                self.gap.unsettled(obs.t, Bitboard(obs.changed));
            }
            self.last_motion = obs.t;
            self.decision.reset();
            // Motion away from a change waiting to be read (a hand at the
            // clock, across the board's corner) neither counts nor resets it.
            if !self.pending.as_ref().is_some_and(|p| p.holds_in(obs)) {
                self.pending = None;
            }
            return step;
        }
        let unexplained = self.unexplained(&obs.belief);
        if let Some(squares) = unexplained {
            self.gap.seen(obs.t, squares);
        }
        // The likelihood decoder follows every still frame: its verdict
        // stands on its own frames, whatever the change shows.
        let mut decoded = self.decoded(obs);
        if decoded.is_none() && self.decision.explained() && !self.decision.pending() {
            // Seen as the table: nothing more was missed.
            self.watch = Watch::Throughout;
        }
        if decoded.is_none() && !self.decision.pending() {
            step.gap = unexplained.and_then(|squares| self.gap.still(obs.t, squares));
        }
        let resumed = self.watch == Watch::Resumed;
        if obs.changed == 0 || resumed {
            if let Some(reading) = decoded {
                self.take_reading(reading, 0, &mut step);
                return step;
            }
            if resumed {
                // Watched again, the picture accepted is not known to show
                // the table: a change against it tells nothing of the moves
                // missed (read alone, it skips them, or accuses a legal
                // move). The whole board, decoded, reads them.
                return step;
            }
            // The board as accepted, nothing moving: a touch stands alone.
            self.pending = None;
            self.report_held(&mut step.events, &[], obs.t);
            return step;
        }
        let (since, frames) = match &self.pending {
            Some(p) if p.seen_again_in(obs) => (p.since, p.frames + 1),
            _ => (obs.t, 1),
        };
        self.pending = Some(Pending {
            changed: obs.changed,
            scores: obs.scores,
            since,
            frames,
        });
        if frames < STABLE_FRAMES || obs.t - since < STABLE_SECONDS {
            if let Some(reading) = decoded {
                self.take_reading(reading, 0, &mut step);
            }
            return step;
        }
        let change = ChangeSet {
            bits: obs.changed,
            scores: obs.scores,
            faint: obs.faint,
        };
        let patient = obs.t - since >= STABLE_RUN_SECONDS;
        // A piece set straight in its square (an adjustment) changes its
        // square's picture, not its colour: when no move explains the whole
        // change, one may explain the rest. The squares left out still read
        // as the table holds them, so a move's own square (lifted, or
        // arrived on) is never one of them.
        let shifted = self.as_table(obs);
        let reading = self
            .read_change(&change, obs, patient)
            .map(|reading| (reading, 0))
            .or_else(|| {
                let rest = ChangeSet {
                    bits: change.bits & !shifted,
                    ..change
                };
                (shifted != 0 && rest.bits != 0)
                    .then(|| self.read_change(&rest, obs, patient))
                    .flatten()
                    .map(|reading| (reading, shifted))
            });
        let reading = reading.or_else(|| {
            let completed = (patient && self.press_waiting)
                .then(|| self.completed_by_detector(&change, obs))
                .flatten();
            // With no hand over the board, no move is half made: the
            // detector's reading of a still picture is not kept waiting
            // (it may not be as sure on the next).
            let unseen_first = || {
                (patient || obs.covered == 0)
                    .then(|| self.unseen_before(&change, obs))
                    .flatten()
            };
            completed.or_else(unseen_first).map(|reading| (reading, 0))
        });
        // The likelihood decoder reads the whole board: where it reads the
        // change's moves and more (a pale pawn moved over pale squares,
        // which changes its squares too little to be seen), its reading is
        // taken whole.
        let reading = match (reading, decoded.take()) {
            (Some((read, shifted)), Some(whole)) if whole.goes_on_from(&read) => {
                Some((whole, shifted))
            }
            // The colours read less of the change than the whole board
            // does (what they leave is the opponent's move, not noise).
            (Some((read, _)), Some(whole))
                if whole.accounts_for_more(&read, &self.table, change.bits) =>
            {
                Some((whole, 0))
            }
            (Some(read), _) => Some(read),
            (None, whole) => whole.map(|reading| (reading, 0)),
        };
        tracing::trace!(t = obs.t, reading = ?reading.as_ref().map(|r| &r.0.steps), "still change");
        if let Some((reading, shifted)) = reading {
            self.take_reading(reading, shifted, &mut step);
        } else if self.press_waiting
            && patient
            && !self.decision.pending()
            && let Some((standing, board)) = self.relocation(&change, obs)
        {
            // No legal move nor run of moves explains the change, still a
            // while, nor the whole board (a square left changed by a stale
            // picture, beside a legal move the decoder is bearing out), yet
            // the mover pressed the clock: a piece was moved where it may
            // not go (art. 7.5). The move standing on the table before it
            // is complete.
            let t = self.still_since();
            if let Some(m) = standing {
                self.pos.play_unchecked(m);
            }
            let us = self.pos.turn();
            let actions = relocating(&self.table, &board, us);
            step.accept = board_difference(&self.table, &board);
            self.table = board;
            self.report_held(&mut step.events, &[(us, actions)], t);
            self.move_read(step.accept);
        } else if obs.t - since >= STALE_SECONDS && self.reads_as_table(obs) {
            // The board looks as the table says, long after, and no move
            // explains the change: the picture was accepted while a hand lay
            // there, or the light changed. Take these squares as they are now.
            // A piece touched there that stands changed was shifted.
            self.mark_shifted(obs.changed);
            step.accept = obs.changed;
            self.pending = None;
        } else if obs.t - since >= STABLE_RUN_SECONDS {
            // The squares of the last move still differ from the picture
            // taken when it was read: that picture was taken with the hand
            // still over them. Refreshed once they show what the table holds,
            // or, the colours misled by a leaning neighbour, once still long
            // after (a legal move explained them when it was read).
            let mut residue = obs.changed & self.last_accepted;
            if obs.t - since < STALE_SECONDS {
                residue &= self.as_table(obs);
            }
            if residue != 0 {
                step.accept = residue;
                self.pending = None;
            }
        }
        step
    }

    /// Adds `event`, no earlier than the last one.
    fn record(&mut self, events: &mut Vec<Event>, mut event: Event) {
        event.t = event.t.max(self.last_t);
        self.last_t = event.t;
        events.push(event);
    }

    fn emit(&mut self, events: &mut Vec<Event>, t: f64, action: Action) {
        self.record(events, Event::new(t, action));
    }
}

/// Follows what is seen frame after frame: `seen` and the frames in a row
/// it has been seen (as `last` had it, one more), or `None` when nothing is.
fn streak<T: PartialEq + Copy>(last: Option<(T, u32)>, seen: Option<T>) -> Option<(T, u32)> {
    let seen = seen?;
    Some(match last {
        Some((was, frames)) if was == seen => (seen, frames + 1),
        _ => (seen, 1),
    })
}

/// The position after `m`.
fn result(pos: &Chess, m: &Move) -> Chess {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    after
}

#[cfg(test)]
mod tests;
