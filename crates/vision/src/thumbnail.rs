//! A small grey copy of the board and a square of margin round it (all the
//! detector sees): enough to tell, for a fraction of a model's run,
//! whether a frame's picture is the one the models last looked at (no
//! pixel, no square's mean changed past the camera's noise).

use opencv::core::{Mat, Size};
use opencv::prelude::*;
use opencv::{core, imgproc};

use crate::error::OpenCvContext;
use crate::{BoardCorners, Rectifier, Result};

/// The copy's warp: 16 pixels a square (a fingertip settling on a far
/// piece changes a few of its pixels), the detector's square of margin.
pub const THUMBNAIL_RECTIFIER: Rectifier = Rectifier {
    square_px: 16,
    margin_squares: 1.0,
    surround_squares: 0.0,
};

/// Grey levels a pixel must change by to count as changed (as the colour
/// baseline's motion counts it).
pub const PIXEL_CHANGE: f64 = 15.0;

/// Grey levels a square's mean may change by while the picture stays the
/// same: a shadow or a lamp changes a square's colour a little everywhere,
/// no pixel by [`PIXEL_CHANGE`], and the colour baseline still sees it.
pub const SQUARE_CHANGE: f64 = 2.0;

/// A board's small grey copy.
#[derive(Debug)]
pub struct Thumbnail {
    grey: Mat,
    /// The corners it was copied through.
    corners: BoardCorners,
}

impl Thumbnail {
    /// The copy of the board `corners` outline in `image` (BGR): warped,
    /// greyed and smoothed (a camera's noise averaged over neighbours).
    pub fn of(image: &Mat, corners: &BoardCorners) -> Result<Self> {
        let board = THUMBNAIL_RECTIFIER.rectify(image, corners)?;
        let mut grey = Mat::default();
        imgproc::cvt_color_def(&board.image, &mut grey, imgproc::COLOR_BGR2GRAY)
            .doing("greying the board's thumbnail")?;
        let mut smooth = Mat::default();
        imgproc::gaussian_blur_def(&grey, &mut smooth, Size::new(3, 3), 0.0)
            .doing("smoothing the board's thumbnail")?;
        Ok(Self {
            grey: smooth,
            corners: *corners,
        })
    }

    /// Whether `other` shows the same picture: no pixel changed by more
    /// than [`PIXEL_CHANGE`], no square's mean by more than
    /// [`SQUARE_CHANGE`], and the same corners.
    pub fn is_same(&self, other: &Thumbnail) -> Result<bool> {
        Ok(self.corners == other.corners
            && self.changed_share(other)? == 0.0
            && self.square_change(other)? <= SQUARE_CHANGE)
    }

    /// Share of the copy's pixels (0..1) that changed by more than
    /// [`PIXEL_CHANGE`] grey levels from `other`.
    fn changed_share(&self, other: &Thumbnail) -> Result<f64> {
        let mut diff = Mat::default();
        core::absdiff(&self.grey, &other.grey, &mut diff).doing("differencing thumbnails")?;
        let mut changed = Mat::default();
        imgproc::threshold(
            &diff,
            &mut changed,
            PIXEL_CHANGE,
            1.0,
            imgproc::THRESH_BINARY,
        )
        .doing("thresholding the thumbnails' difference")?;
        let count = core::count_non_zero(&changed).doing("counting changed pixels")?;
        Ok(f64::from(count) / f64::from(self.grey.rows() * self.grey.cols()))
    }

    /// The most any square's (and margin square's) mean grey level changed
    /// from `other`, either way.
    fn square_change(&self, other: &Thumbnail) -> Result<f64> {
        let mut diff = Mat::default();
        core::subtract(
            &self.grey,
            &other.grey,
            &mut diff,
            &core::no_array(),
            core::CV_16S,
        )
        .doing("subtracting thumbnails")?;
        let cells = 8 + 2 * THUMBNAIL_RECTIFIER.margin_squares as i32;
        let mut means = Mat::default();
        imgproc::resize(
            &diff,
            &mut means,
            Size::new(cells, cells),
            0.0,
            0.0,
            imgproc::INTER_AREA,
        )
        .doing("averaging the thumbnails' difference by square")?;
        let (mut least, mut most) = (0.0, 0.0);
        core::min_max_loc(
            &means,
            Some(&mut least),
            Some(&mut most),
            None,
            None,
            &core::no_array(),
        )
        .doing("finding the most changed square")?;
        Ok(most.max(-least))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{CV_8UC3, Point, Rect, Scalar};

    const CORNERS: BoardCorners =
        BoardCorners([[40.0, 40.0], [280.0, 40.0], [280.0, 280.0], [40.0, 280.0]]);

    type Outcome = std::result::Result<(), Box<dyn std::error::Error>>;

    /// A chequered board, with a pale fingertip at `x` on its fifth rank.
    fn picture(fingertip_at: Option<i32>) -> opencv::Result<Mat> {
        let mut image = Mat::new_rows_cols_with_default(320, 320, CV_8UC3, Scalar::all(120.0))?;
        for (r, c) in (0..8).flat_map(|r| (0..8).map(move |c| (r, c))) {
            if (r + c) % 2 == 1 {
                let square = Rect::new(40 + 30 * c, 40 + 30 * r, 30, 30);
                imgproc::rectangle(&mut image, square, Scalar::all(60.0), -1, 8, 0)?;
            }
        }
        if let Some(x) = fingertip_at {
            imgproc::circle(
                &mut image,
                Point::new(x, 160),
                6,
                Scalar::all(230.0),
                -1,
                8,
                0,
            )?;
        }
        Ok(image)
    }

    #[test]
    fn the_same_picture_is_unchanged_and_a_fingertip_moving_a_few_pixels_is_not() -> Outcome {
        let still = Thumbnail::of(&picture(Some(150))?, &CORNERS)?;
        let again = Thumbnail::of(&picture(Some(150))?, &CORNERS)?;
        assert_eq!(still.changed_share(&again)?, 0.0);
        let crept = Thumbnail::of(&picture(Some(154))?, &CORNERS)?;
        let share = still.changed_share(&crept)?;
        assert!(share > 0.0, "{share}");
        let gone = Thumbnail::of(&picture(None)?, &CORNERS)?;
        assert!(still.changed_share(&gone)? > 0.0);
        assert_eq!(still.square_change(&again)?, 0.0);
        // A soft shadow: every pixel of a square a little darker.
        let mut shaded = picture(Some(150))?;
        let square = Rect::new(40 + 30 * 7, 40, 30, 30);
        let mut roi = Mat::roi_mut(&mut shaded, square)?;
        let darker = roi.try_clone()?;
        core::subtract(&darker, &Scalar::all(8.0), &mut roi, &core::no_array(), -1)?;
        let shadow = Thumbnail::of(&shaded, &CORNERS)?;
        assert_eq!(still.changed_share(&shadow)?, 0.0);
        assert!(still.square_change(&shadow)? > SQUARE_CHANGE);
        Ok(())
    }
}
