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

/// Two hands whose landmarks lie on average closer than this share of the
/// hand's size are one hand found twice.
pub const SAME_HAND_SHARE: f32 = 0.25;

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

    /// The longer side of the landmarks' bounding box, in pixels.
    pub fn size(&self) -> f32 {
        let (lo, hi) = self.landmarks.iter().fold(
            ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]),
            |(lo, hi), p| {
                (
                    [lo[0].min(p[0]), lo[1].min(p[1])],
                    [hi[0].max(p[0]), hi[1].max(p[1])],
                )
            },
        );
        (hi[0] - lo[0]).max(hi[1] - lo[1])
    }

    /// Whether `other` is this hand found twice: its landmarks lie, on
    /// average, within [`SAME_HAND_SHARE`] of the hand's size of these.
    pub fn same_as(&self, other: &Hand) -> bool {
        let mean: f32 = self
            .landmarks
            .iter()
            .zip(&other.landmarks)
            .map(|(a, b)| (a[0] - b[0]).hypot(a[1] - b[1]))
            .sum::<f32>()
            / LANDMARKS as f32;
        mean < SAME_HAND_SHARE * self.size().max(other.size())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand_at(dx: f32) -> Hand {
        Hand {
            landmarks: std::array::from_fn(|i| {
                [100.0 + dx + 5.0 * i as f32, 200.0 - 3.0 * i as f32]
            }),
            presence: 0.9,
            handedness: 0.5,
        }
    }

    #[test]
    fn a_hand_found_twice_is_one_and_two_apart_are_two() {
        assert!((hand_at(0.0).size() - 100.0).abs() < 1e-4);
        assert!(hand_at(0.0).same_as(&hand_at(10.0)));
        assert!(!hand_at(0.0).same_as(&hand_at(60.0)));
    }
}
