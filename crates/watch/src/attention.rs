//! When the models look. The detector and the real-hand models cost many
//! times a frame's decode, and on most frames of a game nothing moves: they
//! look afresh on a frame whose picture moves, on the first still frame
//! after it moved (the one the move decoder reads), when the picture has
//! drifted since their last look, while they last saw a fingertip, and at
//! least every [`KEEP_ALIVE_SECONDS`]. On the other frames the picture is
//! the one they last saw, and what they saw then still stands.

/// Share of the picture (percent of its pixels, board, margin and
/// surround: a hand behind the far rank) changed since the frame before
/// at which it moves: a hand, an arm, a piece carried (well under the
/// still picture's [`referee_vision::STILL_MOTION`]: a fingertip creeping
/// over a piece moves a few pixels a frame).
pub const GLANCE_MOTION: f64 = 0.02;

/// Motion summed over the frames since the models last looked at which
/// the picture has drifted from what they saw, though no frame moved.
pub const DRIFT_MOTION: f64 = 0.2;

/// The models look at least this often (seconds), whatever the picture.
pub const KEEP_ALIVE_SECONDS: f64 = 1.0;

/// Whether the models look at a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// They run on this frame.
    Afresh,
    /// They run on this frame unless its picture is the one they last
    /// looked at (`referee_vision::Thumbnail::is_same`): they look again
    /// only because a while passed or they saw a fingertip, and the same
    /// picture shows the same.
    UnlessSame,
    /// The picture is the one they last saw: what they saw stands.
    AsBefore,
}

/// Decides, frame by frame, whether the models look.
#[derive(Debug, Clone, Default)]
pub struct Attention {
    /// When they last looked (seconds of the stream).
    looked_at: Option<f64>,
    /// Motion summed over the frames since.
    drift: f64,
    /// The frame before moved.
    moving: bool,
    /// Their last look saw a fingertip on a square: a hand leaving over the
    /// picture's edge moves too little to count as motion, and the touch
    /// its fingertip seemed to make must not outlast it.
    fingertip: bool,
}

impl Attention {
    /// Whether the models look at the frame taken at `t`, whose picture
    /// changed by `motion` (percent of pixels) since the frame before.
    pub fn look(&mut self, motion: f64, t: f64) -> Look {
        let moving = motion >= GLANCE_MOTION;
        let settled = self.moving && !moving;
        self.moving = moving;
        self.drift += motion;
        let due = self
            .looked_at
            .is_none_or(|at| t - at >= KEEP_ALIVE_SECONDS || t < at);
        if moving || settled || self.drift >= DRIFT_MOTION {
            self.looked(t);
            Look::Afresh
        } else if due || self.fingertip {
            Look::UnlessSame
        } else {
            Look::AsBefore
        }
    }

    /// They looked at the frame taken at `t` (the caller's word after
    /// [`Look::UnlessSame`], when the picture was not the same).
    pub fn looked(&mut self, t: f64) {
        self.looked_at = Some(t);
        self.drift = 0.0;
    }

    /// What their look at this frame found: whether a fingertip was on a
    /// square (they look again at the next frame while one is).
    pub fn saw(&mut self, fingertip: bool) {
        self.fingertip = fingertip;
    }

    /// The picture is no longer the one they saw (the camera was followed
    /// to new corners, or calibrated again): they look at the next frame.
    pub fn forget(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Looks at frames of `motions` taken 0.1 s apart from `t0`, each
    /// picture unlike the one looked at before.
    fn looks(attention: &mut Attention, t0: f64, motions: &[f64]) -> Vec<Look> {
        motions
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let t = t0 + 0.1 * i as f64;
                match attention.look(m, t) {
                    Look::UnlessSame => {
                        attention.looked(t);
                        Look::Afresh
                    }
                    look => look,
                }
            })
            .collect()
    }

    #[test]
    fn a_picture_the_same_as_the_one_looked_at_is_not_looked_at_again() {
        let mut attention = Attention::default();
        assert_eq!(attention.look(0.0, 0.0), Look::UnlessSame);
        attention.looked(0.0);
        attention.saw(true);
        // A fingertip seen: asked again on every frame, looked at only
        // where the picture changed.
        assert_eq!(attention.look(0.0, 0.1), Look::UnlessSame);
        assert_eq!(attention.look(0.0, 0.2), Look::UnlessSame);
        // Moving, or just still again: looked at whatever the picture.
        assert_eq!(attention.look(1.0, 0.3), Look::Afresh);
        assert_eq!(attention.look(0.0, 0.4), Look::Afresh);
    }

    #[test]
    fn the_models_look_while_the_picture_moves_and_once_it_is_still_again() {
        use Look::{Afresh, AsBefore};
        let mut attention = Attention::default();
        // The first frame, then a still board: nothing to look at again.
        assert_eq!(
            looks(&mut attention, 0.0, &[0.0, 0.0, 0.0]),
            [Afresh, AsBefore, AsBefore]
        );
        // A hand comes and goes; the first still frame is looked at.
        assert_eq!(
            looks(&mut attention, 0.3, &[3.0, 5.0, 0.0, 0.0]),
            [Afresh, Afresh, Afresh, AsBefore]
        );
    }

    #[test]
    fn the_models_look_again_while_they_see_a_fingertip_on_a_still_picture() {
        use Look::{Afresh, AsBefore};
        let mut attention = Attention::default();
        assert_eq!(looks(&mut attention, 0.0, &[0.0]), [Afresh]);
        attention.saw(true);
        // A hand leaving over the picture's edge: no motion on the board.
        assert_eq!(looks(&mut attention, 0.1, &[0.0, 0.0]), [Afresh, Afresh]);
        attention.saw(false);
        assert_eq!(
            looks(&mut attention, 0.3, &[0.0, 0.0]),
            [AsBefore, AsBefore]
        );
    }

    #[test]
    fn a_still_picture_is_looked_at_again_once_a_second_or_once_it_drifted() {
        let mut attention = Attention::default();
        let still = looks(&mut attention, 0.0, &[0.0; 25]);
        let afresh: Vec<usize> = (0..25).filter(|&i| still[i] == Look::Afresh).collect();
        assert_eq!(afresh, [0, 10, 20]);
        // Motion under a glance each frame, summing to a drift.
        let mut attention = Attention::default();
        let creeping = looks(&mut attention, 0.0, &[0.0, 0.015, 0.015, 0.015, 0.015]);
        assert_eq!(creeping.iter().filter(|&&l| l == Look::Afresh).count(), 1);
        // Creeping at 20 frames a second: looked at again before the second is out.
        let mut attention = Attention::default();
        let creeping: Vec<Look> = (0..15)
            .map(|i| {
                let t = 0.05 * f64::from(i);
                match attention.look(0.019, t) {
                    Look::UnlessSame => {
                        attention.looked(t);
                        Look::Afresh
                    }
                    look => look,
                }
            })
            .collect();
        let afresh: Vec<usize> = (0..15).filter(|&i| creeping[i] == Look::Afresh).collect();
        assert_eq!(afresh, [0, 11]);
        // Time going back (a stream restarted): looked at afresh.
        assert_eq!(looks(&mut attention, 0.2, &[0.0]), [Look::Afresh]);
    }
}
