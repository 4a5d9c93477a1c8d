//! Following a camera that drifts or is bumped: where the board now lies in
//! the image, found from how its picture moved against the last accepted one.
//!
//! Input: the lightness of the accepted top-down picture and of the present
//! frame warped with the old corners. Output: the corners moved to where the
//! board now is. Each quarter of the board is matched on its own by phase
//! correlation (OpenCV), so a turn or a tilt of the camera, not only a
//! shift, is followed; the four shifts make a perspective warp.

use opencv::core::{self, Mat, Point2f, Rect, Size, Vector};
use opencv::imgproc;
use opencv::prelude::*;

use crate::error::OpenCvContext;
use crate::{BoardCorners, Rectifier, Result};

/// Side of each quarter matched, as a share of the rectified picture's side.
const QUARTER_SIDE: f64 = 0.55;
/// A quarter's match is trusted when its correlation peak holds at least
/// this share of the signal (a hand resting there blurs it).
const MIN_RESPONSE: f64 = 0.05;
/// Shifts under this many rectified pixels are not worth following.
const MIN_SHIFT_PX: f64 = 0.3;

/// The lightness channel of a top-down picture as 32-bit floats.
pub fn lightness(lab: &Mat) -> Result<Mat> {
    let mut channel = Mat::default();
    core::extract_channel(lab, &mut channel, 0).doing("taking the lightness")?;
    let mut float = Mat::default();
    channel
        .convert_to_def(&mut float, core::CV_32F)
        .doing("converting the lightness")?;
    Ok(float)
}

/// How the board's picture moved from `reference` to `current` (both top
/// down, same size), matched within `area` of them (where the board is
/// read): a perspective warp taking reference pixels to present ones, or
/// `None` when it did not move or a quarter could not be matched.
pub fn board_warp(reference: &Mat, current: &Mat, area: Rect) -> Result<Option<Mat>> {
    let side = area.width.min(area.height);
    let quarter = (QUARTER_SIDE * f64::from(side)).round() as i32;
    let mut window = Mat::default();
    imgproc::create_hanning_window(&mut window, Size::new(quarter, quarter), core::CV_32F)
        .doing("making the matching window")?;
    let mut from = Vector::<Point2f>::new();
    let mut to = Vector::<Point2f>::new();
    let mut largest: f64 = 0.0;
    for (x, y) in [
        (0, 0),
        (side - quarter, 0),
        (side - quarter, side - quarter),
        (0, side - quarter),
    ] {
        let rect = Rect::new(area.x + x, area.y + y, quarter, quarter);
        let a = Mat::roi(reference, rect)
            .doing("taking a quarter")?
            .try_clone()
            .doing("copying a quarter")?;
        let b = Mat::roi(current, rect)
            .doing("taking a quarter")?
            .try_clone()
            .doing("copying a quarter")?;
        let mut response = 0.0;
        let shift = imgproc::phase_correlate(&a, &b, &window, Some(&mut response))
            .doing("matching a quarter of the board")?;
        if response < MIN_RESPONSE {
            return Ok(None);
        }
        largest = largest.max(shift.x.hypot(shift.y));
        let centre = Point2f::new((rect.x + quarter / 2) as f32, (rect.y + quarter / 2) as f32);
        from.push(centre);
        to.push(Point2f::new(
            centre.x + shift.x as f32,
            centre.y + shift.y as f32,
        ));
    }
    if largest < MIN_SHIFT_PX {
        return Ok(None);
    }
    imgproc::get_perspective_transform(&from, &to, core::DECOMP_LU)
        .doing("making the board's warp")
        .map(Some)
}

/// The corners of the board after its top-down picture (made by `rectifier`
/// with `corners`) moved by `warp`; `None` when they make no board (a warp
/// matched on a hand rather than on the board).
pub fn moved_corners(
    rectifier: &Rectifier,
    corners: &BoardCorners,
    warp: &Mat,
) -> Result<Option<BoardCorners>> {
    let (m, s) = (
        rectifier.margin_px() as f32,
        (8 * rectifier.square_px) as f32,
    );
    let canonical: Vector<Point2f> = [[m, m], [m + s, m], [m + s, m + s], [m, m + s]]
        .iter()
        .map(|&[x, y]| Point2f::new(x, y))
        .collect();
    let mut moved = Vector::<Point2f>::new();
    core::perspective_transform(&canonical, &mut moved, warp).doing("moving the corners")?;
    let mut back = Mat::default();
    core::invert(&rectifier.homography(corners)?, &mut back, core::DECOMP_LU)
        .doing("inverting the board homography")?;
    let mut image = Vector::<Point2f>::new();
    core::perspective_transform(&moved, &mut image, &back)
        .doing("mapping the corners to the image")?;
    let point = |i: usize| image.get(i).map(|p| [p.x, p.y]).doing("a moved corner");
    let found = BoardCorners([point(0)?, point(1)?, point(2)?, point(3)?]);
    Ok(found.validate().is_ok().then_some(found))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic top-down board: a checkerboard with some blobs.
    fn board() -> Mat {
        let mut image =
            Mat::new_rows_cols_with_default(288, 288, core::CV_8UC1, core::Scalar::all(40.0))
                .expect("opencv");
        for row in 0..8 {
            for col in 0..8 {
                if (row + col) % 2 == 0 {
                    let rect = Rect::new(16 + col * 32, 16 + row * 32, 32, 32);
                    imgproc::rectangle(
                        &mut image,
                        rect,
                        core::Scalar::all(200.0),
                        -1,
                        imgproc::LINE_8,
                        0,
                    )
                    .expect("opencv");
                }
            }
        }
        imgproc::circle(
            &mut image,
            core::Point::new(100, 60),
            10,
            core::Scalar::all(120.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .expect("opencv");
        let mut float = Mat::default();
        image
            .convert_to_def(&mut float, core::CV_32F)
            .expect("opencv");
        float
    }

    fn shifted(image: &Mat, dx: f64, dy: f64) -> Mat {
        let m = Mat::from_slice_2d(&[[1.0, 0.0, dx], [0.0, 1.0, dy]]).expect("opencv");
        let mut out = Mat::default();
        imgproc::warp_affine(
            image,
            &mut out,
            &m,
            image.size().expect("opencv"),
            imgproc::INTER_LINEAR,
            core::BORDER_REPLICATE,
            core::Scalar::all(0.0),
        )
        .expect("opencv");
        out
    }

    #[test]
    fn a_shifted_board_is_followed_and_a_still_one_is_left() {
        let reference = board();
        let whole = Rect::new(0, 0, reference.cols(), reference.rows());
        assert!(
            board_warp(&reference, &reference, whole)
                .expect("opencv")
                .is_none()
        );
        let moved = shifted(&reference, 5.0, -3.0);
        // Matched on the whole picture or within a border of it, the warp
        // takes the picture's own pixels.
        for area in [
            whole,
            Rect::new(16, 16, whole.width - 32, whole.height - 32),
        ] {
            let warp = board_warp(&reference, &moved, area)
                .expect("opencv")
                .expect("moved");
            let mut p = Vector::<Point2f>::new();
            p.push(Point2f::new(144.0, 144.0));
            let mut q = Vector::<Point2f>::new();
            core::perspective_transform(&p, &mut q, &warp).expect("opencv");
            let q = q.get(0).expect("opencv");
            assert!(
                (q.x - 149.0).abs() < 0.5 && (q.y - 141.0).abs() < 0.5,
                "{area:?}: {q:?}"
            );
        }
    }
}
