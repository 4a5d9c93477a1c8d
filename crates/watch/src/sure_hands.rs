//! Hands the real-hand models miss, read from the detector's hand map: on
//! real footage a hand the picture's edge cuts is not followed (the palm
//! model scores it under its threshold), yet the detector reads a hand over
//! those squares. It learnt hands on renders, so on a real board it also
//! reads a piece leaning at the picture's edge as a hand, less surely and
//! the same way on every frame: a square counts as covered only where the
//! detector is sure of a hand and surer than it was on that square when the
//! board was last known to hold the table there (the square and its
//! neighbours as the eyes accepted them, [`settled`]). And a hand reaches in from
//! outside the board: such squares that no chain of them joins to the
//! board's edge are no hand.
//!
//! The same test tells where the detector's reading of a square's occupant
//! is heard on real footage: set aside where it reads a hand at all
//! ([`referee_vision::HAND_THRESHOLD`]) only if that is more than the square
//! showed on the known board (a carved rook read as a hand on every frame
//! is still read as the rook it is).
//!
//! Input: the detector's readings of still frames; the squares the table
//! is known on in each. Output: the squares a hand surely covers; those
//! where the detector reads a hand beyond the usual.

use referee_vision::{Detection, Orientation, SURE_HAND_THRESHOLD, patch_around};
use shakmaty::{Bitboard, Square, attacks};

/// How much surer (log-odds) than on the known board the detector must be
/// of a hand over a square: about three times the odds.
pub const SURER_BY: f32 = 1.0;

/// What the detector's hand map showed on each square (by `Square` index)
/// when the board was last known, as log-odds.
#[derive(Debug, Clone, PartialEq)]
pub struct SureHands {
    usual: [Option<f32>; 64],
}

impl Default for SureHands {
    fn default() -> Self {
        Self { usual: [None; 64] }
    }
}

/// The log-odds of a probability, kept finite.
fn log_odds(p: f32) -> f32 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    (p / (1.0 - p)).ln()
}

fn hand_at(detection: &Detection, orientation: Orientation, sq: Square) -> f32 {
    detection
        .square(orientation, usize::from(sq.file()), usize::from(sq.rank()))
        .hand
}

/// The squares whose picture, and every neighbour's, is as the eyes
/// accepted it: the table is known there. The detector reads a cell with
/// its neighbours in view, so what it reads of hands there is usual only
/// where none of them changed (a king gone from c3 to d4, lying across to
/// e5, may leave d4's colours as they were, but not c3's).
pub fn settled(changed: Bitboard) -> Bitboard {
    !changed
        .into_iter()
        .fold(changed, |around, sq| around | attacks::king_attacks(sq))
}

impl SureHands {
    /// The detection was of a frame known to show the table on `squares`
    /// (the first still frame where no hand covers it; each still frame
    /// after, where it is [`settled`]): its hand map there is what those
    /// squares usually show.
    pub fn learn(&mut self, detection: &Detection, orientation: Orientation, squares: Bitboard) {
        for sq in squares {
            self.usual[usize::from(sq)] = Some(log_odds(hand_at(detection, orientation, sq)));
        }
    }

    /// The squares a hand surely covers in `detection`.
    pub fn covered(&self, detection: &Detection, orientation: Orientation) -> Bitboard {
        let sure = self.beyond_usual(detection, orientation, SURE_HAND_THRESHOLD);
        // Joined to the board's edge, square by neighbouring square: the
        // shape of an arm reaching in.
        patch_around(sure & Bitboard::EDGES, sure)
    }

