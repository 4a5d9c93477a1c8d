//! One board watched through its camera: each frame located, read, tracked
//! and refereed, in that order. The offline `referee replay` and the live
//! service run the same chain through [`BoardWatch`].
//!
//! Input: BGR frames with their capture times, the board's corners (found
//! in the first frame when not given), the game's referee. Output: a [`Seen`] a frame (the physical events the frame
//! completed and what the rules made of them).

mod attention;
mod belief;
mod following;
mod footage;
mod hands;
mod settle;
mod stillness;
mod sure_hands;

use std::collections::VecDeque;
use std::time::Instant;

use opencv::core::Mat;
use opencv::prelude::MatTraitConst;
use referee_rules::{ApplyError, Event, Referee, Update};
use referee_tracker::{Gap, Observation, Tracker};
use referee_vision::{
    BoardCorners, ClockWatch, Detection, Error, Eyes, FAINT_CHANGE, HAND_THRESHOLD, Occupant,
    Orientation, Thumbnail, locate_board,
};
use shakmaty::{Bitboard, Color, Piece, Position, Rank, Role, Square};

use crate::attention::{Attention, Look};
use crate::belief::{Fusion, Readings};
use crate::following::Following;
use crate::settle::Settling;
use crate::stillness::Stillness;
use crate::sure_hands::SureHands;

pub use footage::{REAL_AFTER_FRAMES, RENDERED_AFTER_FRAMES};
pub use hands::{
    Fingertip, HandPath, HandSource, HandsSeen, MissingModel, ModelsRun, missing_models,
};
pub use referee_vision::Result;

/// What one frame made known.
#[derive(Debug, Default)]
pub struct Seen {
    /// Physical events the rules engine accepted, in order.
    pub events: Vec<Event>,
    /// Moves, incidents and endings those events gave.
    pub updates: Vec<Update>,
    /// Events the rules engine refused (inconsistent with the table).
    pub rejected: u32,
}

/// What one frame showed of hands on pieces, kept with the frame as the
/// evidence of touches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glance {
    /// The square a fingertip was on.
    pub fingertip: Option<Square>,
    /// Squares whose picture differs from the accepted board's.
    pub changed: Bitboard,
    /// How much of each square's picture changed since the frame before
    /// (percent of its pixels), by `Square` index.
    pub motion: [f32; 64],
}

impl Default for Glance {
    fn default() -> Self {
        Self {
            fingertip: None,
            changed: Bitboard::EMPTY,
            motion: [0.0; 64],
        }
    }
}

/// Milliseconds each stage took on one frame.
#[derive(Debug, Clone, Copy, Default)]
pub struct StageTimes {
    pub locate: f64,
    pub detect: f64,
    pub track: f64,
    pub rules: f64,
}

/// The chain on one board.
#[derive(Debug)]
pub struct BoardWatch {
    corners: Option<BoardCorners>,
    orientation: Option<Orientation>,
    eyes: Option<Eyes>,
    /// Where the hands' fingers are (real-hand models or the detector).
    hands: HandPath,
    /// Whether the models look at a frame, or what they saw last stands.
    attention: Attention,
    /// A small copy of the picture the models last looked at, kept while
    /// they may be asked to look again at a picture that did not move.
    looked_at: Option<Thumbnail>,
    /// Events the camera cannot see (an announced adjustment from an app or
    /// a button, a connected clock), waiting for their place in time among
    /// the events the tracker reports.
    outside: VecDeque<Event>,
    /// The zones beside the board where a clock stands, placed from the
    /// eyes' corners (again when those move).
    clock: Option<ClockWatch>,
    tracker: Tracker,
    /// Both pairs of eyes fused into the tracker's belief.
    fusion: Fusion,
    /// On real footage, the hands the detector is sure of.
    sure_hands: SureHands,
    /// The eyes' bias has been learnt on the game's known position.
    confirmed: bool,
    /// Started again mid-game: the eyes calibrate once the picture settles.
    settling: Option<Settling>,
    referee: Referee,
    /// When the eyes try following the camera.
    following: Following,
    /// When the last frame was taken (seconds).
    last_t: Option<f64>,
    /// What the last frame showed of hands on pieces: for evidence.
    glance: Glance,
    /// The stage times of the last frame.
    pub times: StageTimes,
}

