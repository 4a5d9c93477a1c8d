//! The per-game colour baseline: reads what stands on each square from
//! plain colour statistics, calibrated on the game's known start position,
//! and finds what covers the board (a hand, an arm) by difference with the
//! last still picture.
//!
//! Input: rectified boards ([`RectifiedBoard`]) and the start position's
//! occupancy. Output: per square `empty`, `white` or `black`; the squares
//! that changed since the last accepted picture; how much the picture
//! moves. It cannot tell piece types or fingertips: it is the reference and
//! the fallback for the learned detector.

use opencv::core::{self, Mat, Rect};
use opencv::imgproc;
use opencv::prelude::*;

use crate::error::OpenCvContext;
use crate::{RectifiedBoard, Result, Window};

/// What stands on a square, as colour can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Occupant {
    Empty,
    White,
    Black,
}

impl Occupant {
    /// What a square holding a piece of `color` (or none) shows.
    pub fn of(color: Option<shakmaty::Color>) -> Self {
        match color {
            None => Self::Empty,
            Some(shakmaty::Color::White) => Self::White,
            Some(shakmaty::Color::Black) => Self::Black,
        }
    }
}

/// Which way the board lies in the rectified image: the cell (row, col)
/// of a square (file 0..8, rank 0..8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    /// White's first rank along the bottom row.
    WhiteBottom,
    WhiteTop,
    WhiteLeft,
    WhiteRight,
}

impl Orientation {
    pub const ALL: [Orientation; 4] = [
        Orientation::WhiteBottom,
        Orientation::WhiteTop,
        Orientation::WhiteLeft,
        Orientation::WhiteRight,
    ];

    /// The rectified cell index (row-major) of the square at `file`, `rank`.
    pub fn cell(self, file: usize, rank: usize) -> usize {
        let (row, col) = match self {
            Orientation::WhiteBottom => (7 - rank, file),
            Orientation::WhiteTop => (rank, 7 - file),
            Orientation::WhiteLeft => (file, rank),
            Orientation::WhiteRight => (7 - file, 7 - rank),
        };
        row * 8 + col
    }

    /// The name contracts.md uses for the edge nearest White.
    pub fn white_side(self) -> &'static str {
        match self {
            Orientation::WhiteBottom => "bottom",
            Orientation::WhiteTop => "top",
            Orientation::WhiteLeft => "left",
            Orientation::WhiteRight => "right",
        }
    }
}

/// Fraction of each square's side trimmed before measuring (pieces lean).
const INSET: f32 = 0.25;
/// Per square: mean B, G, R and twice the grey spread.
fn features(board: &RectifiedBoard) -> Result<Vec<[f32; 4]>> {
    let colours = board.colours(Window::Piece, INSET)?;
    let stats = board.stats(Window::Piece, INSET)?;
    Ok((0..64)
        .map(|i| {
            [
                colours[i][0],
                colours[i][1],
                colours[i][2],
                2.0 * stats[i].spread,
            ]
        })
        .collect())
}

/// The least spread of the calibration squares about their centroids
/// (squared colour distance): a perfectly clean render is not infinitely sure.
const MIN_SPREAD: f32 = 25.0;

/// Share of a square's measured window that shows the square around a piece.
const BACKGROUND_SHOWING: f32 = 0.5;

fn brightness(feature: [f32; 4]) -> f32 {
    feature[0] + feature[1] + feature[2]
}

fn distance(a: [f32; 4], b: [f32; 4]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum()
}

/// Nearest-centroid colour model, one set of centroids for each square colour.
#[derive(Debug, Clone)]
pub struct ColourBaseline {
    /// [parity][empty, white, black].
    centroids: [[[f32; 4]; 3]; 2],
    /// The mean squared distance of a calibration square to its own
    /// class's centroid: the scale of [`Self::probabilities`].
    spread: f32,
}

