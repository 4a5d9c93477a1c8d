//! The square detector: one ONNX model, run by ONNX Runtime once a frame on
//! the board rectified from its corners, saying for each square what stands
//! there (empty, or which piece of which side), whether a hand covers it and
//! whether a fingertip touches it, and whether a hand is in view at all.
//!
//! The model (`models/detector.int8.onnx`, built into the executable) is
//! trained on `referee synth --dataset` frames by
//! `scripts/train_detector.py` (`models/detector.onnx`) and quantized by
//! `scripts/quantize_detector.py`; its contract and figures are in
//! `models/README.md`. Input `board`: float32
//! [N, 3, 240, 240], BGR 0..255, the board as [`DETECTOR_RECTIFIER`] warps
//! it. Outputs by rectified cell (row-major, row 0 at the picture's top):
//! `pieces` [N, 64, 13] probabilities over [`CLASSES`], `hand` and `touch`
//! [N, 64], `hand_present` [N], `features` [N, 64, F] (each square's
//! features, for [`crate::venue`]).

use opencv::core::Mat;
use opencv::prelude::*;
use ort::session::Session;
use ort::value::Tensor;
use shakmaty::{Bitboard, Color, Piece, Rank, Role, Square, attacks};

use crate::error::OpenCvContext;
use crate::still::SURE;
use crate::{BoardCorners, Error, Occupant, Orientation, Rectifier, Result, runtime};

/// The committed model, built into the executable: the trained float
/// model quantized to 8-bit integers (`scripts/quantize_detector`).
const MODEL: &[u8] = include_bytes!("../../../models/detector.int8.onnx");

/// The rectification the model was trained on: 24 pixels a square and one
/// square of margin (240 pixels a side).
pub const DETECTOR_RECTIFIER: Rectifier = Rectifier {
    square_px: 24,
    margin_squares: 1.0,
    surround_squares: 0.0,
};

/// The model's classes, in its output order: empty, then FEN letters.
pub const CLASSES: [char; 13] = [
    '.', 'P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k',
];

/// A hand covers a square from this probability.
pub const HAND_THRESHOLD: f32 = 0.2;
/// On real footage, where the real-hand models decide, a square the
/// detector finds a hand covering with at least this probability counts
/// as covered too: those models miss a hand the picture's edge cuts.
/// Higher than [`HAND_THRESHOLD`]: the detector learnt hands on renders,
/// and on real pictures it also reads pieces leaning at the picture's edge
/// as a hand, less surely (`models/HANDS.md`).
pub const SURE_HAND_THRESHOLD: f32 = 0.9;
/// A fingertip touches the square of largest `touch` from this probability.
/// Low enough to find 95.7% of touches on the rendered held-out set (94.9%
/// at 0.3); a hand passing over pieces is then read touching one on about
/// half its frames, which the tracker tells from a touch by the hand
/// stopping (`referee_tracker::REST_MOTION`).
pub const TOUCH_THRESHOLD: f32 = 0.2;
/// A hand is in view from this `hand_present` probability; no fingertip is
/// read without one (a piece shaped and coloured like a fingertip, a
/// queen's crown in a skin-toned set, is not a touch), unless the model is
/// sure of the fingertip itself ([`LONE_TOUCH_THRESHOLD`]).
pub const PRESENT_THRESHOLD: f32 = 0.5;
/// A fingertip read this surely counts with no hand read in view: a hand
/// reaching a piece on the board's edge from beyond the picture's edge
/// shows the model little more than the finger on the piece. Twice
/// [`TOUCH_THRESHOLD`]: a piece read as a fingertip with no hand in view
/// seldom reaches it, and a still piece the fingertip does not cover makes
/// no touch (`referee_tracker::REST_RISE`).
pub const LONE_TOUCH_THRESHOLD: f32 = 0.4;
/// A fingertip read on a square stays there from frame to frame while the
/// model, a hand in view, still reads its likeliest fingertip there at
/// least this surely: a finger resting on a piece at the far end of an arm
/// laid across the board reads weaker than the same finger arriving, its
/// hand still over the piece. Half [`TOUCH_THRESHOLD`]: a fingertip first
/// read at that.
pub const KEPT_TOUCH_THRESHOLD: f32 = 0.1;

/// What the model says about one rectified cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellReading {
    /// Probabilities over [`CLASSES`].
    pub classes: [f32; 13],
    pub hand: f32,
    pub touch: f32,
}