impl BoardWatch {
    /// Watches the game `referee` keeps, on a board at `corners` (`None`:
    /// not known yet; frames are refused until they are). The eyes calibrate
    /// on the first frame, which must show the table as the referee has it.
    pub fn new(referee: Referee, corners: Option<BoardCorners>) -> Self {
        Self {
            corners,
            orientation: None,
            eyes: None,
            hands: HandPath::new(HandSource::default()),
            attention: Attention::default(),
            looked_at: None,
            clock: None,
            outside: VecDeque::new(),
            tracker: Tracker::new(referee.position().clone()),
            fusion: Fusion::default(),
            sure_hands: SureHands::default(),
            confirmed: false,
            settling: None,
            referee,
            following: Following::default(),
            last_t: None,
            glance: Glance::default(),
            times: StageTimes::default(),
        }
    }

    /// Asks `source` about hands (default: told from the footage).
    #[must_use]
    pub fn with_hands(mut self, source: HandSource) -> Self {
        self.hands = HandPath::new(source);
        self
    }

    /// The footage was found to be `found` before (by the same camera's
    /// earlier stream): its hands are read with those models from the
    /// first frame, not told afresh.
    pub fn tell_hands(&mut self, found: HandSource) {
        self.hands.tell(found);
    }

    /// The models this chain runs without, and what it cannot see for them.
    pub fn missing_models(&self) -> &[MissingModel] {
        self.hands.missing()
    }

    /// The models that ran on the last frame.
    pub fn models_run(&self) -> ModelsRun {
        self.hands.run()
    }

    /// Which model decides about hands: chosen, or told from the footage so far.
    pub fn hand_source(&self) -> HandSource {
        self.hands.source()
    }

    pub fn referee(&self) -> &Referee {
        &self.referee
    }

    /// Which edge is White's, once the eyes have calibrated.
    pub fn orientation(&self) -> Option<Orientation> {
        self.eyes.as_ref().map(Eyes::orientation)
    }

    /// Replaces the game's record (an arbiter's correction): the tracker
    /// starts again from the corrected position; the eyes keep their picture.
    pub fn replace_referee(&mut self, referee: Referee) {
        self.tracker = Tracker::new(referee.position().clone());
        self.referee = referee;
    }

    /// The camera reconnected or moved: calibrate again on the next frame,
    /// keeping the orientation found before.
    pub fn recalibrate(&mut self) {
        self.orientation = self.orientation().or(self.orientation);
        self.eyes = None;
        self.following = Following::default();
        self.clock = None;
        self.hands.reset();
        self.attention.forget();
        self.looked_at = None;
        // The venue stays: the same set in the same light. Moves made
        // while nobody watched are recovered from the board as it reads.
        self.tracker = Tracker::resumed(
            self.referee.position().clone(),
            self.referee.board_on_table(),
        );
        // What the board shows now is not known to be the record's
        // position: its first frame teaches the eyes no bias (a move made
        // meanwhile would be learnt as their error and never seen).
        self.confirmed = true;
        // Mid-game a hand is likely over the board: not learnt as the board.
        self.settling = Some(Settling::default());
    }

    /// Nobody watches for now (the camera's stream ended, or the game did):
    /// the models and what the eyes learnt of the picture are let go, to
    /// be loaded and calibrated again with the next frame, as after
    /// [`Self::recalibrate`]. The record, the venue and what the footage was
    /// found to be stay.
    pub fn release(&mut self) {
        self.recalibrate();
        self.hands.release();
    }

    /// The board's corners: given, or found in the first frame.
    pub fn corners(&self) -> Option<BoardCorners> {
        self.corners
    }

    /// Where the board lies in the last frame: its corners as the eyes
    /// follow them, and which edge is White's (`None` before calibrating).
    pub fn view(&self) -> Option<(BoardCorners, Orientation)> {
        self.eyes.as_ref().map(|e| (e.corners(), e.orientation()))
    }

    /// What the last frame showed of hands on pieces.
    pub fn glance(&self) -> Glance {
        self.glance
    }

    /// When a fingertip first met a piece this turn (seconds): where the
    /// evidence of the turn's touches begins.
    pub fn first_contact(&self) -> Option<f64> {
        self.tracker.first_contact()
    }