impl ColourBaseline {
    /// Calibrates on a board whose occupancy is known, `known[cell]`.
    /// Returns `None` when the board has no white or no black piece, or no
    /// empty square of either colour. A piece colour seen on one square
    /// colour only is modelled on the other from it.
    pub fn calibrate(board: &RectifiedBoard, known: &[Occupant; 64]) -> Result<Option<Self>> {
        let features = features(board)?;
        let mut sums = [[[0.0f32; 4]; 3]; 2];
        let mut counts = [[0.0f32; 3]; 2];
        for (cell, feature) in features.iter().enumerate() {
            let (p, k) = (parity(cell), class(known[cell]));
            for c in 0..4 {
                sums[p][k][c] += feature[c];
            }
            counts[p][k] += 1.0;
        }
        let empty = class(Occupant::Empty);
        if (0..3).any(|k| counts[0][k] + counts[1][k] == 0.0)
            || counts[0][empty] * counts[1][empty] == 0.0
        {
            return Ok(None);
        }
        let mean = |p: usize, k: usize| sums[p][k].map(|s| s / counts[p][k]);
        let mut centroids = [[[0.0; 4]; 3]; 2];
        for p in 0..2 {
            for k in 0..3 {
                centroids[p][k] = if counts[p][k] > 0.0 {
                    mean(p, k)
                } else {
                    // No such piece on this square colour (a position with
                    // few pieces): the other square colour's, half of the
                    // square's own colour showing around the piece.
                    let q = 1 - p;
                    let (piece, here, there) = (mean(q, k), mean(p, empty), mean(q, empty));
                    std::array::from_fn(|c| piece[c] + BACKGROUND_SHOWING * (here[c] - there[c]))
                };
            }
        }
        let own: f32 = features
            .iter()
            .enumerate()
            .map(|(cell, f)| distance(*f, centroids[parity(cell)][class(known[cell])]))
            .sum();
        let spread = (own / 64.0).max(MIN_SPREAD);
        Ok(Some(Self { centroids, spread }))
    }

    /// How much lighter White's pieces are than Black's, summed over both
    /// square colours (the fit alone cannot tell a board from the same
    /// board turned half-way round: the colours' names swap and every cell
    /// still reads back).
    pub fn white_lighter_by(&self) -> f32 {
        self.centroids
            .iter()
            .map(|parity| brightness(parity[1]) - brightness(parity[2]))
            .sum()
    }

    /// Whether the empty squares of `cell`'s colour are the darker ones.
    pub fn dark_square(&self, cell: usize) -> bool {
        let empty = class(Occupant::Empty);
        let p = parity(cell);
        brightness(self.centroids[p][empty]) < brightness(self.centroids[1 - p][empty])
    }

    /// How likely each cell of a board is to be empty, to hold a White
    /// piece or a Black one (by rectified cell; each row sums to 1): the
    /// nearer a centroid, the likelier, on the scale of the calibration
    /// squares' own spread.
    pub fn probabilities(&self, board: &RectifiedBoard) -> Result<[[f32; 3]; 64]> {
        let features = features(board)?;
        Ok(std::array::from_fn(|cell| {
            let centroids = &self.centroids[parity(cell)];
            let d = centroids.map(|c| distance(features[cell], c) / self.spread);
            let nearest = d.iter().copied().fold(f32::INFINITY, f32::min);
            let weights = d.map(|x| (nearest - x).exp());
            let total: f32 = weights.iter().sum();
            weights.map(|w| w / total)
        }))
    }

    /// Reads every cell of a board.
    pub fn read(&self, board: &RectifiedBoard) -> Result<[Occupant; 64]> {
        let features = features(board)?;
        let mut read = [Occupant::Empty; 64];
        for (cell, feature) in features.iter().enumerate() {
            let centroids = &self.centroids[parity(cell)];
            let nearest = (0..3)
                .min_by(|&a, &b| {
                    distance(*feature, centroids[a]).total_cmp(&distance(*feature, centroids[b]))
                })
                .expect("three classes");
            read[cell] = [Occupant::Empty, Occupant::White, Occupant::Black][nearest];
        }
        Ok(read)
    }
}

fn parity(cell: usize) -> usize {
    (cell / 8 + cell % 8) % 2
}

fn class(occupant: Occupant) -> usize {
    match occupant {
        Occupant::Empty => 0,
        Occupant::White => 1,
        Occupant::Black => 2,
    }
}

/// Which squares changed since the last accepted board picture, and how
/// much the picture moves from one frame to the next.
///
/// A move changes exactly the squares it empties and fills (two, three for
/// en passant, four for castling), so matching the changed set against the
/// legal moves reads moves without telling piece colours apart.
#[derive(Debug, Default)]
pub struct ChangeDetector {
    reference: Option<Mat>,
    previous: Option<Mat>,
    /// The warm-up is over: the reference changes only when told.
    settled: bool,
    frames: u32,
}

