//! One frame's belief about the board, fused from both pairs of eyes: the
//! colour baseline's likelihoods on every frame, and the learned
//! detector's where it ran, adapted to this board, set and light by a
//! venue model learnt on the game's known positions. Squares a hand covers
//! are unknown.
//!
//! Input: the colours' probabilities by square, the detector's reading,
//! the squares hands cover, the position the table holds. Output: the
//! tracker's [`BoardBelief`].

use referee_tracker::{Bias, BoardBelief, RESIDUE_MARGIN, SquareBelief};
use referee_vision::{Detection, Orientation, VenueModel, known_cells};
use shakmaty::{Bitboard, Board, Square};

/// The belief's eyes, and what they have learnt of this venue.
#[derive(Debug)]
pub struct Fusion {
    venue: Option<VenueModel>,
    /// Each pair of eyes' bias on each square (by `Square` index): how
    /// much more likely than the truth it found each occupant the last
    /// time the square's occupant was known (a neighbour leaning over it,
    /// a streak in the wood). Taken off what it reads there since.
    colour_bias: [Bias; 64],
    detector_bias: [Bias; 64],
}

impl Default for Fusion {
    fn default() -> Self {
        Self {
            venue: None,
            colour_bias: [Bias::default(); 64],
            detector_bias: [Bias::default(); 64],
        }
    }
}

/// One frame's readings by each pair of eyes, by `Square` index (`None`:
/// not read there).
#[derive(Debug, Clone)]
pub struct Readings {
    colours: [SquareBelief; 64],
    detector: [Option<SquareBelief>; 64],
}

/// The rectified cell of `sq` when the board lies `orientation`.
fn cell_of(sq: Square, orientation: Orientation) -> usize {
    orientation.cell(usize::from(sq.file()), usize::from(sq.rank()))
}

impl Readings {
    /// The colours' probabilities by square index, and the detector's
    /// reading where it ran (adapted to the venue once learnt), but on the
    /// squares where it is `unheard` (a hand over them).
    pub fn new(
        fusion: &Fusion,
        colours: &[[f32; 3]; 64],
        detection: Option<&Detection>,
        orientation: Orientation,
        unheard: Bitboard,
    ) -> Self {
        let adapted = detection.and_then(|d| fusion.venue.as_ref().map(|v| v.adapt(d)));
        let detection = adapted.as_ref().or(detection);
        Self {
            colours: colours.map(SquareBelief::from_probabilities),
            detector: std::array::from_fn(|index| {
                let sq = Square::new(index as u32);
                let cell = &detection?.cells[cell_of(sq, orientation)];
                (!unheard.contains(sq))
                    .then(|| SquareBelief::from_probabilities(cell.occupant_probabilities()))
            }),
        }
    }
}

impl Fusion {
    /// Whether the venue has been learnt.
    pub fn knows_venue(&self) -> bool {
        self.venue.is_some()
    }

    /// Learns the venue from a detection of a still picture known to show
    /// `table`, but on the squares where its reading is `unheard` (a hand
    /// over them): calibrated on the first, taught by each later one.
    pub fn learn(
        &mut self,
        detection: &Detection,
        orientation: Orientation,
        table: &Board,
        unheard: Bitboard,
    ) {
        let known = known_cells(table, orientation, !unheard);
        match &mut self.venue {
            Some(model) => model.learn(detection, &known),
            None => self.venue = VenueModel::calibrate(detection, &known),
        }
    }

    /// The frame read as `readings` is known to show `table` on `squares`:
    /// each pair of eyes' bias there is learnt afresh.
    pub fn confirm(&mut self, readings: &Readings, table: &Board, squares: Bitboard) {
        for sq in squares {
            let (i, truth) = (usize::from(sq), table.color_at(sq));
            self.colour_bias[i] = readings.colours[i].bias_against(truth);
            if let Some(read) = readings.detector[i] {
                self.detector_bias[i] = read.bias_against(truth);
            }
        }
    }

