//! Which eyes see the hands, frame by frame: MediaPipe's real-hand models
//! (trained on real photographs: they decide on real footage) or the
//! detector's own hand outputs (trained on renders: they serve on rendered
//! scenes, where MediaPipe finds no hand).
//!
//! In `auto`, both run until the footage tells which it is
//! ([`crate::footage`]): on real footage the detector's hands are then no
//! longer asked, on a render MediaPipe stops, saving its time. A frame where
//! a real hand's fingers are on a square always gives that square, with the
//! player whose edge the arm comes from.

use std::sync::Mutex;

use opencv::core::Mat;
use opencv::prelude::*;
use referee_vision::hands::on_board::BoardGeometry;
use referee_vision::hands::{Contact, HandOnBoard};
use referee_vision::{
    BoardCorners, Detection, Detector, Error, HandModels, HandTracker, Orientation,
    PRESENT_THRESHOLD, Result,
};
use shakmaty::{Color, Square};

use crate::footage::{FootageEvidence, cropped_to_board};

/// Which model the referee asks about hands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HandSource {
    /// Told from the footage (see the module's documentation).
    #[default]
    Auto,
    /// MediaPipe's real-hand models only.
    Real,
    /// The detector's hand outputs only (rendered scenes).
    Rendered,
}

impl std::str::FromStr for HandSource {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "auto" => Ok(Self::Auto),
            "real" => Ok(Self::Real),
            "rendered" => Ok(Self::Rendered),
            other => Err(format!(
                "`{other}` is not a hand source (auto, real, rendered)"
            )),
        }
    }
}

/// What the hands do in one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HandsSeen {
    /// The square fingers are on.
    pub fingertip: Option<Fingertip>,
    /// The squares hands and arms cover, one bit per `Square` index.
    pub covered: u64,
    /// Both hands of this side are at the board: each grips a piece (real
    /// hands), or two arms of the side are over it (the detector's hands).
    pub two_hands: Option<Color>,
}

/// Which models ran on a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ModelsRun {
    pub detector: bool,
    pub real_hands: bool,
}

/// A fingertip on a square, and whose hand, when known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingertip {
    pub square: Square,
    pub by: Option<Color>,
    /// A neighbour the fingertip may be on instead, when the eyes that saw
    /// it read it nearly as likely there (the detector's
    /// `fingertip_beside`).
    pub beside: Option<Square>,
}

impl Fingertip {
    /// The square the fingertip is on, the picture bearing it out: where
    /// its square's picture is as on the board last accepted and that of
    /// the neighbour it may be on instead differs (`changed`, one bit per
    /// `Square` index), the neighbour; a finger on a piece changes its
    /// picture. Not a neighbour nearer the hand's player than the square
    /// read, nor when whose hand it is is not known: the arm reaching for a
    /// piece passes over those, and changes them without a finger there.
    pub fn borne_out(&self, changed: u64) -> Square {
        let differs = |sq: Square| changed & (1 << usize::from(sq)) != 0;
        let beyond_the_arm = |beside: Square| match self.by {
            Some(Color::White) => beside.rank() >= self.square.rank(),
            Some(Color::Black) => beside.rank() <= self.square.rank(),
            None => false,
        };
        match self.beside {
            Some(beside) if !differs(self.square) && differs(beside) && beyond_the_arm(beside) => {
                beside
            }
            _ => self.square,
        }
    }
}

/// The hands of one board's footage.
#[derive(Debug)]
pub struct HandPath {
    choice: HandSource,
    /// What the footage was found to be (`Real` or `Rendered`), once told.
    told: Option<HandSource>,
    /// The models are loaded on the first frame (`None` until then).
    models: Option<Models>,
    /// The board's geometry, for the corners it was made from.
    geometry: Option<(BoardCorners, BoardGeometry)>,
    /// The hands seen so far, until they tell what the footage is.
    evidence: FootageEvidence,
    /// The detector's reading of the last frame looked at, when it ran.
    detection: Option<Detection>,
    /// What the hands did on the last frame looked at.
    seen: HandsSeen,
    /// The models that ran on the present frame.
    run: ModelsRun,
}

/// A model the chain runs without, and what it cannot see for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingModel {
    /// `detector` or `real-hand models`.
    pub model: &'static str,
    /// What the referee cannot see without it.
    pub blind_to: &'static str,
    /// Why it did not load.
    pub reason: String,
}

impl std::fmt::Display for MissingModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no {}: {} ({})", self.model, self.blind_to, self.reason)
    }
}

