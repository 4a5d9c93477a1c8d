//! A hand's fingertips on the board: the landmarks taken through the board's
//! homography to squares, lifted to the height where fingers meet a piece,
//! and read as a grip (thumb and index closing on one piece), a touch (the
//! index fingertip alone over a square) or nothing on the board; and the
//! board edge the arm reaches in from, which tells whose hand it is.
//!
//! Board coordinates are in squares from the playing area's top-left
//! corner as the image shows it (x right, y down, 0..8), as rectification
//! lays the board out; squares are named through the board's orientation.

use opencv::core::{Mat, Point2f, Size, Vector};
use opencv::imgproc;
use opencv::prelude::*;
use shakmaty::{Color, Square};

use super::landmarks::{Hand, INDEX_TIP, MIDDLE_BASE, THUMB_TIP, WRIST};
use crate::error::OpenCvContext;
use crate::{BoardCorners, CameraView, Orientation, Result};

/// How high over the board fingers meet a piece they hold or touch, in
/// squares (about the middle of a piece's height: a pawn's top, a king's
/// collar).
pub const FINGER_HEIGHT_SQUARES: f64 = 0.8;
/// Thumb and index tips this close (squares) close on one piece: a grip.
pub const GRIP_SQUARES: f64 = 0.8;

/// An image edge of the board, as the camera sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    Top,
    Right,
    Bottom,
    Left,
}

impl Edge {
    /// The name contracts.md gives the edge (`white_side`).
    pub fn name(self) -> &'static str {
        match self {
            Edge::Top => "top",
            Edge::Right => "right",
            Edge::Bottom => "bottom",
            Edge::Left => "left",
        }
    }

    /// The player sitting at this edge when the board lies `orientation`
    /// (`None` for the two edges between the players).
    pub fn player(self, orientation: Orientation) -> Option<Color> {
        let white = orientation.white_side();
        let opposite = match white {
            "top" => "bottom",
            "bottom" => "top",
            "left" => "right",
            _ => "left",
        };
        if self.name() == white {
            Some(Color::White)
        } else if self.name() == opposite {
            Some(Color::Black)
        } else {
            None
        }
    }
}

/// What a hand's fingers do on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contact {
    /// Thumb and index close on the piece on this square.
    Grip(Square),
    /// The index fingertip alone over this square.
    Touch(Square),
}

impl Contact {
    pub fn square(self) -> Square {
        match self {
            Contact::Grip(sq) | Contact::Touch(sq) => sq,
        }
    }
}

/// Where an arm comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    pub edge: Edge,
    /// The player at that edge, if a player sits there.
    pub player: Option<Color>,
}

/// One hand read on the board.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandOnBoard {
    pub contact: Option<Contact>,
    pub reach: Reach,
    /// Index and thumb tips in board coordinates (squares), at finger height.
    pub index_tip: [f64; 2],
    pub thumb_tip: [f64; 2],
    /// The squares the hand and its arm hide from the camera, one bit per
    /// `Square` index: those under its landmarks, and those from the wrist
    /// to the edge the arm crosses.
    pub covered: u64,
}

/// The board's geometry in one camera: image pixels to board squares.
#[derive(Debug, Clone)]
pub struct BoardGeometry {
    /// Image → board plane (squares), 3x3 row-major.
    to_board: [[f64; 3]; 3],
    view: CameraView,
    orientation: Orientation,
}