impl CellReading {
    /// The probabilities of empty, a White piece and a Black one (each
    /// side's summed over its pieces).
    pub fn occupant_probabilities(&self) -> [f32; 3] {
        [
            self.classes[0],
            self.classes[1..7].iter().sum(),
            self.classes[7..13].iter().sum(),
        ]
    }

    /// The likelier occupant and its probability (the sum over its pieces).
    pub fn occupant(&self) -> (Occupant, f32) {
        let [empty, white, black] = self.occupant_probabilities();
        if empty >= white && empty >= black {
            (Occupant::Empty, empty)
        } else if white >= black {
            (Occupant::White, white)
        } else {
            (Occupant::Black, black)
        }
    }

    /// Whether the cell can be judged: the occupant sure enough
    /// ([`SURE`]) and no hand over it.
    pub fn judged(&self) -> bool {
        self.occupant().1 >= SURE && self.hand < HAND_THRESHOLD
    }

    /// The likeliest piece of the likelier side, when the cell holds one.
    pub fn piece(&self) -> Option<Piece> {
        self.piece_among(&Role::ALL)
    }

    /// The likeliest of `roles` for the likelier side, when the cell holds
    /// a piece: what is known to stand there narrows the reading (a pawn
    /// promotes to a knight, bishop, rook or queen, never to a king, which
    /// a queen seen at the board's far edge may resemble most).
    pub fn piece_among(&self, roles: &[Role]) -> Option<Piece> {
        let (color, first) = match self.occupant().0 {
            Occupant::Empty => return None,
            Occupant::White => (Color::White, 1),
            Occupant::Black => (Color::Black, 7),
        };
        let class = |role: Role| first + usize::from(role) - 1;
        let role = roles
            .iter()
            .copied()
            .max_by(|&a, &b| self.classes[class(a)].total_cmp(&self.classes[class(b)]))?;
        Some(Piece { color, role })
    }
}

/// One frame's reading, by rectified cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Detection {
    pub cells: [CellReading; 64],
    pub hand_present: f32,
    /// Each cell's features, `feature_len` values a cell (empty when the
    /// model gives none): what the per-game adaptation learns from.
    pub features: Vec<f32>,
    pub feature_len: usize,
}

impl Detection {
    /// The reading of the square at `file`, `rank` (0..8) when the board lies `orientation`.
    pub fn square(&self, orientation: Orientation, file: usize, rank: usize) -> &CellReading {
        &self.cells[orientation.cell(file, rank)]
    }

    /// The features of one cell (empty when the model gives none).
    pub fn cell_features(&self, cell: usize) -> &[f32] {
        let n = self.feature_len;
        self.features.get(cell * n..(cell + 1) * n).unwrap_or(&[])
    }

    /// The square a fingertip touches when the board lies `orientation`,
    /// if the model is sure of one and of a hand in view, or sure enough of
    /// the fingertip alone ([`LONE_TOUCH_THRESHOLD`]).
    pub fn fingertip(&self, orientation: Orientation) -> Option<Square> {
        let least = if self.hand_present >= PRESENT_THRESHOLD {
            TOUCH_THRESHOLD
        } else {
            LONE_TOUCH_THRESHOLD
        };
        let cell = self
            .likeliest_touch()
            .filter(|&cell| self.cells[cell].touch >= least)?;
        Square::ALL
            .into_iter()
            .find(|sq| orientation.cell(usize::from(sq.file()), usize::from(sq.rank())) == cell)
    }

    /// The square a fingertip touches, as [`Self::fingertip`], or, where
    /// it reads none, the square it touched on the frame `before` while
    /// the model still puts its likeliest fingertip there, a hand in view
    /// ([`KEPT_TOUCH_THRESHOLD`]).
    pub fn fingertip_after(
        &self,
        orientation: Orientation,
        before: Option<Square>,
    ) -> Option<Square> {
        let kept = |sq: Square| {
            let cell = orientation.cell(usize::from(sq.file()), usize::from(sq.rank()));
            self.hand_present >= PRESENT_THRESHOLD
                && self.likeliest_touch() == Some(cell)
                && self.cells[cell].touch >= KEPT_TOUCH_THRESHOLD
        };
        self.fingertip(orientation)
            .or_else(|| before.filter(|&sq| kept(sq)))
    }

