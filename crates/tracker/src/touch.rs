//! Touches: a fingertip dwelling on a piece starts a contact episode, held
//! until it ends (the fingertip gone) and what the hand did is read, then
//! judged on the whole episode and reported in order with the move it
//! belongs to; a piece found shifted as an adjustment; the mover's hand
//! letting go; two hands.

use referee_rules::{Action, Event};
use shakmaty::{Bitboard, Color, Square, attacks};

use crate::squares::{around, squares_in, squares_where};
use crate::{Observation, Tracker, streak};

/// Frames in a row a reading must hold to count (a piece chosen for a
/// promotion, two hands gripping pieces).
pub const DWELL_FRAMES: u32 = 3;

/// A fingertip seen on a piece on at least [`DWELL_LEAST_FRAMES`] frames in
/// a row spanning this long (seconds) begins a contact episode: a touch,
/// if the episode bears it out. Two frames at 10 a second, three at 20,
/// four at 30 (a quick touch lasts a quarter of a second).
pub const DWELL_SECONDS: f64 = 0.1;

/// …and on at least this many frames, whatever the rate.
pub const DWELL_LEAST_FRAMES: u32 = 2;

/// A contact episode ends once its fingertip has not been seen on its
/// square for longer than this (seconds): a frame the eyes miss it on,
/// or read it a square off, does not end it.
pub const CONTACT_GAP_SECONDS: f64 = 0.15;

/// A fingertip rests on its square in a frame where its square's picture,
/// and the picture of every square around it and just past the board's
/// edge beyond them ([`Observation::beyond_motion`]), changed since the
/// frame before by at most this share of its pixels (percent) a second of
/// the time between them: a hand passing over moves there, a hand
/// touching stops, the whole of it. A hand sliding slowly over a piece,
/// its palm covering the square whole, may leave that square's picture
/// still; its outline moves over the squares around, or past the edge
/// over which it came for a piece on it. A rate, so that a hand moving
/// as fast rests as little at 30 frames a second (a third as much change
/// between frames) as at 10 (1% a frame at 10 a second).
pub const REST_MOTION: f32 = 10.0;

/// …and where its square's picture differs from the board as last
/// accepted by at least this much more than on the frame before the
/// fingertip arrived on it (the scale of [`Observation::scores`]): a
/// finger on the piece covers part of it. Or where the piece's head shows
/// or just beyond it ([`Observation::head_scores`]), that picture standing
/// still too: a piece on the board's edge touched from behind is touched
/// where its head leans out, past its square's picture, the finger resting
/// on its far side. A fingertip read on a piece that looks as it did
/// before is a hand beside it: coming in or going away over the board's
/// edge, or passing above it. Low enough for a finger on the back of a
/// tall piece's crown on the far rank, most of the finger past the head's
/// picture (models/README.md, "Touches found again").
pub const REST_RISE: f32 = 1.2;

/// A square's change scores ([`Observation::scores`] and
/// [`Observation::head_scores`]) on one frame.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Bare {
    piece: f32,
    head: f32,
}

impl Bare {
    /// Every square's scores in `obs`, by `Square` index.
    pub(crate) fn of(obs: &Observation) -> [Self; 64] {
        std::array::from_fn(|sq| Self {
            piece: obs.scores[sq],
            head: obs.head_scores[sq],
        })
    }
}

/// Whether a picture that changed by `motion` (percent of its pixels)
/// since the frame `interval` seconds before stood still over that time
/// ([`REST_MOTION`]).
pub(crate) fn stood_still(motion: f32, interval: f64) -> bool {
    f64::from(motion) <= f64::from(REST_MOTION) * interval
}

/// Whether the fingertip rests on its square `sq` in `obs`, taken
/// `interval` seconds after the frame before: the square, the squares
/// around it and the picture past the board's edge beyond them stood
/// still ([`REST_MOTION`]) with a finger over it, its change scores `bare`
/// before the fingertip came ([`REST_RISE`]).
fn resting(obs: &Observation, sq: Square, interval: f64, bare: Bare) -> bool {
    let square = usize::from(sq);
    let still = |motion: f32| stood_still(motion, interval);
    let hand_still = (attacks::king_attacks(sq) | Bitboard::from_square(sq))
        .into_iter()
        .map(usize::from)
        .all(|near| still(obs.motion[near]) && still(obs.beyond_motion[near]));
    let on_piece = obs.scores[square] - bare.piece >= REST_RISE;
    let on_head =
        obs.head_scores[square] - bare.head >= REST_RISE && still(obs.head_motion[square]);
    interval > 0.0 && hand_still && (on_piece || on_head)
}

