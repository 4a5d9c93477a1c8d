//! A gap in the record: the still board has read, over [`RECORD_GAP_SECONDS`], as
//! a position that neither the table nor any continuation the decoder
//! searches (the deep search included) explains. Moves are then missing
//! from the record, or one read is wrong, and only the arbiter can tell
//! which: the gap is raised once, for the arbiter's look, until a move is
//! read again. A stream that ends raises it too where its last frames, none
//! still, left squares changed that no move read explains (and, from the
//! still decision, where its last still board read as moves on from the
//! table by ways none of which stood out: `StillDecision::left_unread`).

use shakmaty::Bitboard;

/// How long the still board must read unexplained, counted from the first
/// still frame that did (moving frames between do not stop the count; a
/// still frame the table explains does), before the gap is raised: several
/// deep searches ([`crate::RECOVER_SECONDS`] apart) have failed by then.
pub const RECORD_GAP_SECONDS: f64 = 6.0;

/// How long the same squares must have read changed on the frames with no
/// hand over the board, none of them still, for a stream's end to raise
/// the gap (seconds): a move made and never shown on a still frame (at a
/// low rate, a hand leaving or at the clock moves some square on every
/// frame) is missing from the record.
pub const UNSETTLED_SECONDS: f64 = 1.0;

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
    /// Since the last still frame, the frames with no hand over the board
    /// that read changed squares: since when, the squares the last read,
    /// and since when those very squares.
    unsettled: Option<Unsettled>,
    raised: bool,
}

#[derive(Debug, Clone, Copy)]
struct Unsettled {
    since: f64,
    squares: Bitboard,
    squares_since: f64,
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
        self.unsettled = None;
        self.last_seen = match self.last_seen {
            _ if squares.is_empty() => None,
            Some((since, _)) => Some((since, squares)),
            None => Some((t, squares)),
        };
    }

    /// A frame at `t` that is not still, no hand over the board, its
    /// squares `changed` from the table's picture (frames with a hand over
    /// the board neither count nor end the run).
    pub fn unsettled(&mut self, t: f64, changed: Bitboard) {
        self.unsettled = match self.unsettled {
            _ if changed.is_empty() => None,
            Some(run) if run.squares == changed => Some(run),
            Some(run) => Some(Unsettled {
                squares: changed,
                squares_since: t,
                ..run
            }),
            None => Some(Unsettled {
                since: t,
                squares: changed,
                squares_since: t,
            }),
        };
    }

    /// Nobody watches any more (the camera's stream ended) at `t`, the
    /// still board last read unexplained, or, since the last still frame,
    /// the same squares read changed for [`UNSETTLED_SECONDS`]: the gap,
    /// raised now, as no later frame will raise it.
    pub fn left_open(&mut self, t: f64) -> Option<Gap> {
        if self.raised {
            return None;
        }
        let unsettled = self
            .unsettled
            .filter(|run| t - run.squares_since >= UNSETTLED_SECONDS)
            .map(|run| (run.since, run.squares));
        let (since, squares) = self.last_seen.or(unsettled)?;
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
    fn squares_left_changed_on_frames_never_still_raise_a_gap_at_the_end() {
        let moved = Bitboard::from(Square::D7) | Bitboard::from(Square::C8);
        let mut gap = GapWatch::default();
        gap.unsettled(64.5, moved);
        gap.unsettled(65.0, moved | Bitboard::from(Square::E1));
        gap.unsettled(65.5, moved | Bitboard::from(Square::E1));
        assert_eq!(gap.clone().left_open(65.9), None, "not yet a second");
        let raised = gap.left_open(66.5).expect("a second the same");
        assert_eq!((raised.since, raised.t), (64.5, 66.5));
        assert_eq!(raised.squares, moved | Bitboard::from(Square::E1));
        let mut seen_still = GapWatch::default();
        seen_still.unsettled(1.0, moved);
        seen_still.seen(2.0, Bitboard::EMPTY);
        assert_eq!(
            seen_still.left_open(5.0),
            None,
            "a still frame explained it"
        );
        let mut back = GapWatch::default();
        back.unsettled(1.0, moved);
        back.unsettled(2.0, Bitboard::EMPTY);
        assert_eq!(back.left_open(5.0), None, "the board as the table again");
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