    /// The cell the model most likely reads a fingertip on.
    fn likeliest_touch(&self) -> Option<usize> {
        (0..self.cells.len()).max_by(|&a, &b| self.cells[a].touch.total_cmp(&self.cells[b].touch))
    }

    /// The square the fingertip may touch instead of [`Self::fingertip`]'s:
    /// the likeliest of that square's neighbours, where the model reads a
    /// fingertip too ([`TOUCH_THRESHOLD`]). A hand reaching a piece at the
    /// board's edge past another is often read touching the one it passes
    /// (most of its wrong squares are neighbours: models/README.md); which
    /// of the two the finger is on, the picture of each tells
    /// (`Fingertip::borne_out` in the referee's watch).
    pub fn fingertip_beside(&self, orientation: Orientation) -> Option<Square> {
        let first = self.fingertip(orientation)?;
        let touch = |sq: &Square| {
            self.square(orientation, usize::from(sq.file()), usize::from(sq.rank()))
                .touch
        };
        attacks::king_attacks(first)
            .into_iter()
            .max_by(|a, b| touch(a).total_cmp(&touch(b)))
            .filter(|sq| touch(sq) >= TOUCH_THRESHOLD)
    }

    /// The squares a hand covers when the board lies `orientation`, one bit
    /// per `Square` index.
    pub fn covered(&self, orientation: Orientation) -> u64 {
        Square::ALL
            .into_iter()
            .filter(|sq| {
                self.square(orientation, usize::from(sq.file()), usize::from(sq.rank()))
                    .hand
                    >= HAND_THRESHOLD
            })
            .fold(0, |bits, sq| bits | 1 << usize::from(sq))
    }

    /// The side both of whose arms are over the board when it lies
    /// `orientation` (a move made with two hands, art. 4.1): two separate
    /// patches of hand-covered squares, both reaching the same player's
    /// first rank, over which the arms come in (a hand on the first rank,
    /// its arm beyond the edge, covers one square). One arm is one patch;
    /// the two players' arms reach opposite edges.
    pub fn two_arms(&self, orientation: Orientation) -> Option<Color> {
        let mut left = Bitboard(self.covered(orientation));
        let mut arms = [0, 0];
        while let Some(seed) = left.first() {
            let patch = patch_around(Bitboard::from_square(seed), left);
            left ^= patch;
            let reaches = |rank: Rank| patch.intersects(Bitboard::from_rank(rank));
            match (reaches(Rank::First), reaches(Rank::Eighth)) {
                (true, false) => arms[0] += 1,
                (false, true) => arms[1] += 1,
                _ => {}
            }
        }
        if arms[0] >= 2 {
            Some(Color::White)
        } else if arms[1] >= 2 {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// Whose hand is over the board when it lies `orientation`: the arm
    /// comes in over its player's edge, so the hand-covered squares away
    /// from the fingertip (not on it or next to it, which the hand covers
    /// whichever side it came from: White's hand on a rank-8 piece covers
    /// rank 8 too) reach that player's first rank. Both edges reached or
    /// neither: those squares lie on the arm's side of the fingertip; none
    /// (the hand barely over the board): the fingertip is near its
    /// player's edge (the three ranks next to it; `None` in the middle two).
    pub fn hand_side(&self, orientation: Orientation) -> Option<Color> {
        self.side_reaching(orientation, self.fingertip(orientation))
    }

    /// [`Self::hand_side`], the fingertip on `tip` (one kept from the
    /// frame before: [`Self::fingertip_after`]).
    pub fn side_reaching(&self, orientation: Orientation, tip: Option<Square>) -> Option<Color> {
        let covered = Bitboard(self.covered(orientation));
        let arm = match tip {
            Some(tip) => covered & !(attacks::king_attacks(tip) | Bitboard::from_square(tip)),
            None => covered,
        };
        let reaches = |rank: Rank| arm.intersects(Bitboard::from_rank(rank));
        match (reaches(Rank::First), reaches(Rank::Eighth)) {
            (true, false) => return Some(Color::White),
            (false, true) => return Some(Color::Black),
            _ => {}
        }
        let tip = tip?;
        let ranks_from_tip: Vec<f32> = arm
            .into_iter()
            .map(|sq| f32::from(sq.rank() as u8) - f32::from(tip.rank() as u8))
            .collect();
        if !ranks_from_tip.is_empty() {
            let towards = ranks_from_tip.iter().sum::<f32>() / ranks_from_tip.len() as f32;
            if towards <= -0.5 {
                return Some(Color::White);
            }
            if towards >= 0.5 {
                return Some(Color::Black);
            }
        }
        match tip.rank() {
            rank if rank <= Rank::Third => Some(Color::White),
            rank if rank >= Rank::Sixth => Some(Color::Black),
            _ => None,
        }
    }

    /// Which way the board lies, from where the pieces stand: of the ways
    /// that put a dark square at a1 (`a1_dark(orientation)`), the one with
    /// White's pieces nearest White's edge. `None` when no piece is seen.
    pub fn orientation_from_pieces(
        &self,
        a1_dark: impl Fn(Orientation) -> bool,
    ) -> Option<Orientation> {
        let mut best: Option<(f32, Orientation)> = None;
        for orientation in Orientation::ALL {
            if !a1_dark(orientation) {
                continue;
            }
            let (mut sum, mut seen) = (0.0, 0);
            for file in 0..8 {
                for rank in 0..8 {
                    let reading = self.square(orientation, file, rank);
                    let towards_black = rank as f32 - 3.5;
                    match reading.occupant().0 {
                        Occupant::White => sum -= towards_black,
                        Occupant::Black => sum += towards_black,
                        Occupant::Empty => continue,
                    }
                    seen += 1;
                }
            }
            if seen > 0 && best.is_none_or(|(b, _)| sum > b) {
                best = Some((sum, orientation));
            }
        }
        best.map(|(_, orientation)| orientation)
    }
}

/// The detector: the model's session, on one CPU thread.
pub struct Detector {
    session: Session,
}

impl std::fmt::Debug for Detector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Detector").finish_non_exhaustive()
    }
}

