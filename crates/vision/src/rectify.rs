//! Rectification: the board's four corners in a camera image → a square,
//! top-down image of the board, squares aligned with the pixel grid.
//!
//! Input: a BGR image and the outer corners of the 8x8 playing area,
//! clockwise from the image's top-left (contracts.md §4). Output: a
//! [`RectifiedBoard`] of `(8 + 2·border)·square_px` pixels a side (border:
//! the margin and the surround beyond it), where the square in image row
//! `r`, column `c` (row 0 at the top, as the camera sees it) starts at
//! `border + c·square_px, border + r·square_px`. Which edge is White's is
//! decided later, from the pieces.

use std::path::Path;

use opencv::core::{Mat, Point2f, Rect, Scalar, Size, Vector};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc};

use crate::error::OpenCvContext;
use crate::{Error, Result};

/// The four outer corners of the playing area in image pixels, clockwise
/// from top-left: top-left, top-right, bottom-right, bottom-left.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BoardCorners(pub [[f32; 2]; 4]);

impl BoardCorners {
    /// Checks the corners make a convex quadrilateral of non-trivial size.
    pub fn validate(&self) -> Result<()> {
        let p = self.0;
        if p.iter().flatten().any(|v| !v.is_finite()) {
            return Err(Error::BadCorners(format!("not finite: {p:?}")));
        }
        // Cross products of consecutive edges all share a sign when convex.
        let cross = |i: usize| {
            let (a, b, c) = (p[i], p[(i + 1) % 4], p[(i + 2) % 4]);
            (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        };
        let crosses = [cross(0), cross(1), cross(2), cross(3)];
        let convex = crosses.iter().all(|&c| c > 0.0) || crosses.iter().all(|&c| c < 0.0);
        if !convex {
            return Err(Error::BadCorners(format!(
                "not a convex quadrilateral: {p:?}"
            )));
        }
        let area = crosses.iter().map(|c| c.abs()).sum::<f32>() / 4.0;
        if area < MIN_BOARD_AREA_PX {
            return Err(Error::BadCorners(format!(
                "board of {area:.0} px² is too small: {p:?}"
            )));
        }
        Ok(())
    }

    pub(crate) fn points(&self) -> Vector<Point2f> {
        self.0.iter().map(|&[x, y]| Point2f::new(x, y)).collect()
    }
}

/// Smallest board area (pixels²) worth reading: 8 pixels a square.
const MIN_BOARD_AREA_PX: f32 = 64.0 * 64.0;

/// How a board is warped to its top-down view.
#[derive(Debug, Clone, Copy)]
pub struct Rectifier {
    /// Side of one square in the output, pixels.
    pub square_px: i32,
    /// Border kept around the playing area, in squares (pieces lean out of
    /// it): where the board is read.
    pub margin_squares: f32,
    /// Border beyond the margin, in squares, where only the head of a
    /// piece leaning out and a hand on it are looked for (a far piece's
    /// head, touched from behind): the board is not read there.
    pub surround_squares: f32,
}

impl Default for Rectifier {
    fn default() -> Self {
        Self {
            square_px: 32,
            margin_squares: 0.5,
            surround_squares: 0.0,
        }
    }
}

impl Rectifier {
    /// Margin and surround around the playing area in output pixels.
    pub fn margin_px(&self) -> i32 {
        ((self.margin_squares + self.surround_squares) * self.square_px as f32).round() as i32
    }

    /// The surround in output pixels.
    pub fn surround_px(&self) -> i32 {
        (self.surround_squares * self.square_px as f32).round() as i32
    }

    /// Side of the output image in pixels.
    pub fn side_px(&self) -> i32 {
        8 * self.square_px + 2 * self.margin_px()
    }

    /// The perspective transform taking `corners` to the output's playing area.
    pub fn homography(&self, corners: &BoardCorners) -> Result<Mat> {
        corners.validate()?;
        let (m, s) = (self.margin_px() as f32, (8 * self.square_px) as f32);
        let target: Vector<Point2f> = [[m, m], [m + s, m], [m + s, m + s], [m, m + s]]
            .iter()
            .map(|&[x, y]| Point2f::new(x, y))
            .collect();
        imgproc::get_perspective_transform(&corners.points(), &target, opencv::core::DECOMP_LU)
            .doing("computing the board homography")
    }

