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
//! - a picture just gone still, or one a move is being read from, is the
//!   game's: the few frames of a board held still briefly are what the
//!   move is read from, and following the camera between them, by a pixel
//!   or two, shifts every square's reading; the eyes try only once the
//!   picture has stood [`SETTLE_SECONDS`] with no move read from it;
//! - and at most every [`REALIGN_EVERY_SECONDS`].

use referee_vision::BoardReading;
use shakmaty::Bitboard;

/// How often (seconds, at most) the eyes try following the camera while
/// squares stay changed on a still picture.
pub const REALIGN_EVERY_SECONDS: f64 = 0.5;

/// How long (seconds) a picture must have stood still, no move being read
/// from it, before the eyes try following the camera.
pub const SETTLE_SECONDS: f64 = 0.15;

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
    /// Since when the picture has stood still, when it has.
    still_since: Option<f64>,
}

impl Default for Following {
    fn default() -> Self {
        Self {
            tried_at: f64::NEG_INFINITY,
            failed_on: None,
            handled: Bitboard::EMPTY,
            still_since: None,
        }
    }
}

impl Following {
    /// Whether the eyes try on the frame read as `reading`, taken at `t`
    /// (`deciding`: a move is being read from the board); when they do,
    /// the try is counted. Asked every frame.
    pub fn try_now(&mut self, reading: &BoardReading, t: f64, deciding: bool) -> bool {
        self.still_since = reading.still().then(|| self.still_since.unwrap_or(t));
        let settled = self
            .still_since
            .is_some_and(|since| t - since >= SETTLE_SECONDS - 1e-6);
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
        let worth = settled && !deciding && reading.differs() && unexplained && moved_on && due;
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
    use referee_vision::Heads;
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
            picture_motion: 0.0,
            square_motion: [0.0; 64],
            head: Heads::default(),
            beyond_motion: [0.0; 64],
        }
    }

    /// Whether the eyes try on `reading` at `t`, the picture still since
    /// `t - 0.2` (its first still frame seen then, not tried on).
    fn settled_try(following: &mut Following, reading: &BoardReading, t: f64) -> bool {
        following.still_since.get_or_insert(t - 0.2);
        following.try_now(reading, t, false)
    }

    #[test]
    fn a_change_where_a_hand_has_been_is_the_hands_not_the_cameras() {
        let mut following = Following::default();
        following.hands_over(Bitboard::from(Square::E2) | Bitboard::from(Square::E4));
        // e2 lifted, the hand gone: nothing to follow.
        assert!(!settled_try(
            &mut following,
            &still(&[Square::E2], 40.0),
            1.0
        ));
        // A square no hand went near changed too: the camera may have moved.
        let h8 = still(&[Square::E2, Square::H8], 40.0);
        assert!(settled_try(&mut following, &h8, 2.0));
        // Once the move is read, the hand's squares are news again.
        following.accepted();
        assert!(settled_try(
            &mut following,
            &still(&[Square::E2], 40.0),
            3.0
        ));
    }

    #[test]
    fn a_board_gone_still_is_the_moves_to_read_before_the_cameras_to_follow() {
        let mut following = Following::default();
        let moved = still(&[Square::H7, Square::H6], 40.0);
        // The first still frame, and those a move is being read from.
        assert!(!following.try_now(&moved, 6.1, false));
        assert!(!following.try_now(&moved, 6.2, true));
        assert!(!following.try_now(&moved, 6.3, true));
        // Nothing read from it once it stood a while: the camera may have
        // moved.
        assert!(following.try_now(&moved, 6.4, false));
        following.followed();
        // Motion starts the wait afresh.
        let mut moving = moved.clone();
        moving.motion = 5.0;
        assert!(!following.try_now(&moving, 7.0, false));
        assert!(!following.try_now(&moved, 7.1, false));
        assert!(following.try_now(&moved, 7.25, false));
    }

    #[test]
    fn a_picture_failed_on_is_tried_again_once_it_moved_on() {
        let mut following = Following::default();
        let mut tries = |reading: &BoardReading, t| settled_try(&mut following, reading, t);
        assert!(tries(&still(&[Square::A1], 30.0), 0.0));
        // The same picture, after the pause: it would fail again.
        assert!(!tries(&still(&[Square::A1], 31.0), 1.0));
        // A drifting camera: the difference grows.
        assert!(tries(&still(&[Square::A1], 33.5), 2.0));
        // Not twice within REALIGN_EVERY_SECONDS, whatever the picture.
        assert!(!tries(&still(&[Square::A1, Square::B1], 60.0), 2.1));
        // The whole board shifted a little, no square standing out.
        let mut shifted = still(&[], 0.0);
        shifted.scores = [9.0; 64];
        assert!(tries(&shifted, 3.0));
        // A moving picture is never matched.
        let mut moving = still(&[Square::C3], 50.0);
        moving.motion = 5.0;
        assert!(!tries(&moving, 9.0));
    }
}