    /// Whether the eyes may calibrate on `image`, taken at `t`: at once at
    /// a game's start, once the picture has settled when started again
    /// mid-game.
    fn may_calibrate(&mut self, image: &Mat, t: f64) -> Result<bool> {
        let Some(settling) = &mut self.settling else {
            return Ok(true);
        };
        let settled =
            settling
                .settled(image, t)
                .map_err(|source| referee_vision::Error::OpenCv {
                    doing: "waiting for the picture to settle",
                    source,
                })?;
        if settled {
            self.settling = None;
        }
        Ok(settled)
    }

    /// The board's corners found in `image` with no help, kept for the game.
    fn find_board(&mut self, image: &Mat) -> Result<BoardCorners> {
        let found = locate_board(image)?.ok_or_else(|| {
            Error::Calibration("no chessboard found in the first frame (give its corners)".into())
        })?;
        tracing::info!(corners = ?found.corners.0, squares = found.cells, "board found");
        Ok(*self.corners.insert(found.corners))
    }

    /// One frame taken at `t` seconds.
    pub fn look(&mut self, image: &Mat, t: f64) -> Result<Seen> {
        let eyes = match &mut self.eyes {
            Some(eyes) => eyes,
            None => {
                if !self.may_calibrate(image, t)? {
                    return Ok(Seen::default());
                }
                let corners = match self.corners {
                    Some(corners) => corners,
                    None => self.find_board(image)?,
                };
                let eyes = Eyes::calibrate(
                    image,
                    corners,
                    self.referee.board_on_table(),
                    self.orientation,
                )?;
                self.eyes.insert(eyes)
            }
        };
        let clock = Instant::now();
        let board = eyes.locate(image)?;
        self.times.locate = elapsed_ms(clock);
        let clock = Instant::now();
        let mut reading = eyes.detect(&board)?;
        let colours_ms = elapsed_ms(clock);
        // A still picture unlike the accepted one: the camera may have moved.
        let mut board = board;
        if self.following.try_now(&reading, t, self.tracker.deciding()) {
            tracing::debug!(t, "trying to follow the camera");
            let clock = Instant::now();
            if eyes.realign(image, &board, self.tracker.table())? {
                // What moved since the frame before is the picture's, seen
                // through the corners both frames were read by: the new
                // corners shift every square against the frame before.
                board = eyes.locate(image)?;
                reading = eyes.detect(&board)?.with_motion_of(&reading);
                self.attention.forget();
                self.looked_at = None;
                self.following.followed();
            }
            self.times.locate += elapsed_ms(clock);
        }
        let clock = Instant::now();
        let look = match self.attention.look(reading.picture_motion, t) {
            Look::UnlessSame => {
                // Compared with the picture they last looked at, not the
                // frame before: a picture creeping is looked at once it
                // has crept far enough.
                let now = Thumbnail::of(image, &eyes.corners())?;
                let same = match &self.looked_at {
                    Some(then) => now.is_same(then)?,
                    None => false,
                };
                if same {
                    Look::AsBefore
                } else {
                    self.looked_at = Some(now);
                    self.attention.looked(t);
                    Look::Afresh
                }
            }
            Look::Afresh => {
                // The picture it sees is kept only where it will be asked
                // again for a fingertip it saw.
                self.looked_at = None;
                Look::Afresh
            }
            Look::AsBefore => Look::AsBefore,
        };
        let hands = match look {
            Look::AsBefore => self.hands.as_before(),
            _ => {
                let seen = self
                    .hands
                    .look(image, t, &eyes.corners(), eyes.orientation())?;
                self.attention.saw(seen.fingertip.is_some());
                if seen.fingertip.is_some() && self.looked_at.is_none() {
                    self.looked_at = Some(Thumbnail::of(image, &eyes.corners())?);
                }
                seen
            }
        };
        tracing::trace!(
            t,
            ?look,
            picture_motion = reading.picture_motion,
            fingertip = ?hands.fingertip.map(|f| f.square),
            "attention"
        );
        let fingertip = hands.fingertip.map(|f| f.borne_out(reading.changed));
        self.glance = Glance {
            fingertip,
            changed: Bitboard(reading.changed),
            motion: reading.square_motion,
        };
        let at_clock = at_clock(&mut self.clock, image, eyes)?;
        // On a still picture: the detector's reading, for the belief, and
        // where the colours left a move in doubt, as a second opinion on
        // what stands where (it sees a light piece on a light square that
        // the colours may miss).
        let asked = reading.differs() || self.tracker.asks_detector();
        let covered = Bitboard(hands.covered);
        self.following.hands_over(covered);
        let interval = self.last_t.map_or(0.0, |last| t - last);
        self.last_t = Some(t);
        let stillness = Stillness::of(&reading, covered, interval);
        let real_hands = self.hands.source() == HandSource::Real;
        let detection = if stillness.is_still() {
            self.hands.detect_board(image, &eyes.corners())?
        } else {
            None
        };
        // The real-hand models miss a hand the picture's edge cuts; the
        // detector reads one there, where it is sure (the frames known to
        // show the table teach what sure is).
        let covered = match detection {
            Some(d) if real_hands => {
                // The table is known where no hand covers it on the first
                // still frame, and after where the picture is as accepted,
                // around each square too: what the detector reads of hands
                // there is usual. (Not wherever a move was read: the
                // picture may already show the next move, on a square whose
                // change the eyes miss.)
                let known = if self.confirmed {
                    sure_hands::settled(Bitboard(reading.changed)) & !covered
                } else {
                    !covered
                };
                self.sure_hands.learn(d, eyes.orientation(), known);
                covered | self.sure_hands.covered(d, eyes.orientation())
            }
            _ => covered,
        };
        let usual = real_hands.then_some(&self.sure_hands);
        let unheard = detection.map_or(covered, |d| {
            unheard_squares(d, eyes.orientation(), covered, usual)
        });
        if let Some(detection) = detection
            && !self.fusion.knows_venue()
            && self.tracker.table() == self.tracker.position().board()
        {
            self.fusion
                .learn(detection, eyes.orientation(), self.tracker.table(), unheard);
        }
        let readings = Readings::new(
            &self.fusion,
            &reading.colours,
            detection,
            eyes.orientation(),
            unheard,
        );
        if !self.confirmed {
            // The game's known position, on its first still frame.
            self.confirmed = true;
            self.fusion
                .confirm(&readings, self.tracker.table(), !covered);
        }
        let belief = self.fusion.belief(&readings, covered);
        let detected = match detection {
            Some(d) if asked => detected(d, eyes.orientation(), unheard),
            _ => [None; 64],
        };
        self.times.detect = colours_ms + elapsed_ms(clock);
        let clock = Instant::now();
        let step = self.tracker.push(&Observation {
            t,
            changed: reading.changed,
            scores: reading.scores,
            faint: FAINT_CHANGE,
            occupancy: reading.occupancy,
            detected,
            fingertip,
            toucher: hands.fingertip.and_then(|f| f.by),
            at_clock,
            two_hands: hands.two_hands,
            covered: covered.0,
            promoted: self
                .hands
                .detection()
                .map_or([None; 64], |d| promoted(d, eyes.orientation())),
            still: stillness.is_still(),
            motion: reading.square_motion,
            head_scores: reading.head.scores,
            head_motion: reading.head.motion,
            beyond_motion: reading.beyond_motion,
            belief,
        });
        if step.accept != 0 {
            eyes.accept(&board, step.accept)?;
            self.following.accepted();
        }
        if step.moved {
            // A move read: the table is known again where no hand is (as
            // far as the eyes can tell, where it was recovered).
            let table = self.tracker.table();
            if step.recovered_move() {
                self.fusion.confirm_recovered(&readings, table, covered);
            } else {
                self.fusion.confirm(&readings, table, !covered);
                if let Some(d) = self.hands.detection() {
                    let usual = real_hands.then_some(&self.sure_hands);
                    let unheard = unheard_squares(d, eyes.orientation(), covered, usual);
                    self.fusion.learn(d, eyes.orientation(), table, unheard);
                }
            }
        }
        self.times.track = elapsed_ms(clock);
        let clock = Instant::now();
        let mut seen = Seen::default();
        for event in step.events {
            self.release_outside(event.t, &mut seen);
            self.apply_seen(event, &mut seen);
        }
        if let Some(gap) = step.gap {
            seen.updates.extend(self.raise_gap(gap));
        }
        if step.idle {
            self.release_outside(t, &mut seen);
        }
        self.times.rules = elapsed_ms(clock);
        Ok(seen)
    }

