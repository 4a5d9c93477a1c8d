//! One still picture read whole, as `referee detect` does: the board found
//! (or its corners given), every square read by the detector, and which
//! edge is White's told from where the pieces stand (a1 is a dark square,
//! and White's pieces stand nearer White's edge).

use std::time::Instant;

use opencv::core::Mat;
use shakmaty::{Bitboard, Board, File, Rank, Square};

use crate::{
    BoardCorners, CellReading, DETECTOR_RECTIFIER, Detection, Detector, Error, Occupant,
    Orientation, Result, VenueModel, known_cells, locate_board,
};

/// A square whose likelier occupant has a smaller probability than this is
/// `unknown` (contracts.md §4).
pub const SURE: f32 = 0.6;

/// Fraction of each square's side trimmed before its colour is measured.
const COLOUR_INSET: f32 = 0.2;

/// What a still picture shows.
#[derive(Debug, Clone)]
pub struct StillReading {
    pub corners: BoardCorners,
    /// The corners were found in the picture (not given).
    pub found: bool,
    /// Which way the board lies; `None` when no piece tells.
    pub orientation: Option<Orientation>,
    pub detection: Detection,
    /// Milliseconds for each stage: locate, detect, orient.
    pub stage_ms: [f64; 3],
}

/// One square's verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SquareVerdict {
    pub square: Square,
    /// `None`: it cannot be judged (covered by a hand, or the model unsure).
    pub occupant: Option<Occupant>,
    pub piece: Option<shakmaty::Piece>,
    pub confidence: f32,
    pub reading: CellReading,
}

impl StillReading {
    /// Every square, a1 to h8; named as if White sat at the bottom when the
    /// orientation is unknown (an empty board reads the same either way).
    pub fn squares(&self) -> Vec<SquareVerdict> {
        let orientation = self.orientation.unwrap_or(Orientation::WhiteBottom);
        Square::ALL
            .iter()
            .map(|&square| {
                let reading = *self.detection.square(
                    orientation,
                    usize::from(square.file()),
                    usize::from(square.rank()),
                );
                let (occupant, confidence) = reading.occupant();
                let judged = reading.judged();
                SquareVerdict {
                    square,
                    occupant: judged.then_some(occupant),
                    piece: if judged { reading.piece() } else { None },
                    confidence,
                    reading,
                }
            })
            .collect()
    }

    /// The venue model this still teaches, known to show `position`: the
    /// board taken the way round its reading agrees with best, every cell
    /// no hand covers learnt. `None` when no side or no empty square shows.
    pub fn teach(&self, position: &Board) -> Option<VenueModel> {
        let known_by = |orientation: Orientation| {
            let uncovered = !Bitboard(self.detection.covered(orientation));
            known_cells(position, orientation, uncovered)
        };
        let agreeing = |known: &[Option<Occupant>; 64]| {
            known
                .iter()
                .zip(&self.detection.cells)
                .filter(|(k, cell)| **k == Some(cell.occupant().0))
                .count()
        };
        let known = Orientation::ALL
            .map(known_by)
            .into_iter()
            .max_by_key(agreeing)?;
        VenueModel::calibrate(&self.detection, &known)
    }

    /// The placement read (FEN field 1); squares not judged count as empty.
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for verdict in self.squares() {
            if let Some(piece) = verdict.piece {
                board.set_piece_at(verdict.square, piece);
            }
        }
        board
    }
}

/// Reads `image` (BGR): the board at `corners`, or found when `None`.
pub fn read_still(
    detector: &mut Detector,
    image: &Mat,
    corners: Option<BoardCorners>,
    venue: Option<&VenueModel>,
) -> Result<StillReading> {
    let clock = Instant::now();
    let (corners, found) = match corners {
        Some(corners) => (corners, false),
        None => {
            let found = locate_board(image)?.ok_or_else(|| {
                Error::Calibration("no chessboard found in the picture (give its corners)".into())
            })?;
            (found.corners, true)
        }
    };
    let locate = ms(clock);
    let clock = Instant::now();
    let board = DETECTOR_RECTIFIER.rectify(image, &corners)?;
    let detection = detector.detect_turned(&board.image)?;
    let detection = match venue {
        Some(venue) => venue.adapt(&detection),
        None => detection,
    };
    let detect = ms(clock);
    let clock = Instant::now();
    let dark = dark_parity(&board, &detection)?;
    let orientation = detection.orientation_from_pieces(|o| {
        let a1 = o.cell(usize::from(File::A), usize::from(Rank::First));
        (a1 / 8 + a1 % 8) % 2 == dark
    });
    Ok(StillReading {
        corners,
        found,
        orientation,
        detection,
        stage_ms: [locate, detect, ms(clock)],
    })
}

/// The parity ((row + column) % 2) of the dark squares: the darker on
/// average of the two, measured on squares read empty (all when too few).
fn dark_parity(board: &crate::RectifiedBoard, detection: &Detection) -> Result<usize> {
    let stats = board.square_stats(COLOUR_INSET)?;
    let empty: Vec<usize> = (0..64)
        .filter(|&c| detection.cells[c].occupant().0 == Occupant::Empty)
        .collect();
    let cells: Vec<usize> = if empty.len() >= 8 {
        empty
    } else {
        (0..64).collect()
    };
    let mean = |parity: usize| {
        let of: Vec<f32> = cells
            .iter()
            .filter(|&&c| (c / 8 + c % 8) % 2 == parity)
            .map(|&c| stats[c].mean)
            .collect();
        of.iter().sum::<f32>() / of.len().max(1) as f32
    };
    Ok(usize::from(mean(1) < mean(0)))
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}