/// How long a fingertip must rest (see [`REST_MOTION`]) on a piece in its
/// contact episode for its touch to accuse the player (the piece neither
/// moved nor taken after it, nor shifted by it), in seconds, whatever the
/// frame rate: each resting frame counts the time since the frame before,
/// over which its square stood still (one frame at 10 a second, two at
/// 20, three at 30). A quick touch rests about a quarter of a second, and
/// at 10 frames a second the frame it arrives on is never still.
pub const ACCUSING_REST_SECONDS: f64 = 0.1;

/// …within a contact at least this long (seconds): from the frame the
/// fingertip arrived on the piece to the end of the last it was seen on
/// it. The detector reads a fingertip on a piece a hand passes over for
/// a frame or three (a tenth of a second, half a second at the most), and
/// a hand passing may stand still over one a frame here and there; a hand
/// touching stays on it, a quick touch a fifth of a second: two frames at
/// 10 a second, the second still.
pub const ACCUSING_CONTACT_SECONDS: f64 = 0.2;

/// A touch beside a piece that begins to move within this long after the
/// fingertip left it (seconds) is the hand reaching for that piece, the
/// fingertip seen one square off (the detector puts a fingertip on its square 89% of the
/// time, and 31 of its 44 wrong squares on the held-out set are neighbours:
/// `scripts/train_detector evaluate`).
pub const REACH_SECONDS: f64 = 0.5;

/// A touch seen and not yet reported: its contact episode, from the
/// fingertip's arrival on the piece.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HeldTouch {
    /// When the fingertip arrived on the piece.
    t: f64,
    square: Square,
    /// When the fingertip was last seen on it.
    last_seen: f64,
    /// Its square's change scores on the frame before the fingertip came.
    bare: Bare,
    /// The contact so far (seconds): from `t` to the end of the frame it
    /// was last seen on.
    contact: f64,
    /// The episode goes on: the fingertip is there, or was a moment ago.
    open: bool,
    /// Whose hand, when the eyes could tell.
    by: Option<Color>,
    /// The piece was shifted within its square (its picture changed, its
    /// colour did not): an adjustment, not a bare touch.
    shifted: bool,
    /// How long the fingertip rested there over the whole episode, its
    /// square's picture all but unchanged from the frame before.
    rested: Rest,
}

impl HeldTouch {
    /// Follows the episode through one more frame, `interval` seconds after
    /// the one before: the fingertip still on the piece (resting there or
    /// not), or gone for longer than [`CONTACT_GAP_SECONDS`] (the end).
    fn follow(&mut self, obs: &Observation, interval: f64) {
        if !self.open {
            return;
        }
        let here = obs.fingertip == Some(self.square);
        self.rested = self.rested.then(
            here && resting(obs, self.square, interval, self.bare),
            interval,
        );
        if here {
            self.last_seen = obs.t;
            self.contact = obs.t - self.t + interval;
        } else if obs.t - self.last_seen > CONTACT_GAP_SECONDS {
            self.open = false;
        }
    }

    /// The fingertip stopped on the piece, and stayed on it, long enough
    /// for the touch to accuse the player ([`ACCUSING_REST_SECONDS`],
    /// [`ACCUSING_CONTACT_SECONDS`]).
    fn accuses(&self) -> bool {
        self.rested.accuses() && self.contact >= ACCUSING_CONTACT_SECONDS - 1e-3
    }
}

/// How long a fingertip stopped on its square in one dwell: the time the
/// longest run of frames in a row spans on which the square's picture stood
/// still (a hand passing over may stand still a frame here and there, a
/// touch stops).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Rest {
    seconds: f64,
    /// The run going on now.
    run_seconds: f64,
}

impl Rest {
    /// This rest and one more frame, `interval` seconds after the one
    /// before: resting there (`rests`), or breaking the run.
    fn then(self, rests: bool, interval: f64) -> Self {
        if rests {
            self.and(interval)
        } else {
            self.broken()
        }
    }

    /// This rest and one more frame, still since the frame `interval`
    /// seconds before it.
    fn and(self, interval: f64) -> Self {
        let run_seconds = self.run_seconds + interval;
        Self {
            seconds: self.seconds.max(run_seconds),
            run_seconds,
        }
    }