    /// The squares where `detection` reads a hand with at least `threshold`
    /// probability and surer by [`SURER_BY`] than on the known board there.
    pub fn beyond_usual(
        &self,
        detection: &Detection,
        orientation: Orientation,
        threshold: f32,
    ) -> Bitboard {
        Square::ALL
            .into_iter()
            .filter(|&sq| {
                let hand = hand_at(detection, orientation, sq);
                hand >= threshold
                    && self.usual[usize::from(sq)]
                        .is_none_or(|usual| log_odds(hand) >= usual + SURER_BY)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_vision::{CellReading, HAND_THRESHOLD};

    const O: Orientation = Orientation::WhiteBottom;

    /// The rectified cell of `sq`, the board lying [`O`].
    fn cell(sq: Square) -> usize {
        O.cell(usize::from(sq.file()), usize::from(sq.rank()))
    }

    /// A detection whose hand map is `hand` on each rectified cell.
    fn detection(hand: impl Fn(usize) -> f32) -> Detection {
        Detection {
            cells: std::array::from_fn(|cell| CellReading {
                classes: [0.0; 13],
                hand: hand(cell),
                touch: 0.0,
            }),
            hand_present: 0.0,
            features: Vec::new(),
            feature_len: 0,
        }
    }

    #[test]
    fn a_hand_is_sure_where_the_detector_is_surer_than_on_the_known_board() {
        // A bishop leaning at the picture's edge reads as a hand, 0.91.
        let known = detection(|c| if c == cell(Square::F1) { 0.91 } else { 0.05 });
        let mut hands = SureHands::default();
        assert_eq!(hands.covered(&known, O), Bitboard::from_square(Square::F1));
        hands.learn(&known, O, Bitboard::FULL);
        assert!(hands.covered(&known, O).is_empty(), "the bishop is no hand");
        // A hand comes over e1 and f1.
        let hand = detection(|c| match c {
            c if c == cell(Square::E1) => 0.99,
            c if c == cell(Square::F1) => 0.98,
            c if c == cell(Square::D1) => 0.6,
            _ => 0.05,
        });
        assert_eq!(
            hands.covered(&hand, O),
            Bitboard::from_square(Square::E1) | Bitboard::from_square(Square::F1)
        );
    }

    #[test]
    fn a_hand_reaches_in_from_the_boards_edge() {
        let sure = |squares: &[Square]| {
            let cells: Vec<usize> = squares.iter().map(|&sq| cell(sq)).collect();
            detection(move |c| if cells.contains(&c) { 0.97 } else { 0.05 })
        };
        let hands = SureHands::default();
        // An arm from White's side over d1, d2 and e3.
        let arm = [Square::D1, Square::D2, Square::E3];
        assert_eq!(
            hands.covered(&sure(&arm), O),
            arm.into_iter().collect::<Bitboard>()
        );
        // A pawn just set down on c4, its square new to the detector, and
        // the arm: only the arm.
        let with_c4 = [Square::D1, Square::D2, Square::E3, Square::C4];
        assert_eq!(
            hands.covered(&sure(&with_c4), O),
            arm.into_iter().collect::<Bitboard>()
        );
        assert!(hands.covered(&sure(&[Square::C4]), O).is_empty());
    }

    #[test]
    fn a_square_is_settled_where_neither_it_nor_a_neighbour_changed() {
        // A king gone from c3: c3 and every square around it are not.
        let around_c3 = settled(Bitboard::from_square(Square::C3));
        for sq in [Square::C3, Square::D4, Square::B2, Square::D2, Square::C4] {
            assert!(!around_c3.contains(sq), "{sq}");
        }
        for sq in [Square::E4, Square::C1, Square::A5] {
            assert!(around_c3.contains(sq), "{sq}");
        }
        assert_eq!(settled(Bitboard::EMPTY), Bitboard::FULL);
    }

    #[test]
    fn a_piece_read_as_a_hand_as_usual_is_no_hand_over_its_square() {
        // A carved rook on c1 reads as a hand, 0.3, on the known board.
        let known = detection(|c| if c == cell(Square::C1) { 0.3 } else { 0.01 });
        let mut hands = SureHands::default();
        hands.learn(&known, O, Bitboard::FULL);
        // A king set down on d4, lying towards e5, reads as a hand too.
        let now = detection(|c| match c {
            c if c == cell(Square::C1) => 0.4,
            c if c == cell(Square::D4) => 0.31,
            _ => 0.01,
        });
        assert_eq!(
            hands.beyond_usual(&now, O, HAND_THRESHOLD),
            Bitboard::from_square(Square::D4)
        );
        // Before any board was known, every hand read counts.
        assert_eq!(
            SureHands::default().beyond_usual(&now, O, HAND_THRESHOLD),
            Bitboard::from_square(Square::C1) | Bitboard::from_square(Square::D4)
        );
    }
}
