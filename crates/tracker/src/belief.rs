//! The eyes' belief about the board: for each square, how likely it is to
//! be empty, to hold a White piece or a Black one, as log-likelihoods fused
//! from every pair of eyes; a square a hand covers is unknown, not guessed.
//!
//! Input: per-square probabilities from the colour baseline and the learned
//! detector (each floored, so that no single square's reading can outweigh
//! a whole move). Output: the score of any board, the sum of its squares'
//! log-likelihoods, which the move decoder compares across the positions
//! legal moves reach.

use shakmaty::{Bitboard, Board, Color, Square};

/// The least probability a reading gives any occupant: a square read
/// wrong costs at most `ln(1 / FLOOR)` against the truth.
pub const FLOOR: f32 = 0.03;

/// The three things a square can hold, in the order of [`SquareBelief`].
const OCCUPANTS: [Option<Color>; 3] = [None, Some(Color::White), Some(Color::Black)];

fn index(occupant: Option<Color>) -> usize {
    match occupant {
        None => 0,
        Some(Color::White) => 1,
        Some(Color::Black) => 2,
    }
}

/// Log-likelihoods of empty, White, Black on one square.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SquareBelief(pub [f32; 3]);

impl SquareBelief {
    /// From probabilities of empty, White and Black (any scale), each
    /// floored at [`FLOOR`] once normalised.
    pub fn from_probabilities(p: [f32; 3]) -> Self {
        let total: f32 = p.iter().sum();
        if !total.is_finite() || total <= 0.0 {
            return Self::default();
        }
        Self(p.map(|x| (x / total).max(FLOOR).ln()))
    }

    /// The log-likelihood of `occupant` here.
    pub fn of(self, occupant: Option<Color>) -> f32 {
        self.0[index(occupant)]
    }

    /// How much likelier than `truth` this reading found each occupant
    /// (never below 0): the eye's bias on a square whose occupant is known.
    pub fn bias_against(self, truth: Option<Color>) -> Bias {
        let true_ll = self.of(truth);
        Bias {
            truth,
            excess: self.0.map(|ll| (ll - true_ll).max(0.0)),
        }
    }

    /// This reading with the eyes' known error taken off: an occupant read
    /// over the one that stood there when the bias was learnt by no more
    /// than it was then counts as that one does (the square tells them
    /// apart no better); only what it is read over by beyond that counts
    /// for it. The error is never turned into evidence for the occupant it
    /// was made against: a rook on the picture's edge read as an empty
    /// square does not make its empty square, once it has gone, read as
    /// the rook.
    pub fn less(self, bias: Bias) -> Self {
        let true_ll = self.of(bias.truth);
        Self(std::array::from_fn(|k| {
            let over = (self.0[k] - true_ll).max(0.0);
            self.0[k] - over.min(bias.excess[k])
        }))
    }

    /// The likeliest occupant and by how much (log-likelihood) it beats the next.
    pub fn likeliest(self) -> (Option<Color>, f32) {
        let mut order = [0, 1, 2];
        order.sort_by(|&a, &b| self.0[b].total_cmp(&self.0[a]));
        (OCCUPANTS[order[0]], self.0[order[0]] - self.0[order[1]])
    }
}

/// The eyes' error on a square whose occupant was known: how much
/// likelier than that occupant they found each other one.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bias {
    truth: Option<Color>,
    excess: [f32; 3],
}

impl std::ops::Add for SquareBelief {
    type Output = Self;
    fn add(self, other: Self) -> Self {
        Self(std::array::from_fn(|k| self.0[k] + other.0[k]))
    }
}

/// One frame's belief about every square, by `Square` index.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardBelief {
    squares: [Option<SquareBelief>; 64],
}

impl Default for BoardBelief {
    fn default() -> Self {
        Self::unknown()
    }
}

impl BoardBelief {
    /// Nothing known about any square.
    pub fn unknown() -> Self {
        Self {
            squares: [None; 64],
        }
    }

    /// Every square read as `board` holds it, with probability `sure`
    /// (the rest shared by the other two occupants).
    pub fn seeing(board: &Board, sure: f32) -> Self {
        let other = (1.0 - sure) / 2.0;
        let mut belief = Self::unknown();
        for sq in Square::ALL {
            let mut p = [other; 3];
            p[index(board.color_at(sq))] = sure;
            belief.add(sq, SquareBelief::from_probabilities(p));
        }
        belief
    }

    /// Whether some square is known.
    pub fn is_informed(&self) -> bool {
        self.squares.iter().any(Option::is_some)
    }

    /// Adds a reading of `sq` (fused with any reading already there).
    pub fn add(&mut self, sq: Square, reading: SquareBelief) {
        let slot = &mut self.squares[usize::from(sq)];
        *slot = Some(slot.map_or(reading, |known| known + reading));
    }