/// The models `choice` asks for that load, and those that did not (warned
/// about; moves are read without them). The detector always loads: it
/// reads the board on every footage, and the hands on renders.
#[derive(Debug)]
struct Models {
    real: Option<HandTracker>,
    detector: Option<Detector>,
    missing: Vec<MissingModel>,
}

impl Models {
    fn load(choice: HandSource) -> Self {
        let mut missing = Vec::new();
        let real = if choice == HandSource::Rendered {
            None
        } else {
            match HandModels::load() {
                Ok(models) => Some(HandTracker::new(models)),
                Err(error) => {
                    missing.push(MissingModel {
                        model: "real-hand models",
                        blind_to: REAL_HANDS_UNSEEN,
                        reason: error.to_string(),
                    });
                    None
                }
            }
        };
        let detector = match Detector::load() {
            Ok(detector) => Some(detector),
            Err(error) => {
                missing.push(MissingModel {
                    model: "detector",
                    blind_to: DETECTOR_UNSEEN,
                    reason: error.to_string(),
                });
                None
            }
        };
        for model in &missing {
            tracing::warn!("{model}");
        }
        Self {
            real,
            detector,
            missing,
        }
    }
}

/// Models let go by boards no longer watched, kept for the next board
/// that needs the same (a service's boards come and go over an event:
/// loading is slow, and memory once taken by a model's session is not
/// given back to the system, so sessions are reused, not made anew).
static SPARE: Mutex<Vec<(HandSource, Models)>> = Mutex::new(Vec::new());

/// At most this many spare sets of models are kept.
const SPARE_AT_MOST: usize = 64;

impl Models {
    /// Spare models `choice` asks for, or models loaded now.
    fn take(choice: HandSource) -> Self {
        let mut spare = SPARE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match spare.iter().position(|(made_for, _)| *made_for == choice) {
            Some(index) => spare.swap_remove(index).1,
            None => {
                drop(spare);
                Self::load(choice)
            }
        }
    }

    /// Keeps these models, loaded for `choice`, for the next board.
    fn give_back(mut self, choice: HandSource) {
        if let Some(real) = &mut self.real {
            real.reset();
        }
        let mut spare = SPARE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if spare.len() < SPARE_AT_MOST {
            spare.push((choice, self));
        }
    }
}

/// What no real-hand models leave unseen.
const REAL_HANDS_UNSEEN: &str = "no touch can be seen on camera footage";
/// What no detector leaves unseen.
const DETECTOR_UNSEEN: &str =
    "no touch can be seen on rendered footage, and moves are read from the colours alone";

/// The models a chain choosing `choice` would run without: loads them once
/// (what a service checks before it says it serves).
pub fn missing_models(choice: HandSource) -> Vec<MissingModel> {
    Models::load(choice).missing
}

impl HandPath {
    /// The hand path `choice` asks for; its models load with the first frame.
    pub fn new(choice: HandSource) -> Self {
        Self {
            choice,
            told: None,
            models: None,
            geometry: None,
            evidence: FootageEvidence::default(),
            detection: None,
            seen: HandsSeen::default(),
            run: ModelsRun::default(),
        }
    }

    /// The models this path runs without (known once the first frame
    /// loaded them).
    pub fn missing(&self) -> &[MissingModel] {
        self.models.as_ref().map_or(&[], |m| m.missing.as_slice())
    }

    /// What the footage was found to be, or was said to be.
    pub fn source(&self) -> HandSource {
        source_of(self.choice, self.told)
    }

    /// The detector's reading of the last frame looked at, when it ran (on
    /// rendered scenes, and on real footage until the real hands decide).
    pub fn detection(&self) -> Option<&Detection> {
        self.detection.as_ref()
    }

    /// The detector's reading of `image`: the one made for the hands this
    /// frame, or made now (on real footage the hands no longer ask it);
    /// `None` when no detector is loaded. Call after [`Self::look`].
    pub fn detect_board(
        &mut self,
        image: &Mat,
        corners: &BoardCorners,
    ) -> Result<Option<&Detection>> {
        if self.detection.is_none()
            && let Some(detector) = self.models.as_mut().and_then(|m| m.detector.as_mut())
        {
            self.detection = Some(detector.detect(image, corners)?);
            self.run.detector = true;
        }
        Ok(self.detection.as_ref())
    }

    /// The models that ran on the present frame.
    pub fn run(&self) -> ModelsRun {
        self.run
    }

    /// The hands on a frame whose picture is the one last looked at
    /// ([`crate::attention::Look::AsBefore`]): as they were seen then, no
    /// model run.
    pub fn as_before(&mut self) -> HandsSeen {
        self.run = ModelsRun::default();
        self.seen
    }