impl Detector {
    /// Loads the built-in model (ONNX Runtime's library must be present).
    pub fn load() -> Result<Self> {
        Ok(Self {
            session: runtime::load_model_from_memory(MODEL, 1, "detector")?,
        })
    }

    /// Reads the board that `corners` outline in `image` (BGR).
    pub fn detect(&mut self, image: &Mat, corners: &BoardCorners) -> Result<Detection> {
        let board = DETECTOR_RECTIFIER.rectify(image, corners)?;
        self.detect_rectified(&board.image)
    }

    /// Reads a board already rectified by [`DETECTOR_RECTIFIER`].
    pub fn detect_rectified(&mut self, board: &Mat) -> Result<Detection> {
        let side = DETECTOR_RECTIFIER.side_px();
        let size = board.size().doing("sizing the rectified board")?;
        if size.width != side || size.height != side || board.channels() != 3 {
            return Err(Error::Calibration(format!(
                "the detector reads a {side}x{side} BGR board, not {}x{} with {} channels",
                size.width,
                size.height,
                board.channels()
            )));
        }
        let input = Tensor::from_array(([1, 3, side as usize, side as usize], planar(board)?))
            .map_err(|source| onnx("making the detector's input", source))?;
        let outputs = self
            .session
            .run(ort::inputs!["board" => input])
            .map_err(|source| onnx("running the detector", source))?;
        let extract = |name: &str, len: usize| -> Result<Vec<f32>> {
            let (_, values) = outputs[name]
                .try_extract_tensor::<f32>()
                .map_err(|source| onnx(&format!("reading the detector's {name}"), source))?;
            if values.len() != len {
                return Err(Error::Calibration(format!(
                    "the detector's {name} has {} values, not {len}",
                    values.len()
                )));
            }
            Ok(values.to_vec())
        };
        let classes = extract("pieces", 64 * 13)?;
        let hand = extract("hand", 64)?;
        let touch = extract("touch", 64)?;
        let present = extract("hand_present", 1)?;
        let features = match outputs.get("features") {
            Some(value) => {
                let (_, values) = value
                    .try_extract_tensor::<f32>()
                    .map_err(|source| onnx("reading the detector's features", source))?;
                values.to_vec()
            }
            None => Vec::new(),
        };
        let cells = std::array::from_fn(|cell| CellReading {
            classes: std::array::from_fn(|k| classes[cell * 13 + k]),
            hand: hand[cell],
            touch: touch[cell],
        });
        Ok(Detection {
            cells,
            hand_present: present[0],
            feature_len: features.len() / 64,
            features,
        })
    }
}

