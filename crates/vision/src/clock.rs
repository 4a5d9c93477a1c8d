//! The clock beside the board: a hand reaching it. Clocks stand beside the
//! board between the players, so each of the two board edges no player sits
//! at gets a zone (in squares from the board's edge: 0.6 to 2.6 out, the
//! edge's whole length and half a square past each end); a zone that
//! differs from its quiet picture over the area of half a square or more has
//! a hand in it. The zones follow the corners (the
//! camera moved: [`ClockWatch::new`] again).
//!
//! Input: BGR frames, the board's corners and which edge is White's.
//! Output: whether a hand is at the clock, a frame.

use opencv::core::{self, Mat, Point, Point2f, Rect, Scalar, Size, Vector};
use opencv::imgproc;

use crate::error::OpenCvContext;
use crate::{BoardCorners, Orientation, Result};

/// How far out from the board's edge a zone reaches, in squares.
const ZONE_OUT: std::ops::Range<f32> = 0.6..2.6;
/// Where along the edge a zone lies, in squares from its end.
const ZONE_ALONG: std::ops::Range<f32> = -0.5..8.5;
/// A zone less in view than this share of it is left out.
const MIN_IN_VIEW: f64 = 0.3;
/// Grey levels a pixel must change by to count.
const PIXEL_CHANGE: f64 = 30.0;
/// A zone changed over at least this many squares' area holds a hand.
pub const HAND_AT_CLOCK_SQUARES: f64 = 0.5;
/// A zone with less than this share changed is quiet: its picture is taken again.
const QUIET: f64 = 0.01;

/// One zone: where it lies in the image and its quiet picture, both at
/// half the image's resolution (a hand is tens of pixels across: a quarter
/// of the pixels tell it as well).
#[derive(Debug)]
struct Zone {
    rect: Rect,
    /// The zone's pixels within `rect`, at half resolution (255 inside).
    mask: Mat,
    pixels: i32,
    quiet: Option<Mat>,
}

/// The two zones where a clock can stand, watched frame by frame.
#[derive(Debug)]
pub struct ClockWatch {
    zones: Vec<Zone>,
    corners: BoardCorners,
}

/// A zone's outline in board squares (x right, y down as the image's top-left
/// corner of the board starts them), beside the edge `edge` ("top", …).
fn zone_outline(edge: &str) -> [[f32; 2]; 4] {
    let (o, a) = (ZONE_OUT, ZONE_ALONG);
    match edge {
        "left" => [
            [-o.end, a.start],
            [-o.start, a.start],
            [-o.start, a.end],
            [-o.end, a.end],
        ],
        "right" => [
            [8.0 + o.start, a.start],
            [8.0 + o.end, a.start],
            [8.0 + o.end, a.end],
            [8.0 + o.start, a.end],
        ],
        "top" => [
            [a.start, -o.end],
            [a.end, -o.end],
            [a.end, -o.start],
            [a.start, -o.start],
        ],
        _ => [
            [a.start, 8.0 + o.start],
            [a.end, 8.0 + o.start],
            [a.end, 8.0 + o.end],
            [a.start, 8.0 + o.end],
        ],
    }
}

/// The size of a picture of `size` halved as `pyrDown` halves it.
fn half(size: Size) -> Size {
    Size::new((size.width + 1) / 2, (size.height + 1) / 2)
}

/// A zone's area in squares (as it would be all in view).
fn zone_squares() -> f64 {
    f64::from((ZONE_OUT.end - ZONE_OUT.start) * (ZONE_ALONG.end - ZONE_ALONG.start))
}

/// The edges no player sits at.
fn side_edges(orientation: Orientation) -> [&'static str; 2] {
    match orientation.white_side() {
        "top" | "bottom" => ["left", "right"],
        _ => ["top", "bottom"],
    }
}

impl ClockWatch {
    /// The zones beside the board at `corners` lying `orientation`, in
    /// frames of `size`; those mostly out of view are left out.
    pub fn new(corners: &BoardCorners, orientation: Orientation, size: Size) -> Result<Self> {
        let board: Vector<Point2f> = [[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]]
            .iter()
            .map(|&[x, y]| Point2f::new(x, y))
            .collect();
        let to_image =
            imgproc::get_perspective_transform(&board, &corners.points(), core::DECOMP_LU)
                .doing("relating the board to the image")?;
        let mut zones = Vec::new();
        for edge in side_edges(orientation) {
            let outline: Vector<Point2f> = zone_outline(edge)
                .iter()
                .map(|&[x, y]| Point2f::new(x, y))
                .collect();
            let mut projected = Vector::<Point2f>::new();
            core::perspective_transform(&outline, &mut projected, &to_image)
                .doing("placing the clock zone")?;
            if let Some(zone) = Zone::new(&projected, size)? {
                zones.push(zone);
            }
        }
        Ok(Self {
            zones,
            corners: *corners,
        })
    }

    /// The corners the zones were placed from.
    pub fn corners(&self) -> BoardCorners {
        self.corners
    }

    /// Whether any zone is in view.
    pub fn in_view(&self) -> bool {
        !self.zones.is_empty()
    }

