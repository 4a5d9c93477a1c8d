//! What a clip's frame shows beyond the camera's picture: the board's grid,
//! each touched square framed and numbered in the Laws' order from the
//! moment it was touched, the fingertip's track over the last second and a
//! half (square by square, as the eyes read it), the moved piece's path
//! once it was let go, and the frame's time.

use opencv::core::{Mat, Point, Point2f, Scalar, Size, Vector};
use opencv::imgproc::{self, LINE_AA};
use opencv::prelude::*;
use opencv::{core, imgcodecs};
use referee_vision::{BoardCorners, Orientation};
use shakmaty::Square;

use crate::clip::{Played, Touched};
use crate::ring::Sighting;
use crate::{Doing, Error, Result};

/// The widest a clip's frame is drawn (pixels): a narrower camera's keep theirs.
pub const CLIP_WIDTH: i32 = 480;

/// How far back the fingertip's track is drawn (s).
const TRAIL_SECONDS: f64 = 1.5;

/// JPEG quality of a clip's frames.
const QUALITY: i32 = 80;

const GRID: Scalar = Scalar::new(230.0, 230.0, 160.0, 0.0);
const FIRST_TOUCH: Scalar = Scalar::new(40.0, 40.0, 230.0, 0.0);
const LATER_TOUCH: Scalar = Scalar::new(0.0, 160.0, 250.0, 0.0);
const TRACK: Scalar = Scalar::new(0.0, 230.0, 255.0, 0.0);
const PATH: Scalar = Scalar::new(60.0, 200.0, 60.0, 0.0);
const INK: Scalar = Scalar::new(255.0, 255.0, 255.0, 0.0);
const BACKDROP: Scalar = Scalar::new(20.0, 20.0, 20.0, 0.0);

/// What is drawn over every frame of one clip.
#[derive(Debug)]
pub struct Overlay<'a> {
    pub touches: &'a [Touched],
    /// The frame showing each touch, an index into the clip's frames.
    pub marks: &'a [usize],
    /// The move played, and the frame it was let go on.
    pub played: Option<(&'a Played, usize)>,
}

/// One frame drawn on, as JPEG.
#[derive(Debug)]
pub struct Drawn {
    pub jpeg: Vec<u8>,
    pub size: (i32, i32),
}

/// A kept frame decoded at the clip's size, with the board's geometry in it.
#[derive(Debug)]
pub struct Frame {
    image: Mat,
    board: Option<Board>,
}

impl Frame {
    pub fn decode(sighting: &Sighting) -> Result<Self> {
        let buffer = Vector::<u8>::from_slice(&sighting.jpeg);
        let full =
            imgcodecs::imdecode(&buffer, imgcodecs::IMREAD_COLOR).doing("decoding a kept frame")?;
        if full.empty() {
            return Err(Error::Undecodable { t: sighting.t });
        }
        let scale = (f64::from(CLIP_WIDTH) / f64::from(full.cols())).min(1.0);
        let image = if scale < 1.0 {
            let mut small = Mat::default();
            let size = Size::new(
                (f64::from(full.cols()) * scale).round() as i32,
                (f64::from(full.rows()) * scale).round() as i32,
            );
            imgproc::resize(&full, &mut small, size, 0.0, 0.0, imgproc::INTER_AREA)
                .doing("shrinking a kept frame")?;
            small
        } else {
            full
        };
        let board = match sighting.board {
            Some((corners, orientation)) => Some(Board::new(&corners, orientation, scale)?),
            None => None,
        };
        Ok(Self { image, board })
    }