    /// This rest, the run broken by a frame on which the fingertip moved
    /// or was not seen there.
    fn broken(self) -> Self {
        Self {
            run_seconds: 0.0,
            ..self
        }
    }

    /// Long enough for a touch to accuse the player ([`ACCUSING_REST_SECONDS`]).
    fn accuses(self) -> bool {
        // A thousandth of a second spares the sum of intervals its rounding.
        self.seconds >= ACCUSING_REST_SECONDS - 1e-3
    }
}

/// The fingertip's stay on one square: from the frame it arrived on,
/// through frames it was missed on for no longer than
/// [`CONTACT_GAP_SECONDS`]. A frame the detector misses a resting
/// fingertip on does not make the frame after it an arrival, whose frame
/// before, the finger already on the piece, would be taken for the piece's
/// bare picture (and no rest seen on it); the frames in a row a touch
/// needs ([`DWELL_LEAST_FRAMES`]) are counted again after it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dwell {
    square: Square,
    /// Frames in a row the fingertip was seen on it, up to now.
    frames: u32,
    /// When the fingertip arrived.
    since: f64,
    /// When it was last seen there.
    last_seen: f64,
    /// The square's change scores on the frame before it arrived (see
    /// [`REST_RISE`]).
    bare: Bare,
    /// The stay has made its touch already, or belongs to the move just
    /// read (the mover's hand letting go), or began before the eyes opened
    /// again: it makes no other.
    pub(crate) spent: bool,
    /// How long the fingertip rested in it (see [`REST_MOTION`]).
    rested: Rest,
}

impl Dwell {
    fn arriving(square: Square, t: f64, bare: Bare, spent: bool) -> Self {
        Self {
            square,
            frames: 0,
            since: t,
            last_seen: t,
            bare,
            spent,
            rested: Rest::default(),
        }
    }

    /// This stay with the fingertip seen on its square in `obs`, taken
    /// `interval` seconds after the frame before.
    fn seen(mut self, obs: &Observation, interval: f64) -> Self {
        self.frames += 1;
        self.last_seen = obs.t;
        self.rested = self
            .rested
            .then(resting(obs, self.square, interval, self.bare), interval);
        self
    }

    /// This stay on a frame at `t` the fingertip was not seen on its
    /// square: over, once longer than [`CONTACT_GAP_SECONDS`].
    fn missed(mut self, t: f64) -> Option<Self> {
        self.frames = 0;
        self.rested = self.rested.broken();
        (t - self.last_seen <= CONTACT_GAP_SECONDS).then_some(self)
    }
}

impl Tracker {
    /// When a fingertip first met a piece this turn (seconds), glimpsed or
    /// dwelling, reported or still held: where the evidence of the turn's
    /// touches begins.
    pub fn first_contact(&self) -> Option<f64> {
        self.glimpsed
            .iter()
            .chain(&self.held)
            .map(|touch| touch.t)
            .min_by(f64::total_cmp)
    }