    /// Moves were recovered on the frame read as `readings` (read from
    /// the still board, not seen made): the board holds `table` where no
    /// hand `covers` it, as far as the eyes can tell. Their bias is learnt
    /// afresh there, but where they read it otherwise: the way recovered
    /// may have gone elsewhere (a knight left on c3 that went on to d5),
    /// or a move was made since; learnt as the eyes' error, the square
    /// would read as the record has it from then on, and nobody would see
    /// the difference.
    pub fn confirm_recovered(&mut self, readings: &Readings, table: &Board, covered: Bitboard) {
        let disputed = self
            .belief(readings, covered)
            .read_otherwise(table, RESIDUE_MARGIN);
        self.confirm(readings, table, !covered & !disputed);
    }

    /// The belief of one frame: what each pair of eyes read, less its bias
    /// on each square, nothing on `covered`.
    pub fn belief(&self, readings: &Readings, covered: Bitboard) -> BoardBelief {
        let mut belief = BoardBelief::unknown();
        for sq in Square::ALL {
            let i = usize::from(sq);
            belief.add(sq, readings.colours[i].less(self.colour_bias[i]));
            if let Some(read) = readings.detector[i] {
                belief.add(sq, read.less(self.detector_bias[i]));
            }
        }
        belief.hide(covered);
        belief
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;
    use shakmaty::{Chess, Color, Position};

    /// The position after `moves` (UCI) from the start.
    fn after(moves: &[&str]) -> Chess {
        moves.iter().fold(Chess::default(), |pos, uci| {
            let m = uci
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&pos)
                .expect("legal");
            pos.play(m).expect("legal")
        })
    }

    #[test]
    fn a_square_misread_the_same_way_as_when_known_is_no_evidence_of_a_change() {
        // The colours read h3 as holding a White piece while it is empty.
        let misread = [0.1, 0.85, 0.05];
        let mut colours = [[0.9, 0.05, 0.05]; 64];
        colours[usize::from(Square::H3)] = misread;
        let readings = Readings {
            colours: colours.map(SquareBelief::from_probabilities),
            detector: [None; 64],
        };
        let mut fusion = Fusion::default();
        let empty = Board::empty();
        let belief = fusion.belief(&readings, Bitboard::EMPTY);
        assert_eq!(
            belief.get(Square::H3).map(|b| b.likeliest().0),
            Some(Some(Color::White))
        );
        fusion.confirm(&readings, &empty, Bitboard::FULL);
        let belief = fusion.belief(&readings, Bitboard::EMPTY);
        let h3 = belief.get(Square::H3).expect("read");
        assert_eq!(h3.likeliest().0, None, "the bias is taken off");
        assert!(h3.of(Some(Color::White)) - h3.of(None) <= 1e-6);
    }

    #[test]
    fn moves_recovered_teach_no_bias_where_the_eyes_read_the_board_otherwise() {
        // e2-e4 recovered; a2-a3 made since and seen, not read yet.
        let table = after(&["e2e4"]);
        let board = after(&["e2e4", "e7e5", "a2a3"]);
        let seen = BoardBelief::seeing(board.board(), 0.9);
        let readings = Readings {
            colours: std::array::from_fn(|i| seen.get(Square::new(i as u32)).expect("read")),
            detector: [None; 64],
        };
        let mut fusion = Fusion::default();
        fusion.confirm_recovered(&readings, table.board(), Bitboard::EMPTY);
        let belief = fusion.belief(&readings, Bitboard::EMPTY);
        let read = |sq| belief.get(sq).map(|b| b.likeliest().0);
        assert_eq!(read(Square::A3), Some(Some(Color::White)), "a3 still seen");
        assert_eq!(read(Square::A2), Some(None));
        assert_eq!(read(Square::E7), Some(None), "e7-e5 still seen");
        assert_eq!(read(Square::E4), Some(Some(Color::White)));
    }
}