    /// Forgets what is known of `squares` (a hand covers them).
    pub fn hide(&mut self, squares: Bitboard) {
        for sq in squares {
            self.squares[usize::from(sq)] = None;
        }
    }

    pub fn get(&self, sq: Square) -> Option<SquareBelief> {
        self.squares[usize::from(sq)]
    }

    /// The squares with a reading.
    pub fn known(&self) -> Bitboard {
        Square::ALL
            .into_iter()
            .filter(|sq| self.get(*sq).is_some())
            .collect()
    }

    /// How much likelier `to` is than `from` (log-likelihood, summed over
    /// the known squares where their occupants differ).
    pub fn gain(&self, from: &Board, to: &Board) -> f32 {
        differing(from, to)
            .into_iter()
            .filter_map(|sq| {
                let b = self.get(sq)?;
                Some(b.of(to.color_at(sq)) - b.of(from.color_at(sq)))
            })
            .sum()
    }

    /// The squares of `board` the belief reads otherwise, each with the margin
    /// of the occupant read over the one `board` holds there.
    pub fn against(&self, board: &Board) -> Vec<(Square, f32)> {
        Square::ALL
            .into_iter()
            .filter_map(|sq| {
                let b = self.get(sq)?;
                let (read, _) = b.likeliest();
                let held = board.color_at(sq);
                (read != held).then(|| (sq, b.of(read) - b.of(held)))
            })
            .collect()
    }
}

impl BoardBelief {
    /// The squares the belief reads otherwise than `board`, each by at
    /// least `margin`.
    pub fn read_otherwise(&self, board: &Board, margin: f32) -> Bitboard {
        self.against(board)
            .into_iter()
            .filter(|&(_, by)| by >= margin)
            .map(|(sq, _)| sq)
            .collect()
    }
}

/// The squares whose occupant (empty, White, Black) differs between two boards.
pub fn differing(a: &Board, b: &Board) -> Bitboard {
    (a.white() ^ b.white()) | (a.black() ^ b.black())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_error_makes_its_square_tell_nothing_never_the_opposite() {
        // A rook on the picture's edge, cut off, read as an empty square.
        let read = |p: [f32; 3]| SquareBelief::from_probabilities(p);
        let bias = read([0.95, 0.04, 0.01]).bias_against(Some(Color::White));
        let margin = |b: SquareBelief| b.of(Some(Color::White)) - b.of(None);
        // Read the same way again: the rook or its empty square, alike.
        assert!(margin(read([0.95, 0.04, 0.01]).less(bias)).abs() < 1e-6);
        // Gone, its square read empty a little less surely: still alike,
        // not the rook (the bias taken off whole made it the rook's by 1.5).
        let gone = read([0.80, 0.15, 0.05]);
        assert!(margin(gone.less(bias)).abs() < 1e-6);
        // Read as a piece more than it ever was: that counts.
        assert!(margin(read([0.2, 0.75, 0.05]).less(bias)) > 1.0);
        // Where nothing was learnt, the reading is as read.
        assert_eq!(gone.less(Bias::default()), gone);
    }

    #[test]
    fn a_floored_reading_never_costs_more_than_its_floor() {
        let sure = SquareBelief::from_probabilities([1.0, 0.0, 0.0]);
        assert_eq!(sure.likeliest().0, None);
        assert!((sure.of(Some(Color::Black)) - FLOOR.ln()).abs() < 1e-6);
        assert_eq!(
            SquareBelief::from_probabilities([f32::NAN, 1.0, 1.0]),
            SquareBelief::default()
        );
    }

    #[test]
    fn a_move_s_gain_counts_only_known_squares_that_it_changes() {
        let start = Board::default();
        let mut after = start.clone();
        let pawn = after.remove_piece_at(Square::E2).expect("a pawn on e2");
        after.set_piece_at(Square::E4, pawn);
        let mut belief = BoardBelief::unknown();
        belief.add(
            Square::E2,
            SquareBelief::from_probabilities([0.9, 0.05, 0.05]),
        );
        belief.add(
            Square::E4,
            SquareBelief::from_probabilities([0.1, 0.8, 0.1]),
        );
        belief.add(
            Square::A8,
            SquareBelief::from_probabilities([0.9, 0.05, 0.05]),
        );
        assert!(belief.gain(&start, &after) > 3.0);
        belief.hide(Bitboard::from_square(Square::E4));
        let one_square = belief.gain(&start, &after);
        assert!((one_square - (0.9f32.ln() - 0.05f32.ln())).abs() < 1e-5);
        assert_eq!(belief.against(&start).len(), 2, "e2 and a8 read otherwise");
    }
}
