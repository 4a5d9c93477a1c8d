//! One frame's belief about the board, fused from both pairs of eyes: the
//! colour baseline's likelihoods on every frame, and the learned
//! detector's where it ran, adapted to this board, set and light by a
//! venue model learnt on the game's known positions. Squares a hand covers
//! are unknown.
//!
//! Input: the colours' probabilities by square, the detector's reading,
//! the squares hands cover, the position the table holds. Output: the
//! tracker's [`BoardBelief`].

use referee_tracker::{BoardBelief, SquareBelief};
use referee_vision::{Detection, HAND_THRESHOLD, Occupant, Orientation, VenueModel};
use shakmaty::{Bitboard, Board, Color, Square};

/// The belief's eyes, and what they have learnt of this venue.
#[derive(Debug, Default)]
pub struct Fusion {
    venue: Option<VenueModel>,
}

/// The rectified cell of `sq` when the board lies `orientation`.
fn cell_of(sq: Square, orientation: Orientation) -> usize {
    orientation.cell(usize::from(sq.file()), usize::from(sq.rank()))
}

impl Fusion {
    /// Whether the venue has been learnt.
    pub fn knows_venue(&self) -> bool {
        self.venue.is_some()
    }

    /// Learns the venue from a detection of a still picture known to show
    /// `table`, on the squares no hand covers.
    pub fn learn(
        &mut self,
        detection: &Detection,
        orientation: Orientation,
        table: &Board,
        covered: Bitboard,
    ) {
        let mut known = [None; 64];
        for sq in !covered {
            known[cell_of(sq, orientation)] = Some(match table.color_at(sq) {
                None => Occupant::Empty,
                Some(Color::White) => Occupant::White,
                Some(Color::Black) => Occupant::Black,
            });
        }
        if let Some(model) = VenueModel::calibrate(detection, &known) {
            self.venue = Some(model);
        }
    }

    /// The belief of one frame: the colours' reading of every square (by
    /// square index), the detector's where it ran (adapted to the venue
    /// once learnt) and no hand is over the cell, nothing on `covered`.
    pub fn belief(
        &self,
        colours: &[[f32; 3]; 64],
        detection: Option<&Detection>,
        orientation: Orientation,
        covered: Bitboard,
    ) -> BoardBelief {
        let mut belief = BoardBelief::unknown();
        for sq in Square::ALL {
            belief.add(sq, SquareBelief::from_probabilities(colours[usize::from(sq)]));
        }
        if let Some(detection) = detection {
            let adapted = self.venue.as_ref().map(|v| v.adapt(detection));
            let detection = adapted.as_ref().unwrap_or(detection);
            for sq in Square::ALL {
                let cell = &detection.cells[cell_of(sq, orientation)];
                if cell.hand >= HAND_THRESHOLD {
                    continue;
                }
                let empty = cell.classes[0];
                let white: f32 = cell.classes[1..7].iter().sum();
                let black: f32 = cell.classes[7..13].iter().sum();
                belief.add(sq, SquareBelief::from_probabilities([empty, white, black]));
            }
        }
        belief.hide(covered);
        belief
    }
}