    /// Whether a hand is at the clock in `image` (BGR).
    pub fn hand_at_clock(&mut self, image: &Mat) -> Result<bool> {
        let mut any = false;
        for zone in &mut self.zones {
            any |= zone.changed(image)? * zone_squares() >= HAND_AT_CLOCK_SQUARES;
        }
        Ok(any)
    }
}

impl Zone {
    fn new(outline: &Vector<Point2f>, size: Size) -> Result<Option<Self>> {
        let points: Vector<Point> = outline
            .iter()
            .map(|p| Point::new(p.x.round() as i32, p.y.round() as i32))
            .collect();
        let full_area = imgproc::contour_area_def(&points).doing("measuring the clock zone")?;
        let mut whole = Mat::new_size_with_default(size, core::CV_8UC1, Scalar::all(0.0))
            .doing("making the clock zone's mask")?;
        imgproc::fill_convex_poly_def(&mut whole, &points, Scalar::all(255.0))
            .doing("drawing the clock zone")?;
        let in_view = core::count_non_zero(&whole).doing("measuring the clock zone")?;
        if full_area < 1.0 || f64::from(in_view) < MIN_IN_VIEW * full_area {
            return Ok(None);
        }
        let rect = imgproc::bounding_rect(&whole).doing("bounding the clock zone")?;
        let mut mask = Mat::default();
        imgproc::resize(
            &Mat::roi(&whole, rect).doing("cutting the clock zone")?,
            &mut mask,
            half(rect.size()),
            0.0,
            0.0,
            imgproc::INTER_NEAREST,
        )
        .doing("halving the clock zone")?;
        let pixels = core::count_non_zero(&mask).doing("measuring the clock zone")?;
        Ok(Some(Self {
            rect,
            mask,
            pixels,
            quiet: None,
        }))
    }

    /// The share of the zone's pixels that differ from its quiet picture
    /// (0 on the first frame, which becomes that picture).
    fn changed(&mut self, image: &Mat) -> Result<f64> {
        let patch = Mat::roi(image, self.rect).doing("cutting the clock zone")?;
        let mut grey = Mat::default();
        imgproc::cvt_color_def(&patch, &mut grey, imgproc::COLOR_BGR2GRAY)
            .doing("greying the clock zone")?;
        // Smoothed and halved in one step.
        let mut blurred = Mat::default();
        imgproc::pyr_down_def(&grey, &mut blurred).doing("halving the clock zone")?;
        let Some(quiet) = &self.quiet else {
            self.quiet = Some(blurred);
            return Ok(0.0);
        };
        let mut diff = Mat::default();
        core::absdiff(&blurred, quiet, &mut diff).doing("comparing the clock zone")?;
        let mut moved = Mat::default();
        imgproc::threshold(
            &diff,
            &mut moved,
            PIXEL_CHANGE,
            255.0,
            imgproc::THRESH_BINARY,
        )
        .doing("comparing the clock zone")?;
        let mut inside = Mat::default();
        core::bitwise_and(&moved, &moved, &mut inside, &self.mask)
            .doing("masking the clock zone")?;
        let share = f64::from(core::count_non_zero(&inside).doing("counting the clock zone")?)
            / f64::from(self.pixels.max(1));
        tracing::trace!(zone = ?self.rect, share, "clock zone");
        if share < QUIET {
            self.quiet = Some(blurred);
        }
        Ok(share)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> Mat {
        Mat::new_rows_cols_with_default(480, 640, core::CV_8UC3, Scalar::all(90.0))
            .expect("a frame")
    }

    /// A board 320 pixels a side in the middle of a 640x480 frame, White at
    /// the bottom: the zones lie left and right of it.
    fn watch() -> ClockWatch {
        let corners = BoardCorners([[160.0, 80.0], [480.0, 80.0], [480.0, 400.0], [160.0, 400.0]]);
        ClockWatch::new(&corners, Orientation::WhiteBottom, Size::new(640, 480)).expect("zones")
    }

    #[test]
    fn a_hand_beside_the_board_between_the_players_is_at_the_clock() {
        let mut clock = watch();
        assert!(clock.in_view());
        assert!(!clock.hand_at_clock(&frame()).expect("a reading"));
        assert!(!clock.hand_at_clock(&frame()).expect("a reading"));
        // A hand (a bright blob) right of the board, at mid-height.
        let mut hand = frame();
        imgproc::rectangle(
            &mut hand,
            Rect::new(520, 180, 50, 70),
            Scalar::all(220.0),
            imgproc::FILLED,
            imgproc::LINE_8,
            0,
        )
        .expect("drawn");
        assert!(clock.hand_at_clock(&hand).expect("a reading"));
        // The same blob below the board, at White's edge, is not.
        let mut own_edge = frame();
        imgproc::rectangle_def(
            &mut own_edge,
            Rect::new(300, 410, 50, 60),
            Scalar::all(220.0),
        )
        .expect("drawn");
        assert!(!clock.hand_at_clock(&own_edge).expect("a reading"));
    }

    #[test]
    fn zones_out_of_the_picture_are_left_out() {
        // The board fills the frame's width: no room beside it.
        let corners = BoardCorners([[0.0, 0.0], [640.0, 0.0], [640.0, 480.0], [0.0, 480.0]]);
        let clock = ClockWatch::new(&corners, Orientation::WhiteBottom, Size::new(640, 480))
            .expect("zones");
        assert!(!clock.in_view());
    }
}