    /// An event the camera cannot see (contracts.md §1: `declare` from an
    /// app, a button or the arbiter; `clock` from a connected clock), put
    /// in its place in time among those the frames bring.
    pub fn add_outside(&mut self, event: Event) {
        let at = self.outside.partition_point(|e| e.t <= event.t);
        self.outside.insert(at, event);
    }

    /// Forgets the events from outside waiting here (another instance kept
    /// them since, and the store holds those still waiting).
    pub fn forget_outside(&mut self) {
        self.outside.clear();
    }

    /// How many events from outside wait for their place.
    pub fn outside_waiting(&self) -> u32 {
        self.outside.len() as u32
    }

    /// The events from outside waiting for their place, in time order.
    pub fn outside(&self) -> impl Iterator<Item = &Event> {
        self.outside.iter()
    }

    /// The events from outside still waiting, applied (the stream ended).
    pub fn flush_outside(&mut self) -> Seen {
        let mut seen = Seen::default();
        self.release_outside(f64::INFINITY, &mut seen);
        seen
    }

    /// Applies the events from outside up to time `t`.
    fn release_outside(&mut self, t: f64, seen: &mut Seen) {
        while self.outside.front().is_some_and(|e| e.t <= t) {
            if let Some(event) = self.outside.pop_front() {
                self.apply_seen(event, seen);
            }
        }
    }