/// One frame's change reading.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// Cells that differ from the reference picture (bit per cell).
    pub cells: u64,
    /// How much each cell differs from the reference (mean Lab difference).
    pub scores: [f32; 64],
    /// Percentage of pixels that changed clearly since the previous frame,
    /// where the board is read ([`RectifiedBoard::reading_area`]): the
    /// picture is still when it is small.
    pub motion: f64,
    /// The same percentage over the whole picture, its surround included:
    /// a hand behind the far rank moves there and nowhere else.
    pub picture_motion: f64,
    /// The same percentage on each cell: where on the board things move.
    pub cell_motion: [f32; 64],
    /// Where the head of a piece on each cell shows, or just beyond it
    /// ([`RectifiedBoard::head_rect`], [`RectifiedBoard::crown_rect`]),
    /// whichever changed more: how much it differs from the
    /// reference, and how much of it changed since the previous frame.
    pub head: Heads,
    /// The same percentage just past the playing area beyond each cell on
    /// its edge ([`beyond_rects`]; 0 for the others): where the hand of a
    /// finger on that cell's piece shows, come in over the board's edge.
    pub beyond_motion: [f32; 64],
}

/// The change where each cell's piece shows its head or just beyond it
/// (the more changed of the two), on the scales of [`Change::scores`] and
/// [`Change::cell_motion`]: a finger on the back of a piece at the board's
/// edge shows there and nowhere else.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Heads {
    pub scores: [f32; 64],
    pub motion: [f32; 64],
}

impl Default for Heads {
    fn default() -> Self {
        Self {
            scores: [0.0; 64],
            motion: [0.0; 64],
        }
    }
}

/// Motion (percent of pixels) under which a warm-up picture counts as still.
const SETTLED_MOTION: f64 = 0.5;
/// Frames of warm-up at the start of a stream.
const WARM_UP_FRAMES: u32 = 6;
/// Mean Lab difference (summed over channels) that marks a square changed.
const CHANGE_MIN: f32 = 11.0;
/// A changed square's score at most this is faint: a residue of an earlier
/// picture (the light, a piece set down a little off) rather than a hand.
pub const FAINT_CHANGE: f32 = 20.0;
/// A square must also differ this many times more than the median square.
const CHANGE_OVER_MEDIAN: f32 = 4.0;
/// Fraction of each square's side left out when comparing (edges shift
/// with small camera movements).
const CHANGE_INSET: f32 = 0.15;

impl ChangeDetector {
    pub fn new() -> Self {
        Self::default()
    }

    /// Compares a board with the reference picture and the previous frame.
    /// The first board becomes the reference.
    pub fn observe(&mut self, board: &RectifiedBoard) -> Result<Change> {
        let lab = blurred_lab(&board.image)?;
        let motion = match &self.previous {
            Some(previous) => motion_between(board, &lab, previous)?,
            None => Motion::default(),
        };
        // During the warm-up the reference follows every still picture: a
        // camera's first frames are often half-decoded or still exposing.
        self.frames += 1;
        if self.reference.is_none() || (!self.settled && motion.board < SETTLED_MOTION) {
            self.reference = Some(lab.clone());
        }
        if self.frames >= WARM_UP_FRAMES {
            self.settled = true;
        }
        let (cells, scores, head_scores) = match &self.reference {
            Some(reference) => changed_cells(board, &lab, reference)?,
            None => (0, [0.0; 64], [0.0; 64]),
        };
        self.previous = Some(lab);
        Ok(Change {
            cells,
            scores,
            motion: motion.board,
            picture_motion: motion.picture,
            cell_motion: motion.cells,
            head: Heads {
                scores: head_scores,
                motion: motion.heads,
            },
            beyond_motion: motion.beyond,
        })
    }

    /// The reference picture (blurred Lab), once there is one.
    pub fn reference(&self) -> Option<&Mat> {
        self.reference.as_ref()
    }

    /// The last frame observed (blurred Lab), once there is one.
    pub fn last(&self) -> Option<&Mat> {
        self.previous.as_ref()
    }

