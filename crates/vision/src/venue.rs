//! Adaptation to the venue. When a game begins its position is known, so
//! its first clear frame gives 64 labelled squares of this board, this set
//! and this light. A nearest-centroid model on the detector's own per-square
//! features (a centroid each for empty, White and Black; one spread a
//! feature, pooled and shrunk towards the average spread) is calibrated
//! there and refit on each later position read with certainty, and its say
//! on each square's occupant is multiplied into the detector's
//! probabilities.
//!
//! What it gains on real photographs is measured by
//! `cargo test -p referee-vision --test venue -- --nocapture`.

use shakmaty::{Bitboard, Board};

use crate::{Detection, Occupant, Orientation};

/// How much the venue model's distances count against the detector's own
/// probabilities (its log-likelihoods are divided by the number of
/// features and multiplied by this).
pub const VENUE_WEIGHT: f32 = 4.0;
/// Share of the average spread added to each feature's own (shrinkage:
/// 64 squares do not pin down every feature's spread).
const SPREAD_SHRINK: f32 = 0.5;

const OCCUPANTS: [Occupant; 3] = [Occupant::Empty, Occupant::White, Occupant::Black];

/// The per-game model of this board's squares in the detector's features.
#[derive(Debug, Clone, PartialEq)]
pub struct VenueModel {
    learnt: Learnt,
    centroids: [Vec<f32>; 3],
    inverse_spread: Vec<f32>,
}

/// The labelled squares learnt from so far: by class, how many, and the
/// sums of their features and of their features squared.
#[derive(Debug, Clone, PartialEq)]
struct Learnt {
    counts: [usize; 3],
    sums: [Vec<f64>; 3],
    sums_of_squares: [Vec<f64>; 3],
}

impl Learnt {
    fn new(n: usize) -> Self {
        Self {
            counts: [0; 3],
            sums: std::array::from_fn(|_| vec![0.0; n]),
            sums_of_squares: std::array::from_fn(|_| vec![0.0; n]),
        }
    }

    fn add(&mut self, detection: &Detection, known: &[Option<Occupant>; 64]) {
        for (cell, occupant) in known.iter().enumerate() {
            let Some(class) = occupant.map(class_of) else {
                continue;
            };
            self.counts[class] += 1;
            let features = detection.cell_features(cell);
            for ((sum, squared), &f) in self.sums[class]
                .iter_mut()
                .zip(self.sums_of_squares[class].iter_mut())
                .zip(features)
            {
                *sum += f64::from(f);
                *squared += f64::from(f).powi(2);
            }
        }
    }

    /// Each class's centroid, and the inverse of each feature's spread
    /// about them, pooled over the classes and shrunk towards the average.
    fn fit(&self) -> ([Vec<f32>; 3], Vec<f32>) {
        let means: [Vec<f64>; 3] = std::array::from_fn(|c| {
            let count = self.counts[c] as f64;
            self.sums[c].iter().map(|s| s / count).collect()
        });
        let total = self.counts.iter().sum::<usize>() as f64;
        let n = self.sums[0].len();
        let spread: Vec<f64> = (0..n)
            .map(|k| {
                let within: f64 = (0..3)
                    .map(|c| {
                        self.sums_of_squares[c][k] - self.counts[c] as f64 * means[c][k].powi(2)
                    })
                    .sum();
                (within / total).max(0.0)
            })
            .collect();
        let average = spread.iter().sum::<f64>() / n as f64;
        let inverse_spread = spread
            .iter()
            .map(|s| (1.0 / (s + f64::from(SPREAD_SHRINK) * average + 1e-6)) as f32)
            .collect();
        let centroids = means.map(|m| m.into_iter().map(|v| v as f32).collect());
        (centroids, inverse_spread)
    }
}

impl VenueModel {
    /// Calibrates on a detection of a frame whose cells hold `known` (by
    /// rectified cell; `None`: not to be learned from, a hand over it).
    /// `None` when the detection has no features or a class has no square.
    pub fn calibrate(detection: &Detection, known: &[Option<Occupant>; 64]) -> Option<Self> {
        let n = detection.feature_len;
        if n == 0 {
            return None;
        }
        let mut learnt = Learnt::new(n);
        learnt.add(detection, known);
        if learnt.counts.contains(&0) {
            return None;
        }
        let (centroids, inverse_spread) = learnt.fit();
        Some(Self {
            learnt,
            centroids,
            inverse_spread,
        })
    }