    /// Warps `image` to the top-down board that `corners` outline.
    pub fn rectify(&self, image: &Mat, corners: &BoardCorners) -> Result<RectifiedBoard> {
        let homography = self.homography(corners)?;
        let view = CameraView::from_corners(corners, image.size().doing("sizing the image")?)?;
        let margin = self.margin_px() as f32;
        let side = self.side_px();
        let mut board = Mat::default();
        imgproc::warp_perspective(
            image,
            &mut board,
            &homography,
            Size::new(side, side),
            imgproc::INTER_LINEAR,
            opencv::core::BORDER_CONSTANT,
            Scalar::all(0.0),
        )
        .doing("warping the board to a top-down view")?;
        Ok(RectifiedBoard {
            image: board,
            square_px: self.square_px,
            margin_px: self.margin_px(),
            surround_px: self.surround_px(),
            nadir: [
                margin + view.nadir[0] as f32 * self.square_px as f32,
                margin + view.nadir[1] as f32 * self.square_px as f32,
            ],
            lean: view.lean() as f32,
        })
    }
}

/// The focal length of a typical webcam, as a share of the image's height,
/// taken when the board is seen too squarely for its perspective to tell.
const ASSUMED_FOCAL_SHARE: f64 = 1.1;
/// Focal lengths believed from the perspective, as shares of the image's height.
const FOCAL_SHARES: std::ops::RangeInclusive<f64> = 0.4..=4.0;
/// How high a piece's top stands over the board, in squares (Staunton
/// proportions: a pawn 0.9, a king 1.7).
pub const PIECE_HEIGHT_SQUARES: f64 = 1.1;

/// Where the camera stands over the board, from the board's four corners in
/// its image (a pinhole camera looking through the image's centre).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraView {
    /// The point of the board plane under the camera, in squares from the
    /// playing area's top-left corner as the image shows it (x right, y down).
    pub nadir: [f64; 2],
    /// The camera's height over the board, in squares.
    pub height: f64,
}

