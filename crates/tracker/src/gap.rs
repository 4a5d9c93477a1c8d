//! A gap in the record: the still board has read, over [`RECORD_GAP_SECONDS`], as
//! a position that neither the table nor any continuation the decoder
//! searches (the deep search included) explains. Moves are then missing
//! from the record, or one read is wrong, and only the arbiter can tell
//! which: the gap is raised once, for the arbiter's look, until a move is
//! read again.

use shakmaty::Bitboard;

/// How long the still board must read unexplained, counted from the first
/// still frame that did (moving frames between do not stop the count; a
/// still frame the table explains does), before the gap is raised: several
/// deep searches ([`crate::RECOVER_SECONDS`] apart) have failed by then.
pub const RECORD_GAP_SECONDS: f64 = 6.0;

/// A gap raised: since when the board has read unexplained, and the
/// squares it reads otherwise than the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gap {
    pub since: f64,
    pub t: f64,
    pub squares: Bitboard,
}

/// Follows whether the record explains the still board.
#[derive(Debug, Clone, Default)]
pub struct GapWatch {
    unexplained_since: Option<f64>,
    /// Since when every still frame has read unexplained, whatever the
    /// decoder is bearing out, and the squares the last read otherwise.
    last_seen: Option<(f64, Bitboard)>,
    raised: bool,
}

impl GapWatch {
    /// A still frame at `t` the table explains (`squares` empty) or does
    /// not (`squares`: read otherwise); the gap when it is to be raised.
    pub fn still(&mut self, t: f64, squares: Bitboard) -> Option<Gap> {
        if squares.is_empty() {
            self.unexplained_since = None;
            return None;
        }
        let since = *self.unexplained_since.get_or_insert(t);
        if self.raised || t - since < RECORD_GAP_SECONDS {
            return None;
        }
        self.raised = true;
        Some(Gap { since, t, squares })
    }

    /// Every still frame at `t`, with the squares it reads otherwise when
    /// the record does not explain it (empty when it does), whether or not
    /// a decision is being borne out.
    pub fn seen(&mut self, t: f64, squares: Bitboard) {
        self.last_seen = match self.last_seen {
            _ if squares.is_empty() => None,
            Some((since, _)) => Some((since, squares)),
            None => Some((t, squares)),
        };
    }

    /// Nobody watches any more (the camera's stream ended) at `t`, the
    /// still board last read unexplained: the gap, raised now, as no later
    /// frame will raise it.
    pub fn left_open(&mut self, t: f64) -> Option<Gap> {
        let (since, squares) = self.last_seen.filter(|_| !self.raised)?;
        self.raised = true;
        Some(Gap { since, t, squares })
    }

    /// A move was read (or the record corrected): the count starts again.
    pub fn clear(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;

    use super::*;

    #[test]
    fn a_gap_is_raised_once_after_it_has_lasted_and_again_after_a_move() {
        let off = Bitboard::from(Square::E4) | Bitboard::from(Square::E2);
        let mut gap = GapWatch::default();
        assert_eq!(gap.still(1.0, off), None);
        assert_eq!(gap.still(4.0, Bitboard::EMPTY), None, "explained again");
        assert_eq!(gap.still(5.0, off), None);
        let raised = gap.still(5.0 + RECORD_GAP_SECONDS, off).expect("raised");
        assert_eq!((raised.since, raised.squares), (5.0, off));
        assert_eq!(gap.still(20.0, off), None, "raised once");
        gap.clear();
        assert_eq!(gap.still(21.0, off), None);
        assert!(gap.still(21.0 + RECORD_GAP_SECONDS, off).is_some());
    }

    #[test]
    fn a_gap_still_open_when_nobody_watches_any_more_is_raised_then() {
        let off = Bitboard::from(Square::E4) | Bitboard::from(Square::E2);
        let mut gap = GapWatch::default();
        gap.seen(1.0, off);
        gap.seen(1.5, off);
        let raised = gap.left_open(2.0).expect("raised at the end");
        assert_eq!((raised.since, raised.t, raised.squares), (1.0, 2.0, off));
        assert_eq!(gap.left_open(3.0), None, "raised once");
        let mut explained = GapWatch::default();
        explained.seen(1.0, off);
        explained.seen(2.0, Bitboard::EMPTY);
        assert_eq!(
            explained.left_open(3.0),
            None,
            "the table explains the board"
        );
    }
}