impl BoardGeometry {
    /// The geometry of the board at `corners` in an image of `size`, lying `orientation`.
    pub fn new(corners: &BoardCorners, size: Size, orientation: Orientation) -> Result<Self> {
        corners.validate()?;
        let board: Vector<Point2f> = [[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]]
            .iter()
            .map(|&[x, y]| Point2f::new(x, y))
            .collect();
        let h: Mat =
            imgproc::get_perspective_transform(&corners.points(), &board, opencv::core::DECOMP_LU)
                .doing("relating the image to the board")?;
        let mut to_board = [[0.0; 3]; 3];
        for (r, row) in to_board.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = *h
                    .at_2d::<f64>(r as i32, c as i32)
                    .doing("reading the homography")?;
            }
        }
        Ok(Self {
            to_board,
            view: CameraView::from_corners(corners, size)?,
            orientation,
        })
    }

    /// An image point on the board plane (squares).
    pub fn on_plane(&self, [x, y]: [f32; 2]) -> [f64; 2] {
        let (x, y) = (f64::from(x), f64::from(y));
        let m = &self.to_board;
        let w = m[2][0] * x + m[2][1] * y + m[2][2];
        [
            (m[0][0] * x + m[0][1] * y + m[0][2]) / w,
            (m[1][0] * x + m[1][1] * y + m[1][2]) / w,
        ]
    }

    /// An image point that stands `height` squares over the board, placed
    /// over the board (its foot): the camera sees raised points pushed away
    /// from the point under it.
    pub fn at_height(&self, image: [f32; 2], height: f64) -> [f64; 2] {
        let p = self.on_plane(image);
        let camera = self.view.height;
        if camera <= 2.0 * height {
            return p;
        }
        let keep = (camera - height) / camera;
        let n = self.view.nadir;
        [n[0] + (p[0] - n[0]) * keep, n[1] + (p[1] - n[1]) * keep]
    }

    /// The square at board coordinates `p`, if on the board.
    pub fn square_at(&self, [x, y]: [f64; 2]) -> Option<Square> {
        if !(0.0..8.0).contains(&x) || !(0.0..8.0).contains(&y) {
            return None;
        }
        let cell = y as usize * 8 + x as usize;
        Square::ALL.into_iter().find(|sq| {
            self.orientation
                .cell(usize::from(sq.file()), usize::from(sq.rank()))
                == cell
        })
    }

    /// What `hand` does on the board.
    pub fn read(&self, hand: &Hand) -> HandOnBoard {
        let index_tip = self.at_height(hand.landmarks[INDEX_TIP], FINGER_HEIGHT_SQUARES);
        let thumb_tip = self.at_height(hand.landmarks[THUMB_TIP], FINGER_HEIGHT_SQUARES);
        let apart = (index_tip[0] - thumb_tip[0]).hypot(index_tip[1] - thumb_tip[1]);
        let contact = if apart <= GRIP_SQUARES {
            let between = [
                (index_tip[0] + thumb_tip[0]) / 2.0,
                (index_tip[1] + thumb_tip[1]) / 2.0,
            ];
            self.square_at(between).map(Contact::Grip)
        } else {
            self.square_at(index_tip).map(Contact::Touch)
        };
        let knuckle = self.on_plane(hand.landmarks[MIDDLE_BASE]);
        let wrist = self.on_plane(hand.landmarks[WRIST]);
        let edge = exit_edge(knuckle, wrist);
        HandOnBoard {
            covered: self.covered(hand, knuckle, wrist),
            contact,
            reach: Reach {
                edge,
                player: edge.player(self.orientation),
            },
            index_tip,
            thumb_tip,
        }
    }
}

impl BoardGeometry {
    /// The squares `hand` hides: under each landmark (seen on the board
    /// plane, where the camera's ray through it meets the board), and along
    /// the arm, from the wrist away from the knuckles to the board's edge.
    fn covered(&self, hand: &Hand, knuckle: [f64; 2], wrist: [f64; 2]) -> u64 {
        let mut bits = 0u64;
        let mut mark = |p: [f64; 2]| {
            if let Some(sq) = self.square_at(p) {
                bits |= 1 << usize::from(sq);
            }
        };
        for &point in &hand.landmarks {
            mark(self.on_plane(point));
        }
        let d = [wrist[0] - knuckle[0], wrist[1] - knuckle[1]];
        let len = d[0].hypot(d[1]);
        if len > 1e-6 {
            let step = [d[0] / len * ARM_STEP_SQUARES, d[1] / len * ARM_STEP_SQUARES];
            let mut p = wrist;
            for _ in 0..(12.0 / ARM_STEP_SQUARES) as usize {
                mark(p);
                p = [p[0] + step[0], p[1] + step[1]];
            }
        }
        bits
    }
}

/// How finely the arm is followed to the board's edge, in squares.
const ARM_STEP_SQUARES: f64 = 0.25;

/// The board edge a ray from `from` through `to` leaves by (or, from
/// outside the board, the edge it lies beyond the most).
fn exit_edge(from: [f64; 2], to: [f64; 2]) -> Edge {
    let d = [to[0] - from[0], to[1] - from[1]];
    // Distance along the ray to each edge's line, when heading for it.
    let mut best = (f64::INFINITY, nearest_edge(to));
    for (edge, axis, line) in [
        (Edge::Left, 0, 0.0),
        (Edge::Right, 0, 8.0),
        (Edge::Top, 1, 0.0),
        (Edge::Bottom, 1, 8.0),
    ] {
        if d[axis].abs() < 1e-9 || (line - from[axis]) * d[axis] <= 0.0 {
            continue;
        }
        let s = (line - from[axis]) / d[axis];
        let other = from[1 - axis] + s * d[1 - axis];
        if s < best.0 && (-1e-9..=8.0 + 1e-9).contains(&other) {
            best = (s, edge);
        }
    }
    best.1
}