impl CameraView {
    /// Finds the camera from the corners of the board in an image of `size`.
    pub fn from_corners(corners: &BoardCorners, size: Size) -> Result<Self> {
        corners.validate()?;
        let board: Vector<Point2f> = [[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]]
            .iter()
            .map(|&[x, y]| Point2f::new(x, y))
            .collect();
        let h =
            imgproc::get_perspective_transform(&board, &corners.points(), opencv::core::DECOMP_LU)
                .doing("relating the board to the image")?;
        let at = |r: i32, c: i32| {
            h.at_2d::<f64>(r, c)
                .copied()
                .doing("reading the homography")
        };
        let (cx, cy) = (f64::from(size.width) / 2.0, f64::from(size.height) / 2.0);
        // Columns of the homography with the image centre as origin.
        let mut cols = [[0.0; 3]; 3];
        for (c, col) in cols.iter_mut().enumerate() {
            let w = at(2, c as i32)?;
            *col = [at(0, c as i32)? - cx * w, at(1, c as i32)? - cy * w, w];
        }
        let [h1, h2, h3] = cols;
        // The board's two axes are at right angles: that tells the focal length.
        let f2 = -(h1[0] * h2[0] + h1[1] * h2[1]) / (h1[2] * h2[2]);
        let image_h = f64::from(size.height);
        let f = Some(f2.sqrt())
            .filter(|f| f.is_finite() && FOCAL_SHARES.contains(&(f / image_h)))
            .unwrap_or(ASSUMED_FOCAL_SHARE * image_h);
        let unproject = |v: [f64; 3]| [v[0] / f, v[1] / f, v[2]];
        let (r1, r2, t) = (unproject(h1), unproject(h2), unproject(h3));
        let norm = |v: [f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        let scale = 2.0 / (norm(r1) + norm(r2));
        let (r1, r2, t) = (
            r1.map(|v| v * scale),
            r2.map(|v| v * scale),
            t.map(|v| v * scale),
        );
        let r3 = [
            r1[1] * r2[2] - r1[2] * r2[1],
            r1[2] * r2[0] - r1[0] * r2[2],
            r1[0] * r2[1] - r1[1] * r2[0],
        ];
        let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        Ok(Self {
            nadir: [-dot(r1, t), -dot(r2, t)],
            height: dot(r3, t).abs(),
        })
    }

    /// How far a piece's top leans out, as a share of its square's distance
    /// from the nadir (see [`RectifiedBoard::lean`]).
    pub fn lean(&self) -> f64 {
        if self.height <= 2.0 * PIECE_HEIGHT_SQUARES {
            return 1.0;
        }
        PIECE_HEIGHT_SQUARES / (self.height - PIECE_HEIGHT_SQUARES)
    }
}

/// A top-down board image, squares aligned with the pixel grid.
#[derive(Debug)]
pub struct RectifiedBoard {
    /// BGR image, `8·square_px + 2·margin_px` pixels a side.
    pub image: Mat,
    pub square_px: i32,
    /// The border round the playing area, surround included.
    pub margin_px: i32,
    /// The band along the image's edge, out of [`Self::reading_area`],
    /// where only heads are looked for ([`Rectifier::surround_squares`]).
    pub surround_px: i32,
    /// The point under the camera, in this image's pixels.
    pub nadir: [f32; 2],
    /// How far a piece's top leans out from its square, as a share of the
    /// square's distance from the nadir (a piece's height over the camera's
    /// height above its top; [`CameraView::lean`]). 0: read squares where
    /// they lie.
    pub lean: f32,
}

/// Colour statistics of one square's pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SquareStats {
    /// Mean grey level, 0..255.
    pub mean: f32,
    /// Standard deviation of the grey level.
    pub spread: f32,
}

impl RectifiedBoard {
    /// Width and height of the image in pixels.
    pub fn size(&self) -> (i32, i32) {
        (self.image.cols(), self.image.rows())
    }

    /// The pixels of the square in image row `row`, column `col` (0..8, row 0
    /// at the top), shrunk by `inset` (a fraction of the square on each side).
    pub fn square_rect(&self, row: i32, col: i32, inset: f32) -> Rect {
        let s = self.square_px;
        let pad = (inset * s as f32).round() as i32;
        Rect::new(
            self.margin_px + col * s + pad,
            self.margin_px + row * s + pad,
            (s - 2 * pad).max(1),
            (s - 2 * pad).max(1),
        )
    }

    /// Where the board is read: the playing area and its margin, the
    /// surround left out.
    pub fn reading_area(&self) -> Rect {
        let (cols, rows) = self.size();
        let band = self.surround_px;
        Rect::new(band, band, cols - 2 * band, rows - 2 * band)
    }

    /// Where a piece standing on the square in image row `row`, column `col`
    /// shows: the square moved halfway towards where the piece's top leans
    /// (away from the nadir), shrunk by `inset`, kept inside the
    /// [`Self::reading_area`].
    pub fn piece_rect(&self, row: i32, col: i32, inset: f32) -> Rect {
        self.leaning_rect(row, col, inset, [0.5, 0.0], self.reading_area())
    }

    /// Where the head of a piece standing on the square shows, and a finger
    /// resting on it: the square moved all the way to where the piece's top
    /// leans, shrunk by `inset`, kept inside the image (surround included).
    /// A piece on the edge of the board touched from behind is touched
    /// there, out of [`Self::piece_rect`]'s sight.
    pub fn head_rect(&self, row: i32, col: i32, inset: f32) -> Rect {
        self.leaning_rect(row, col, inset, [1.0, 0.0], self.whole())
    }

    /// Just beyond the head of a piece standing on the square: its head's
    /// window moved half a square further from the nadir, kept inside the
    /// image. A finger touching a far piece from behind rests there.
    pub fn crown_rect(&self, row: i32, col: i32, inset: f32) -> Rect {
        self.leaning_rect(row, col, inset, [1.0, 0.5], self.whole())
    }