    /// The models are let go (kept for the next board that needs them);
    /// what the footage was found to be stays (the same camera's).
    pub fn release(&mut self) {
        if let Some(models) = self.models.take() {
            models.give_back(self.choice);
        }
        *self = Self {
            told: self.told,
            ..Self::new(self.choice)
        };
    }

    /// The footage is `found` to be real or rendered (told before this
    /// path was made: by the same camera's earlier stream, kept with the
    /// game). Nothing changes where a source was chosen, or `found` is
    /// `Auto`.
    pub fn tell(&mut self, found: HandSource) {
        if self.choice == HandSource::Auto && found != HandSource::Auto {
            self.told = Some(found);
        }
    }

    /// The board moved or was found again: hands are looked for afresh.
    pub fn reset(&mut self) {
        self.geometry = None;
        if let Some(real) = self.models.as_mut().and_then(|m| m.real.as_mut()) {
            real.reset();
        }
    }

    /// The hands in `image`, taken at `t` seconds, for the board at
    /// `corners` lying `orientation`.
    pub fn look(
        &mut self,
        image: &Mat,
        t: f64,
        corners: &BoardCorners,
        orientation: Orientation,
    ) -> Result<HandsSeen> {
        self.run = ModelsRun::default();
        let seen = self.look_afresh(image, t, corners, orientation)?;
        self.seen = seen;
        Ok(seen)
    }

    fn look_afresh(
        &mut self,
        image: &Mat,
        t: f64,
        corners: &BoardCorners,
        orientation: Orientation,
    ) -> Result<HandsSeen> {
        if self.told.is_none() && self.choice == HandSource::Auto {
            let size = image.size().map_err(|source| Error::OpenCv {
                doing: "sizing the frame",
                source,
            })?;
            if cropped_to_board(corners, size) {
                tracing::info!(
                    "a picture cropped to the board: real footage, the real-hand models decide"
                );
                self.told = Some(HandSource::Real);
            }
        }
        let source = self.source();
        self.detection = None;
        let mut real_hand = false;
        let mut real_tip = None;
        let mut covered = 0;
        let mut two_hands = None;
        let models = self.models.get_or_insert_with(|| Models::take(self.choice));
        if source != HandSource::Rendered
            && let Some(tracker) = &mut models.real
        {
            let geometry = match &self.geometry {
                Some((made_for, geometry)) if made_for == corners => geometry,
                _ => {
                    let size = image.size().map_err(|source| Error::OpenCv {
                        doing: "sizing the frame",
                        source,
                    })?;
                    let geometry = BoardGeometry::new(corners, size, orientation)?;
                    &self.geometry.insert((*corners, geometry)).1
                }
            };
            self.run.real_hands = true;
            let hands: Vec<HandOnBoard> = tracker
                .track(image, t)?
                .iter()
                .map(|h| geometry.read(&h.hand))
                .collect();
            real_hand = !hands.is_empty();
            real_tip = chosen_contact(&hands);
            covered = hands.iter().fold(0, |bits, h| bits | h.covered);
            two_hands = both_gripping(&hands);
            self.evidence.real_hand(real_hand);
            tell_from(&self.evidence, &mut self.told);
        }
        if real_tip.is_some() || source_of(self.choice, self.told) == HandSource::Real {
            return Ok(HandsSeen {
                fingertip: real_tip,
                covered,
                two_hands,
            });
        }
        let Some(detector) = &mut models.detector else {
            return Ok(HandsSeen {
                fingertip: None,
                covered,
                two_hands,
            });
        };
        let detection = detector.detect(image, corners)?;
        self.run.detector = true;
        if detection.hand_present >= PRESENT_THRESHOLD && !real_hand {
            self.evidence.unseen_by_real();
            tell_from(&self.evidence, &mut self.told);
        }
        let before = self.seen.fingertip.map(|tip| tip.square);
        let seen = HandsSeen {
            fingertip: detection
                .fingertip_after(orientation, before)
                .map(|square| Fingertip {
                    square,
                    by: detection.side_reaching(orientation, Some(square)),
                    beside: detection.fingertip_beside(orientation),
                }),
            covered: covered | detection.covered(orientation),
            two_hands: two_hands.or_else(|| detection.two_arms(orientation)),
        };
        self.detection = Some(detection);
        Ok(seen)
    }
}