/// OpenCV's quarter turns of a picture, by how many clockwise.
const QUARTER_TURNS: [Option<opencv::core::RotateFlags>; 4] = [
    None,
    Some(opencv::core::RotateFlags::ROTATE_90_CLOCKWISE),
    Some(opencv::core::RotateFlags::ROTATE_180),
    Some(opencv::core::RotateFlags::ROTATE_90_COUNTERCLOCKWISE),
];

impl Detector {
    /// Reads a still picture's board (rectified by [`DETECTOR_RECTIFIER`])
    /// in its four quarter turns and averages the occupants and features
    /// cell by cell. The model learned every turn of the board, and its
    /// mistakes on real boards differ from turn to turn, so the average
    /// errs less (measured on the real photographs: `--test
    /// detector_real`); it costs four runs, which a still can spend and a
    /// video frame cannot. Hands and fingertips are read from the unturned
    /// run alone: the model's hand context learned the board as a camera
    /// shows it (pieces leaning towards the picture's top).
    pub fn detect_turned(&mut self, board: &Mat) -> Result<Detection> {
        let mut readings = Vec::with_capacity(QUARTER_TURNS.len());
        for (turns, flag) in QUARTER_TURNS.iter().enumerate() {
            let detection = match flag {
                None => self.detect_rectified(board)?,
                Some(flag) => {
                    let mut turned = Mat::default();
                    opencv::core::rotate(board, &mut turned, *flag as i32)
                        .doing("turning the rectified board")?;
                    self.detect_rectified(&turned)?
                }
            };
            readings.push((turns, detection));
        }
        Ok(average_turned(&readings))
    }
}

/// The cell a cell becomes when the board turns a quarter clockwise.
fn turned_clockwise(cell: usize) -> usize {
    let (row, col) = (cell / 8, cell % 8);
    col * 8 + (7 - row)
}

/// Readings of the board turned 0-3 quarters clockwise, each taken back to
/// the unturned cells and averaged; hand, fingertip and hand presence from
/// the unturned reading.
fn average_turned(readings: &[(usize, Detection)]) -> Detection {
    let share = 1.0 / readings.len() as f32;
    let feature_len = readings
        .iter()
        .map(|(_, d)| d.feature_len)
        .min()
        .unwrap_or(0);
    let mut average = Detection {
        cells: [CellReading {
            classes: [0.0; 13],
            hand: 0.0,
            touch: 0.0,
        }; 64],
        hand_present: 0.0,
        features: vec![0.0; 64 * feature_len],
        feature_len,
    };
    for (turns, detection) in readings {
        if *turns == 0 {
            average.hand_present = detection.hand_present;
        }
        for cell in 0..64 {
            let seen = (0..*turns).fold(cell, |c, _| turned_clockwise(c));
            let (into, from) = (&mut average.cells[cell], &detection.cells[seen]);
            for (a, b) in into.classes.iter_mut().zip(from.classes) {
                *a += share * b;
            }
            if *turns == 0 {
                into.hand = from.hand;
                into.touch = from.touch;
            }
            let features = &mut average.features[cell * feature_len..(cell + 1) * feature_len];
            for (a, b) in features.iter_mut().zip(detection.cell_features(seen)) {
                *a += share * b;
            }
        }
    }
    average
}

fn onnx(doing: &str, source: ort::Error) -> Error {
    Error::Onnx {
        doing: doing.to_string(),
        source,
    }
}

/// A BGR 8-bit image as planar float32 (channel, row, column).
fn planar(image: &Mat) -> Result<Vec<f32>> {
    let bytes = image.data_bytes().doing("reading the rectified board")?;
    let pixels = bytes.len() / 3;
    let mut planes = vec![0.0; bytes.len()];
    for (p, bgr) in bytes.chunks_exact(3).enumerate() {
        for (c, &value) in bgr.iter().enumerate() {
            planes[c * pixels + p] = f32::from(value);
        }
    }
    Ok(planes)
}

/// The squares of `within` joined to `seeds` by a chain of squares of
/// `within`, neighbours by a side or a corner (the seeds themselves
/// included).
pub fn patch_around(seeds: Bitboard, within: Bitboard) -> Bitboard {
    let mut patch = seeds;
    loop {
        let grown = patch.into_iter().fold(patch, |grown, sq| {
            grown | (shakmaty::attacks::king_attacks(sq) & within)
        });
        if grown == patch {
            return patch;
        }
        patch = grown;
    }
}

