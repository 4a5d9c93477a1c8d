//! When the eyes try following the camera (`Eyes::realign`, a few phase
//! correlations of the board: many times a frame's decode). Only a still
//! picture unlike the accepted one can show the camera moved, and not every
//! such picture is worth a try:
//!
//! - squares changed only where a hand has been since the eyes last
//!   accepted a picture are the hand's doing (a piece lifted, set down, a
//!   move half made), not the camera's; a camera that moved changes squares
//!   no hand went near, or every square a little;
//! - a picture the eyes just failed on fails again: they try again once a
//!   square's difference from the accepted picture has moved on (a camera
//!   drifting goes on changing it);
//! - and at most every [`REALIGN_EVERY_SECONDS`].

use referee_vision::BoardReading;
use shakmaty::Bitboard;

/// How often (seconds, at most) the eyes try following the camera while
/// squares stay changed on a still picture.
pub const REALIGN_EVERY_SECONDS: f64 = 0.5;

/// How much a square's difference from the accepted picture (its change
/// score, mean Lab difference) must have moved since the eyes last failed
/// to follow the camera for them to try again.
pub const REALIGN_AFTER_CHANGE: f32 = 2.0;

/// Decides, frame by frame, whether the eyes try following the camera.
#[derive(Debug, Clone)]
pub struct Following {
    /// When they last tried (seconds of the stream).
    tried_at: f64,
    /// Each square's change score when that try failed; `None` once the
    /// picture or the corners changed otherwise.
    failed_on: Option<[f32; 64]>,
    /// Squares a hand covered since the eyes last accepted a picture.
    handled: Bitboard,
}

impl Default for Following {
    fn default() -> Self {
        Self {
            tried_at: f64::NEG_INFINITY,
            failed_on: None,
            handled: Bitboard::EMPTY,
        }
    }
}

impl Following {
    /// Whether the eyes try on the frame read as `reading`, taken at `t`;
    /// when they do, the try is counted.
    pub fn try_now(&mut self, reading: &BoardReading, t: f64) -> bool {
        let changed = Bitboard(reading.changed);
        // Squares changed where no hand was, or none standing out (the
        // whole board shifted a little).
        let unexplained = changed.is_empty() || !(changed & !self.handled).is_empty();
        let moved_on = self.failed_on.is_none_or(|then| {
            then.iter()
                .zip(&reading.scores)
                .any(|(a, b)| (a - b).abs() >= REALIGN_AFTER_CHANGE)
        });
        let due = t - self.tried_at >= REALIGN_EVERY_SECONDS;
        let worth = reading.still() && reading.differs() && unexplained && moved_on && due;
        if worth {
            self.tried_at = t;
            self.failed_on = Some(reading.scores);
        }
        worth
    }

    /// The try succeeded: the corners moved, the picture with them.
    pub fn followed(&mut self) {
        self.failed_on = None;
    }

    /// A hand covers `squares` on this frame.
    pub fn hands_over(&mut self, squares: Bitboard) {
        self.handled |= squares;
    }

    /// The eyes accepted a picture (a move read): what differs from it is
    /// new.
    pub fn accepted(&mut self) {
        self.failed_on = None;
        self.handled = Bitboard::EMPTY;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    /// A still frame whose `changed` squares differ from the accepted
    /// picture by `score`, the others by 1.
    fn still(changed: &[Square], score: f32) -> BoardReading {
        let mut scores = [1.0; 64];
        for &sq in changed {
            scores[usize::from(sq)] = score;
        }
        BoardReading {
            occupancy: [None; 64],
            colours: [[1.0, 0.0, 0.0]; 64],
            changed: changed
                .iter()
                .fold(0, |bits, &sq| bits | 1 << usize::from(sq)),
            scores,
            motion: 0.0,
            square_motion: [0.0; 64],
        }
    }

    #[test]
    fn a_change_where_a_hand_has_been_is_the_hands_not_the_cameras() {
        let mut following = Following::default();
        following.hands_over(Bitboard::from(Square::E2) | Bitboard::from(Square::E4));
        // e2 lifted, the hand gone: nothing to follow.
        assert!(!following.try_now(&still(&[Square::E2], 40.0), 1.0));
        // A square no hand went near changed too: the camera may have moved.
        assert!(following.try_now(&still(&[Square::E2, Square::H8], 40.0), 2.0));
        // Once the move is read, the hand's squares are news again.
        following.accepted();
        assert!(following.try_now(&still(&[Square::E2], 40.0), 3.0));
    }

    #[test]
    fn a_picture_failed_on_is_tried_again_once_it_moved_on() {
        let mut following = Following::default();
        assert!(following.try_now(&still(&[Square::A1], 30.0), 0.0));
        // The same picture, after the pause: it would fail again.
        assert!(!following.try_now(&still(&[Square::A1], 31.0), 1.0));
        // A drifting camera: the difference grows.
        assert!(following.try_now(&still(&[Square::A1], 33.5), 2.0));
        // Not twice within REALIGN_EVERY_SECONDS, whatever the picture.
        assert!(!following.try_now(&still(&[Square::A1, Square::B1], 60.0), 2.1));
        // The whole board shifted a little, no square standing out.
        let mut shifted = still(&[], 0.0);
        shifted.scores = [9.0; 64];
        assert!(following.try_now(&shifted, 3.0));
        // A moving picture is never matched.
        let mut moving = still(&[Square::C3], 50.0);
        moving.motion = 5.0;
        assert!(!following.try_now(&moving, 9.0));
    }
}
