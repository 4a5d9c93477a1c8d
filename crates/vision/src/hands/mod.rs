//! Real hands: MediaPipe's palm detection and hand landmark models (made
//! ONNX on this machine by `scripts/hand_models` from PyPI's `mediapipe`
//! wheel), run by ONNX Runtime beside the detector, with MediaPipe's
//! video-mode tracking: each hand's crop in a frame is placed from its
//! landmarks in the frame before, and the palm model looks for new hands
//! only while fewer than two are followed (one for each player).
//!
//! - [`palm`]: anchors, the letterbox, decoding, weighted suppression.
//! - [`roi`]: the rotated hand crop and its inverse.
//! - [`landmarks`]: the 21 points of a hand.
//! - [`on_board`]: fingertips on the board's squares, grip or touch, and
//!   the board edge the arm comes from.
//!
//! The models are looked for in `REFEREE_HAND_MODELS` (a folder), beside
//! the executable in `hands/`, or in the project's `.native/hands/`.

pub mod landmarks;
pub mod on_board;
pub mod palm;
pub mod roi;

use std::path::{Path, PathBuf};

use opencv::core::Mat;
use opencv::prelude::*;
use ort::session::Session;
use ort::value::Tensor;

pub use landmarks::{HAND_MIN_PRESENCE, Hand, LANDMARKS};
pub use on_board::{Contact, HandOnBoard, Reach};
pub use palm::{Anchor, Letterbox, Palm};
pub use roi::HandRoi;

use crate::error::OpenCvContext;
use crate::{Error, Result, runtime};

/// The converted models' file names.
pub const PALM_MODEL: &str = "palm_detection_full.onnx";
pub const LANDMARK_MODEL: &str = "hand_landmark_full.onnx";
/// Hands followed at once: one for each player.
pub const MAX_HANDS: usize = 2;
/// While a hand is followed, the palm model looks for the other player's
/// at most this often (seconds): it costs more than following a hand, and
/// a second hand stays at the board for longer than this.
pub const SECOND_HAND_SECONDS: f64 = 0.25;
/// A new palm overlapping a followed hand's crop by more than this is that hand.
const SAME_HAND_OVERLAP: f32 = 0.5;

/// The folder holding the converted models: `REFEREE_HAND_MODELS`, else
/// `hands/` beside the executable, else the project's `.native/hands/`.
pub fn models_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("REFEREE_HAND_MODELS") {
        return PathBuf::from(dir);
    }
    let palm = Path::new("hands").join(PALM_MODEL);
    runtime::installed(&palm, &palm)
        .and_then(|found| found.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from(".native/hands"))
}

/// The two models' sessions, on one CPU thread each.
pub struct HandModels {
    palm: Session,
    landmarks: Session,
    anchors: Vec<Anchor>,
}

impl std::fmt::Debug for HandModels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HandModels").finish_non_exhaustive()
    }
}

fn onnx(doing: &str, source: ort::Error) -> Error {
    Error::Onnx {
        doing: doing.to_string(),
        source,
    }
}

impl HandModels {
    /// Loads the models from [`models_dir`].
    pub fn load() -> Result<Self> {
        Self::load_from(&models_dir())
    }

    /// Loads the models from `dir`.
    pub fn load_from(dir: &Path) -> Result<Self> {
        let path = |name: &str| -> Result<PathBuf> {
            let path = dir.join(name);
            if path.exists() {
                Ok(path)
            } else {
                Err(Error::ModelMissing {
                    path,
                    remedy: "run scripts/setup (it converts MediaPipe's hand models), or set REFEREE_HAND_MODELS",
                })
            }
        };
        Ok(Self {
            palm: runtime::load_model(&path(PALM_MODEL)?, 1)?,
            landmarks: runtime::load_model(&path(LANDMARK_MODEL)?, 1)?,
            anchors: palm::anchors(),
        })
    }

    /// The palms in a BGR frame, best first.
    pub fn palms(&mut self, image: &Mat) -> Result<Vec<Palm>> {
        let size = image.size().doing("sizing the frame")?;
        let letterbox = Letterbox::fit(size.width, size.height);
        let side = palm::PALM_INPUT as usize;
        let input = Tensor::from_array(([1, side, side, 3], letterbox.input(image)?))
            .map_err(|source| onnx("making the palm model's input", source))?;
        let outputs = self
            .palm
            .run(ort::inputs!["input_1" => input])
            .map_err(|source| onnx("running the palm model", source))?;
        let (_, boxes) = outputs["Identity"]
            .try_extract_tensor::<f32>()
            .map_err(|source| onnx("reading the palm boxes", source))?;
        let (_, scores) = outputs["Identity_1"]
            .try_extract_tensor::<f32>()
            .map_err(|source| onnx("reading the palm scores", source))?;
        let n = self.anchors.len();
        if boxes.len() != n * palm::PALM_COORDS || scores.len() != n {
            return Err(Error::Calibration(format!(
                "the palm model gave {} boxes and {} scores, not {n}",
                boxes.len() / palm::PALM_COORDS,
                scores.len()
            )));
        }
        Ok(palm::decode(boxes, scores, &self.anchors, &letterbox))
    }