#[cfg(test)]
mod tests {
    use opencv::core::{CV_8UC3, Rect, Scalar};

    use super::*;

    #[test]
    fn the_fingertip_beside_is_a_likely_neighbour_of_the_likeliest() {
        let o = Orientation::WhiteBottom;
        let beside = |touches: &[(Square, f32)]| {
            let mut detection = reading(&[], None);
            for &(sq, touch) in touches {
                detection.cells[o.cell(usize::from(sq.file()), usize::from(sq.rank()))].touch =
                    touch;
            }
            detection.fingertip_beside(o)
        };
        assert_eq!(
            beside(&[(Square::H1, 0.9), (Square::G1, 0.6), (Square::H2, 0.3)]),
            Some(Square::G1)
        );
        // Too faint, or not a neighbour: none.
        assert_eq!(beside(&[(Square::H1, 0.9), (Square::G1, 0.1)]), None);
        assert_eq!(beside(&[(Square::H1, 0.9), (Square::F1, 0.6)]), None);
    }

    #[test]
    fn a_cell_turned_with_the_picture_is_found_where_opencv_puts_it() {
        let side = DETECTOR_RECTIFIER.side_px();
        let square = DETECTOR_RECTIFIER.square_px;
        let cell_rect = |cell: usize| {
            let (row, col) = ((cell / 8) as i32, (cell % 8) as i32);
            Rect::new(square * (col + 1), square * (row + 1), square, square)
        };
        for cell in [0, 10, 37, 63] {
            let mut board = Mat::new_rows_cols_with_default(side, side, CV_8UC3, Scalar::all(0.0))
                .expect("board");
            let mut marked = Mat::roi_mut(&mut board, cell_rect(cell)).expect("cell");
            marked.set_to_def(&Scalar::all(255.0)).expect("marks");
            let mut turned = Mat::default();
            opencv::core::rotate(
                &board,
                &mut turned,
                opencv::core::RotateFlags::ROTATE_90_CLOCKWISE as i32,
            )
            .expect("turns");
            let lit = (0..64)
                .find(|&c| {
                    let r = cell_rect(c);
                    let centre = (r.y + r.height / 2, r.x + r.width / 2);
                    *turned
                        .at_2d::<opencv::core::Vec3b>(centre.0, centre.1)
                        .expect("pixel")
                        == opencv::core::Vec3b::all(255)
                })
                .expect("the marked cell is somewhere");
            assert_eq!(lit, turned_clockwise(cell), "cell {cell}");
        }
    }

    #[test]
    fn turned_readings_average_back_onto_their_cells() {
        // The same board read unturned and turned a quarter: the turned
        // reading holds the white pawn at the cell the quarter turn moves
        // it to. Its hand, at that cell too, is not heard: hands are read
        // unturned.
        let blank = CellReading {
            classes: [0.0; 13],
            hand: 0.0,
            touch: 0.0,
        };
        let with_pawn_and_hand_at = |cell: usize| {
            let mut cells = [blank; 64];
            cells[cell].classes[1] = 1.0;
            cells[cell].hand = 1.0;
            cells[cell].touch = 1.0;
            Detection {
                cells,
                hand_present: 1.0,
                features: Vec::new(),
                feature_len: 0,
            }
        };
        let average = average_turned(&[
            (0, with_pawn_and_hand_at(9)),
            (1, with_pawn_and_hand_at(turned_clockwise(9))),
        ]);
        assert!((average.cells[9].classes[1] - 1.0).abs() < 1e-6);
        assert_eq!(
            average.cells.iter().filter(|c| c.classes[1] > 0.0).count(),
            1
        );
        assert_eq!((average.cells[9].hand, average.cells[9].touch), (1.0, 1.0));
        let turned = turned_clockwise(9);
        assert_eq!(
            (average.cells[turned].hand, average.cells[turned].touch),
            (0.0, 0.0)
        );
    }

    /// A reading with a hand over `covered` and the fingertip on `tip`,
    /// White at the bottom.
    fn reading(covered: &[Square], tip: Option<Square>) -> Detection {
        let o = Orientation::WhiteBottom;
        let mut cells = [CellReading {
            classes: [0.0; 13],
            hand: 0.0,
            touch: 0.0,
        }; 64];
        for sq in covered {
            cells[o.cell(usize::from(sq.file()), usize::from(sq.rank()))].hand = 0.9;
        }
        if let Some(sq) = tip {
            cells[o.cell(usize::from(sq.file()), usize::from(sq.rank()))].touch = 0.9;
        }
        Detection {
            cells,
            hand_present: 1.0,
            features: Vec::new(),
            feature_len: 0,
        }
    }

