//! Rectification: the board's four corners in a camera image → a square,
//! top-down image of the board, squares aligned with the pixel grid.
//!
//! Input: a BGR image and the outer corners of the 8x8 playing area,
//! clockwise from the image's top-left (contracts.md §4). Output: a
//! [`RectifiedBoard`] of `(8 + 2·margin)·square_px` pixels a side, where the
//! square in image row `r`, column `c` (row 0 at the top, as the camera sees
//! it) starts at `margin + c·square_px, margin + r·square_px`. Which edge is
//! White's is decided later, from the pieces.

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

    fn points(&self) -> Vector<Point2f> {
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
    /// Border kept around the playing area, in squares (pieces lean out of it).
    pub margin_squares: f32,
}

impl Default for Rectifier {
    fn default() -> Self {
        Self {
            square_px: 32,
            margin_squares: 0.5,
        }
    }
}

impl Rectifier {
    /// Margin around the playing area in output pixels.
    pub fn margin_px(&self) -> i32 {
        (self.margin_squares * self.square_px as f32).round() as i32
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
        })
    }
}

/// A top-down board image, squares aligned with the pixel grid.
#[derive(Debug)]
pub struct RectifiedBoard {
    /// BGR image, `8·square_px + 2·margin_px` pixels a side.
    pub image: Mat,
    pub square_px: i32,
    pub margin_px: i32,
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

    /// Mean colour (BGR) of each square, row-major from the image's top-left
    /// square, each square shrunk by `inset`.
    pub fn square_colours(&self, inset: f32) -> Result<[[f32; 3]; 64]> {
        let mut colours = [[0.0; 3]; 64];
        for (index, colour) in colours.iter_mut().enumerate() {
            let (row, col) = ((index / 8) as i32, (index % 8) as i32);
            let roi = Mat::roi(&self.image, self.square_rect(row, col, inset))
                .doing("taking a square of the board")?;
            let mean = opencv::core::mean(&roi, &opencv::core::no_array())
                .doing("measuring a square's colour")?;
            *colour = [mean[0] as f32, mean[1] as f32, mean[2] as f32];
        }
        Ok(colours)
    }

    /// Grey-level statistics of each square, row-major from the image's
    /// top-left square, each square shrunk by `inset`.
    pub fn square_stats(&self, inset: f32) -> Result<[SquareStats; 64]> {
        let mut grey = Mat::default();
        imgproc::cvt_color_def(&self.image, &mut grey, imgproc::COLOR_BGR2GRAY)
            .doing("converting the board to grey")?;
        let mut stats = [SquareStats {
            mean: 0.0,
            spread: 0.0,
        }; 64];
        for (index, stat) in stats.iter_mut().enumerate() {
            let (row, col) = ((index / 8) as i32, (index % 8) as i32);
            let roi = Mat::roi(&grey, self.square_rect(row, col, inset))
                .doing("taking a square of the board")?;
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