    /// How many cells of `board` differ from the reference, and how much
    /// all differ together, without taking the board as a frame seen.
    pub fn compare(&self, board: &RectifiedBoard) -> Result<(u32, f32)> {
        let Some(reference) = &self.reference else {
            return Ok((0, 0.0));
        };
        let (cells, scores, _) = changed_cells(board, &blurred_lab(&board.image)?, reference)?;
        Ok((cells.count_ones(), scores.iter().sum()))
    }

    /// Takes the last frame as the new reference inside `cells` (the squares
    /// an accepted move changed); elsewhere the reference stays, so a hand
    /// resting on other squares is never taken for the board.
    pub fn rebase(&mut self, board: &RectifiedBoard, cells: u64) -> Result<()> {
        let (Some(previous), Some(reference)) = (&self.previous, &mut self.reference) else {
            return Ok(());
        };
        for cell in (0..64i32).filter(|c| cells & (1 << c) != 0) {
            let (row, col) = (cell / 8, cell % 8);
            for rect in [
                board.square_rect(row, col, 0.0),
                board.piece_rect(row, col, 0.0),
            ] {
                let source = Mat::roi(previous, rect).doing("taking a square")?;
                let mut target = Mat::roi_mut(reference, rect).doing("taking a square")?;
                source
                    .copy_to(&mut target)
                    .doing("updating the reference")?;
            }
        }
        self.settled = true;
        Ok(())
    }
}

pub(crate) fn blurred_lab(image: &Mat) -> Result<Mat> {
    let mut blurred = Mat::default();
    imgproc::gaussian_blur_def(image, &mut blurred, core::Size::new(5, 5), 1.5)
        .doing("smoothing")?;
    let mut lab = Mat::default();
    imgproc::cvt_color_def(&blurred, &mut lab, imgproc::COLOR_BGR2Lab)
        .doing("converting to Lab")?;
    Ok(lab)
}

/// Grey levels of change between consecutive frames that count as motion.
const MOTION_DIFF: f64 = 15.0;

/// Percentages of pixels whose largest channel changed by more than
/// [`MOTION_DIFF`] between two frames.
#[derive(Debug, Clone, Copy)]
struct Motion {
    /// Where the board is read ([`RectifiedBoard::reading_area`]).
    board: f64,
    /// Over the whole picture, surround included.
    picture: f64,
    /// Over each cell.
    cells: [f32; 64],
    /// Where each cell's piece shows its head, or just beyond it.
    heads: [f32; 64],
    /// Just past the playing area beyond each cell on its edge.
    beyond: [f32; 64],
}

impl Default for Motion {
    fn default() -> Self {
        Self {
            board: 0.0,
            picture: 0.0,
            cells: [0.0; 64],
            heads: [0.0; 64],
            beyond: [0.0; 64],
        }
    }
}

/// How much changed between `a` and `b`, frames of `board`'s picture.
fn motion_between(board: &RectifiedBoard, a: &Mat, b: &Mat) -> Result<Motion> {
    let mut diff = Mat::default();
    core::absdiff(a, b, &mut diff).doing("differencing frames")?;
    let mut channels = core::Vector::<Mat>::new();
    core::split(&diff, &mut channels).doing("splitting channels")?;
    let mut largest = channels.get(0).doing("a channel")?;
    for c in 1..channels.len() {
        let mut next = Mat::default();
        core::max(&largest, &channels.get(c).doing("a channel")?, &mut next)
            .doing("combining channels")?;
        largest = next;
    }
    let mut changed = Mat::default();
    imgproc::threshold(
        &largest,
        &mut changed,
        MOTION_DIFF,
        100.0,
        imgproc::THRESH_BINARY,
    )
    .doing("thresholding motion")?;
    let share = |rect| -> Result<f64> {
        let roi = Mat::roi(&changed, rect).doing("taking a part of the picture")?;
        Ok(core::mean(&roi, &core::no_array()).doing("measuring motion")?[0])
    };
    let mut motion = Motion {
        board: share(board.reading_area())?,
        picture: core::mean(&changed, &core::no_array()).doing("measuring motion")?[0],
        ..Motion::default()
    };
    for cell in 0..64 {
        let (row, col) = ((cell / 8) as i32, (cell % 8) as i32);
        motion.cells[cell] = share(board.square_rect(row, col, 0.0))? as f32;
        motion.heads[cell] = share(board.head_rect(row, col, 0.0))?
            .max(share(board.crown_rect(row, col, 0.0))?) as f32;
        for rect in beyond_rects(board, row, col) {
            motion.beyond[cell] = motion.beyond[cell].max(share(rect)? as f32);
        }
    }
    Ok(motion)
}