    /// Frame `k` of the clip `frames`, drawn on.
    pub fn drawn(mut self, frames: &[&Sighting], k: usize, overlay: &Overlay) -> Result<Drawn> {
        let t = frames[k].t;
        if let Some(board) = &self.board {
            board.grid(&mut self.image)?;
            for (order, touch) in overlay.touches.iter().enumerate() {
                if overlay.marks.get(order).is_some_and(|&m| m <= k) || touch.t <= t {
                    board.numbered(&mut self.image, touch.square, order + 1)?;
                }
            }
            let trail: Vec<Option<Square>> = frames[..=k]
                .iter()
                .filter(|f| f.t >= t - TRAIL_SECONDS)
                .map(|f| f.glance.fingertip)
                .collect();
            board.track(&mut self.image, &trail)?;
            if let Some((played, at)) = overlay.played
                && k >= at
            {
                board.path(&mut self.image, played.from, played.to)?;
            }
        }
        let mut caption = format!("{t:.2} s");
        for (order, touch) in overlay.touches.iter().enumerate() {
            if overlay.marks.get(order) == Some(&k) {
                caption.push_str(&format!(
                    "  touch {}: {}{}",
                    order + 1,
                    touch.piece.to_uppercase(),
                    touch.square
                ));
            }
        }
        if let Some((played, at)) = overlay.played
            && at == k
        {
            caption.push_str(&format!("  played {}", played.san));
        }
        label(&mut self.image, &caption, Point::new(6, 18), 0.5)?;
        let mut out = Vector::<u8>::new();
        let params = Vector::<i32>::from_slice(&[imgcodecs::IMWRITE_JPEG_QUALITY, QUALITY]);
        imgcodecs::imencode(".jpg", &self.image, &mut out, &params)
            .doing("encoding a clip's frame")?;
        Ok(Drawn {
            jpeg: out.to_vec(),
            size: (self.image.cols(), self.image.rows()),
        })
    }
}

/// The board in a clip's frame: board coordinates (squares, 0..8 along
/// the rectified rows and columns) to the frame's pixels.
#[derive(Debug)]
struct Board {
    to_image: [[f64; 3]; 3],
    orientation: Orientation,
    /// About how many pixels a square spans.
    square_px: f64,
}

