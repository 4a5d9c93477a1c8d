//! The eyes on one board: each frame rectified with the board's corners,
//! each square read by the per-game colour baseline, and what covers the
//! board found by difference with the last still picture.
//!
//! Input: BGR frames, the corners, the start position. Output: a
//! [`BoardReading`] a frame, squares named as on the board (a1..h8).

use opencv::core::Mat;
use shakmaty::{Board, Color, Square};

use crate::baseline::{ChangeDetector, ColourBaseline, Heads, Occupant, Orientation, blurred_lab};
use crate::{BoardCorners, Error, RectifiedBoard, Rectifier, Result, realign};

/// Percentage of changed pixels between frames below which the picture is still.
pub const STILL_MOTION: f64 = 0.2;

/// The eyes' warp: the board and half a square of margin read, and half a
/// square of surround beyond (the detector's square of margin in all),
/// where the head of a far piece leans out and a finger touches it from
/// behind.
pub const EYES_RECTIFIER: Rectifier = Rectifier {
    square_px: 32,
    margin_squares: 0.5,
    surround_squares: 0.5,
};

/// What stands on each rectified cell when the board lies `orientation`.
fn occupancy(position: &Board, orientation: Orientation) -> [Occupant; 64] {
    let mut known = [Occupant::Empty; 64];
    for (sq, piece) in position.iter() {
        known[orientation.cell(usize::from(sq.file() as u8), usize::from(sq.rank() as u8))] =
            match piece.color {
                Color::White => Occupant::White,
                Color::Black => Occupant::Black,
            };
    }
    known
}

fn uncalibrated() -> Error {
    Error::Calibration(
        "the start position needs empty squares of both colours and pieces of both sides".into(),
    )
}

/// Which way the board lies in a picture of `start` (rectified, pieces read
/// where they stand): a1 is a dark square, and of the two ways that leaves,
/// the one under which White's pieces are the lighter.
fn find_orientation(board: &RectifiedBoard, start: &Board) -> Result<Orientation> {
    let mut best: Option<(f32, Orientation)> = None;
    for o in Orientation::ALL {
        let Some(baseline) = ColourBaseline::calibrate(board, &occupancy(start, o))? else {
            continue;
        };
        let lighter = baseline.white_lighter_by();
        if baseline.dark_square(o.cell(0, 0)) && best.is_none_or(|(b, _)| lighter > b) {
            best = Some((lighter, o));
        }
    }
    best.map(|(_, o)| o).ok_or_else(uncalibrated)
}

/// Matches at most made in following the camera on one frame.
const REALIGN_ROUNDS: usize = 4;

/// Median change over the squares above which the whole board moved.
const SHIFTED_MEDIAN: f32 = 8.0;

/// One frame's reading, by square index (a1 = 0 … h8 = 63).
#[derive(Debug, Clone, PartialEq)]
pub struct BoardReading {
    pub occupancy: [Option<Color>; 64],
    /// How likely the colours find each square empty, White's or Black's
    /// (by square index; [`ColourBaseline::probabilities`]).
    pub colours: [[f32; 3]; 64],
    /// Squares that differ from the last accepted picture, one bit per square index.
    pub changed: u64,
    /// How much each square differs from it, by square index.
    pub scores: [f32; 64],
    /// Percentage of pixels that changed since the previous frame, where
    /// the board is read.
    pub motion: f64,
    /// The same over the whole picture, its surround included.
    pub picture_motion: f64,
    /// The same percentage on each square, by square index.
    pub square_motion: [f32; 64],
    /// The change where each square's piece shows its head, by square index.
    pub head: Heads,
    /// The motion just past the board beyond each square on its edge, by
    /// square index (0 for the others).
    pub beyond_motion: [f32; 64],
}

impl BoardReading {
    /// This reading with the motion of `earlier`, a reading of the same
    /// frame through the corners of the frame before (what moved since
    /// then is measured through the same corners on both frames).
    pub fn with_motion_of(self, earlier: &BoardReading) -> Self {
        Self {
            motion: earlier.motion,
            picture_motion: earlier.picture_motion,
            square_motion: earlier.square_motion,
            head: Heads {
                motion: earlier.head.motion,
                ..self.head
            },
            beyond_motion: earlier.beyond_motion,
            ..self
        }
    }

    pub fn still(&self) -> bool {
        self.motion < STILL_MOTION
    }