    #[test]
    fn the_hand_s_side_is_the_edge_its_arm_crosses() {
        let o = Orientation::WhiteBottom;
        // White's arm reaching e4 over e1-e3.
        let white = reading(&[Square::E1, Square::E2, Square::E3], Some(Square::E4));
        assert_eq!(white.hand_side(o), Some(Color::White));
        assert_eq!(
            white.covered(o),
            1 << usize::from(Square::E1)
                | 1 << usize::from(Square::E2)
                | 1 << usize::from(Square::E3)
        );
        // Black's arm reaching d5 over d8-d6.
        let black = reading(&[Square::D8, Square::D7, Square::D6], Some(Square::D5));
        assert_eq!(black.hand_side(o), Some(Color::Black));
        // White stretching to g8 across the whole board: the arm is at White's edge.
        let file_g = [Square::G1, Square::G2, Square::G4, Square::G6, Square::G8];
        assert_eq!(
            reading(&file_g, Some(Square::G8)).hand_side(o),
            Some(Color::White)
        );
        // A fingertip just over the board's edge, no arm over it.
        assert_eq!(
            reading(&[], Some(Square::G1)).hand_side(o),
            Some(Color::White)
        );
        assert_eq!(
            reading(&[], Some(Square::B7)).hand_side(o),
            Some(Color::Black)
        );
        assert_eq!(reading(&[], Some(Square::D4)).hand_side(o), None);
        // A fingertip where the model sees no hand in view: none, unless
        // the model is sure of the fingertip itself (a hand cut by the
        // picture's edge).
        let mut unsure = reading(&[], Some(Square::D1));
        unsure.cells[o.cell(3, 0)].touch = LONE_TOUCH_THRESHOLD - 0.1;
        assert_eq!(unsure.fingertip(o), Some(Square::D1));
        unsure.hand_present = PRESENT_THRESHOLD - 0.1;
        assert_eq!(unsure.fingertip(o), None);
        assert_eq!(unsure.hand_side(o), None);
        unsure.cells[o.cell(3, 0)].touch = LONE_TOUCH_THRESHOLD;
        assert_eq!(unsure.fingertip(o), Some(Square::D1));
        assert_eq!(unsure.hand_side(o), Some(Color::White));
        // White's hand on d6 seen without its arm reaching the edge: the
        // covered squares lie below the fingertip.
        let short = reading(&[Square::D6, Square::D5, Square::D4], Some(Square::D6));
        assert_eq!(short.hand_side(o), Some(Color::White));
        // White reaching a rank-8 piece: the hand covers b8 (Black's first
        // rank) and the arm b2-b7, not yet the edge.
        let b_file = [
            Square::B2,
            Square::B3,
            Square::B4,
            Square::B5,
            Square::B6,
            Square::B7,
            Square::B8,
        ];
        assert_eq!(
            reading(&b_file, Some(Square::B8)).hand_side(o),
            Some(Color::White)
        );
        // Black reaching a rank-1 piece, its hand over a1 and b1.
        let reaching_down = [Square::A1, Square::B1, Square::B3, Square::B5, Square::B7];
        assert_eq!(
            reading(&reaching_down, Some(Square::B1)).hand_side(o),
            Some(Color::Black)
        );
        // White's two hands in one move (art. 4.1), the fingertip on the
        // king: the other arm crosses White's edge three files away.
        let two = [Square::E1, Square::D1, Square::A1, Square::A2, Square::A3];
        assert_eq!(
            reading(&two, Some(Square::E1)).hand_side(o),
            Some(Color::White)
        );
        // Black's hand on a rank-8 piece from behind, covering its square
        // and the next: Black's.
        assert_eq!(
            reading(&[Square::B8, Square::C8], Some(Square::B8)).hand_side(o),
            Some(Color::Black)
        );
    }