/// The edge nearest a point of the board plane.
fn nearest_edge([x, y]: [f64; 2]) -> Edge {
    [
        (x, Edge::Left),
        (8.0 - x, Edge::Right),
        (y, Edge::Top),
        (8.0 - y, Edge::Bottom),
    ]
    .into_iter()
    .min_by(|a, b| a.0.total_cmp(&b.0))
    .map_or(Edge::Bottom, |(_, edge)| edge)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board filling 400x400 pixels of a 640x480 image, seen straight down.
    fn square_board() -> BoardGeometry {
        let corners = BoardCorners([[120.0, 40.0], [520.0, 40.0], [520.0, 440.0], [120.0, 440.0]]);
        BoardGeometry::new(&corners, Size::new(640, 480), Orientation::WhiteBottom)
            .expect("a board")
    }

    fn hand_with(index: [f32; 2], thumb: [f32; 2], wrist: [f32; 2]) -> Hand {
        let mut landmarks = [wrist; 21];
        landmarks[INDEX_TIP] = index;
        landmarks[THUMB_TIP] = thumb;
        landmarks[MIDDLE_BASE] = [(index[0] + wrist[0]) / 2.0, (index[1] + wrist[1]) / 2.0];
        Hand {
            landmarks,
            presence: 1.0,
            handedness: 0.5,
        }
    }

    #[test]
    fn image_points_map_to_squares_through_the_orientation() {
        let board = square_board();
        let p = board.on_plane([145.0, 415.0]);
        assert!(
            (p[0] - 0.5).abs() < 1e-6 && (p[1] - 7.5).abs() < 1e-6,
            "{p:?}"
        );
        assert_eq!(board.square_at(p), Some(Square::A1));
        assert_eq!(
            board.square_at(board.on_plane([495.0, 65.0])),
            Some(Square::H8)
        );
        assert_eq!(board.square_at([8.2, 3.0]), None);
    }

    #[test]
    fn a_raised_fingertip_is_placed_nearer_the_point_under_the_camera() {
        let board = square_board();
        let plane = board.on_plane([145.0, 415.0]);
        let lifted = board.at_height([145.0, 415.0], FINGER_HEIGHT_SQUARES);
        let n = board.view.nadir;
        let dist = |p: [f64; 2]| (p[0] - n[0]).hypot(p[1] - n[1]);
        assert!(dist(lifted) < dist(plane));
        assert_eq!(
            board
                .at_height([320.0, 240.0], 1.0)
                .map(|v| (v * 1e6).round()),
            board.on_plane([320.0, 240.0]).map(|v| (v * 1e6).round())
        );
    }

    #[test]
    fn thumb_and_index_together_grip_and_apart_the_index_touches() {
        let board = square_board();
        // e2 is column 4, row 6: pixels 320..370, 340..390. Wrist below the board.
        let grip = board.read(&hand_with([340.0, 362.0], [350.0, 368.0], [345.0, 470.0]));
        assert_eq!(grip.contact, Some(Contact::Grip(Square::E2)));
        let touch = board.read(&hand_with([345.0, 365.0], [250.0, 420.0], [345.0, 470.0]));
        assert_eq!(touch.contact, Some(Contact::Touch(Square::E2)));
        let off = board.read(&hand_with([600.0, 300.0], [590.0, 300.0], [630.0, 300.0]));
        assert_eq!(off.contact, None);
    }

    #[test]
    fn the_arm_s_edge_says_whose_hand_it_is() {
        let board = square_board();
        let white = board.read(&hand_with([345.0, 365.0], [350.0, 368.0], [345.0, 470.0]));
        assert_eq!(
            white.reach,
            Reach {
                edge: Edge::Bottom,
                player: Some(Color::White)
            }
        );
        let black = board.read(&hand_with([345.0, 100.0], [350.0, 100.0], [345.0, 10.0]));
        assert_eq!(
            black.reach,
            Reach {
                edge: Edge::Top,
                player: Some(Color::Black)
            }
        );
        let side = board.read(&hand_with([400.0, 200.0], [400.0, 205.0], [600.0, 210.0]));
        assert_eq!(
            side.reach,
            Reach {
                edge: Edge::Right,
                player: None
            }
        );
        assert_eq!(
            Edge::Right.player(Orientation::WhiteRight),
            Some(Color::White)
        );
        assert_eq!(
            Edge::Left.player(Orientation::WhiteRight),
            Some(Color::Black)
        );
    }
}