    /// The hand in `roi` of a BGR frame.
    pub fn hand(&mut self, image: &Mat, roi: &HandRoi) -> Result<Hand> {
        let crop = roi.crop(image)?;
        let side = roi::CROP_INPUT as usize;
        let input = Tensor::from_array(([1, side, side, 3], palm::rgb_unit(&crop)?))
            .map_err(|source| onnx("making the landmark model's input", source))?;
        let outputs = self
            .landmarks
            .run(ort::inputs!["input_1" => input])
            .map_err(|source| onnx("running the landmark model", source))?;
        let scalar = |name: &str| -> Result<f32> {
            let (_, v) = outputs[name]
                .try_extract_tensor::<f32>()
                .map_err(|source| onnx(&format!("reading the landmark model's {name}"), source))?;
            v.first()
                .copied()
                .ok_or_else(|| Error::Calibration(format!("the landmark model's {name} is empty")))
        };
        let (_, points) = outputs["Identity"]
            .try_extract_tensor::<f32>()
            .map_err(|source| onnx("reading the landmarks", source))?;
        if points.len() != 3 * LANDMARKS {
            return Err(Error::Calibration(format!(
                "the landmark model gave {} values, not {}",
                points.len(),
                3 * LANDMARKS
            )));
        }
        Ok(Hand {
            landmarks: std::array::from_fn(|i| roi.to_image([points[3 * i], points[3 * i + 1]])),
            presence: scalar("Identity_1")?,
            handedness: scalar("Identity_2")?,
        })
    }
}

/// A hand followed from frame to frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrackedHand {
    pub hand: Hand,
    /// Where its crop was this frame.
    pub roi: HandRoi,
    /// Frames it has been followed, this one included.
    pub frames: u32,
}

/// MediaPipe's video mode over a stream of frames: up to [`MAX_HANDS`]
/// hands followed, each from its last landmarks; the palm model runs on
/// every frame while none is followed, every [`SECOND_HAND_SECONDS`] while
/// fewer than [`MAX_HANDS`] are, and a palm where a hand is already
/// followed is that hand.
#[derive(Debug)]
pub struct HandTracker {
    models: HandModels,
    hands: Vec<TrackedHand>,
    /// Frames on which the palm model ran (for the figures).
    pub palm_runs: u64,
    /// When it last ran (seconds of the stream).
    palm_at: Option<f64>,
}

impl HandTracker {
    pub fn new(models: HandModels) -> Self {
        Self {
            models,
            hands: Vec::new(),
            palm_runs: 0,
            palm_at: None,
        }
    }

    /// The hands followed after the last frame.
    pub fn hands(&self) -> &[TrackedHand] {
        &self.hands
    }

    /// Forgets every hand (the camera moved, a new game).
    pub fn reset(&mut self) {
        self.hands.clear();
        self.palm_at = None;
    }

    /// Follows the hands into the next frame, taken at `t` seconds: each
    /// followed hand looked for in the crop its last landmarks place,
    /// then new ones from the palm model when it is due.
    pub fn track(&mut self, image: &Mat, t: f64) -> Result<&[TrackedHand]> {
        self.follow(image)?;
        if self.palm_due(t) {
            self.palm_at = Some(t);
            self.palm_runs += 1;
            for palm in self.models.palms(image)? {
                if self.hands.len() >= MAX_HANDS {
                    break;
                }
                let roi = HandRoi::from_palm(&palm);
                if self
                    .hands
                    .iter()
                    .any(|h| h.roi.overlap(&roi) > SAME_HAND_OVERLAP)
                {
                    continue;
                }
                let hand = self.models.hand(image, &roi)?;
                if hand.presence >= HAND_MIN_PRESENCE
                    && !self.hands.iter().any(|h| h.hand.same_as(&hand))
                {
                    self.hands.push(TrackedHand {
                        hand,
                        roi,
                        frames: 1,
                    });
                }
            }
        }
        Ok(&self.hands)
    }

    /// Whether the palm model looks for new hands at `t`: on every frame
    /// while no hand is followed (a hand comes into view on one and may
    /// be gone on the next), every [`SECOND_HAND_SECONDS`] while fewer than
    /// [`MAX_HANDS`] are (and at once should time go back).
    fn palm_due(&self, t: f64) -> bool {
        match self.hands.len() {
            0 => true,
            n if n < MAX_HANDS => self
                .palm_at
                .is_none_or(|at| t - at >= SECOND_HAND_SECONDS || t < at),
            _ => false,
        }
    }

    /// Follows the hands already followed into the next frame, each in the
    /// crop its last landmarks place (no palm model): a hand no longer
    /// present there is lost.
    pub fn follow(&mut self, image: &Mat) -> Result<&[TrackedHand]> {
        let mut hands: Vec<TrackedHand> = Vec::with_capacity(MAX_HANDS);
        for previous in std::mem::take(&mut self.hands) {
            let roi = HandRoi::from_landmarks(&previous.hand.landmarks);
            let hand = self.models.hand(image, &roi)?;
            // Two crops that found the same hand: the one followed longer stays.
            if hand.presence >= HAND_MIN_PRESENCE && !hands.iter().any(|h| h.hand.same_as(&hand)) {
                hands.push(TrackedHand {
                    hand,
                    roi,
                    frames: previous.frames + 1,
                });
            }
        }
        self.hands = hands;
        Ok(&self.hands)
    }
}
