//! Whether a frame is still enough to read the board: the whole picture
//! still, or, at a low frame rate, the board itself still while something
//! moves off it (a hand at the clock beside the board, an arm at the
//! picture's edge). At a low rate a hand is seldom wholly out of the
//! picture between a move's release and the clock's press: the move must
//! still be read there, as it is read between the frames of a higher rate.

use referee_vision::BoardReading;
use shakmaty::{Bitboard, Square};

/// A square whose picture changed by more than this share (percent of its
/// pixels) since the frame before is moving.
pub const MOVING_SQUARE: f32 = 1.0;

/// Frames this far apart (seconds) or more are of a low rate (5 frames a
/// second or fewer: a loaded service's even rate): there the board may be
/// read while something moves off it.
pub const LOW_RATE_INTERVAL: f64 = 0.18;

/// How a frame's picture stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stillness {
    /// Nothing moves.
    Still,
    /// Something moves, but on no square of the board, and no hand
    /// covers any: the board may be read.
    StillOnBoard,
    Moving,
}

impl Stillness {
    /// The stillness of `reading`, with `covered` the squares a hand
    /// covers, `interval` seconds after the frame before.
    pub fn of(reading: &BoardReading, covered: Bitboard, interval: f64) -> Self {
        if reading.still() {
            return Self::Still;
        }
        if interval < LOW_RATE_INTERVAL {
            return Self::Moving;
        }
        let moving = Square::ALL
            .into_iter()
            .any(|sq| reading.square_motion[usize::from(sq)] > MOVING_SQUARE);
        if reading.changed != 0 && !moving && covered.is_empty() {
            Self::StillOnBoard
        } else {
            Self::Moving
        }
    }

    /// Whether the board may be read on this frame.
    pub fn is_still(self) -> bool {
        self != Self::Moving
    }
}
