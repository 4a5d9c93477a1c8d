//! Hand landmarks: MediaPipe's landmark model on a hand's upright crop,
//! giving 21 points (wrist, then four a finger from the thumb), whether a
//! hand is there at all, and which hand it is.
//!
//! Input: the crop, 224x224, RGB float in [0, 1]. Outputs: `Identity` [63]
//! (x, y, z a point, in crop pixels), `Identity_1` hand presence in [0, 1],
//! `Identity_2` handedness in [0, 1] (above one half: a right hand, as
//! MediaPipe names it for a mirrored picture), `Identity_3` world points.

/// Landmarks a hand has.
pub const LANDMARKS: usize = 21;
/// The wrist.
pub const WRIST: usize = 0;
/// The thumb's tip.
pub const THUMB_TIP: usize = 4;
/// The index finger's base and tip.
pub const INDEX_BASE: usize = 5;
pub const INDEX_TIP: usize = 8;
/// The middle finger's base.
pub const MIDDLE_BASE: usize = 9;
/// The five fingertips, thumb first.
pub const FINGERTIPS: [usize; 5] = [4, 8, 12, 16, 20];

/// A hand kept from this presence on (MediaPipe's `min_tracking_confidence`).
pub const HAND_MIN_PRESENCE: f32 = 0.5;

/// One hand in one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hand {
    /// The 21 landmarks in image pixels.
    pub landmarks: [[f32; 2]; LANDMARKS],
    /// How sure the model is that a hand is in the crop, in [0, 1].
    pub presence: f32,
    /// The model's handedness score (above one half: "right").
    pub handedness: f32,
}

impl Hand {
    pub fn wrist(&self) -> [f32; 2] {
        self.landmarks[WRIST]
    }

    pub fn index_tip(&self) -> [f32; 2] {
        self.landmarks[INDEX_TIP]
    }

    pub fn thumb_tip(&self) -> [f32; 2] {
        self.landmarks[THUMB_TIP]
    }
}
