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

mod belief;
mod decode;
mod gap;
mod illegal;
mod moments;

use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, Move, Piece, Position, Rank, Role, Square,
};

use referee_rules::{Action, Event};

pub use belief::{BoardBelief, FLOOR, SquareBelief};
use decode::StillDecision;
pub use decode::{
    DECIDE_FRAMES, DECIDE_MARGIN, DECIDE_PLIES, DECIDE_SECONDS, Decided, MAX_RESIDUE,
    RECOVER_PLIES, RECOVER_SECONDS, RESIDUE_MARGIN, Search,
};
use gap::GapWatch;
pub use gap::{Gap, RECORD_GAP_SECONDS};
pub use moments::MOVED_MOTION;
use moments::Moments;

/// One frame as the eyes saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    /// Seconds since the stream started.
    pub t: f64,
    /// Squares that differ from the last accepted picture, one bit per `Square` index.
    pub changed: u64,
    /// How strongly each square differs (any scale), by `Square` index: a
    /// piece leaving or arriving changes its square more than its shadow
    /// changes a neighbour.
    pub scores: [f32; 64],
    /// Changes at most this strong (the scale of `scores`) are faint: left
    /// out of a move, they are residues of an earlier picture, not a hand.
    pub faint: f32,
    /// The colour the eyes read on each square, by `Square` index (`None`:
    /// empty): a check on changes no move explains.
    pub occupancy: [Option<Color>; 64],
    /// The occupant a second pair of eyes (the learned detector) reads on
    /// each square, by `Square` index, where it is sure and no hand covers
    /// the square: `Some(None)` empty, `Some(Some(colour))` a piece, `None`
    /// not told. A second opinion on a move the change shows: it may bear
    /// out a faint square, refuse a move it reads against, and, once the
    /// mover has pressed the clock, complete a move the change half shows
    /// (a white piece set on a light square may change its square too
    /// little to be seen at all). It picks a move by itself only when it
    /// reads the whole board as the table but for exactly one legal move's
    /// squares, and only after a press of the clock that ends no move seen,
    /// or before a move seen that only that move makes legal (the press
    /// missed).
    pub detected: [Option<Option<Color>>; 64],
    /// The piece a pawn could have become (a knight, bishop, rook or queen
    /// of either side) that the eyes read on each square, by `Square` index
    /// (`None`: empty or not told). Never decides an ordinary move: it
    /// names the piece a pawn promotes to.
    pub promoted: [Option<Piece>; 64],
    /// The square a fingertip rests on, from eyes that can see fingertips
    /// (the colour baseline cannot: it gives `None`).
    pub fingertip: Option<Square>,
    /// Whose hand that fingertip is (from the edge its arm comes from),
    /// when the eyes can tell: the touch is then that side's.
    pub toucher: Option<Color>,
    /// A hand is at the clock beside the board (when the eyes see a clock).
    pub at_clock: bool,
    /// Both hands of this side grip pieces at once (from eyes that tell
    /// hands apart: the real-hand models).
    pub two_hands: Option<Color>,
    /// Squares a hand or arm covers, one bit per `Square` index (from eyes
    /// that see hands; 0 otherwise): what they show is not the board.
    pub covered: u64,
    /// The picture did not change since the previous frame.
    pub still: bool,
    /// How much of each square's picture changed since the previous frame
    /// (percent of its pixels), by `Square` index: where a hand moves.
    pub motion: [f32; 64],
    /// What the eyes believe stands on each square, every pair of eyes
    /// fused, squares under a hand unknown ([`BoardBelief::unknown`] from
    /// eyes that give none): the still board's position is decided by it
    /// where the change alone reads no move.
    pub belief: BoardBelief,
}

/// What one frame made known.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Step {
    pub events: Vec<Event>,
    /// A move was read: on these squares (one bit per `Square` index) the
    /// present picture is the new accepted board.
    pub accept: u64,
    /// Nothing seen waits to be reported (no touch held, the board as
    /// accepted): no later step brings an event earlier than this frame.
    pub idle: bool,
    /// The record no longer explains the board: moves are missing from it
    /// (or one read is wrong), for the arbiter to look at.
    pub gap: Option<Gap>,
}

/// What a still change was read as.
#[derive(Debug, Clone)]
struct Reading {
    /// Moves the change completes, in order.
    completed: Vec<Move>,
    /// The boards the table passes through, each made by that side's hand.
    steps: Vec<(Color, Board)>,
    /// Found by the search for moves the eyes missed ([`Decided::Recovered`]).
    recovered: bool,
}

impl Reading {
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
    fn seen_on_each(&self, table: &Board, change: &ChangeSet, obs: &Observation) -> bool {
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
    fn marked(&self, table: &Board, change: &ChangeSet) -> bool {
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
    fn seen_in(&self, obs: &Observation) -> bool {
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

/// The squares of `bits` (one bit per `Square` index).
fn squares_in(bits: u64) -> impl Iterator<Item = Square> {
    Square::ALL
        .into_iter()
        .filter(move |sq| bits & (1 << usize::from(*sq)) != 0)
}

/// The squares of `bits` for which `keep` holds (one bit per `Square` index).
fn squares_where(bits: u64, keep: impl Fn(Square) -> bool) -> u64 {
    squares_in(bits)
        .filter(|sq| keep(*sq))
        .fold(0, |kept, sq| kept | 1 << usize::from(sq))
}

/// The colour of the piece on `sq` of `board` (`None`: empty).
fn colour_on(board: &Board, sq: Square) -> Option<Color> {
    board.piece_at(sq).map(|p| p.color)
}

/// The squares of `bits` whose colour the eyes read as `board` holds it.
fn read_as_on(bits: u64, board: &Board, obs: &Observation) -> u64 {
    squares_where(bits, |sq| {
        obs.occupancy[usize::from(sq)] == colour_on(board, sq)
    })
}

/// The changed squares whose colour the eyes read as `board` holds it.
fn read_as(board: &Board, obs: &Observation) -> u64 {
    read_as_on(obs.changed, board, obs)
}

/// The squares of `bits` the detector surely reads as `board` holds them.
fn detected_as(bits: u64, board: &Board, obs: &Observation) -> u64 {
    squares_where(bits, |sq| {
        obs.detected[usize::from(sq)] == Some(colour_on(board, sq))
    })
}

/// A change seen still, waiting to be read.
#[derive(Debug, Clone)]
struct Pending {
    changed: u64,
    /// The scores when it was last seen still.
    scores: [f32; 64],
    since: f64,
    /// Still frames that saw it.
    frames: u32,
}

impl Pending {
    /// Whether a still frame shows this change again: the same squares
    /// changed, give or take squares changed only faintly (a square beside
    /// a move flickering in the camera's noise does not make it another).
    fn seen_again_in(&self, obs: &Observation) -> bool {
        let faint_in = |bits: u64, scores: &[f32; 64]| {
            squares_in(bits).all(|sq| scores[usize::from(sq)] <= obs.faint)
        };
        faint_in(obs.changed & !self.changed, &obs.scores)
            && faint_in(self.changed & !obs.changed, &self.scores)
            && obs.changed & self.changed != 0
    }

    /// Whether a frame that moves leaves this change as it was: its squares
    /// all changed as much as before, and whatever moves is not beside them.
    fn holds_in(&self, obs: &Observation) -> bool {
        if obs.changed & self.changed != self.changed {
            return false;
        }
        let unchanged = (0..64)
            .filter(|i| self.changed & (1 << i) != 0)
            .all(|i| (obs.scores[i] - self.scores[i]).abs() <= HELD_SHARE * self.scores[i]);
        unchanged && obs.changed & !self.changed & around(self.changed) == 0
    }
}

/// The squares next to any of `squares` (one bit per `Square` index).
fn around(squares: u64) -> u64 {
    Square::ALL
        .into_iter()
        .filter(|sq| squares & (1 << usize::from(*sq)) != 0)
        .fold(0, |near, sq| near | shakmaty::attacks::king_attacks(sq).0)
}

/// Frames in a row a hand must be at the clock for a press (a press is quick).
pub const CLOCK_FRAMES: u32 = 1;
/// Frames a fingertip must rest on one square to count as a deliberate touch.
pub const DWELL_FRAMES: u32 = 3;
/// A fingertip rests on its square in a frame where at most this share of
/// the square's picture (percent of its pixels) changed since the frame
/// before: a hand passing over moves there, a hand touching stops.
pub const REST_MOTION: f32 = 1.0;
/// Frames a fingertip must rest (see [`REST_MOTION`]) on a piece for its
/// touch to accuse the player (the piece neither moved nor taken after
/// it, nor shifted by it): the detector reads a fingertip on a piece the
/// hand only passes over on about half of such frames, and a hand passing
/// seldom stops…
pub const ACCUSING_REST_FRAMES: u32 = 2;
/// …resting at least this long (seconds), whatever the frame rate: each
/// resting frame counts the time since the frame before, over which its
/// square stood still (two frames at 10 a second, three at 20, five at 30).
pub const ACCUSING_REST_SECONDS: f64 = 0.15;
/// Still frames with the same change before a move is accepted…
pub const STABLE_FRAMES: u32 = 2;
/// …spanning at least this long (seconds), whatever the frame rate.
pub const STABLE_SECONDS: f64 = 0.15;
/// How long (seconds) after a press of the clock that ends no move seen the
/// detector is asked whether a move was made that the colours missed.
pub const UNSEEN_PRESS_SECONDS: f64 = 2.0;
/// The detector reads a move the colours missed only when it is sure of at
/// least this many squares, all but the move's as the table holds them.
pub const UNSEEN_MOVE_SURE_SQUARES: u32 = 48;
/// How long (seconds, still) squares must stay changed, unexplained, while
/// reading as the table says, before they are refreshed.
pub const STALE_SECONDS: f64 = 1.0;
/// A change waiting to be read holds through a frame that moves elsewhere
/// when each of its squares changed by at most this share since.
pub const HELD_SHARE: f32 = 0.1;
/// A run of several moves is read only when the eyes take at most this many
/// of its changed squares for empty when occupied or the other way.
pub const RUN_MISREADS: usize = 1;
/// A run of several moves is accepted only after this long still: a hand
/// resting mid-move for a moment can look like two moves.
pub const STABLE_RUN_SECONDS: f64 = 0.35;

/// A touch beside a piece that begins to move within this long after it
/// (seconds) is the hand reaching for that piece, the fingertip seen one
/// square off (the detector puts a fingertip on its square 89% of the
/// time, and 31 of its 44 wrong squares on the held-out set are neighbours:
/// `scripts/train_detector evaluate`).
pub const REACH_SECONDS: f64 = 0.5;
/// Seconds between two frames past which nobody watched the board.
pub const GAP_SECONDS: f64 = 1.0;
/// Squares the eyes may read otherwise than the table (each by at least
/// [`RESIDUE_MARGIN`]) and still be looking at the board: more, and the
/// picture is not the board (the camera covered or blank, knocked aside),
/// so nobody watched while it lasted.
pub const BLIND_SQUARES: usize = 16;

/// A touch seen and not yet reported.
#[derive(Debug, Clone, Copy)]
struct HeldTouch {
    t: f64,
    square: Square,
    /// Whose hand, when the eyes could tell.
    by: Option<Color>,
    /// The piece was shifted within its square (its picture changed, its
    /// colour did not): an adjustment, not a bare touch.
    shifted: bool,
    /// How long the fingertip rested there, its square's picture all but
    /// unchanged from the frame before.
    rested: Rest,
}

/// How long a fingertip rested on its square in one dwell: the frames on
/// which the square's picture stood still, and the time they span.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Rest {
    frames: u32,
    seconds: f64,
}

impl Rest {
    /// This rest and one more frame, still since the frame `interval`
    /// seconds before it.
    fn and(self, interval: f64) -> Self {
        Self {
            frames: self.frames + 1,
            seconds: self.seconds + interval,
        }
    }

    /// The longer of two rests.
    fn longer(self, other: Self) -> Self {
        if (other.seconds, other.frames) > (self.seconds, self.frames) {
            other
        } else {
            self
        }
    }

    /// Long enough for a touch to accuse the player
    /// ([`ACCUSING_REST_FRAMES`], [`ACCUSING_REST_SECONDS`]).
    fn accuses(self) -> bool {
        // A thousandth of a second spares the sum of intervals its rounding.
        self.frames >= ACCUSING_REST_FRAMES && self.seconds >= ACCUSING_REST_SECONDS - 1e-3
    }
}

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
    dwell: Option<(Square, u32)>,
    /// How long the fingertip rested in that dwell (see [`REST_MOTION`]).
    rested: Rest,
    /// When the latest frame was taken.
    last_frame: Option<f64>,
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
    /// Nobody watched for a while (frames lost for [`GAP_SECONDS`], the
    /// camera reconnected) and the board has not been seen as the table
    /// since: the next move read was made unseen, and is recovered.
    unwatched: bool,
    /// Whether the record explains the still board.
    gap: GapWatch,
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
            rested: Rest::default(),
            last_frame: None,
            tip_last_seen: [None; 64],
            letting_go: None,
            pending: None,
            last_accepted: 0,
            last_motion: 0.0,
            last_t: 0.0,
            first_changed: [None; 64],
            moments: Moments::default(),
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
            unwatched: false,
            gap: GapWatch::default(),
        }
    }