    fn apply_seen(&mut self, event: Event, seen: &mut Seen) {
        match self.referee.apply(&event) {
            Ok(updates) => {
                seen.events.push(event);
                seen.updates.extend(updates);
            }
            Err(_) => seen.rejected += 1,
        }
    }

    /// One physical event known without a frame (a stored log replayed):
    /// straight to the rules engine.
    pub fn apply(&mut self, event: &Event) -> std::result::Result<Vec<Update>, ApplyError> {
        self.referee.apply(event)
    }

    /// The stream ended: a move the still board showed and too few frames
    /// bore out, read and marked recovered, or the gap in the record the
    /// still board was last read with, raised now that no later frame
    /// will; then what finishing the game gives (a last move completed by
    /// the end of the record, a result).
    pub fn finish(&mut self) -> Seen {
        let mut seen = Seen::default();
        if let Some(t) = self.last_t {
            let step = self.tracker.left_open(t);
            for event in step.events {
                self.apply_seen(event, &mut seen);
            }
            if let Some(gap) = step.gap {
                seen.updates.extend(self.raise_gap(gap));
            }
        }
        seen.updates.extend(self.complete_move());
        seen
    }

    /// A move made and left stands as played (the end of a stream, as
    /// the store records it).
    pub fn complete_move(&mut self) -> Vec<Update> {
        self.referee.finish()
    }

    /// The record no longer explains the board: the gap, for the arbiter.
    fn raise_gap(&mut self, gap: Gap) -> Vec<Update> {
        tracing::warn!(since = gap.since, t = gap.t, squares = ?gap.squares, "the record no longer explains the board");
        self.referee
            .record_gap(gap.since, gap.t, gap.squares.into_iter().collect())
    }
}

/// The pieces a pawn can become.
const PROMOTION_ROLES: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// The piece a pawn could have become that the detector reads likeliest on
/// each square, by `Square` index, where it is sure of the occupant and no
/// hand covers the square; on the first and last ranks only, where pawns
/// promote.
fn promoted(detection: &Detection, orientation: Orientation) -> [Option<Piece>; 64] {
    std::array::from_fn(|index| {
        let sq = Square::new(index as u32);
        if !matches!(sq.rank(), Rank::First | Rank::Eighth) {
            return None;
        }
        let cell = detection.square(orientation, usize::from(sq.file()), usize::from(sq.rank()));
        cell.judged()
            .then(|| cell.piece_among(&PROMOTION_ROLES))
            .flatten()
    })
}

/// The squares where the detector's reading of the occupant is not heard:
/// those a hand covers, and those where the detector reads a hand itself.
/// On real footage (its hands learnt on renders, the real hands' `usual`
/// readings known), only where it reads one beyond what the square showed
/// on the known board: a carved piece it reads as a hand on every frame is
/// still a piece.
fn unheard_squares(
    detection: &Detection,
    orientation: Orientation,
    covered: Bitboard,
    usual: Option<&SureHands>,
) -> Bitboard {
    let hands_read = match usual {
        Some(usual) => usual.beyond_usual(detection, orientation, HAND_THRESHOLD),
        None => Bitboard(detection.covered(orientation)),
    };
    covered | hands_read
}

/// How sure the detector must be of a square's occupant (the probability
/// it gives) for the tracker to hear it: a second opinion, heard only
/// where the colours and the change leave a move in doubt.
pub const DETECTED_SURE: f32 = 0.9;