    #[test]
    fn a_reading_narrowed_to_some_pieces_keeps_the_likeliest_of_them() {
        let mut cell = CellReading {
            classes: [0.0; 13],
            hand: 0.0,
            touch: 0.0,
        };
        // White: king 0.5, queen 0.3, knight 0.15; black bishop 0.05.
        cell.classes[6] = 0.5;
        cell.classes[5] = 0.3;
        cell.classes[2] = 0.15;
        cell.classes[9] = 0.05;
        let white = |role| {
            Some(Piece {
                color: Color::White,
                role,
            })
        };
        assert_eq!(cell.piece(), white(Role::King));
        let promotion = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
        assert_eq!(cell.piece_among(&promotion), white(Role::Queen));
        assert_eq!(
            cell.piece_among(&[Role::Knight, Role::Pawn]),
            white(Role::Knight)
        );
        // Black's side: the same class offsets.
        cell.classes = [0.0; 13];
        cell.classes[10] = 0.7;
        cell.classes[12] = 0.2;
        assert_eq!(
            cell.piece_among(&promotion),
            Some(Piece {
                color: Color::Black,
                role: Role::Rook
            })
        );
        // An empty square holds none.
        cell.classes = [0.0; 13];
        cell.classes[0] = 1.0;
        assert_eq!(cell.piece_among(&promotion), None);
    }

    #[test]
    fn two_arms_are_two_patches_reaching_one_edge() {
        let o = Orientation::WhiteBottom;
        use Square::*;
        // White's two hands: one on e2-e4, the other over b1-b2.
        let both = reading(&[E1, E2, E3, E4, B1, B2], Some(E4));
        assert_eq!(both.two_arms(o), Some(Color::White));
        // Black's two hands.
        let black = reading(&[A8, A7, G8, G7, G6], Some(G6));
        assert_eq!(black.two_arms(o), Some(Color::Black));
        // One arm, even a wide one joined at a corner: no.
        let wide = reading(&[E1, E2, F2, F3, G4], Some(G4));
        assert_eq!(wide.two_arms(o), None);
        // Castling with two hands: the king's hand on e1 (its arm beyond
        // the edge), the other over c1-c2.
        let castling = reading(&[E1, C1, C2], Some(E1));
        assert_eq!(castling.two_arms(o), Some(Color::White));
        // One arm of each player.
        let players = reading(&[E1, E2, E3, D8, D7], Some(E3));
        assert_eq!(players.two_arms(o), None);
        // A patch not reaching an edge is no arm.
        let floating = reading(&[E1, E2, B4, B5], Some(E2));
        assert_eq!(floating.two_arms(o), None);
    }

    #[test]
    fn a_fingertip_resting_at_the_end_of_an_arm_stays_where_it_was_read() {
        let o = Orientation::WhiteBottom;
        let e_file = [Square::E1, Square::E2, Square::E4, Square::E6, Square::E8];
        // White's finger on e8, read weakly as it rests there.
        let mut resting = reading(&e_file, Some(Square::E8));
        let e8 = o.cell(4, 7);
        resting.cells[e8].touch = KEPT_TOUCH_THRESHOLD;
        assert_eq!(resting.fingertip(o), None);
        assert_eq!(
            resting.fingertip_after(o, Some(Square::E8)),
            Some(Square::E8)
        );
        // Whose: the arm reaches both edges, the fingertip tells.
        assert_eq!(resting.hand_side(o), None);
        assert_eq!(
            resting.side_reaching(o, Some(Square::E8)),
            Some(Color::White)
        );
        // Read there on no frame before, or another square before it, or
        // another square likelier now, or no hand in view: none.
        assert_eq!(resting.fingertip_after(o, None), None);
        assert_eq!(resting.fingertip_after(o, Some(Square::D8)), None);
        let mut elsewhere = resting.clone();
        elsewhere.cells[o.cell(3, 7)].touch = KEPT_TOUCH_THRESHOLD + 0.05;
        assert_eq!(elsewhere.fingertip_after(o, Some(Square::E8)), None);
        let mut handless = resting.clone();
        handless.hand_present = PRESENT_THRESHOLD - 0.1;
        assert_eq!(handless.fingertip_after(o, Some(Square::E8)), None);
        // Fainter still: gone.
        resting.cells[e8].touch = KEPT_TOUCH_THRESHOLD - 0.05;
        assert_eq!(resting.fingertip_after(o, Some(Square::E8)), None);
        // Read surely: wherever it was before.
        resting.cells[e8].touch = TOUCH_THRESHOLD;
        assert_eq!(
            resting.fingertip_after(o, Some(Square::A1)),
            Some(Square::E8)
        );
    }
}
