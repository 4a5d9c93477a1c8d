//! The eyes on one board: each frame rectified with the board's corners,
//! each square read by the per-game colour baseline, and what covers the
//! board found by difference with the last still picture.
//!
//! Input: BGR frames, the corners, the start position. Output: a
//! [`BoardReading`] a frame, squares named as on the board (a1..h8).

use opencv::core::Mat;
use shakmaty::{Board, Color, Square};

use crate::baseline::{
    ChangeDetector, ColourBaseline, Occupant, Orientation, orientation_from_start,
};
use crate::{BoardCorners, Error, RectifiedBoard, Rectifier, Result};

/// Percentage of changed pixels between frames below which the picture is still.
pub const STILL_MOTION: f64 = 0.2;

/// One frame's reading, by square index (a1 = 0 … h8 = 63).
#[derive(Debug, Clone, PartialEq)]
pub struct BoardReading {
    pub occupancy: [Option<Color>; 64],
    /// Squares that differ from the last accepted picture, one bit per square index.
    pub changed: u64,
    /// How much each square differs from it, by square index.
    pub scores: [f32; 64],
    /// Percentage of pixels that changed since the previous frame.
    pub motion: f64,
}

impl BoardReading {
    pub fn still(&self) -> bool {
        self.motion < STILL_MOTION
    }
}

/// The eyes on one board.
#[derive(Debug)]
pub struct Eyes {
    rectifier: Rectifier,
    corners: BoardCorners,
    orientation: Orientation,
    baseline: ColourBaseline,
    change: ChangeDetector,
}

impl Eyes {
    /// Calibrates on the first frame, which shows `start`. The orientation
    /// is found from the pieces (White's are the lighter) unless given.
    pub fn calibrate(
        first: &Mat,
        corners: BoardCorners,
        start: &Board,
        orientation: Option<Orientation>,
    ) -> Result<Self> {
        let rectifier = Rectifier::default();
        let board = rectifier.rectify(first, &corners)?;
        let orientation = match orientation {
            Some(o) => o,
            None => orientation_from_start(&board)?,
        };
        let mut known = [Occupant::Empty; 64];
        for (sq, piece) in start.iter() {
            known[orientation.cell(usize::from(sq.file() as u8), usize::from(sq.rank() as u8))] =
                match piece.color {
                    Color::White => Occupant::White,
                    Color::Black => Occupant::Black,
                };
        }
        let baseline = ColourBaseline::calibrate(&board, &known)?.ok_or_else(|| {
            Error::Calibration("the start position needs empty squares and pieces of both colours on both square colours".into())
        })?;
        let mut change = ChangeDetector::new();
        change.observe(&board)?;
        Ok(Self {
            rectifier,
            corners,
            orientation,
            baseline,
            change,
        })
    }

    pub fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// Rectifies a frame (the `locate` stage).
    pub fn locate(&self, frame: &Mat) -> Result<RectifiedBoard> {
        self.rectifier.rectify(frame, &self.corners)
    }

    /// The last frame shows the board as accepted on `squares` (one bit per
    /// square index: those a move changed); later changes there are
    /// measured against it.
    pub fn accept(&mut self, board: &RectifiedBoard, squares: u64) -> Result<()> {
        let mut cells = 0u64;
        for sq in Square::ALL {
            if squares & (1 << usize::from(sq)) != 0 {
                cells |= 1
                    << self
                        .orientation
                        .cell(usize::from(sq.file() as u8), usize::from(sq.rank() as u8));
            }
        }
        self.change.rebase(board, cells)
    }

    /// Reads a rectified frame (the `detect` stage).
    pub fn detect(&mut self, board: &RectifiedBoard) -> Result<BoardReading> {
        let change = self.change.observe(board)?;
        let cells = self.baseline.read(board)?;
        let mut reading = BoardReading {
            occupancy: [None; 64],
            changed: 0,
            scores: [0.0; 64],
            motion: change.motion,
        };
        for sq in Square::ALL {
            let cell = self
                .orientation
                .cell(usize::from(sq.file() as u8), usize::from(sq.rank() as u8));
            reading.occupancy[usize::from(sq)] = match cells[cell] {
                Occupant::Empty => None,
                Occupant::White => Some(Color::White),
                Occupant::Black => Some(Color::Black),
            };
            reading.scores[usize::from(sq)] = change.scores[cell];
            if change.cells & (1 << cell) != 0 {
                reading.changed |= 1 << usize::from(sq);
            }
        }
        Ok(reading)
    }
}