    /// Learns from one more detection of a frame whose cells are known to
    /// hold `known`: a later position of the game read with certainty,
    /// which shows pieces where the start showed none (a knight on f3, a
    /// pawn on a dark square of the centre). Every square learnt counts
    /// alike.
    pub fn learn(&mut self, detection: &Detection, known: &[Option<Occupant>; 64]) {
        if detection.feature_len != self.inverse_spread.len() {
            return;
        }
        self.learnt.add(detection, known);
        (self.centroids, self.inverse_spread) = self.learnt.fit();
    }

    /// The detection with each cell's occupant probabilities weighed by the
    /// venue model (the pieces' shares within a side kept).
    pub fn adapt(&self, detection: &Detection) -> Detection {
        let mut adapted = detection.clone();
        let n = detection.feature_len as f32;
        for (cell, reading) in adapted.cells.iter_mut().enumerate() {
            let features = detection.cell_features(cell);
            if features.len() != self.inverse_spread.len() {
                continue;
            }
            let log_likelihood: [f32; 3] = std::array::from_fn(|c| {
                let d2: f32 = features
                    .iter()
                    .zip(&self.centroids[c])
                    .zip(&self.inverse_spread)
                    .map(|((f, m), w)| (f - m).powi(2) * w)
                    .sum();
                -0.5 * VENUE_WEIGHT * d2 / n
            });
            let best = log_likelihood.iter().copied().fold(f32::MIN, f32::max);
            let venue: [f32; 3] = log_likelihood.map(|l| (l - best).exp());
            let groups = [0..1, 1..7, 7..13];
            let mut total = 0.0;
            for (c, group) in groups.iter().enumerate() {
                for k in group.clone() {
                    reading.classes[k] *= venue[c];
                    total += reading.classes[k];
                }
            }
            if total > 0.0 {
                reading.classes.iter_mut().for_each(|p| *p /= total);
            }
        }
        adapted
    }
}

/// What `position` puts on each rectified cell of a board lying
/// `orientation`, on the squares of `learnt` (`None` elsewhere): the
/// labels [`VenueModel::calibrate`] learns from.
pub fn known_cells(
    position: &Board,
    orientation: Orientation,
    learnt: Bitboard,
) -> [Option<Occupant>; 64] {
    let mut known = [None; 64];
    for sq in learnt {
        let cell = orientation.cell(usize::from(sq.file()), usize::from(sq.rank()));
        known[cell] = Some(Occupant::of(position.color_at(sq)));
    }
    known
}

fn class_of(occupant: Occupant) -> usize {
    OCCUPANTS
        .iter()
        .position(|&o| o == occupant)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CellReading;

    /// A detection whose cells say `net` (probabilities of empty, White,
    /// Black) with one feature each.
    fn detection(net: [f32; 3], features: impl Fn(usize) -> f32) -> Detection {
        let reading = |_| {
            let mut classes = [0.0; 13];
            classes[0] = net[0];
            classes[1] = net[1];
            classes[7] = net[2];
            CellReading {
                classes,
                hand: 0.0,
                touch: 0.0,
            }
        };
        Detection {
            cells: std::array::from_fn(reading),
            hand_present: 0.0,
            features: (0..64).map(features).collect(),
            feature_len: 1,
        }
    }

    #[test]
    fn what_this_board_showed_at_the_start_outweighs_an_unsure_detector() {
        // Feature 0 for empty squares, 10 for White's, 20 for Black's.
        let known: [Option<Occupant>; 64] = std::array::from_fn(|cell| {
            Some(match cell / 16 {
                0 => Occupant::White,
                3 => Occupant::Black,
                _ => Occupant::Empty,
            })
        });
        let feature = |cell: usize| match known[cell] {
            Some(Occupant::White) => 10.0 + (cell % 3) as f32,
            Some(Occupant::Black) => 20.0 + (cell % 3) as f32,
            _ => (cell % 3) as f32,
        };
        let start = detection([0.4, 0.3, 0.3], feature);
        let model = VenueModel::calibrate(&start, &known).expect("calibrates");
        // Later the detector is unsure between empty and White on a square
        // that looks like White's pieces did at the start.
        let later = detection([0.5, 0.45, 0.05], |_| 10.5);
        let adapted = model.adapt(&later);
        assert_eq!(adapted.cells[0].occupant().0, Occupant::White);
        // Without features there is nothing to calibrate on.
        let bare = Detection {
            features: Vec::new(),
            feature_len: 0,
            ..start
        };
        assert_eq!(VenueModel::calibrate(&bare, &known), None);
    }
}