    fn whole(&self) -> Rect {
        let (cols, rows) = self.size();
        Rect::new(0, 0, cols, rows)
    }

    /// The square in image row `row`, column `col`, moved by `share` of how
    /// far a piece's top leans out there and `beyond` squares further from
    /// the nadir, shrunk by `inset`, kept inside `within`.
    fn leaning_rect(
        &self,
        row: i32,
        col: i32,
        inset: f32,
        [share, beyond]: [f32; 2],
        within: Rect,
    ) -> Rect {
        let square = self.square_rect(row, col, inset);
        let s = self.square_px as f32;
        let centre = [
            self.margin_px as f32 + (col as f32 + 0.5) * s,
            self.margin_px as f32 + (row as f32 + 0.5) * s,
        ];
        let away = [centre[0] - self.nadir[0], centre[1] - self.nadir[1]];
        let distance = away[0].hypot(away[1]).max(1.0);
        let shift = |axis: usize| {
            (share * self.lean * away[axis] + beyond * s * away[axis] / distance).round() as i32
        };
        Rect::new(
            (square.x + shift(0)).clamp(within.x, within.x + within.width - square.width),
            (square.y + shift(1)).clamp(within.y, within.y + within.height - square.height),
            square.width,
            square.height,
        )
    }

    /// The window of every square, row-major from the image's top-left
    /// square: where the square lies, or where a piece on it shows.
    fn windows(&self, window: Window, inset: f32) -> impl Iterator<Item = Rect> + '_ {
        (0..64).map(move |index| {
            let (row, col) = (index / 8, index % 8);
            match window {
                Window::Square => self.square_rect(row, col, inset),
                Window::Piece => self.piece_rect(row, col, inset),
            }
        })
    }

    /// Mean colour (BGR) in each square's window, row-major from the
    /// image's top-left square, each window shrunk by `inset`.
    pub fn colours(&self, window: Window, inset: f32) -> Result<[[f32; 3]; 64]> {
        let mut colours = [[0.0; 3]; 64];
        for (colour, rect) in colours.iter_mut().zip(self.windows(window, inset)) {
            let roi = Mat::roi(&self.image, rect).doing("taking a square of the board")?;
            let mean = opencv::core::mean(&roi, &opencv::core::no_array())
                .doing("measuring a square's colour")?;
            *colour = [mean[0] as f32, mean[1] as f32, mean[2] as f32];
        }
        Ok(colours)
    }

    /// Grey-level statistics in each square's window, row-major from the
    /// image's top-left square, each window shrunk by `inset`.
    pub fn stats(&self, window: Window, inset: f32) -> Result<[SquareStats; 64]> {
        let mut grey = Mat::default();
        imgproc::cvt_color_def(&self.image, &mut grey, imgproc::COLOR_BGR2GRAY)
            .doing("converting the board to grey")?;
        let mut stats = [SquareStats {
            mean: 0.0,
            spread: 0.0,
        }; 64];
        for (stat, rect) in stats.iter_mut().zip(self.windows(window, inset)) {
            let roi = Mat::roi(&grey, rect).doing("taking a square of the board")?;
            let (mut mean, mut stddev) = (Mat::default(), Mat::default());
            opencv::core::mean_std_dev(&roi, &mut mean, &mut stddev, &opencv::core::no_array())
                .doing("measuring a square")?;
            *stat = SquareStats {
                mean: *mean.at::<f64>(0).doing("reading a square's mean")? as f32,
                spread: *stddev.at::<f64>(0).doing("reading a square's spread")? as f32,
            };
        }
        Ok(stats)
    }

    /// Mean colour (BGR) of each square where it lies ([`Window::Square`]).
    pub fn square_colours(&self, inset: f32) -> Result<[[f32; 3]; 64]> {
        self.colours(Window::Square, inset)
    }

    /// Grey-level statistics of each square where it lies ([`Window::Square`]).
    pub fn square_stats(&self, inset: f32) -> Result<[SquareStats; 64]> {
        self.stats(Window::Square, inset)
    }
}

