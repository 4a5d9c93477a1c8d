//! How evenly the frames come: a camera sends them at its rate (or the
//! service's even share of it), and frames dropped under load leave wider
//! gaps. Moves read as a run from one still picture are put in the order
//! the frames between showed; where frames were dropped meanwhile, that
//! order was not seen, and the run is marked recovered.

/// A gap between two frames this many times the usual one means frames
/// were dropped.
pub const DROPPED_RATIO: f64 = 1.8;

/// The usual gap between frames (seconds) past which a piece may go to a
/// square and on to another between two frames still enough to read: a
/// still board takes two frames ([`crate::DECIDE_FRAMES`]).
pub const SPARSE_GAP: f64 = 0.15;

/// How fast the usual gap follows a wider one (a lower even rate set by
/// the service under load): its share each frame.
const WIDEN_SHARE: f64 = 0.05;

/// The frames' spacing, and whether frames were dropped since a move was
/// last read.
#[derive(Debug, Clone, Default)]
pub struct Cadence {
    /// The usual gap between frames (seconds): the narrowest seen, widened
    /// slowly towards wider ones.
    usual: Option<f64>,
    dropped: bool,
}

impl Cadence {
    /// A frame came `gap` seconds after the one before.
    pub fn frame(&mut self, gap: f64) {
        if gap <= 0.0 {
            return;
        }
        let usual = self.usual.get_or_insert(gap);
        if gap > DROPPED_RATIO * *usual {
            self.dropped = true;
        }
        *usual = if gap < *usual {
            gap
        } else {
            *usual + WIDEN_SHARE * (gap - *usual)
        };
    }

    /// Whether the frames come too far apart ([`SPARSE_GAP`]) for every
    /// still moment between two moves to be seen.
    pub fn sparse(&self) -> bool {
        self.usual.is_some_and(|usual| usual > SPARSE_GAP)
    }

    /// Whether frames were dropped since a move was last read.
    pub fn dropped(&self) -> bool {
        self.dropped
    }

    /// A move was read: the count starts again.
    pub fn move_read(&mut self) {
        self.dropped = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_dropped_are_told_from_an_even_rate_however_low() {
        let mut cadence = Cadence::default();
        for _ in 0..20 {
            cadence.frame(0.1);
        }
        assert!(!cadence.dropped(), "10 frames a second, evenly");
        cadence.frame(0.5);
        assert!(cadence.dropped(), "four frames missing");
        cadence.move_read();
        // The service takes the camera to 1 in 3: once the usual gap has
        // followed, even frames are no drops.
        for _ in 0..60 {
            cadence.frame(0.3);
        }
        cadence.move_read();
        for _ in 0..20 {
            cadence.frame(0.3);
        }
        assert!(!cadence.dropped(), "3.3 frames a second, evenly");
        assert!(cadence.sparse(), "too far apart to see every still moment");
    }

    #[test]
    fn ten_frames_a_second_see_every_still_moment() {
        let mut cadence = Cadence::default();
        for _ in 0..20 {
            cadence.frame(0.1);
        }
        assert!(!cadence.sparse());
    }
}