    /// Whether the picture differs from the accepted one: some squares
    /// changed, or the whole board a little (the camera moved: no square
    /// then stands out from the others).
    pub fn differs(&self) -> bool {
        let mut scores = self.scores;
        scores.sort_by(f32::total_cmp);
        self.changed != 0 || scores[32] > SHIFTED_MEDIAN
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
    /// Calibrates on the first frame, which shows `start`. Which way the
    /// board lies, unless given: a1 on a dark square, White's pieces the
    /// lighter.
    pub fn calibrate(
        first: &Mat,
        corners: BoardCorners,
        start: &Board,
        orientation: Option<Orientation>,
    ) -> Result<Self> {
        let rectifier = EYES_RECTIFIER;
        let board = rectifier.rectify(first, &corners)?;
        let orientation = match orientation {
            Some(o) => o,
            None => find_orientation(&board, start)?,
        };
        let known = occupancy(start, orientation);
        let baseline = ColourBaseline::calibrate(&board, &known)?.ok_or_else(uncalibrated)?;
        tracing::debug!(?orientation, lean = board.lean, "calibrated");
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

    /// The board's corners as the eyes now follow them.
    pub fn corners(&self) -> BoardCorners {
        self.corners
    }

    /// Rectifies a frame (the `locate` stage).
    pub fn locate(&self, frame: &Mat) -> Result<RectifiedBoard> {
        self.rectifier.rectify(frame, &self.corners)
    }

    /// Follows the camera: when `frame` (located as `before` with the
    /// present corners) shows the board moved against the accepted picture
    /// (a drift, a bump) and moving the corners with it brings the picture
    /// nearer the accepted one, and the colours then read the `table` on no
    /// fewer squares, the corners are moved. Returns whether they were.
    /// Meant for still frames (a hand moving spoils the match), right after
    /// [`Self::detect`] read `before`.
    pub fn realign(&mut self, frame: &Mat, before: &RectifiedBoard, table: &Board) -> Result<bool> {
        let Some(reference) = self.change.reference() else {
            return Ok(false);
        };
        let reference = realign::lightness(reference)?;
        // Each match is exact for a shift and near for a turn: repeated
        // from where the last one left the corners, it settles.
        let mut corners = self.corners;
        let mut moved: Option<RectifiedBoard> = None;
        for _ in 0..REALIGN_ROUNDS {
            // The frame as located is the one the change detector last saw.
            let current = match (&moved, self.change.last()) {
                (None, Some(lab)) => realign::lightness(lab)?,
                (Some(board), _) => realign::lightness(&blurred_lab(&board.image)?)?,
                (None, None) => realign::lightness(&blurred_lab(&before.image)?)?,
            };
            let Some(warp) = realign::board_warp(&reference, &current, before.reading_area())?
            else {
                break;
            };
            let Some(next) = realign::moved_corners(&self.rectifier, &corners, &warp)? else {
                return Ok(false);
            };
            corners = next;
            moved = Some(self.rectifier.rectify(frame, &corners)?);
        }
        let Some(after) = moved else {
            return Ok(false);
        };
        let changed = |board| self.change.compare(board);
        let (now, then) = (changed(&after)?, changed(before)?);
        tracing::debug!(?corners, changed_before = ?then, changed_after = ?now, "following the camera");
        // Fewer squares changed, or the whole picture far nearer (after a
        // bump every square differs a little and none stands out).
        if !(now.1 < then.1 && (now.0 <= then.0 || now.1 < 0.5 * then.1)) {
            return Ok(false);
        }
        // A camera that moved reads as it did once followed; a shift that
        // only matches the picture better (a piece leaning on the next
        // square, a wood grain) can read a square of strong colour as the
        // other side's.
        let (misread_now, misread_then) =
            (self.misread(&after, table)?, self.misread(before, table)?);
        if misread_now > misread_then {
            tracing::debug!(
                misread_now,
                misread_then,
                "a realignment the colours do not bear out"
            );
            return Ok(false);
        }
        self.corners = corners;
        Ok(true)
    }

    /// How many cells of `board` the colours read otherwise than `table`
    /// holds.
    fn misread(&self, board: &RectifiedBoard, table: &Board) -> Result<usize> {
        let known = occupancy(table, self.orientation);
        let read = self.baseline.read(board)?;
        Ok(read.iter().zip(&known).filter(|(a, b)| a != b).count())
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
        let cells = self.baseline.probabilities(board)?;
        let mut reading = BoardReading {
            occupancy: [None; 64],
            colours: [[0.0; 3]; 64],
            changed: 0,
            scores: [0.0; 64],
            motion: change.motion,
            picture_motion: change.picture_motion,
            square_motion: [0.0; 64],
            head: Heads::default(),
            beyond_motion: [0.0; 64],
        };
        for sq in Square::ALL {
            let cell = self
                .orientation
                .cell(usize::from(sq.file() as u8), usize::from(sq.rank() as u8));
            let p = cells[cell];
            reading.colours[usize::from(sq)] = p;
            reading.occupancy[usize::from(sq)] = if p[0] >= p[1] && p[0] >= p[2] {
                None
            } else if p[1] >= p[2] {
                Some(Color::White)
            } else {
                Some(Color::Black)
            };
            reading.scores[usize::from(sq)] = change.scores[cell];
            reading.square_motion[usize::from(sq)] = change.cell_motion[cell];
            reading.head.scores[usize::from(sq)] = change.head.scores[cell];
            reading.head.motion[usize::from(sq)] = change.head.motion[cell];
            reading.beyond_motion[usize::from(sq)] = change.beyond_motion[cell];
            if change.cells & (1 << cell) != 0 {
                reading.changed |= 1 << usize::from(sq);
            }
        }
        Ok(reading)
    }
}