/// The footage is told (in `told`, where nothing was yet) once the hands
/// seen so far tell it.
fn tell_from(evidence: &FootageEvidence, told: &mut Option<HandSource>) {
    if told.is_some() {
        return;
    }
    *told = evidence.tells();
    match told {
        Some(HandSource::Real) => {
            tracing::info!(
                ?evidence,
                "real hands followed: the real-hand models decide"
            )
        }
        Some(HandSource::Rendered) => tracing::info!(
            ?evidence,
            "hands only the detector sees: a rendered scene, the detector decides"
        ),
        _ => {}
    }
}

/// Which model decides: the one chosen, or in `auto` the one the footage told.
fn source_of(choice: HandSource, told: Option<HandSource>) -> HandSource {
    match choice {
        HandSource::Auto => told.unwrap_or(HandSource::Auto),
        chosen => chosen,
    }
}

/// The side whose two hands each grip a piece, on different squares.
fn both_gripping(hands: &[HandOnBoard]) -> Option<Color> {
    let grips: Vec<(Color, Square)> = hands
        .iter()
        .filter_map(|h| match (h.reach.player, h.contact) {
            (Some(side), Some(Contact::Grip(sq))) => Some((side, sq)),
            _ => None,
        })
        .collect();
    grips.iter().enumerate().find_map(|(i, &(side, sq))| {
        grips[i + 1..]
            .iter()
            .any(|&(other, osq)| other == side && osq != sq)
            .then_some(side)
    })
}

/// The square fingers are on: a grip before a touch, the first hand's first.
fn chosen_contact(hands: &[HandOnBoard]) -> Option<Fingertip> {
    let grip = hands
        .iter()
        .find(|h| matches!(h.contact, Some(Contact::Grip(_))));
    let hand = grip.or_else(|| hands.iter().find(|h| h.contact.is_some()))?;
    Some(Fingertip {
        square: hand.contact?.square(),
        by: hand.reach.player,
        beside: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_vision::hands::Reach;
    use referee_vision::hands::on_board::Edge;

    fn hand(side: Option<Color>, contact: Option<Contact>) -> HandOnBoard {
        HandOnBoard {
            contact,
            reach: Reach {
                edge: Edge::Bottom,
                player: side,
            },
            index_tip: [0.0, 0.0],
            thumb_tip: [0.0, 0.0],
            covered: 0,
        }
    }

    #[test]
    fn a_fingertip_read_one_square_off_goes_where_the_picture_changed() {
        let bit = |sq: Square| 1u64 << usize::from(sq);
        // Black reaching for White's g1, read on h1, g1 nearly as likely:
        // g1's picture changed, h1's did not.
        let reach = Fingertip {
            square: Square::H1,
            by: Some(Color::Black),
            beside: Some(Square::G1),
        };
        assert_eq!(reach.borne_out(bit(Square::G1)), Square::G1);
        // Both changed (a hand over the one, its finger on the other), or
        // neither: the likelier stands.
        assert_eq!(
            reach.borne_out(bit(Square::G1) | bit(Square::H1)),
            Square::H1
        );
        assert_eq!(reach.borne_out(0), Square::H1);
        // No other square read likely, or whose hand not known: the one read.
        let alone = Fingertip {
            beside: None,
            ..reach
        };
        assert_eq!(alone.borne_out(bit(Square::G1)), Square::H1);
        let anyone = Fingertip { by: None, ..reach };
        assert_eq!(anyone.borne_out(bit(Square::G1)), Square::H1);
        // Black's arm reaching h1 over h2 changes h2, the finger not yet
        // changing h1: h1 stands.
        let over = Fingertip {
            beside: Some(Square::H2),
            ..reach
        };
        assert_eq!(over.borne_out(bit(Square::H2)), Square::H1);
    }

    #[test]
    fn two_hands_of_one_side_each_gripping_a_piece_are_two_hands() {
        let king = hand(Some(Color::White), Some(Contact::Grip(Square::E1)));
        let rook = hand(Some(Color::White), Some(Contact::Grip(Square::H1)));
        assert_eq!(both_gripping(&[king, rook]), Some(Color::White));
        // One of them only touching, or the other player's hand: not.
        let touching = hand(Some(Color::White), Some(Contact::Touch(Square::H1)));
        assert_eq!(both_gripping(&[king, touching]), None);
        let black = hand(Some(Color::Black), Some(Contact::Grip(Square::E8)));
        assert_eq!(both_gripping(&[king, black]), None);
        // A grip before a touch for the fingertip.
        let chosen = chosen_contact(&[touching, king]).expect("a fingertip");
        assert_eq!(
            chosen,
            Fingertip {
                square: Square::E1,
                by: Some(Color::White),
                beside: None,
            }
        );
    }
}