/// Which part of the picture a square is measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// The square itself: its colour, an empty board's pattern.
    Square,
    /// Where a piece standing on it shows ([`RectifiedBoard::piece_rect`]).
    Piece,
}

/// Reads an image file as BGR.
pub fn read_image(path: &Path) -> Result<Mat> {
    let fail = |reason: String| Error::ReadImage {
        path: path.to_path_buf(),
        reason,
    };
    let name = path
        .to_str()
        .ok_or_else(|| fail("path is not UTF-8".into()))?;
    let image =
        imgcodecs::imread(name, imgcodecs::IMREAD_COLOR).map_err(|e| fail(e.to_string()))?;
    if image.empty() {
        return Err(fail("missing, unreadable or not an image".into()));
    }
    Ok(image)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A blank 288-pixel board (32 a square, 16 of margin) seen from over
    /// its centre, a piece's top leaning out by `lean` of its distance.
    fn board(lean: f32) -> RectifiedBoard {
        surrounded(16, 0, lean)
    }

    /// A blank board of 32 pixels a square, `margin_px` of border of which
    /// `surround_px` is surround, seen from over its centre, a piece's top
    /// leaning out by `lean` of its distance.
    fn surrounded(margin_px: i32, surround_px: i32, lean: f32) -> RectifiedBoard {
        let side = 8 * 32 + 2 * margin_px;
        RectifiedBoard {
            image: Mat::new_rows_cols_with_default(
                side,
                side,
                opencv::core::CV_8UC3,
                Scalar::all(0.0),
            )
            .expect("a blank image"),
            square_px: 32,
            margin_px,
            surround_px,
            nadir: [side as f32 / 2.0; 2],
            lean,
        }
    }

    #[test]
    fn a_piece_s_head_shows_twice_as_far_out_as_the_piece_itself() {
        let board = board(0.2);
        // The top rank's fourth square, 112 pixels above the nadir and 16
        // left of it: the piece shows 11 pixels further up, its head 22,
        // which the picture's edge stops at 16.
        let (square, piece, head) = (
            board.square_rect(0, 3, 0.0),
            board.piece_rect(0, 3, 0.0),
            board.head_rect(0, 3, 0.0),
        );
        assert_eq!((square.y - piece.y, square.y - head.y), (11, 16));
        assert_eq!(head.y, 0);
        assert_eq!((piece.x, head.x), (square.x - 2, square.x - 3));
    }

    #[test]
    fn a_far_piece_s_head_is_looked_for_in_the_surround_and_the_piece_is_read_short_of_it() {
        // Half a square of margin and half of surround.
        let board = surrounded(32, 16, 0.4);
        assert_eq!(board.reading_area(), Rect::new(16, 16, 288, 288));
        // The top rank's fourth square, 112 pixels above the nadir: the
        // piece would show 22 pixels up, past the reading area's edge, its
        // head 45, into the surround and out of the picture.
        let (square, piece, head) = (
            board.square_rect(0, 3, 0.0),
            board.piece_rect(0, 3, 0.0),
            board.head_rect(0, 3, 0.0),
        );
        assert_eq!((square.y, piece.y, head.y), (32, 16, 0));
    }

    #[test]
    fn just_beyond_a_piece_s_head_lies_half_a_square_further_from_the_nadir() {
        let board = board(0.1);
        // The second rank's fourth square, 80 pixels above the nadir and 16
        // left of it: the head shows 8 up and 2 left, just beyond it
        // another 16 up and 3 left (half a square along the same way).
        let (head, crown) = (board.head_rect(1, 3, 0.0), board.crown_rect(1, 3, 0.0));
        assert_eq!((head.y - crown.y, head.x - crown.x), (16, 3));
        // A square under the nadir has no way out: there it is the head.
        let board = RectifiedBoard {
            nadir: [16.0 + 3.5 * 32.0, 16.0 + 3.5 * 32.0],
            ..board
        };
        assert_eq!(board.crown_rect(3, 3, 0.0), board.head_rect(3, 3, 0.0));
    }
}