impl Board {
    fn new(corners: &BoardCorners, orientation: Orientation, scale: f64) -> Result<Self> {
        let board: Vector<Point2f> = [[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]]
            .iter()
            .map(|&[x, y]| Point2f::new(x, y))
            .collect();
        let image: Vector<Point2f> = corners
            .0
            .iter()
            .map(|&[x, y]| Point2f::new(x * scale as f32, y * scale as f32))
            .collect();
        let h = imgproc::get_perspective_transform(&board, &image, core::DECOMP_LU)
            .doing("relating the board to the frame")?;
        let mut to_image = [[0.0; 3]; 3];
        for (r, row) in to_image.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = *h
                    .at_2d::<f64>(r as i32, c as i32)
                    .doing("reading the board's homography")?;
            }
        }
        let [a, b, _, d] = corners.0;
        let side =
            f64::from(((b[0] - a[0]).hypot(b[1] - a[1]) + (d[0] - a[0]).hypot(d[1] - a[1])) / 2.0);
        Ok(Self {
            to_image,
            orientation,
            square_px: side * scale / 8.0,
        })
    }

    fn project(&self, x: f64, y: f64) -> Point {
        let m = &self.to_image;
        let w = m[2][0] * x + m[2][1] * y + m[2][2];
        Point::new(
            ((m[0][0] * x + m[0][1] * y + m[0][2]) / w).round() as i32,
            ((m[1][0] * x + m[1][1] * y + m[1][2]) / w).round() as i32,
        )
    }

    /// The square's top-left corner in board coordinates.
    fn cell(&self, square: Square) -> (f64, f64) {
        let cell = self
            .orientation
            .cell(usize::from(square.file()), usize::from(square.rank()));
        ((cell % 8) as f64, (cell / 8) as f64)
    }

    fn centre(&self, square: Square) -> Point {
        let (x, y) = self.cell(square);
        self.project(x + 0.5, y + 0.5)
    }

    fn grid(&self, image: &mut Mat) -> Result<()> {
        for i in 0..=8 {
            let i = f64::from(i);
            for (a, b) in [
                (self.project(i, 0.0), self.project(i, 8.0)),
                (self.project(0.0, i), self.project(8.0, i)),
            ] {
                imgproc::line(image, a, b, GRID, 1, LINE_AA, 0).doing("drawing the grid")?;
            }
        }
        Ok(())
    }

    /// The square framed, with its place in the touches' order.
    fn numbered(&self, image: &mut Mat, square: Square, order: usize) -> Result<()> {
        let colour = if order == 1 { FIRST_TOUCH } else { LATER_TOUCH };
        let (x, y) = self.cell(square);
        let outline: Vector<Point> = [(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0)]
            .iter()
            .map(|&(x, y)| self.project(x, y))
            .collect();
        let outlines = Vector::<Vector<Point>>::from_iter([outline]);
        imgproc::polylines(image, &outlines, true, colour, 2, LINE_AA, 0)
            .doing("framing a touched square")?;
        let badge = self.project(x + 0.28, y + 0.28);
        let radius = (self.square_px * 0.22).max(7.0) as i32;
        imgproc::circle(image, badge, radius, colour, imgproc::FILLED, LINE_AA, 0)
            .doing("drawing a touch's number")?;
        let text = order.to_string();
        let size = (radius as f64 / 14.0).max(0.4);
        let mut base = 0;
        let extent =
            imgproc::get_text_size(&text, imgproc::FONT_HERSHEY_SIMPLEX, size, 1, &mut base)
                .doing("measuring a touch's number")?;
        let at = Point::new(badge.x - extent.width / 2, badge.y + extent.height / 2);
        write(image, &text, at, size).doing("writing a touch's number")
    }

    /// The fingertip's squares over the trail, joined; the latest dotted.
    fn track(&self, image: &mut Mat, trail: &[Option<Square>]) -> Result<()> {
        for pair in trail.windows(2) {
            if let [Some(a), Some(b)] = pair {
                imgproc::line(
                    image,
                    self.centre(*a),
                    self.centre(*b),
                    TRACK,
                    2,
                    LINE_AA,
                    0,
                )
                .doing("drawing the fingertip's track")?;
            }
        }
        if let Some(Some(now)) = trail.last() {
            let radius = (self.square_px * 0.12).max(3.0) as i32;
            imgproc::circle(
                image,
                self.centre(*now),
                radius,
                TRACK,
                imgproc::FILLED,
                LINE_AA,
                0,
            )
            .doing("drawing the fingertip")?;
        }
        Ok(())
    }

    /// The moved piece's path, from its square to where it was let go.
    fn path(&self, image: &mut Mat, from: Square, to: Square) -> Result<()> {
        if from == to {
            return Ok(());
        }
        imgproc::arrowed_line(
            image,
            self.centre(from),
            self.centre(to),
            PATH,
            2,
            LINE_AA,
            0,
            0.15,
        )
        .doing("drawing the move's path")
    }
}

/// Text on a dark band, legible on any board.
fn label(image: &mut Mat, text: &str, at: Point, size: f64) -> Result<()> {
    let mut base = 0;
    let extent = imgproc::get_text_size(text, imgproc::FONT_HERSHEY_SIMPLEX, size, 1, &mut base)
        .doing("measuring a caption")?;
    let band = core::Rect::new(
        at.x - 4,
        at.y - extent.height - 4,
        extent.width + 8,
        extent.height + base + 8,
    );
    imgproc::rectangle(image, band, BACKDROP, imgproc::FILLED, imgproc::LINE_8, 0)
        .doing("drawing a caption's band")?;
    write(image, text, at, size).doing("writing a caption")
}

/// White text, its baseline starting at `at`.
fn write(image: &mut Mat, text: &str, at: Point, size: f64) -> opencv::Result<()> {
    imgproc::put_text(
        image,
        text,
        at,
        imgproc::FONT_HERSHEY_SIMPLEX,
        size,
        INK,
        1,
        LINE_AA,
        false,
    )
}