    /// A tracker for a game resumed at `pos` after nobody watched it (a
    /// camera reconnected, the service restarted): moves made meanwhile
    /// are recovered once the board has read as the position they reach.
    pub fn resumed(pos: Chess) -> Self {
        Self {
            unwatched: true,
            ..Self::new(pos)
        }
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

    /// Whether the tracker asks for the detector's reading of the next
    /// still picture even where the colours see no change: the clock was
    /// pressed, and no move is seen that the press ends.
    pub fn asks_detector(&self) -> bool {
        self.press_unseen.is_some()
    }

    /// After a press of the clock that ends no move seen: the move the
    /// detector reads made where the colours saw nothing change (a light
    /// piece from one light square to another, in a bright light, changes
    /// neither square enough to be seen). Read, then clocked, once the
    /// picture is still; given up once a change shows or after
    /// [`UNSEEN_PRESS_SECONDS`].
    fn read_unseen_move(&mut self, step: &mut Step, obs: &Observation) {
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
        self.last_accepted = accepted;
        self.promotion_read = None;
        self.promotion_chosen = None;
        self.decision.clear();
        self.gap.clear();
        // A fingertip resting as the move is read is the mover's hand
        // leaving it: it becomes no touch (nor glimpse) of the next turn
        // unless it goes elsewhere and rests again.
        if let Some((_, frames)) = &mut self.dwell {
            *frames = (*frames).max(DWELL_FRAMES);
        }
        self.letting_go = self.hand_on_move(accepted);
    }

    /// The pieces among the `accepted` squares that the fingertip was on
    /// within [`REACH_SECONDS`] of now, and their side (the mover's): the
    /// hand that set them down, still letting go as the move is read, the
    /// fingertip maybe read one frame on a neighbour meanwhile.
    fn hand_on_move(&self, accepted: u64) -> Option<(Color, u64)> {
        let now = self.last_frame?;
        let on = squares_where(accepted, |sq| {
            self.table.piece_at(sq).is_some()
                && self.tip_last_seen[usize::from(sq)].is_some_and(|t| now - t <= REACH_SECONDS)
        });
        let mover = self.table.piece_at(squares_in(on).next()?)?.color;
        let mover_only = squares_in(on).all(|sq| self.table.color_at(sq) == Some(mover));
        mover_only.then_some((mover, on))
    }

    /// Whether this frame's fingertip is the mover's hand still letting go
    /// of the move just read ([`Self::hand_on_move`]); once the fingertip is
    /// gone, or away from those pieces and their neighbours, or seen to be
    /// the other side's hand, it no longer is.
    fn follow_letting_go(&mut self, obs: &Observation) -> bool {
        let Some((mover, squares)) = self.letting_go else {
            return false;
        };
        let near = squares | around(squares);
        let staying = obs
            .fingertip
            .filter(|tip| near & (1 << usize::from(*tip)) != 0 && obs.toucher != Some(!mover));
        let Some(tip) = staying else {
            self.letting_go = None;
            return false;
        };
        squares & (1 << usize::from(tip)) != 0
    }

    /// Follows the piece read on the squares the side to move may promote
    /// on, frame by frame, still or not (a hand exchanging the new piece
    /// keeps the picture moving): the first read for [`DWELL_FRAMES`] in a
    /// row is the piece chosen.
    fn follow_promotion(&mut self, obs: &Observation) {
        let us = self.pos.turn();
        let seventh = Bitboard::from_rank(us.relative_rank(Rank::Seventh));
        if self.promotion_chosen.is_some() || (self.pos.our(Role::Pawn) & seventh).is_empty() {
            return;
        }
        // Pieces of ours read on our last rank, no hand over them; then
        // (the legal moves asked only when there are) one a pawn may
        // promote on.
        let last = Bitboard::from_rank(us.relative_rank(Rank::Eighth));
        let read: Vec<(Square, Role)> = (last & !Bitboard(obs.covered))
            .into_iter()
            .filter_map(|sq| {
                let piece = obs.promoted[usize::from(sq)].filter(|p| p.color == us)?;
                Some((sq, piece.role))
            })
            .collect();
        let seen = if read.is_empty() {
            None
        } else {
            let targets: Bitboard = self
                .pos
                .legal_moves()
                .iter()
                .filter(|m| m.promotion().is_some())
                .map(|m| m.to())
                .collect();
            read.into_iter().find(|(sq, _)| targets.contains(*sq))
        };
        self.promotion_read = streak(self.promotion_read, seen);
        if let Some((chosen, DWELL_FRAMES)) = self.promotion_read {
            self.promotion_chosen = Some(chosen);
        }
    }

    /// The side that has gripped pieces with both hands for
    /// [`DWELL_FRAMES`] frames, once a turn.
    fn follow_two_hands(&mut self, obs: &Observation) -> Option<Color> {
        self.two_hands = streak(self.two_hands, obs.two_hands);
        let (side, frames) = self.two_hands?;
        (frames == DWELL_FRAMES && !self.two_handed.contains(&side)).then(|| {
            self.two_handed.push(side);
            side
        })
    }

    /// The mover pressed the clock, ending the move read last.
    fn press_clock(&mut self, events: &mut Vec<Event>, t: f64) {
        self.unclocked = false;
        self.record(events, Event::new(t, Action::Clock));
    }

    /// Reads one frame's board: touches, and moves once the board is still.
    fn read_frame(&mut self, obs: &Observation) -> Step {
        let mut step = Step::default();
        let blind = obs
            .belief
            .read_otherwise(&self.table, RESIDUE_MARGIN)
            .count()
            > BLIND_SQUARES;
        if blind
            || self
                .last_frame
                .is_some_and(|last| obs.t - last >= GAP_SECONDS)
        {
            self.unwatched = true;
        }
        self.follow_fingertip(obs);
        self.moments.follow(obs.t, &obs.motion);
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
            self.last_motion = obs.t;
            self.decision.reset();
            // Motion away from a change waiting to be read (a hand at the
            // clock, across the board's corner) neither counts nor resets it.
            if !self.pending.as_ref().is_some_and(|p| p.holds_in(obs)) {
                self.pending = None;
            }
            return step;
        }
        // The likelihood decoder follows every still frame: its verdict
        // stands on its own frames, whatever the change shows.
        let mut decoded = self.decoded(obs);
        if decoded.is_none() && self.decision.explained() && !self.decision.pending() {
            // Seen as the table: nothing more was missed.
            self.unwatched = false;
        }
        if decoded.is_none() && !self.decision.pending() {
            step.gap = self
                .unexplained(&obs.belief)
                .and_then(|squares| self.gap.still(obs.t, squares));
        }
        if obs.changed == 0 {
            if let Some(reading) = decoded {
                self.take_reading(reading, 0, &mut step);
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
        let reading = reading.or_else(|| decoded.take().map(|reading| (reading, 0)));
        tracing::trace!(t = obs.t, reading = ?reading.as_ref().map(|r| &r.0.steps), "still change");
        if let Some((reading, shifted)) = reading {
            self.take_reading(reading, shifted, &mut step);
        } else if self.press_waiting
            && patient
            && let Some((standing, board)) = self.relocation(&change, obs)
        {
            // No legal move nor run of moves explains the change, still a
            // while, yet the mover pressed the clock: a piece was moved
            // where it may not go (art. 7.5). The move standing on the
            // table before it is complete.
            let t = self.last_motion.max(self.last_t);
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

    /// Plays what a still picture was read as: the moves it completes, the
    /// pieces on `shifted` shifted in their squares, then each step's
    /// events, put in order with the touches held, as of the last motion.
    fn take_reading(&mut self, reading: Reading, shifted: u64, step: &mut Step) {
        let t = self.last_motion.max(self.last_t);
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
        if reading.recovered || self.unwatched {
            for event in &mut step.events[reported..] {
                event.recovered = true;
            }
        }
        self.move_read(step.accept);
    }

    /// The one piece of the side to move that the change and the colours
    /// show gone from its square to another (empty, or the opponent's piece
    /// taken), maybe with one of the opponent's pieces taken off elsewhere,
    /// where no legal move takes it: the move standing on the table before
    /// it (the mover is its opponent), and the table after it.
    fn relocation(&self, change: &ChangeSet, obs: &Observation) -> Option<(Option<Move>, Board)> {
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
    fn standing(&self) -> Option<Move> {
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
    fn read_change(&self, change: &ChangeSet, obs: &Observation, patient: bool) -> Option<Reading> {
        let clocked = patient && self.press_waiting;
        self.interpret(change, &obs.promoted, patient)
            .filter(|reading| {
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
                seen
            })
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
    fn completed_by_detector(&self, change: &ChangeSet, obs: &Observation) -> Option<Reading> {
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
    fn unseen_move(&self, obs: &Observation, looked_at: u64) -> Option<Reading> {
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
    fn unseen_before(&self, change: &ChangeSet, obs: &Observation) -> Option<Reading> {
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
    fn the_one_move(&self, fits: impl Fn(&Board) -> bool) -> Option<Reading> {
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

    /// The position the likelihood decoder has decided on this still board,
    /// from where the next move is made, as a reading: each move a step of
    /// its side's hand, a pawn promoting to the piece the eyes read on its
    /// square (a queen when they read none).
    fn decoded(&mut self, obs: &Observation) -> Option<Reading> {
        let (mut completed, from) = self.next_move_from()?;
        let (best, how) = self
            .decision
            .observe(&from, &obs.belief, obs.t, !self.unwatched)?;
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
                        obs.promoted[usize::from(to)]
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
        tracing::debug!(
            t = obs.t,
            plies = steps.len(),
            gain = best.gain,
            ?how,
            "a still board decided by likelihood"
        );
        Some(Reading {
            completed,
            steps,
            recovered: how == Decided::Recovered,
        })
    }

    /// The squares the still board reads otherwise than the table, when
    /// neither the table nor the move standing explains it (empty when one
    /// does); `None` when nothing of the board is seen.
    fn unexplained(&self, belief: &BoardBelief) -> Option<Bitboard> {
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
    fn next_move_from(&self) -> Option<(Vec<Move>, Chess)> {
        match self.standing() {
            Some(m0) => Some((vec![m0], result(&self.pos, &m0))),
            None if &self.table == self.pos.board() => Some((Vec::new(), self.pos.clone())),
            None => None,
        }
    }

    /// The pieces on `shifted` (one bit per `Square` index) stand shifted
    /// in their squares: a touch held there was an adjustment, and a
    /// fingertip glimpsed there was a touch that shifted it. A piece
    /// shifted with no fingertip seen on it (a sleeve, a fingertip the eyes
    /// missed) is only taken as it now stands: no touch is made up.
    fn mark_shifted(&mut self, shifted: u64) {
        let on = |sq: Square| shifted & (1 << usize::from(sq)) != 0;
        for glimpse in &self.glimpsed {
            if on(glimpse.square) && !self.touched.contains(&glimpse.square) {
                self.touched.push(glimpse.square);
                self.held.push(*glimpse);
            }
        }
        self.held.sort_by(|a, b| a.t.total_cmp(&b.t));
        for touch in &mut self.held {
            touch.shifted |= on(touch.square);
        }
        for sq in squares_in(shifted).filter(|sq| !self.touched.contains(sq)) {
            tracing::debug!(%sq, "a piece shifted in its square, no fingertip seen on it");
        }
    }

    /// The promotion first chosen, when `m` promotes on its square to
    /// another piece.
    fn promotion_changed(&self, m: &Move) -> Option<Move> {
        let (square, role) = self.promotion_chosen?;
        if square != m.to() || m.promotion().is_none_or(|r| r == role) {
            return None;
        }
        self.promotion_to(m, role)
    }

    /// The legal move promoting as `m` does (same pawn, same square) to
    /// `role` instead.
    fn promotion_to(&self, m: &Move, role: Role) -> Option<Move> {
        self.pos
            .legal_moves()
            .into_iter()
            .find(|c| c.from() == m.from() && c.to() == m.to() && c.promotion() == Some(role))
    }

    /// The squares not changed whose colours read otherwise than the table
    /// holds, for traces.
    fn unchanged_misread(&self, obs: &Observation) -> String {
        squares_in(!obs.changed & !read_as_on(!obs.changed, &self.table, obs))
            .map(|sq| sq.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The squares the detector reads otherwise than the table holds, for
    /// traces.
    fn detected_otherwise(&self, obs: &Observation) -> String {
        let sure = squares_where(u64::MAX, |sq| obs.detected[usize::from(sq)].is_some());
        squares_in(sure & !detected_as(sure, &self.table, obs))
            .map(|sq| sq.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The changed squares whose colours read as the table holds.
    fn as_table(&self, obs: &Observation) -> u64 {
        read_as(&self.table, obs)
    }

    /// Whether the colours read on the changed squares are those the table holds.
    fn reads_as_table(&self, obs: &Observation) -> bool {
        self.as_table(obs) == obs.changed
    }

    /// What a still change means: the moves it completes (played on the
    /// record's position) and the boards it passes through, each with the
    /// side whose hand makes it. Tried in order: the opponent's reply to the
    /// move standing on the table; a legal move of the side to move, seen
    /// from the table (it may finish a move begun, like castling after the
    /// rook, or move on a piece already set down); a run of moves made with
    /// no pause between them.
    fn interpret(
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

    /// A fingertip resting on a piece for [`DWELL_FRAMES`] is a deliberate
    /// touch (held until the hand's doing is read); passing over is not.
    fn follow_fingertip(&mut self, obs: &Observation) {
        let interval = self
            .last_frame
            .replace(obs.t)
            .map_or(0.0, |before| (obs.t - before).max(0.0));
        if let Some(tip) = obs.fingertip {
            self.tip_last_seen[usize::from(tip)] = Some(obs.t);
        }
        let letting_go = self.follow_letting_go(obs);
        self.dwell = streak(self.dwell, obs.fingertip);
        let Some((tip, frames)) = self.dwell else {
            return;
        };
        if frames == 1 {
            self.rested = Rest::default();
        }
        if obs.motion[usize::from(tip)] <= REST_MOTION {
            self.rested = self.rested.and(interval);
        }
        if let Some(touch) = self.held.iter_mut().rev().find(|h| h.square == tip) {
            touch.rested = touch.rested.longer(self.rested);
        }
        let occupied = self.pos.board().piece_at(tip).is_some() && !letting_go;
        if frames == 1 && occupied && !self.glimpsed.iter().any(|g| g.square == tip) {
            self.glimpsed.push(HeldTouch {
                t: obs.t,
                square: tip,
                by: obs.toucher,
                shifted: false,
                rested: self.rested,
            });
        }
        if frames == DWELL_FRAMES && occupied && !self.touched.contains(&tip) {
            self.touched.push(tip);
            self.held.push(HeldTouch {
                t: obs.t,
                square: tip,
                by: obs.toucher,
                shifted: false,
                rested: self.rested,
            });
        }
    }

    /// Reports the touches held, each before the move of the run just
    /// read that it belongs to, then that move's `actions` at the moments
    /// they were made, read at `t` ([`Moments::stamp`]; no move:
    /// the hand left without one, the touches stand alone). A touch belongs
    /// to the first move still to come that lifts its square, or, touching
    /// a piece no move lifts, to the move under way (the next one its side
    /// makes, when the eyes tell whose hand it was). A touch made once
    /// another piece of its move had begun to move is left out: it is part
    /// of making the move (the rook after the king in castling, the piece
    /// being captured) or the carried piece passing over another, and the
    /// first piece touched, which Article 4.3 is about, came before. So is
    /// one on a neighbour of a piece that begins to move at once after it
    /// ([`REACH_SECONDS`]): the fingertip seen one square off.
    fn report_held(&mut self, events: &mut Vec<Event>, moves: &[(Color, Vec<Action>)], t: f64) {
        let lifted: Vec<Vec<Square>> = moves
            .iter()
            .map(|(_, actions)| {
                actions
                    .iter()
                    .filter_map(|a| match a {
                        Action::Lift(sq) => Some(*sq),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let mut belongs = vec![Vec::new(); moves.len().max(1)];
        let mut under_way = 0;
        for touch in std::mem::take(&mut self.held) {
            let lifts = (under_way..moves.len()).find(|&k| lifted[k].contains(&touch.square));
            let by_side = touch
                .by
                .and_then(|side| (under_way..moves.len()).find(|&k| moves[k].0 == side));
            under_way = lifts.or(by_side).unwrap_or(under_way);
            belongs[under_way].push(touch);
        }
        let first_changed = self.first_changed;
        let touched: Vec<Option<f64>> = belongs
            .iter()
            .map(|touches| touches.iter().map(|touch| touch.t).reduce(f64::min))
            .collect();
        let stamps = self.moments.stamp(moves, &touched, t);
        for (k, touches) in belongs.into_iter().enumerate() {
            let lifted = lifted.get(k).map_or(&[][..], Vec::as_slice);
            // Another piece of the move began to move before the touch, or
            // a neighbour of the touched square at once after it (the
            // fingertip seen one square off the piece it reached for).
            let under_way_before = |sq: Square, t: f64| {
                lifted.iter().any(|&other| {
                    let reach = if sq.distance(other) == 1 {
                        REACH_SECONDS
                    } else {
                        0.0
                    };
                    other != sq
                        && first_changed[usize::from(other)].is_some_and(|began| began < t + reach)
                })
            };
            // The move lifts or takes the touched piece: the touch accuses
            // no one, and a hand grasping a piece seldom stops on it.
            let handled = |sq: Square| {
                moves.get(k).is_some_and(|(_, actions)| {
                    actions.contains(&Action::Lift(sq)) || actions.contains(&Action::Capture(sq))
                })
            };
            for touch in touches {
                if under_way_before(touch.square, touch.t) {
                    tracing::trace!(t = touch.t, sq = %touch.square, "a touch in the course of the move");
                    continue;
                }
                if !handled(touch.square) && !touch.shifted && !touch.rested.accuses() {
                    tracing::debug!(t = touch.t, sq = %touch.square, rested = ?touch.rested, "a fingertip passing over a piece, not resting on it");
                    continue;
                }
                let action = if touch.shifted {
                    Action::Adjust(touch.square)
                } else {
                    Action::Touch(touch.square)
                };
                let event = Event::new(touch.t, action);
                self.record(
                    events,
                    match touch.by {
                        Some(side) => event.by(side),
                        None => event,
                    },
                );
            }
            let actions = moves
                .get(k)
                .map_or(&[][..], |(_, actions)| actions.as_slice());
            for (action, at) in actions.iter().zip(stamps.get(k).into_iter().flatten()) {
                self.emit(events, *at, *action);
            }
        }
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

/// The changed squares of a frame with how much each changed and the
/// colour read there (`w`, `b`, `.` empty), for traces.
fn describe(obs: &Observation) -> String {
    Square::ALL
        .into_iter()
        .filter(|sq| obs.changed & (1 << usize::from(*sq)) != 0)
        .map(|sq| {
            let seen = match obs.occupancy[usize::from(sq)] {
                Some(Color::White) => 'w',
                Some(Color::Black) => 'b',
                None => '.',
            };
            format!("{sq}:{:.0}{seen}", obs.scores[usize::from(sq)])
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The pieces the eyes read on the changed squares of the first and last
/// ranks (where pawns promote), for traces.
fn promoted_named(obs: &Observation) -> String {
    squares_in(obs.changed)
        .filter_map(|sq| Some(format!("{sq}:{}", obs.promoted[usize::from(sq)]?.char())))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position after `m`.
fn result(pos: &Chess, m: &Move) -> Chess {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    after
}

/// The physical events of one piece of `mover` taken to where no legal
/// move goes, from board `from` to board `to`: lifted, the opponent's pieces
/// it leaves gone taken off while it is held, then set down (so the rules
/// see one move, not a move and a capture after it).
fn relocating(from: &Board, to: &Board, mover: Color) -> Vec<Action> {
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

/// The squares a move empties or fills, one bit per `Square` index.
pub fn squares_changed(pos: &Chess, m: &Move) -> u64 {
    let bit = |sq: Square| 1u64 << usize::from(sq);
    match *m {
        Move::Castle { king, rook } => {
            let side = m.castling_side().unwrap_or(CastlingSide::KingSide);
            let us = pos.turn();
            bit(king) | bit(rook) | bit(side.king_to(us)) | bit(side.rook_to(us))
        }
        Move::EnPassant { from, to } => {
            bit(from) | bit(to) | bit(Square::from_coords(to.file(), from.rank()))
        }
        Move::Normal { from, to, .. } => bit(from) | bit(to),
        Move::Put { to, .. } => bit(to),
    }
}

/// The squares that changed, and how strongly each did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangeSet {
    /// Squares over the eyes' threshold, one bit per `Square` index.
    pub bits: u64,
    pub scores: [f32; 64],
    /// A changed square left out of an explanation with a score at most
    /// this is a residue of an earlier picture (the light, a piece set down
    /// a little off), whatever the explanation's squares changed by.
    pub faint: f32,
}

/// A changed square left out of an explanation must have changed less than
/// this share of the weakest square the explanation changes (a shadow, a
/// leaning neighbour).
const WEAK_SHARE: f32 = 0.5;

impl ChangeSet {
    /// A change where every square in `bits` changed equally.
    pub fn exact(bits: u64) -> Self {
        let mut scores = [0.0; 64];
        for (index, score) in scores.iter_mut().enumerate() {
            if bits & (1 << index) != 0 {
                *score = 1.0;
            }
        }
        Self {
            bits,
            scores,
            faint: 0.0,
        }
    }

    /// The changed squares that changed only faintly.
    pub fn faint_squares(&self) -> u64 {
        squares_where(self.bits, |sq| self.scores[usize::from(sq)] <= self.faint)
    }

    /// How well `squares` explains the change: every one of them changed,
    /// and every other changed square changed much less. Returns the
    /// weakest change among them (the confidence), or `None`.
    pub fn fits(&self, squares: u64) -> Option<f32> {
        if squares == 0 || squares & !self.bits != 0 {
            return None;
        }
        let weakest = Square::ALL
            .into_iter()
            .map(usize::from)
            .filter(|i| squares & (1 << i) != 0)
            .map(|i| self.scores[i])
            .fold(f32::INFINITY, f32::min);
        let extra = self.bits & !squares;
        let strongest_extra = (0..64)
            .filter(|i| extra & (1 << i) != 0)
            .map(|i| self.scores[i])
            .fold(0.0, f32::max);
        (strongest_extra < WEAK_SHARE * weakest || strongest_extra <= self.faint).then_some(weakest)
    }
}

/// The candidate that fits best, unless another fits as well.
fn best<T>(candidates: impl Iterator<Item = (T, f32)>) -> Option<T> {
    let mut ranked: Vec<(T, f32)> = candidates.collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut ranked = ranked.into_iter();
    let (first, score) = ranked.next()?;
    match ranked.next() {
        Some((_, second)) if second >= score * 0.999 => None,
        _ => Some(first),
    }
}

/// The legal move that best explains the change (a promotion is taken to a
/// queen: the squares cannot tell the piece); `None` when no move does, or
/// two do equally well.
pub fn explain(pos: &Chess, change: &ChangeSet) -> Option<Move> {
    explain_as_read(pos, change, &[None; 64])
}

/// [`explain`], a promotion taken to the piece the eyes read on its square
/// (`promoted`, by `Square` index; a queen where they cannot tell).
fn explain_as_read(
    pos: &Chess,
    change: &ChangeSet,
    promoted: &[Option<Piece>; 64],
) -> Option<Move> {
    best(
        pos.legal_moves()
            .into_iter()
            .filter(|m| promotes_as_read(m, promoted))
            .filter_map(|m| change.fits(squares_changed(pos, &m)).map(|fit| (m, fit))),
    )
}

/// Whether `m`, if it promotes, promotes to the piece read on its square
/// (`promoted`, by `Square` index; a queen where the eyes cannot tell).
fn promotes_as_read(m: &Move, promoted: &[Option<Piece>; 64]) -> bool {
    let read = promoted[usize::from(m.to())].map(|p| p.role);
    m.promotion()
        .is_none_or(|r| r == read.unwrap_or(Role::Queen))
}

/// Longest run of moves made with no still picture between them that the
/// tracker untangles.
pub const MAX_SEQUENCE: usize = 4;

/// The squares whose content differs between two boards.
pub fn board_difference(a: &Board, b: &Board) -> u64 {
    squares_where(u64::MAX, |sq| a.piece_at(sq) != b.piece_at(sq))
}

/// The moves that together change exactly `changed` when several were made
/// with no still picture between them (up to [`MAX_SEQUENCE`]), every move
/// within the changed squares. Among several orders, the one whose squares
/// changed in that order (by `first_changed`) wins; a promotion is to the
/// piece read on its square (`promoted`, as [`explain_as_read`]). `None`
/// when nothing explains the change, or two different end positions would.
pub fn explain_sequence(
    pos: &Chess,
    change: &ChangeSet,
    first_changed: &[Option<f64>; 64],
    promoted: &[Option<Piece>; 64],
) -> Option<Vec<Move>> {
    if let Some(m) = explain_as_read(pos, change, promoted) {
        return Some(vec![m]);
    }
    let mut found: Vec<Vec<Move>> = Vec::new();
    let mut path = Vec::new();
    let run = Run {
        start: pos,
        change,
        promoted,
    };
    run.search(pos, &mut path, &mut found);
    let end = |moves: &[Move]| {
        let mut after = pos.clone();
        for m in moves {
            after.play_unchecked(*m);
        }
        after.board().clone()
    };
    let first_end = end(found.first()?);
    if found.iter().any(|moves| end(moves) != first_end) {
        return None;
    }
    // Order: each move's squares should have changed no earlier than the previous move's.
    let when = |m: &Move| {
        let squares = squares_changed(pos, m);
        Square::ALL
            .into_iter()
            .filter(|sq| squares & (1 << usize::from(*sq)) != 0)
            .filter_map(|sq| first_changed[usize::from(sq)])
            .fold(f64::INFINITY, f64::min)
    };
    found.into_iter().min_by(|a, b| {
        let disorder = |moves: &Vec<Move>| {
            moves
                .windows(2)
                .filter(|w| when(&w[0]) > when(&w[1]))
                .count()
        };
        disorder(a).cmp(&disorder(b))
    })
}

/// What a run of moves is searched for: from where, the change it must
/// make, the pieces read where pawns may promote.
struct Run<'a> {
    start: &'a Chess,
    change: &'a ChangeSet,
    promoted: &'a [Option<Piece>; 64],
}

impl Run<'_> {
    /// Every run from `pos` on `path` that makes the change, into `found`.
    fn search(&self, pos: &Chess, path: &mut Vec<Move>, found: &mut Vec<Vec<Move>>) {
        if path.len() >= MAX_SEQUENCE || found.len() > 64 {
            return;
        }
        for m in pos.legal_moves() {
            if !promotes_as_read(&m, self.promoted)
                || squares_changed(pos, &m) & !self.change.bits != 0
            {
                continue;
            }
            let mut after = pos.clone();
            after.play_unchecked(m);
            path.push(m);
            if path.len() >= 2
                && self
                    .change
                    .fits(board_difference(self.start.board(), after.board()))
                    .is_some()
            {
                found.push(path.clone());
            } else {
                self.search(&after, path, found);
            }
            path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position a test starts from.
    fn from_fen(fen: &str) -> Chess {
        fen.parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("position")
    }

    /// What the events of 1. e4 played with nothing else seen are.
    const E4_PLAYED: [Action; 2] = [Action::Lift(Square::E2), Action::Release(Square::E4)];

    /// What `events` did, in order.
    fn actions_of(events: &[Event]) -> Vec<Action> {
        events.iter().map(|e| e.action).collect()
    }

    fn bits(squares: &[Square]) -> u64 {
        squares.iter().fold(0, |b, sq| b | 1 << usize::from(*sq))
    }

    fn frame(t: f64, changed: &[Square], still: bool, fingertip: Option<Square>) -> Observation {
        let change = ChangeSet::exact(bits(changed));
        Observation {
            t,
            changed: change.bits,
            scores: change.scores,
            faint: 0.0,
            occupancy: [None; 64],
            detected: [None; 64],
            fingertip,
            toucher: None,
            at_clock: false,
            two_hands: None,
            covered: 0,
            promoted: [None; 64],
            still,
            motion: [0.0; 64],
            belief: BoardBelief::unknown(),
        }
    }

    /// Four frames of a fingertip resting on `square` (changed under it),
    /// the picture moving; the events they made.
    fn rest_on(tracker: &mut Tracker, t: &mut f64, square: Square) -> Vec<Event> {
        let mut events = Vec::new();
        for _ in 0..4 {
            *t += 0.05;
            events.extend(
                tracker
                    .push(&frame(*t, &[square], false, Some(square)))
                    .events,
            );
        }
        events
    }

    /// A fingertip read on `square` for six frames taken `fps` a second,
    /// its square's picture moving on all but `resting` of them, then e2-e4
    /// played; the actions seen.
    fn fingertip_then_e4(square: Square, resting: usize, fps: f64) -> Vec<Action> {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        let mut t = 0.0;
        // The camera's first frame: a rest is timed from the frame before.
        events.extend(tracker.push(&frame(t, &[], true, None)).events);
        for k in 0..6 {
            t += 1.0 / fps;
            let mut obs = frame(t, &[square], false, Some(square));
            obs.motion[usize::from(square)] = if k < resting { 0.0 } else { 30.0 };
            events.extend(tracker.push(&obs).events);
        }
        for _ in 0..6 {
            t += 0.1;
            events.extend(
                tracker
                    .push(&frame(t, &[Square::E2, Square::E4], true, None))
                    .events,
            );
        }
        actions_of(&events)
    }

    #[test]
    fn a_touch_accuses_only_where_the_fingertip_rested_on_the_piece() {
        let touched_then_e4 = |square| [Action::Touch(square), E4_PLAYED[0], E4_PLAYED[1]];
        // Passing over the knight on b1 (resting on one frame at most): no
        // touch, e4 alone.
        assert_eq!(fingertip_then_e4(Square::B1, 0, 10.0), E4_PLAYED);
        assert_eq!(fingertip_then_e4(Square::B1, 1, 10.0), E4_PLAYED);
        // Resting on it two frames: the touch of b1, then e4 (art. 4.3a).
        assert_eq!(
            fingertip_then_e4(Square::B1, 2, 10.0),
            touched_then_e4(Square::B1)
        );
        // The piece then moved: the touch accuses no one and needs no rest
        // (a real hand grasping a piece hardly stops).
        assert_eq!(
            fingertip_then_e4(Square::E2, 0, 10.0),
            touched_then_e4(Square::E2)
        );
    }

    /// White's pawn takes on d5, the fingertip on d5 until the move is
    /// read; then `between` for one frame (read on a neighbour, or no
    /// fingertip at all), then the fingertip back on d5, resting, the hand
    /// seen to be `toucher`'s; then the hand gone. The actions after the
    /// move.
    fn exd5_then_fingertip_back_on_it(
        between: Option<Square>,
        toucher: Option<Color>,
    ) -> Vec<Action> {
        let mut tracker = Tracker::new(from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"));
        let mut t = 0.0;
        let mut events = tracker.push(&frame(t, &[], true, None)).events;
        for _ in 0..8 {
            t += 0.05;
            let mut obs = frame(t, &[Square::E4, Square::D5], true, Some(Square::D5));
            obs.occupancy[usize::from(Square::D5)] = Some(Color::White);
            let step = tracker.push(&obs);
            events.extend(step.events);
            if step.accept != 0 {
                break;
            }
        }
        let taken = [
            Action::Lift(Square::E4),
            Action::Capture(Square::D5),
            Action::Release(Square::D5),
        ];
        assert_eq!(actions_of(&events), taken, "the move is read");
        let mut events = Vec::new();
        let tips = std::iter::once(between)
            .chain([Some(Square::D5); 5])
            .chain([None; 3]);
        for tip in tips {
            t += 0.05;
            let mut obs = frame(t, &[], true, tip);
            obs.toucher = toucher;
            events.extend(tracker.push(&obs).events);
        }
        actions_of(&events)
    }

    #[test]
    fn the_hand_letting_go_of_the_piece_it_moved_touches_nothing() {
        // The fingertip read a frame on a neighbour as the hand lets go:
        // the same hand, no touch of the next turn.
        assert_eq!(exd5_then_fingertip_back_on_it(Some(Square::C6), None), []);
        assert_eq!(
            exd5_then_fingertip_back_on_it(Some(Square::E5), Some(Color::White)),
            []
        );
        // The hand gone a frame and back, or Black's hand: a touch.
        assert_eq!(
            exd5_then_fingertip_back_on_it(None, None),
            [Action::Touch(Square::D5)]
        );
        assert_eq!(
            exd5_then_fingertip_back_on_it(Some(Square::C6), Some(Color::Black)),
            [Action::Touch(Square::D5)]
        );
    }

    #[test]
    fn a_fingertip_rests_as_long_in_seconds_whatever_the_frame_rate() {
        // At 30 frames a second, two still frames are a fifteenth of a
        // second: a hand passing can pause that long.
        assert_eq!(fingertip_then_e4(Square::B1, 2, 30.0), E4_PLAYED);
        assert_eq!(fingertip_then_e4(Square::B1, 4, 30.0), E4_PLAYED);
        // Five (a sixth of a second) is a rest.
        assert_eq!(
            fingertip_then_e4(Square::B1, 5, 30.0),
            [Action::Touch(Square::B1), E4_PLAYED[0], E4_PLAYED[1]]
        );
    }

    #[test]
    fn a_dwell_is_a_touch_and_a_still_change_a_move() {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        let mut t = 0.0;
        // The hand reaches e2 and rests there, the picture moving.
        for _ in 0..4 {
            t += 0.05;
            events.extend(
                tracker
                    .push(&frame(
                        t,
                        &[Square::E1, Square::E2],
                        false,
                        Some(Square::E2),
                    ))
                    .events,
            );
        }
        // The hand has gone; e2 and e4 differ from the accepted picture.
        let mut accepted = 0;
        for _ in 0..6 {
            t += 0.05;
            let step = tracker.push(&frame(t, &[Square::E2, Square::E4], true, None));
            accepted |= step.accept;
            events.extend(step.events);
        }
        assert_eq!(accepted, bits(&[Square::E2, Square::E4]));
        let actions = actions_of(&events);
        assert_eq!(
            actions,
            [
                Action::Touch(Square::E2),
                Action::Lift(Square::E2),
                Action::Release(Square::E4)
            ]
        );
        assert!(events.windows(2).all(|w| w[0].t <= w[1].t));
    }

    /// Castling seen frame by frame: the hand over `first` (its fingertip
    /// resting there), then over both the king's and the rook's squares
    /// with the fingertip on `second`, then the castled board still.
    fn castling_with_fingertips(first: Square, second: Square) -> Vec<Action> {
        let start = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let mut tracker = Tracker::new(start);
        let mut events = Vec::new();
        let mut t = 0.0;
        for (changed, tip) in [(vec![first], first), (vec![first, second], second)] {
            for _ in 0..4 {
                t += 0.05;
                events.extend(tracker.push(&frame(t, &changed, false, Some(tip))).events);
            }
        }
        let castled = [Square::E1, Square::F1, Square::G1, Square::H1];
        for _ in 0..6 {
            t += 0.05;
            events.extend(tracker.push(&frame(t, &castled, true, None)).events);
        }
        assert!(events.windows(2).all(|w| w[0].t <= w[1].t));
        actions_of(&events)
    }

    #[test]
    fn the_rook_touched_in_the_course_of_castling_is_part_of_it() {
        let moved = [
            Action::Lift(Square::E1),
            Action::Release(Square::G1),
            Action::Lift(Square::H1),
            Action::Release(Square::F1),
        ];
        let mut king_first = vec![Action::Touch(Square::E1)];
        king_first.extend(moved);
        assert_eq!(castling_with_fingertips(Square::E1, Square::H1), king_first);
        // The rook touched before the king: both touches stand, rook first.
        let seen = castling_with_fingertips(Square::H1, Square::E1);
        assert_eq!(seen[0], Action::Touch(Square::H1), "{seen:?}");
        assert!(!seen[1..].contains(&Action::Touch(Square::H1)), "{seen:?}");
    }

    #[test]
    fn in_a_run_of_moves_each_touch_comes_before_its_own_move_with_its_hand_s_side() {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        let mut t = 0.0;
        // White's hand grips e2 and carries it; then Black's grips e7, the
        // picture never still in between (the moves follow each other fast).
        let hands = [
            (vec![Square::E2], Square::E2, Color::White),
            (
                vec![Square::E2, Square::E4, Square::E7],
                Square::E7,
                Color::Black,
            ),
        ];
        for (changed, tip, side) in hands {
            for _ in 0..4 {
                t += 0.05;
                let mut obs = frame(t, &changed, false, Some(tip));
                obs.toucher = Some(side);
                events.extend(tracker.push(&obs).events);
            }
        }
        let after = [Square::E2, Square::E4, Square::E5, Square::E7];
        for _ in 0..10 {
            t += 0.05;
            let mut obs = frame(t, &after, true, None);
            obs.occupancy[usize::from(Square::E4)] = Some(Color::White);
            obs.occupancy[usize::from(Square::E5)] = Some(Color::Black);
            events.extend(tracker.push(&obs).events);
        }
        let seen: Vec<(Action, Option<Color>)> =
            events.iter().map(|e| (e.action, e.side)).collect();
        assert_eq!(
            seen,
            [
                (Action::Touch(Square::E2), Some(Color::White)),
                (Action::Lift(Square::E2), None),
                (Action::Release(Square::E4), None),
                (Action::Touch(Square::E7), Some(Color::Black)),
                (Action::Lift(Square::E7), None),
                (Action::Release(Square::E5), None),
            ]
        );
        assert!(events.windows(2).all(|w| w[0].t <= w[1].t));
    }

    #[test]
    fn a_hand_at_the_clock_presses_it_after_the_move_it_ends() {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        let mut t = 0.0;
        let mut push = |changed: &[Square], still: bool, at_clock: bool, t: f64| {
            let mut obs = frame(t, changed, still, None);
            obs.at_clock = at_clock;
            tracker.push(&obs).events
        };
        // e2-e4 made, the hand goes to the clock before the board is read…
        for _ in 0..3 {
            t += 0.05;
            events.extend(push(&[Square::E2, Square::E4], false, true, t));
        }
        for _ in 0..6 {
            t += 0.05;
            events.extend(push(&[Square::E2, Square::E4], true, false, t));
        }
        // …then Black's hand at the clock with no move made: no press.
        for _ in 0..3 {
            t += 0.05;
            events.extend(push(&[], true, true, t));
        }
        let actions = actions_of(&events);
        assert_eq!(
            actions,
            [
                Action::Lift(Square::E2),
                Action::Release(Square::E4),
                Action::Clock
            ]
        );
        assert!(events.windows(2).all(|w| w[0].t <= w[1].t));
    }

    #[test]
    fn a_piece_moved_where_it_may_not_go_and_clocked_is_read_then_put_back() {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        let mut t = 0.0;
        let mut push =
            |changed: &[Square], still: bool, at_clock: bool, white_on: &[Square], t: f64| {
                let mut obs = frame(t, changed, still, None);
                obs.at_clock = at_clock;
                for sq in white_on {
                    obs.occupancy[usize::from(*sq)] = Some(Color::White);
                }
                tracker.push(&obs).events
            };
        // Ng1-g3 (no such move), still, then the clock pressed.
        let moved = [Square::G1, Square::G3];
        for _ in 0..4 {
            t += 0.05;
            events.extend(push(&moved, true, false, &[Square::G3], t));
        }
        assert!(
            events.is_empty(),
            "no legal move: nothing read without the clock"
        );
        t += 0.05;
        events.extend(push(&moved, false, true, &[Square::G3], t));
        for _ in 0..4 {
            t += 0.05;
            events.extend(push(&moved, true, false, &[Square::G3], t));
        }
        // The knight put back on g1: the change from the accepted picture.
        for _ in 0..4 {
            t += 0.05;
            events.extend(push(&moved, true, false, &[Square::G1], t));
        }
        let actions = actions_of(&events);
        assert_eq!(
            actions,
            [
                Action::Lift(Square::G1),
                Action::Release(Square::G3),
                Action::Clock,
                Action::Lift(Square::G3),
                Action::Release(Square::G1),
            ]
        );
        assert!(events.windows(2).all(|w| w[0].t <= w[1].t));
    }

    #[test]
    fn the_reply_moved_where_it_may_not_go_is_the_opponent_s_and_completes_the_move_before() {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        let mut t = 0.0;
        let mut push = |changed: &[Square], still: bool, at_clock: bool, t: f64| {
            let mut obs = frame(t, changed, still, None);
            obs.at_clock = at_clock;
            obs.occupancy[usize::from(Square::E4)] = Some(Color::White);
            obs.occupancy[usize::from(Square::B6)] = Some(Color::Black);
            tracker.push(&obs).events
        };
        // 1. e4, read (standing on the table until Black replies).
        for _ in 0..6 {
            t += 0.05;
            events.extend(push(&[Square::E2, Square::E4], true, false, t));
        }
        // Nb8-b6 (no such move), the clock pressed, the board still.
        let moved = [Square::B8, Square::B6];
        t += 0.05;
        events.extend(push(&moved, false, true, t));
        for _ in 0..10 {
            t += 0.05;
            events.extend(push(&moved, true, false, t));
        }
        let actions = actions_of(&events);
        assert_eq!(
            actions,
            [
                Action::Lift(Square::E2),
                Action::Release(Square::E4),
                Action::Lift(Square::B8),
                Action::Release(Square::B6),
                Action::Clock,
            ]
        );
        // The record has 1. e4 played: Black was to move.
        assert_eq!(tracker.position().turn(), Color::Black);
    }

    #[test]
    fn both_hands_gripping_pieces_are_told_once_a_turn_as_they_happen() {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        let mut t = 0.0;
        // White castles-like with two hands: a flicker first, then held.
        for two in [true, false, true, true, true, true, true] {
            t += 0.05;
            let mut obs = frame(t, &[Square::E1], false, None);
            obs.two_hands = two.then_some(Color::White);
            events.extend(tracker.push(&obs).events);
        }
        let seen: Vec<(Action, Option<Color>)> =
            events.iter().map(|e| (e.action, e.side)).collect();
        assert_eq!(seen, [(Action::TwoHands, Some(Color::White))]);
    }

    #[test]
    fn a_touched_piece_left_shifted_in_its_square_was_adjusted() {
        let mut tracker = Tracker::new(Chess::default());
        let mut t = 0.0;
        // The fingertip rests on e2, the picture moving…
        let mut events = rest_on(&mut tracker, &mut t, Square::E2);
        // …then e2 stays changed, still, the pawn read where it stood.
        for _ in 0..30 {
            t += 0.05;
            let mut obs = frame(t, &[Square::E2], true, None);
            obs.occupancy[usize::from(Square::E2)] = Some(Color::White);
            events.extend(tracker.push(&obs).events);
        }
        t += 0.05;
        events.extend(tracker.push(&frame(t, &[], true, None)).events);
        let actions = actions_of(&events);
        assert_eq!(actions, [Action::Adjust(Square::E2)]);
    }

    #[test]
    fn a_touch_beside_the_piece_lifted_at_once_after_is_the_reach_for_it() {
        // The fingertip read on f2 for three frames, then e2 lifted `after`
        // seconds later and set down on e4.
        let read = |after: f64| {
            let mut tracker = Tracker::new(Chess::default());
            let mut events = Vec::new();
            let mut t = 0.0;
            // The camera's first frame: a rest is timed from the frame before.
            events.extend(tracker.push(&frame(t, &[], true, None)).events);
            for _ in 0..3 {
                t += 0.05;
                events.extend(tracker.push(&frame(t, &[], false, Some(Square::F2))).events);
            }
            let lift = t + after;
            while t < lift {
                t += 0.05;
                events.extend(tracker.push(&frame(t, &[], false, None)).events);
            }
            for _ in 0..4 {
                t += 0.05;
                events.extend(tracker.push(&frame(t, &[Square::E2], false, None)).events);
            }
            for _ in 0..6 {
                t += 0.05;
                let mut obs = frame(t, &[Square::E2, Square::E4], true, None);
                obs.occupancy[usize::from(Square::E4)] = Some(Color::White);
                events.extend(tracker.push(&obs).events);
            }
            actions_of(&events)
        };
        let moved = E4_PLAYED;
        assert_eq!(read(0.1), moved);
        // A second later: the f2 pawn was touched first (art. 4.3a).
        assert_eq!(read(1.0)[0], Action::Touch(Square::F2));
        assert_eq!(read(1.0)[1..], moved);
    }

    #[test]
    fn a_faint_change_like_a_move_is_one_only_where_the_colours_bear_it_out() {
        // g1 and f3 changed faintly (an arm's shadow coming in), still.
        let read = |g1: Option<Color>, f3: Option<Color>| {
            let mut tracker = Tracker::new(Chess::default());
            let mut events = Vec::new();
            for k in 0..8 {
                let mut obs = frame(
                    0.05 * f64::from(k + 1),
                    &[Square::G1, Square::F3],
                    true,
                    None,
                );
                obs.faint = 2.0;
                obs.occupancy[usize::from(Square::G1)] = g1;
                obs.occupancy[usize::from(Square::F3)] = f3;
                events.extend(tracker.push(&obs).events);
            }
            events.iter().map(|e| e.action).collect::<Vec<Action>>()
        };
        let white = Some(Color::White);
        // The knight still read on g1, f3 empty: a shadow, no move.
        assert_eq!(read(white, None), []);
        // A sleeve read on f3, the knight still on g1: no move either.
        assert_eq!(read(white, white), []);
        // g1 read empty and a white piece on f3: Ng1-f3.
        assert_eq!(
            read(None, white),
            [Action::Lift(Square::G1), Action::Release(Square::F3)]
        );
    }

    #[test]
    fn a_piece_set_straight_then_another_moved_is_an_adjustment_and_a_move() {
        let mut tracker = Tracker::new(Chess::default());
        let mut t = 0.0;
        // The fingertip rests on d2, the picture moving…
        let mut events = rest_on(&mut tracker, &mut t, Square::D2);
        // …then g1-f3 made: d2 changed too, its pawn read where it stood.
        for _ in 0..6 {
            t += 0.05;
            let mut obs = frame(t, &[Square::D2, Square::G1, Square::F3], true, None);
            obs.occupancy[usize::from(Square::D2)] = Some(Color::White);
            obs.occupancy[usize::from(Square::F3)] = Some(Color::White);
            events.extend(tracker.push(&obs).events);
        }
        let actions = actions_of(&events);
        assert_eq!(
            actions,
            [
                Action::Adjust(Square::D2),
                Action::Lift(Square::G1),
                Action::Release(Square::F3),
            ]
        );
        // The pawn read gone from d2 instead: no adjustment explains it,
        // nothing is read.
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        for k in 0..10 {
            let t = 0.05 * f64::from(k + 1);
            let mut obs = if k < 4 {
                frame(t, &[Square::D2], false, Some(Square::D2))
            } else {
                frame(t, &[Square::D2, Square::G1, Square::F3], true, None)
            };
            obs.occupancy[usize::from(Square::F3)] = Some(Color::White);
            events.extend(tracker.push(&obs).events);
        }
        assert_eq!(events, []);
    }

    /// The events of d7 shifted in its square (a fingertip seen on it in
    /// `glimpse` frames of the hand's four), then, after a short pause,
    /// f8-c5 made, Black to move after 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O.
    fn d7_shifted_then_bc5(glimpse: usize) -> Vec<Action> {
        let start = from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4");
        let mut tracker = Tracker::new(start);
        let mut events = Vec::new();
        let mut t = 0.0;
        let d7 = usize::from(Square::D7);
        for k in 0..4 {
            t += 0.05;
            let tip = (k >= 4 - glimpse).then_some(Square::D7);
            events.extend(tracker.push(&frame(t, &[Square::D7], false, tip)).events);
        }
        // Still a moment (shorter than STALE_SECONDS), the pawn where it stood…
        for _ in 0..8 {
            t += 0.05;
            let mut obs = frame(t, &[Square::D7], true, None);
            obs.occupancy[d7] = Some(Color::Black);
            events.extend(tracker.push(&obs).events);
        }
        // …then the bishop carried to c5, and the board still.
        for k in 0..12 {
            t += 0.05;
            let mut obs = frame(t, &[Square::D7, Square::F8, Square::C5], k >= 4, None);
            obs.occupancy[d7] = Some(Color::Black);
            obs.occupancy[usize::from(Square::C5)] = Some(Color::Black);
            events.extend(tracker.push(&obs).events);
        }
        actions_of(&events)
    }

    #[test]
    fn a_piece_shifted_with_no_touch_seen_does_not_hide_the_next_move() {
        // No fingertip seen on d7: the move is read, no touch made up.
        assert_eq!(
            d7_shifted_then_bc5(0),
            [Action::Lift(Square::F8), Action::Release(Square::C5)]
        );
    }

    #[test]
    fn a_fingertip_glimpsed_on_a_piece_then_found_shifted_was_an_adjustment() {
        // Seen on d7 two frames, fewer than a touch needs alone; the pawn
        // found shifted bears it out.
        let adjusted = [
            Action::Adjust(Square::D7),
            Action::Lift(Square::F8),
            Action::Release(Square::C5),
        ];
        assert_eq!(d7_shifted_then_bc5(2), adjusted);
        assert_eq!(d7_shifted_then_bc5(DWELL_FRAMES as usize), adjusted);
    }

    #[test]
    fn a_hand_resting_over_the_changed_squares_holds_the_move_until_it_leaves() {
        let mut tracker = Tracker::new(Chess::default());
        let mut t = 0.0;
        // e2-e4 made, the picture still, the hand resting over e4.
        for _ in 0..10 {
            t += 0.05;
            let mut obs = frame(t, &[Square::E2, Square::E4], true, None);
            obs.covered = 1 << usize::from(Square::E4) | 1 << usize::from(Square::E3);
            assert!(
                tracker.push(&obs).events.is_empty(),
                "read under the hand at {t}"
            );
        }
        // The hand gone: read.
        let mut events = Vec::new();
        for _ in 0..6 {
            t += 0.05;
            events.extend(
                tracker
                    .push(&frame(t, &[Square::E2, Square::E4], true, None))
                    .events,
            );
        }
        assert_eq!(actions_of(&events), E4_PLAYED);
    }

    #[test]
    fn a_pawn_promotes_to_the_piece_read_and_an_exchanged_piece_is_read_too() {
        let start = from_fen("8/4P2p/8/8/8/8/k7/4K3 w - - 0 1");
        let mut tracker = Tracker::new(start);
        let mut events = Vec::new();
        let mut t = 0.0;
        let mut push = |changed: &[Square], role: Role, t: f64| {
            let mut obs = frame(t, changed, true, None);
            obs.occupancy[usize::from(Square::E8)] = Some(Color::White);
            obs.promoted[usize::from(Square::E8)] = Some(role.of(Color::White));
            tracker.push(&obs).events
        };
        // e7-e8, a queen set down…
        for _ in 0..6 {
            t += 0.05;
            events.extend(push(&[Square::E7, Square::E8], Role::Queen, t));
        }
        // …then exchanged for a knight.
        for _ in 0..6 {
            t += 0.05;
            events.extend(push(&[Square::E8], Role::Knight, t));
        }
        let actions = actions_of(&events);
        assert_eq!(
            actions,
            [
                Action::Capture(Square::E7),
                Action::Add(Square::E8, Role::Queen),
                Action::Release(Square::E8),
                Action::Capture(Square::E8),
                Action::Add(Square::E8, Role::Knight),
                Action::Release(Square::E8),
            ]
        );
    }

    #[test]
    fn a_pawn_promoting_in_a_run_of_moves_promotes_to_the_piece_read() {
        // Black's h6 and White's e8, a rook, with no still picture between.
        let read = |role: Option<Role>| {
            let mut tracker = Tracker::new(from_fen("8/4P2p/8/8/8/8/k7/4K3 b - - 0 1"));
            let mut events = Vec::new();
            for k in 0..10 {
                let changed = [Square::H7, Square::H6, Square::E7, Square::E8];
                let mut obs = frame(0.05 * f64::from(k), &changed, true, None);
                obs.occupancy[usize::from(Square::H6)] = Some(Color::Black);
                obs.occupancy[usize::from(Square::E8)] = Some(Color::White);
                obs.promoted[usize::from(Square::E8)] = role.map(|r| r.of(Color::White));
                events.extend(tracker.push(&obs).events);
            }
            actions_of(&events)
        };
        let run = |role| {
            [
                Action::Lift(Square::H7),
                Action::Release(Square::H6),
                Action::Capture(Square::E7),
                Action::Add(Square::E8, role),
                Action::Release(Square::E8),
            ]
        };
        assert_eq!(read(Some(Role::Rook)), run(Role::Rook));
        // A queen where the eyes cannot tell.
        assert_eq!(read(None), run(Role::Queen));
    }

    #[test]
    fn a_promoted_piece_exchanged_before_the_picture_is_still_is_read_too() {
        // A white rook stands on b8 already, read there every frame.
        let start = from_fen("1R6/4P2p/8/8/8/8/k7/4K3 w - - 0 1");
        let read = |role: Option<Role>, frames: usize| {
            let mut tracker = Tracker::new(start.clone());
            let mut events = Vec::new();
            let mut t = 0.0;
            let mut push = |role: Option<Role>, still: bool, t: f64| {
                let mut obs = frame(t, &[Square::E7, Square::E8], still, None);
                obs.occupancy[usize::from(Square::E8)] = role.map(|_| Color::White);
                obs.promoted[usize::from(Square::E8)] = role.map(|r| r.of(Color::White));
                obs.promoted[usize::from(Square::B8)] = Some(Role::Rook.of(Color::White));
                tracker.push(&obs).events
            };
            // The pawn gone, a queen read on e8 while the hand moves on…
            for _ in 0..frames {
                t += 0.05;
                events.extend(push(Some(Role::Queen), false, t));
            }
            // …the square hidden, then a knight standing there, still.
            for _ in 0..3 {
                t += 0.05;
                events.extend(push(None, false, t));
            }
            for _ in 0..6 {
                t += 0.05;
                events.extend(push(role, true, t));
            }
            events.iter().map(|e| e.action).collect::<Vec<Action>>()
        };
        assert_eq!(
            read(Some(Role::Knight), 3),
            [
                Action::Capture(Square::E7),
                Action::Add(Square::E8, Role::Queen),
                Action::Release(Square::E8),
                Action::Capture(Square::E8),
                Action::Add(Square::E8, Role::Knight),
                Action::Release(Square::E8),
            ]
        );
        // A queen glimpsed on two frames only is no choice seen.
        assert_eq!(
            read(Some(Role::Knight), 2),
            [
                Action::Capture(Square::E7),
                Action::Add(Square::E8, Role::Knight),
                Action::Release(Square::E8),
            ]
        );
        // The queen kept: one promotion.
        assert_eq!(
            read(Some(Role::Queen), 3),
            [
                Action::Capture(Square::E7),
                Action::Add(Square::E8, Role::Queen),
                Action::Release(Square::E8),
            ]
        );
    }

    #[test]
    fn a_brief_change_or_a_resting_hand_makes_no_move() {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        // Two still frames with e2 and e4 changed, then gone.
        for k in 0..2 {
            events.extend(
                tracker
                    .push(&frame(
                        0.05 * f64::from(k),
                        &[Square::E2, Square::E4],
                        true,
                        None,
                    ))
                    .events,
            );
        }
        // A hand resting still over d2, d3 and d4: no legal move changes those.
        for k in 0..10 {
            events.extend(
                tracker
                    .push(&frame(
                        0.2 + 0.05 * f64::from(k),
                        &[Square::D2, Square::D3, Square::D4],
                        true,
                        None,
                    ))
                    .events,
            );
        }
        assert!(events.is_empty(), "{events:?}");
    }

    #[test]
    fn moves_made_without_a_pause_are_untangled_in_the_order_seen() {
        let start = Chess::default();
        let mut after = start.clone();
        let mut first_changed = [None; 64];
        for (k, uci) in ["e2e4", "e7e5", "d1h5", "b8c6"].into_iter().enumerate() {
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .expect("uci")
                .to_move(&after)
                .expect("legal");
            for sq in [m.from().expect("from"), m.to()] {
                first_changed[usize::from(sq)].get_or_insert(k as f64);
            }
            after.play_unchecked(m);
        }
        let changed = board_difference(start.board(), after.board());
        let moves = explain_sequence(
            &start,
            &ChangeSet::exact(changed),
            &first_changed,
            &[None; 64],
        )
        .expect("explained");
        let ucis: Vec<String> = moves
            .iter()
            .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
            .collect();
        assert_eq!(ucis, ["e2e4", "e7e5", "d1h5", "b8c6"]);
    }

    /// Feeds still frames with `changed` until the tracker accepts; returns its events.
    fn settle(tracker: &mut Tracker, t: &mut f64, changed: &[Square]) -> Vec<Event> {
        let mut events = Vec::new();
        for _ in 0..8 {
            *t += 0.05;
            let step = tracker.push(&frame(*t, changed, true, None));
            events.extend(step.events);
            if step.accept != 0 {
                break;
            }
        }
        events
    }

    #[test]
    fn castling_begun_with_the_rook_is_told_as_it_happened() {
        let start = from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
        let mut tracker = Tracker::new(start.clone());
        let mut t = 0.0;
        let mut events = settle(&mut tracker, &mut t, &[Square::H1, Square::F1]);
        events.extend(settle(&mut tracker, &mut t, &[Square::E1, Square::G1]));
        let actions = actions_of(&events);
        assert_eq!(
            actions,
            [
                Action::Lift(Square::H1),
                Action::Release(Square::F1),
                Action::Lift(Square::E1),
                Action::Release(Square::G1)
            ]
        );
        let mut referee = referee_rules::Referee::new(start, referee_rules::pgn::Tags::default());
        for event in &events {
            referee.apply(event).expect("consistent");
        }
        referee.finish();
        let verdict = referee.verdict();
        assert_eq!(verdict.moves[0].san, "O-O");
        assert_eq!(verdict.incidents[0].article, "4.4b");
    }

    #[test]
    fn the_reply_is_preferred_to_the_mover_going_on() {
        let mut tracker = Tracker::new(Chess::default());
        let mut t = 0.0;
        let first = settle(&mut tracker, &mut t, &[Square::E2, Square::E4]);
        assert_eq!(first.len(), 2);
        // e7 and e5 change next: Black's reply, not White's pawn going on.
        let reply = settle(&mut tracker, &mut t, &[Square::E7, Square::E5]);
        let actions: Vec<Action> = reply.iter().map(|e| e.action).collect();
        assert_eq!(
            actions,
            [Action::Lift(Square::E7), Action::Release(Square::E5)]
        );
        assert_eq!(
            tracker.position().turn(),
            shakmaty::Color::Black,
            "e4 completed, e5 stands"
        );
    }

    #[test]
    fn a_run_is_read_only_when_the_colours_bear_it_out() {
        let run = [Square::E2, Square::E4, Square::E7, Square::E5];
        let still = |occupancy: [Option<Color>; 64]| {
            let mut tracker = Tracker::new(Chess::default());
            let mut moves = 0;
            for k in 0..12 {
                let mut obs = frame(0.05 * f64::from(k), &run, true, None);
                obs.occupancy = occupancy;
                moves += tracker.push(&obs).events.len();
            }
            moves
        };
        let mut seen: [Option<Color>; 64] = [None; 64];
        for (sq, piece) in Chess::default().board().iter() {
            seen[usize::from(sq)] = Some(piece.color);
        }
        seen[usize::from(Square::E2)] = None;
        seen[usize::from(Square::E7)] = None;
        seen[usize::from(Square::E4)] = Some(Color::White);
        seen[usize::from(Square::E5)] = Some(Color::Black);
        assert_eq!(still(seen), 4, "e4 e5: two lifts, two releases");
        // An arm lying there: e5 reads as White's, not the pawn Black would have put.
        seen[usize::from(Square::E5)] = Some(Color::White);
        assert_eq!(still(seen), 0);
    }

    #[test]
    fn castling_changes_four_squares_and_en_passant_three() {
        let pos = from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        let exact = |squares: &[Square]| ChangeSet::exact(bits(squares));
        let castle = explain(
            &pos,
            &exact(&[Square::E1, Square::F1, Square::G1, Square::H1]),
        )
        .expect("O-O");
        assert!(castle.is_castle());
        let ep = explain(&pos, &exact(&[Square::E5, Square::D6, Square::D5])).expect("exd6");
        assert!(ep.is_en_passant());
        assert!(
            explain(&pos, &exact(&[Square::E1, Square::G1])).is_none(),
            "half a castling is no move"
        );
        // A weak change beside the strong ones (a shadow) does not hide the move.
        let mut shadowed = exact(&[Square::E1, Square::F1, Square::G1, Square::H1, Square::F2]);
        shadowed.scores[usize::from(Square::F2)] = 0.3;
        assert!(explain(&pos, &shadowed).is_some_and(|m| m.is_castle()));
    }

    /// e2-e4 standing still while every other frame moves, the motion
    /// changing `elsewhere` too; the events the tracker gives.
    fn e4_with_motion_at(elsewhere: Square) -> Vec<Event> {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        for k in 0..6 {
            let t = 0.1 * f64::from(k);
            let moving = k % 2 == 1;
            let squares: &[Square] = if moving {
                &[Square::E2, Square::E4, elsewhere]
            } else {
                &[Square::E2, Square::E4]
            };
            events.extend(tracker.push(&frame(t, squares, !moving, None)).events);
        }
        events
    }

    #[test]
    fn a_hand_at_the_clock_does_not_hold_up_a_move() {
        // The other hand crosses the board's far corner to the clock.
        assert_eq!(e4_with_motion_at(Square::H8).len(), 2);
        // The motion beside the move's squares: a hand still there.
        assert!(e4_with_motion_at(Square::E5).is_empty());
    }

    #[test]
    fn a_move_read_with_the_hand_still_over_it_is_looked_at_again() {
        let mut tracker = Tracker::new(Chess::default());
        let mut t = 0.0;
        assert_eq!(
            settle(&mut tracker, &mut t, &[Square::E2, Square::E4]).len(),
            2
        );
        // The picture of e4 was taken with the hand there: e4 still differs,
        // though it shows White's pawn as the table says; d7 differs too.
        let mut seen: [Option<Color>; 64] = [None; 64];
        seen[usize::from(Square::E4)] = Some(Color::White);
        seen[usize::from(Square::D7)] = Some(Color::Black);
        let mut accepted = 0;
        for _ in 0..10 {
            t += 0.05;
            let mut obs = frame(t, &[Square::E4, Square::D7], true, None);
            obs.occupancy = seen;
            accepted |= tracker.push(&obs).accept;
        }
        assert_eq!(accepted, bits(&[Square::E4]), "e4 taken again, d7 left");
    }

    /// White playing e4, read with a fingertip resting on f1 from the
    /// frame before the read until `after` frames after it, then the hand
    /// gone; the events it made.
    fn e4_with_a_fingertip_on_f1_as_it_is_read(after: usize) -> Vec<Event> {
        let e4 = |k: usize, tip| frame(0.05 * k as f64, &[Square::E2, Square::E4], true, tip);
        let mut dry = Tracker::new(Chess::default());
        let read = (0..20)
            .find(|&k| dry.push(&e4(k, None)).accept != 0)
            .expect("e4 read with no fingertip");
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        for k in 0..=read {
            let tip = (k + 1 >= read).then_some(Square::F1);
            events.extend(tracker.push(&e4(k, tip)).events);
        }
        // The picture taken again: nothing differs from it any more.
        for k in read + 1..read + after + 10 {
            let tip = (k <= read + after).then_some(Square::F1);
            events.extend(tracker.push(&frame(0.05 * k as f64, &[], true, tip)).events);
        }
        events
    }

    #[test]
    fn a_fingertip_resting_as_the_move_is_read_is_the_mover_s_hand_leaving() {
        for after in [1, 12] {
            assert_eq!(
                actions_of(&e4_with_a_fingertip_on_f1_as_it_is_read(after)),
                E4_PLAYED,
                "{after} frames after the read"
            );
        }
    }

    /// White playing c4, still, its pawn on the light square changing it
    /// only faintly and read as empty there; the clock pressed or not; the
    /// actions.
    fn c4_unread_by_the_colours(clock_pressed: bool) -> Vec<Action> {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        for k in 0..30 {
            let mut obs = frame(0.1 * f64::from(k), &[Square::C2, Square::C4], true, None);
            obs.faint = 20.0;
            obs.scores[usize::from(Square::C2)] = 28.0;
            obs.scores[usize::from(Square::C4)] = 19.0;
            obs.at_clock = clock_pressed && k == 10;
            events.extend(tracker.push(&obs).events);
        }
        actions_of(&events)
    }

    #[test]
    fn a_move_the_colours_miss_is_read_once_the_clock_is_pressed() {
        // A faint change the colours do not bear out may be a shadow.
        assert_eq!(c4_unread_by_the_colours(false), []);
        assert_eq!(
            c4_unread_by_the_colours(true),
            [
                Action::Lift(Square::C2),
                Action::Release(Square::C4),
                Action::Clock
            ]
        );
    }

    /// White playing e4, read, then Black e5 still with only e7 seen
    /// changed (the pawn on e5 changing its square too little), the
    /// detector reading e7 and e6 empty and e5 as `e5_detected`, but unsure
    /// of those in `unsure`; the clock pressed or not; the actions after e4.
    fn e5_seen_only_by_the_detector(
        e5_detected: Option<Color>,
        unsure: &[Square],
        clock_pressed: bool,
    ) -> Vec<Action> {
        let mut tracker = Tracker::new(Chess::default());
        let mut t = 0.0;
        assert_eq!(
            settle(&mut tracker, &mut t, &[Square::E2, Square::E4]).len(),
            2
        );
        let mut events = Vec::new();
        for k in 0..30 {
            t += 0.1;
            let mut obs = frame(t, &[Square::E7], true, None);
            obs.faint = 0.5;
            obs.detected[usize::from(Square::E7)] = Some(None);
            obs.detected[usize::from(Square::E6)] = Some(None);
            obs.detected[usize::from(Square::E5)] = Some(e5_detected);
            for sq in unsure {
                obs.detected[usize::from(*sq)] = None;
            }
            obs.at_clock = clock_pressed && k == 10;
            events.extend(tracker.push(&obs).events);
        }
        actions_of(&events)
    }

    #[test]
    fn a_move_half_seen_is_completed_by_the_detector_once_the_clock_is_pressed() {
        let e5 = [
            Action::Lift(Square::E7),
            Action::Release(Square::E5),
            Action::Clock,
        ];
        assert_eq!(
            e5_seen_only_by_the_detector(Some(Color::Black), &[], true),
            e5
        );
        // Not before the press, nor with the detector reading e5 empty.
        assert_eq!(
            e5_seen_only_by_the_detector(Some(Color::Black), &[], false),
            []
        );
        assert_eq!(e5_seen_only_by_the_detector(None, &[], true), []);
        // Unsure of e5 but sure the pawn left e7 and did not stop on e6:
        // the one legal move left.
        assert_eq!(e5_seen_only_by_the_detector(None, &[Square::E5], true), e5);
        // Not when unsure the pawn left, or of e6 as well (two moves fit).
        let unsure_of = |squares: &[Square]| e5_seen_only_by_the_detector(None, squares, true);
        assert_eq!(unsure_of(&[Square::E5, Square::E7]), []);
        assert_eq!(unsure_of(&[Square::E5, Square::E6]), []);
    }

    /// The detector's reading of `board`, sure of every square but those
    /// of `unsure`, with `misread` read empty.
    fn detected_on(
        board: &Board,
        unsure: u64,
        misread: Option<Square>,
    ) -> [Option<Option<Color>>; 64] {
        let mut detected = [None; 64];
        for sq in squares_in(!unsure) {
            detected[usize::from(sq)] = Some(colour_on(board, sq).filter(|_| Some(sq) != misread));
        }
        detected
    }

    /// A tracker that has read White's e4 and its press of the clock, and
    /// the time then.
    fn e4_read_and_clocked() -> (Tracker, f64) {
        let mut tracker = Tracker::new(Chess::default());
        let mut t = 0.0;
        settle(&mut tracker, &mut t, &[Square::E2, Square::E4]);
        t += 0.05;
        let mut press = frame(t, &[], true, None);
        press.at_clock = true;
        assert_eq!(actions_of(&tracker.push(&press).events), [Action::Clock]);
        (tracker, t)
    }

    /// White's e4 read and clocked; then Black's e5 made with neither
    /// square seen to change (as a light piece between light squares in a
    /// bright light), the detector reading the board after it (unsure of
    /// `unsure`, `misread` read empty), the clock pressed or not. The
    /// actions after e4's press.
    fn e5_unseen_by_the_colours(
        clock_pressed: bool,
        unsure: u64,
        misread: Option<Square>,
    ) -> Vec<Action> {
        let (mut tracker, mut t) = e4_read_and_clocked();
        let after_e5 = from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        let mut events = Vec::new();
        for k in 0..30 {
            t += 0.1;
            let mut obs = frame(t, &[], true, None);
            obs.at_clock = clock_pressed && k == 10;
            if tracker.asks_detector() {
                obs.detected = detected_on(after_e5.board(), unsure, misread);
            }
            events.extend(tracker.push(&obs).events);
        }
        actions_of(&events)
    }

    #[test]
    fn a_move_the_colours_never_see_is_read_by_the_detector_once_the_clock_is_pressed() {
        assert_eq!(
            e5_unseen_by_the_colours(true, 0, None),
            [
                Action::Lift(Square::E7),
                Action::Release(Square::E5),
                Action::Clock
            ]
        );
        // Not without a press; not when the detector misreads one square
        // beyond the move's, or is unsure of one of the move's, or of a
        // quarter of the board.
        assert_eq!(e5_unseen_by_the_colours(false, 0, None), []);
        assert_eq!(e5_unseen_by_the_colours(true, 0, Some(Square::A2)), []);
        assert_eq!(
            e5_unseen_by_the_colours(true, bits(&[Square::E7]), None),
            []
        );
        let first_three_ranks = Bitboard::from_rank(Rank::First)
            | Bitboard::from_rank(Rank::Second)
            | Bitboard::from_rank(Rank::Third);
        assert_eq!(
            e5_unseen_by_the_colours(true, first_three_ranks.0, None),
            []
        );
    }

    /// White's e4 read and clocked; Black's e5 made unseen by the colours
    /// and its press of the clock missed; then White's Nf3 seen, no hand in
    /// view, the detector reading the board after both on its first `right`
    /// frames and with `misread` read empty on the others. The actions
    /// after e4's press.
    fn e5_unseen_then_nf3(right: usize, misread: Option<Square>) -> Vec<Action> {
        let (mut tracker, mut t) = e4_read_and_clocked();
        let after_nf3 = from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
        let mut events = Vec::new();
        for k in 0..10 {
            t += 0.1;
            let mut obs = frame(t, &[Square::G1, Square::F3], true, None);
            let misread = if k < right { None } else { misread };
            obs.detected = detected_on(after_nf3.board(), 0, misread);
            events.extend(tracker.push(&obs).events);
        }
        actions_of(&events)
    }

    #[test]
    fn a_move_the_colours_never_see_is_read_by_the_detector_when_the_next_needs_it() {
        let both = [
            Action::Lift(Square::E7),
            Action::Release(Square::E5),
            Action::Lift(Square::G1),
            Action::Release(Square::F3),
        ];
        assert_eq!(e5_unseen_then_nf3(10, None), both);
        // Not when the detector misreads a square beyond the two moves'.
        assert_eq!(e5_unseen_then_nf3(0, Some(Square::A2)), []);
        // With no hand in view it is read from the first still frames,
        // where the detector may be surer than on the later ones (a light
        // piece on a light square, read empty from the fourth frame on).
        assert_eq!(e5_unseen_then_nf3(3, Some(Square::E5)), both);
        assert_eq!(e5_unseen_then_nf3(0, Some(Square::E5)), []);
    }

    /// A hand gripping the e2 pawn, still a moment and unseen, changing e2
    /// and e3 strongly: the colours read the pawn on e2 and `e3_colour` on
    /// e3, the detector the pawn on e2 and nothing sure on e3. Then e4
    /// played, the hand gone. The actions.
    fn e2_gripped_then_e4(e3_colour: Option<Color>) -> Vec<Action> {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        for k in 0..10 {
            let mut obs = frame(0.05 * f64::from(k), &[Square::E2, Square::E3], true, None);
            obs.occupancy[usize::from(Square::E2)] = Some(Color::White);
            obs.occupancy[usize::from(Square::E3)] = e3_colour;
            obs.detected[usize::from(Square::E2)] = Some(Some(Color::White));
            events.extend(tracker.push(&obs).events);
        }
        let mut t = 0.5;
        let mut obs = frame(t, &[Square::E2, Square::E4], true, None);
        obs.occupancy[usize::from(Square::E4)] = Some(Color::White);
        for _ in 0..8 {
            t += 0.05;
            obs.t = t;
            events.extend(tracker.push(&obs).events);
        }
        actions_of(&events)
    }

    #[test]
    fn a_hand_gripping_a_piece_still_a_moment_is_no_move() {
        // Both pairs of eyes read the pawn where it stood.
        assert_eq!(e2_gripped_then_e4(None), E4_PLAYED);
        // The hand's skin over e3 reads as a white piece to the colours;
        // the detector, sure of e2, still reads the pawn there.
        assert_eq!(e2_gripped_then_e4(Some(Color::White)), E4_PLAYED);
    }

    #[test]
    fn a_square_flickering_faintly_does_not_hold_up_a_move() {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        // e2-e4 still, d3 beside it flickering faintly every other frame.
        for k in 0..8 {
            let t = 0.05 * f64::from(k + 1);
            let flicker: &[Square] = if k % 2 == 0 { &[] } else { &[Square::D3] };
            let changed = [&[Square::E2, Square::E4][..], flicker].concat();
            let mut obs = frame(t, &changed, true, None);
            obs.faint = 0.2;
            obs.scores[usize::from(Square::D3)] = 0.1;
            obs.occupancy[usize::from(Square::E4)] = Some(Color::White);
            events.extend(tracker.push(&obs).events);
        }
        assert_eq!(actions_of(&events), E4_PLAYED);
    }

    #[test]
    fn a_faint_residue_beside_a_faint_move_does_not_hide_it() {
        // A white pawn set on a light square changes it little; the square a
        // piece was set down on a little off still shows a residue.
        let mut change = ChangeSet::exact(bits(&[Square::E2, Square::E4, Square::D7]));
        change.faint = 20.0;
        change.scores[usize::from(Square::E2)] = 37.0;
        change.scores[usize::from(Square::E4)] = 25.0;
        change.scores[usize::from(Square::D7)] = 14.0;
        let m = explain(&Chess::default(), &change).expect("e4");
        assert_eq!(m.to(), Square::E4);
        // A hand beside it is no residue.
        change.scores[usize::from(Square::D7)] = 45.0;
        assert!(explain(&Chess::default(), &change).is_none());
    }
}