/// The occupant the detector reads on each square, by `Square` index,
/// where it is at least [`DETECTED_SURE`] of it and heard (no hand over
/// the square: not `unheard`).
fn detected(
    detection: &Detection,
    orientation: Orientation,
    unheard: Bitboard,
) -> [Option<Option<Color>>; 64] {
    std::array::from_fn(|index| {
        let sq = Square::new(index as u32);
        let cell = detection.square(orientation, usize::from(sq.file()), usize::from(sq.rank()));
        let (occupant, sure) = cell.occupant();
        (sure >= DETECTED_SURE && !unheard.contains(sq)).then_some(match occupant {
            Occupant::Empty => None,
            Occupant::White => Some(Color::White),
            Occupant::Black => Some(Color::Black),
        })
    })
}

/// Whether a hand is at the clock, the zones placed from the eyes' corners.
fn at_clock(clock: &mut Option<ClockWatch>, image: &Mat, eyes: &Eyes) -> Result<bool> {
    let corners = eyes.corners();
    let clock = match clock {
        Some(clock) if clock.corners() == corners => clock,
        _ => {
            let size = image.size().map_err(|source| Error::OpenCv {
                doing: "sizing the frame",
                source,
            })?;
            clock.insert(ClockWatch::new(&corners, eyes.orientation(), size)?)
        }
    };
    clock.hand_at_clock(image)
}

fn elapsed_ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_vision::CellReading;

    /// A cell the detector reads as `class` (an index of its classes) with
    /// probability `sure`, a hand over it with probability `hand`.
    fn cell(class: usize, sure: f32, hand: f32) -> CellReading {
        let mut classes = [(1.0 - sure) / 12.0; 13];
        classes[class] = sure;
        CellReading {
            classes,
            hand,
            touch: 0.0,
        }
    }

    #[test]
    fn the_detector_is_heard_only_where_it_is_sure_and_not_unheard() {
        let mut cells = [cell(0, 0.99, 0.0); 64];
        let at = |sq: Square| {
            Orientation::WhiteBottom.cell(usize::from(sq.file()), usize::from(sq.rank()))
        };
        cells[at(Square::E4)] = cell(1, 0.95, 0.0); // a white pawn
        cells[at(Square::D5)] = cell(7, 0.8, 0.0); // a black pawn, not sure enough
        cells[at(Square::C6)] = cell(7, 0.99, 0.7); // under a hand
        let detection = Detection {
            cells,
            hand_present: 1.0,
            features: Vec::new(),
            feature_len: 0,
        };
        let read = detected(
            &detection,
            Orientation::WhiteBottom,
            Bitboard::from_square(Square::C6),
        );
        assert_eq!(read[usize::from(Square::E4)], Some(Some(Color::White)));
        assert_eq!(read[usize::from(Square::E5)], Some(None));
        assert_eq!(read[usize::from(Square::D5)], None);
        assert_eq!(read[usize::from(Square::C6)], None);
    }

    #[test]
    fn on_real_footage_a_hand_read_as_usual_leaves_the_detector_heard() {
        let o = Orientation::WhiteBottom;
        let at = |sq: Square| o.cell(usize::from(sq.file()), usize::from(sq.rank()));
        let mut cells = [cell(0, 0.99, 0.01); 64];
        cells[at(Square::C1)] = cell(4, 0.95, 0.3); // a carved rook, read as a hand
        let detection = Detection {
            cells,
            hand_present: 0.0,
            features: Vec::new(),
            feature_len: 0,
        };
        let covered = Bitboard::from_square(Square::E4);
        let c1 = Bitboard::from_square(Square::C1);
        // On renders the detector's own hands are hands.
        assert_eq!(unheard_squares(&detection, o, covered, None), covered | c1);
        // On real footage, once the board was known with the rook there,
        // the rook is heard; before, it is not.
        let mut usual = SureHands::default();
        assert_eq!(
            unheard_squares(&detection, o, covered, Some(&usual)),
            covered | c1
        );
        usual.learn(&detection, o, !covered);
        assert_eq!(
            unheard_squares(&detection, o, covered, Some(&usual)),
            covered
        );
        let read = detected(&detection, o, covered);
        assert_eq!(read[usize::from(Square::C1)], Some(Some(Color::White)));
    }
}