    /// The pieces among the `accepted` squares that the fingertip was on
    /// within [`REACH_SECONDS`] of now, and their side (the mover's): the
    /// hand that set them down, still letting go as the move is read, the
    /// fingertip maybe read one frame on a neighbour meanwhile.
    pub(crate) fn hand_on_move(&self, accepted: u64) -> Option<(Color, u64)> {
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
    pub(crate) fn follow_letting_go(&mut self, obs: &Observation) -> bool {
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

    /// The side that has gripped pieces with both hands for
    /// [`DWELL_FRAMES`] frames, once a turn. Only frames with a hand on a
    /// piece count: two arms over the board make no move (the detector
    /// reads a table's edge or a sleeve lying along the picture's border
    /// as arms, on real footage before its hands are told).
    pub(crate) fn follow_two_hands(&mut self, obs: &Observation) -> Option<Color> {
        let handling = obs.two_hands.filter(|_| obs.fingertip.is_some());
        self.two_hands = streak(self.two_hands, handling);
        let (side, frames) = self.two_hands?;
        (frames == DWELL_FRAMES && !self.two_handed.contains(&side)).then(|| {
            self.two_handed.push(side);
            side
        })
    }

    /// The pieces on `shifted` (one bit per `Square` index) stand shifted
    /// in their squares: a touch held there was an adjustment, and a
    /// fingertip glimpsed there was a touch that shifted it. A piece
    /// shifted with no fingertip seen on it (a sleeve, a fingertip the eyes
    /// missed) is only taken as it now stands: no touch is made up.
    pub(crate) fn mark_shifted(&mut self, shifted: u64) {
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

    /// A fingertip resting on a piece for [`DWELL_FRAMES`] is a deliberate
    /// touch (held until the hand's doing is read); passing over is not.
    pub(crate) fn follow_fingertip(&mut self, obs: &Observation) {
        // The first frame watched, or the first after a lapse.
        let unwatched_before = self.last_frame.is_none() || self.frames_lost_before(obs.t);
        let interval = self
            .last_frame
            .replace(obs.t)
            .map_or(0.0, |before| (obs.t - before).max(0.0));
        if let Some(tip) = obs.fingertip {
            self.tip_last_seen[usize::from(tip)] = Some(obs.t);
        }
        let before = std::mem::replace(&mut self.last_scores, Bare::of(obs));
        let letting_go = self.follow_letting_go(obs);
        for touch in &mut self.held {
            touch.follow(obs, interval);
        }
        let Some(tip) = obs.fingertip else {
            // Missed on a frame, or gone: the dwell waits out the gap.
            self.dwell = self.dwell.take().and_then(|dwell| dwell.missed(obs.t));
            return;
        };
        let dwell = match self.dwell.take() {
            Some(dwell) if dwell.square == tip && !unwatched_before => dwell,
            // A fingertip already there as the eyes open (on the first
            // frame, or again after nobody watched) arrived unseen: when,
            // and before which of the moves made meanwhile, is not known,
            // and there is no picture of its piece bare to tell it from a
            // piece that looks like one. Like the mover's hand letting go,
            // it makes no touch unless it goes elsewhere and rests again.
            _ => Dwell::arriving(tip, obs.t, before[usize::from(tip)], unwatched_before),
        };
        let dwell = self.dwell.insert(dwell.seen(obs, interval));
        // On the table: the record's position keeps the last move standing
        // until the reply completes it, the piece moved still on its square.
        let occupied = self.table.piece_at(tip).is_some() && !letting_go;
        let episode = |t: f64, rested: Rest| HeldTouch {
            t,
            square: tip,
            last_seen: obs.t,
            bare: dwell.bare,
            contact: obs.t - t + interval,
            open: true,
            by: obs.toucher,
            shifted: false,
            rested,
        };
        if dwell.frames == 1 && occupied && !self.glimpsed.iter().any(|g| g.square == tip) {
            self.glimpsed.push(episode(obs.t, dwell.rested));
        }
        let dwelt =
            dwell.frames >= DWELL_LEAST_FRAMES && obs.t - dwell.since >= DWELL_SECONDS - 1e-3;
        if dwelt && !dwell.spent && occupied && !self.touched.contains(&tip) {
            dwell.spent = true;
            self.touched.push(tip);
            self.held.push(episode(dwell.since, dwell.rested));
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
    pub(crate) fn report_held(
        &mut self,
        events: &mut Vec<Event>,
        moves: &[(Color, Vec<Action>)],
        t: f64,
    ) {
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
        let mut held = std::mem::take(&mut self.held);
        if moves.is_empty() {
            // No move to place them before: a touch whose episode goes on
            // is judged once it ends, and those after it wait with it.
            let open = held.iter().position(|touch| touch.open && !touch.shifted);
            self.held = held.split_off(open.unwrap_or(held.len()));
        }
        for touch in held {
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
            // a neighbour of the touched square at once after the fingertip
            // left it (the fingertip seen one square off the piece it
            // reached for).
            let under_way_before = |touch: &HeldTouch| {
                lifted.iter().any(|&other| {
                    let by = if touch.square.distance(other) == 1 {
                        touch.last_seen + REACH_SECONDS
                    } else {
                        touch.t
                    };
                    other != touch.square
                        && first_changed[usize::from(other)].is_some_and(|began| began < by)
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
                if under_way_before(&touch) {
                    tracing::trace!(t = touch.t, sq = %touch.square, "a touch in the course of the move");
                    continue;
                }
                if !handled(touch.square) && !touch.shifted && !touch.accuses() {
                    tracing::debug!(t = touch.t, sq = %touch.square, rested = ?touch.rested, contact = touch.contact, "a fingertip passing over a piece, not resting on it");
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
}