/// The squares' worth of picture just past the playing area beyond the
/// cell in row `row`, column `col`: one for a cell on an edge, two for a
/// corner, none for the others; each cut to the picture, which keeps a
/// square of margin and surround ([`crate::EYES_RECTIFIER`]).
fn beyond_rects(board: &RectifiedBoard, row: i32, col: i32) -> impl Iterator<Item = Rect> {
    let outward = |i: i32| match i {
        0 => Some(-1),
        7 => Some(8),
        _ => None,
    };
    let whole = Rect::new(0, 0, board.image.cols(), board.image.rows());
    [
        outward(row).map(|out| board.square_rect(out, col, 0.0)),
        outward(col).map(|out| board.square_rect(row, out, 0.0)),
    ]
    .into_iter()
    .flatten()
    .map(move |rect| rect & whole)
    .filter(|rect| rect.width > 0 && rect.height > 0)
}

/// The cells that differ from `reference`, how much each differs where its
/// piece shows, and how much where its piece's head shows (or just beyond
/// it).
fn changed_cells(
    board: &RectifiedBoard,
    lab: &Mat,
    reference: &Mat,
) -> Result<(u64, [f32; 64], [f32; 64])> {
    let mut diff = Mat::default();
    core::absdiff(lab, reference, &mut diff).doing("differencing with the reference")?;
    let differs = |rect| -> Result<f32> {
        let roi = Mat::roi(&diff, rect).doing("taking a square")?;
        let mean = core::mean(&roi, &core::no_array()).doing("measuring change")?;
        Ok((mean[0] + mean[1] + mean[2]) as f32)
    };
    let (mut scores, mut heads) = ([0.0f32; 64], [0.0f32; 64]);
    for cell in 0..64 {
        let (row, col) = ((cell / 8) as i32, (cell % 8) as i32);
        scores[cell] = differs(board.piece_rect(row, col, CHANGE_INSET))?;
        heads[cell] = differs(board.head_rect(row, col, CHANGE_INSET))?
            .max(differs(board.crown_rect(row, col, CHANGE_INSET))?);
    }
    let mut sorted = scores;
    sorted.sort_by(f32::total_cmp);
    let threshold = CHANGE_MIN.max(CHANGE_OVER_MEDIAN * sorted[32]);
    let cells = scores
        .iter()
        .enumerate()
        .filter(|(_, s)| **s > threshold)
        .fold(0, |bits, (cell, _)| bits | 1 << cell);
    Ok((cells, scores, heads))
}

#[cfg(test)]
mod tests {
    use opencv::core::{CV_8UC3, Scalar};

    use super::*;
    use crate::{BoardCorners, EYES_RECTIFIER};

    type TestResult = std::result::Result<(), Box<dyn std::error::Error>>;

    #[test]
    fn a_hand_past_the_board_s_edge_moves_beyond_the_cell_there_only() -> TestResult {
        // A grey picture, the board 30 pixels a square; then a hand's
        // worth of dark just below the bottom-left cell, past the edge.
        let corners = BoardCorners([[80.0, 80.0], [320.0, 80.0], [320.0, 320.0], [80.0, 320.0]]);
        let grey = Mat::new_rows_cols_with_default(400, 400, CV_8UC3, Scalar::all(128.0))?;
        let mut hand = grey.clone();
        imgproc::rectangle(
            &mut hand,
            Rect::new(82, 324, 26, 22),
            Scalar::all(20.0),
            imgproc::FILLED,
            imgproc::LINE_8,
            0,
        )?;
        let mut change = ChangeDetector::new();
        change.observe(&EYES_RECTIFIER.rectify(&grey, &corners)?)?;
        let seen = change.observe(&EYES_RECTIFIER.rectify(&hand, &corners)?)?;
        let bottom_left = 7 * 8;
        assert!(seen.beyond_motion[bottom_left] > 50.0, "{seen:?}");
        assert!(seen.cell_motion[bottom_left] < 10.0, "{seen:?}");
        assert!(
            (0..64)
                .filter(|&cell| cell != bottom_left)
                .all(|cell| seen.beyond_motion[cell] == 0.0),
            "{:?}",
            seen.beyond_motion
        );
        Ok(())
    }
}
