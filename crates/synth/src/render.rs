//! Rendering a choreography frame by frame: the board as it physically
//! stands at each instant, the hand where the gestures put it, the camera's
//! faults; and each frame's truth (corners, every square's occupant, hand
//! cover and fingertip contact).

use opencv::core::{self, Mat, Scalar};
use opencv::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use referee_rules::table::Table;
use referee_rules::{Action, Event};
use serde::Serialize;
use shakmaty::{Board, Chess, Color, Position, Role, Square};

use crate::camera::{Pose, World};
use crate::choreography::{Choreography, Gesture};
use crate::draw::{self, CLOCK, Hand};
use crate::pieces::{self, draw_piece, ring};
use crate::scenario::Camera;
use crate::style::Style;

/// How long a fingertip rests on a piece it touches, each side of the event (s).
pub const DWELL: f64 = 0.12;

/// Where a piece the player will adjust stands until the fingertip sets it
/// straight, off its square's centre (in squares, along files and ranks).
const OFF_CENTRE: [f64; 2] = [0.12, 0.16];

/// One square's truth in one frame.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SquareTruth {
    pub square: String,
    /// `empty`, `white` or `black`.
    pub occupant: &'static str,
    /// FEN letter (upper case white), or null.
    pub piece: Option<String>,
    /// A hand or arm covers the square's centre in the image.
    pub hand: bool,
    /// A fingertip rests on the piece there.
    pub touch: bool,
}

/// One frame's truth.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrameTruth {
    pub t: f64,
    pub corners: [[f64; 2]; 4],
    /// The image edge nearest White's first rank: `bottom|top|left|right`.
    pub white_side: &'static str,
    pub squares: Vec<SquareTruth>,
}

/// Renders a choreography, frame after frame.
#[derive(Debug)]
pub struct Renderer {
    camera: Camera,
    style: Style,
    pose: Pose,
    background: Mat,
    light: Mat,
    start: Board,
    events: Vec<Event>,
    track: Vec<Keyframes>,
}

impl Renderer {
    /// A renderer for `played`, starting from `start`, seen by `camera`, in
    /// `style` (None: varied at random from the camera's seed).
    pub fn new(
        camera: &Camera,
        start: &Chess,
        played: &Choreography,
        style: Option<Style>,
    ) -> opencv::Result<Self> {
        let mut rng = ChaCha8Rng::seed_from_u64(camera.seed);
        let style = style.unwrap_or_else(|| Style::random(&mut rng));
        let pose = Pose::with_lens(camera, &mut rng);
        let background = draw::background(&pose, &style, &mut background_rng(camera.seed))?;
        let light = draw::light_map(&pose, &style, camera.light, camera.occlusion)?;
        let track = hand_track(&played.gestures, &played.events, start.board());
        Ok(Self {
            camera: camera.clone(),
            style,
            pose,
            background,
            light,
            start: start.board().clone(),
            events: played.events.clone(),
            track,
        })
    }

    pub fn pose(&self) -> &Pose {
        &self.pose
    }

    /// The frame at time `t` and its truth.
    pub fn frame(&self, t: f64, index: u64) -> opencv::Result<(Mat, FrameTruth)> {
        let drift = Pose::drift_at(&self.camera, t);
        if drift == [0.0, 0.0] {
            return self.frame_from(&self.pose, &self.background, t, index);
        }
        // The camera moved: the same scene, seen from its new pose.
        let pose = self.pose.drifted(&self.camera, drift);
        let background =
            draw::background(&pose, &self.style, &mut background_rng(self.camera.seed))?;
        self.frame_from(&pose, &background, t, index)
    }

    fn frame_from(
        &self,
        pose: &Pose,
        background: &Mat,
        t: f64,
        index: u64,
    ) -> opencv::Result<(Mat, FrameTruth)> {
        let table = self.table_at(t);
        let hands = self.hands_at(t);
        let mut img = background.clone();
        self.draw_shadows(&mut img, pose, table.board())?;
        let mut standing: Vec<(Square, shakmaty::Piece)> = table.board().iter().collect();
        standing.sort_by(|a, b| {
            let ya = pose.project(centre(a.0))[1];
            let yb = pose.project(centre(b.0))[1];
            ya.total_cmp(&yb)
        });
        for (square, piece) in standing {
            let [x, y, z] = centre(square);
            let [dx, dy] = self.nudge_at(square, t);
            draw_piece(
                &mut img,
                pose,
                &self.style,
                piece.role,
                piece.color,
                [x + dx, y + dy, z],
            )?;
        }
        let mut mask = Mat::new_rows_cols_with_default(
            pose.height,
            pose.width,
            core::CV_8UC1,
            Scalar::all(0.0),
        )?;
        // The first hand carries what is held; a second one (a move made
        // with two hands) is drawn beside it.
        for (i, &hand) in hands.iter().enumerate() {
            let carried = if i == 0 { table.hand() } else { &[] };
            for held in carried {
                let base = [
                    hand.fingertip[0],
                    hand.fingertip[1],
                    hand.fingertip[2] - pieces::height(held.piece.role),
                ];
                draw_piece(
                    &mut img,
                    pose,
                    &self.style,
                    held.piece.role,
                    held.piece.color,
                    base,
                )?;
                // A carried piece hides what lies beneath, as the hand does.
                self.mask_piece(&mut mask, pose, held.piece.role, base)?;
            }
            draw::draw_hand(&mut img, Some(&mut mask), pose, &self.style, hand)?;
        }
        let frame = draw::camera_faults(
            &img,
            &self.light,
            self.camera.noise,
            self.camera.blur,
            self.camera.seed ^ index,
        )?;
        let truth = self.truth(pose, t, table.board(), &mask)?;
        Ok((frame, truth))
    }

    fn mask_piece(
        &self,
        mask: &mut Mat,
        pose: &Pose,
        role: Role,
        base: World,
    ) -> opencv::Result<()> {
        let mut layer = Mat::new_rows_cols_with_default(
            pose.height,
            pose.width,
            core::CV_8UC3,
            Scalar::all(0.0),
        )?;
        let mut white = self.style.clone();
        (white.white_pieces, white.black_pieces) = ([255.0; 3], [255.0; 3]);
        draw_piece(&mut layer, pose, &white, role, Color::White, base)?;
        let mut grey = Mat::default();
        opencv::imgproc::cvt_color_def(&layer, &mut grey, opencv::imgproc::COLOR_BGR2GRAY)?;
        let mut merged = Mat::default();
        core::bitwise_or(&*mask, &grey, &mut merged, &core::no_array())?;
        *mask = merged;
        Ok(())
    }

    fn draw_shadows(&self, img: &mut Mat, pose: &Pose, board: &Board) -> opencv::Result<()> {
        let mut overlay = img.clone();
        for (square, piece) in board.iter() {
            let c = centre(square);
            // The shadow falls away from the light, longer for taller pieces.
            let off = 0.35 * pieces::height(piece.role);
            for k in 1..=3 {
                let f = f64::from(k) / 3.0;
                let at = [
                    c[0] - self.style.light_dir[0] * off * f,
                    c[1] - self.style.light_dir[1] * off * f,
                    0.0,
                ];
                ring(
                    &mut overlay,
                    pose,
                    at,
                    0.27 - 0.04 * f,
                    [25.0, 25.0, 25.0],
                    true,
                )?;
            }
        }
        let mut out = Mat::default();
        core::add_weighted(img, 0.72, &overlay, 0.28, 0.0, &mut out, -1)?;
        *img = out;
        Ok(())
    }

    /// What physically stands on the board at `t`.
    fn table_at(&self, t: f64) -> Table {
        let mut table = Table::new(self.start.clone());
        for event in self.events.iter().take_while(|e| e.t <= t) {
            apply(&mut table, event);
        }
        table
    }

    /// How far the piece on `square` stands off its centre at `t`, in
    /// squares: a piece its player will adjust (art. 4.2) stands off-centre
    /// until then, and slides to the centre under the fingertip.
    fn nudge_at(&self, square: Square, t: f64) -> [f64; 2] {
        let Some(adjust) = self
            .events
            .iter()
            .find(|e| e.action == Action::Adjust(square) && e.t + DWELL >= t)
        else {
            return [0.0, 0.0];
        };
        // Another piece stood there before: that one was not adjusted.
        let replaced = self
            .events
            .iter()
            .any(|e| e.t > t && e.t < adjust.t && e.action.square() == Some(square));
        if replaced {
            return [0.0, 0.0];
        }
        off_centre(((adjust.t + DWELL - t) / (2.0 * DWELL)).clamp(0.0, 1.0))
    }

    /// The hands over the scene at `t`: the one making the gesture first.
    fn hands_at(&self, t: f64) -> Vec<Hand> {
        self.track.iter().filter_map(|k| k.at(t)).collect()
    }

    fn truth(&self, pose: &Pose, t: f64, board: &Board, mask: &Mat) -> opencv::Result<FrameTruth> {
        // Squares a fingertip rests on now: found once for the frame.
        let touched: u64 = self
            .events
            .iter()
            .filter(|e| (e.t - t).abs() <= DWELL)
            .filter(|e| {
                matches!(
                    e.action,
                    Action::Touch(_)
                        | Action::Adjust(_)
                        | Action::Lift(_)
                        | Action::Release(_)
                        | Action::Capture(_)
                )
            })
            .filter_map(|e| e.action.square())
            .fold(0, |bits, sq| bits | 1 << usize::from(sq));
        let mut squares = Vec::with_capacity(64);
        for square in Square::ALL {
            let piece = board.piece_at(square);
            let p = pose.project(centre(square));
            let (x, y) = (p[0].round() as i32, p[1].round() as i32);
            let inside = (0..mask.cols()).contains(&x) && (0..mask.rows()).contains(&y);
            let hand = inside && *mask.at_2d::<u8>(y, x)? > 0;
            let touch = touched & (1 << usize::from(square)) != 0;
            squares.push(SquareTruth {
                square: square.to_string(),
                occupant: match piece.map(|p| p.color) {
                    None => "empty",
                    Some(Color::White) => "white",
                    Some(Color::Black) => "black",
                },
                piece: piece.map(|p| p.char().to_string()),
                hand,
                touch,
            });
        }
        Ok(FrameTruth {
            t: (t * 1000.0).round() / 1000.0,
            corners: pose
                .board_corners()
                .map(|[x, y]| [(x * 100.0).round() / 100.0, (y * 100.0).round() / 100.0]),
            white_side: pose.white_side(),
            squares,
        })
    }
}

/// The generator of the background's texture: the same for every pose of
/// one scene, so that a moved camera sees the same table and board.
fn background_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_ba5e)
}

/// The centre of a square on the board plane.
pub fn centre(square: Square) -> World {
    [
        f64::from(square.file() as u8) + 0.5,
        f64::from(square.rank() as u8) + 0.5,
        0.0,
    ]
}

/// A hand's path through one gesture: timed fingertip positions.
#[derive(Debug, Clone)]
struct Keyframes {
    side: Color,
    start: f64,
    end: f64,
    points: Vec<(f64, World)>,
    /// How the hand goes from one point to the next.
    pace: Pace,
}

/// How a hand moves between two of its points.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Pace {
    /// Easing in and out: the hand stops at each point (to touch, to take).
    Stopping,
    /// At an even speed: the hand passes through each point without
    /// stopping (a hover: never a stop over a piece).
    Passing,
}

impl Keyframes {
    fn at(&self, t: f64) -> Option<Hand> {
        if t < self.start || t > self.end || self.points.len() < 2 {
            return None;
        }
        let i = self
            .points
            .iter()
            .rposition(|(kt, _)| *kt <= t)
            .unwrap_or(0);
        let (t0, p0) = self.points[i];
        let (t1, p1) = *self.points.get(i + 1).unwrap_or(&self.points[i]);
        let s = if t1 > t0 {
            ((t - t0) / (t1 - t0)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let s = match self.pace {
            Pace::Stopping => s * s * (3.0 - 2.0 * s),
            Pace::Passing => s,
        };
        // A hand travelling lifts over the pieces; a fingertip sliding a
        // piece (an adjust) stays on it.
        let travelling = (p1[0] - p0[0]).hypot(p1[1] - p0[1]) > 0.5;
        let arc = if travelling {
            1.2 * 4.0 * s * (1.0 - s)
        } else {
            0.0
        };
        Some(Hand {
            side: self.side,
            fingertip: [
                p0[0] + (p1[0] - p0[0]) * s,
                p0[1] + (p1[1] - p0[1]) * s,
                p0[2] + (p1[2] - p0[2]) * s + arc,
            ],
        })
    }
}

/// A piece `share` (1 to 0) of the way from off-centre to its centre.
fn off_centre(share: f64) -> [f64; 2] {
    let s = share * share * (3.0 - 2.0 * share);
    [OFF_CENTRE[0] * s, OFF_CENTRE[1] * s]
}

/// Where a side's hand waits, off the board on its side.
fn rest(side: Color) -> World {
    match side {
        Color::White => [4.5, -2.6, 2.2],
        Color::Black => [3.5, 10.6, 2.2],
    }
}

/// Height over the board where a hover passes.
const HOVER_HEIGHT: f64 = 2.3;

fn hand_track(gestures: &[Gesture], events: &[Event], start: &Board) -> Vec<Keyframes> {
    let mut table = Table::new(start.clone());
    let mut replayed = 0;
    let mut track = Vec::new();
    // Where a side's hand waits holding a piece between two gestures (a
    // `lift`, then a `release`): over the board, not back at rest.
    let mut holding: [Option<World>; 2] = [None, None];
    let slot = |side: Color| usize::from(side == Color::Black);
    for gesture in gestures {
        if matches!(gesture.kind, "wait" | "declare") {
            // A hand holding a piece stays where it is while time passes.
            for side in [Color::White, Color::Black] {
                if let Some(at) = holding[slot(side)] {
                    track.push(Keyframes {
                        side,
                        start: gesture.start,
                        end: gesture.end,
                        points: vec![(gesture.start, at), (gesture.end, at)],
                        pace: Pace::Stopping,
                    });
                }
            }
            continue;
        }
        let from = holding[slot(gesture.side)]
            .take()
            .unwrap_or_else(|| rest(gesture.side));
        let mut points = vec![(gesture.start, from)];
        if gesture.kind == "clock" {
            let mid = (gesture.start + gesture.end) / 2.0;
            points.push((mid, CLOCK));
        } else if gesture.kind == "hover" {
            // Over each square in turn, across the middle of the gesture.
            let height = gesture.height.unwrap_or(HOVER_HEIGHT);
            let span = gesture.end - gesture.start;
            let passes = gesture.squares.len();
            for (k, sq) in gesture.squares.iter().enumerate() {
                let share = if passes == 1 {
                    0.5
                } else {
                    0.25 + 0.5 * k as f64 / (passes - 1) as f64
                };
                let c = centre(*sq);
                points.push((gesture.start + share * span, [c[0], c[1], height]));
            }
        }
        while replayed < events.len() && events[replayed].t <= gesture.end {
            let event = events[replayed];
            replayed += 1;
            if let Some(sq) = event.action.square() {
                // The fingertip rests on the top of the piece there, or of
                // the piece in the hand when it is set down or brought in.
                let role = match event.action {
                    Action::Add(_, role) => role,
                    Action::Release(_) => table
                        .hand()
                        .last()
                        .map_or(Role::Pawn, |held| held.piece.role),
                    _ => table
                        .capture_target(sq)
                        .map_or(Role::Pawn, |(piece, _)| piece.role),
                };
                let c = centre(sq);
                let tip = [c[0], c[1], pieces::height(role)];
                // An adjusting fingertip starts on the piece off-centre.
                let [dx, dy] = match event.action {
                    Action::Adjust(_) => off_centre(1.0),
                    _ => [0.0, 0.0],
                };
                points.push((event.t - DWELL, [tip[0] + dx, tip[1] + dy, tip[2]]));
                points.push((event.t + DWELL, tip));
            }
            apply(&mut table, &event);
        }
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let last = points.last().map_or(from, |p| p.1);
        if table.hand().is_empty() {
            points.push((gesture.end, rest(gesture.side)));
        } else {
            let above = [last[0], last[1], last[2] + 0.8];
            points.push((gesture.end, above));
            holding[slot(gesture.side)] = Some(above);
        }
        let helper = (gesture.kind == "two-hands")
            .then(|| other_hand(gesture, &points))
            .flatten();
        let pace = if gesture.kind == "hover" {
            Pace::Passing
        } else {
            Pace::Stopping
        };
        track.push(Keyframes {
            side: gesture.side,
            start: gesture.start,
            end: gesture.end,
            points,
            pace,
        });
        track.extend(helper);
    }
    track
}

/// The player's other hand in a move made with two hands (art. 4.1): it
/// comes over the board three files away from the move, above the pieces
/// without touching one, for as long as the first hand holds
/// a piece, and goes back.
fn other_hand(gesture: &Gesture, points: &[(f64, World)]) -> Option<Keyframes> {
    let (&from, &to) = (gesture.squares.first()?, gesture.squares.last()?);
    let (first, last) = (points.get(1)?.0, points[points.len() - 2].0);
    let x = (f64::from(from.file() as u8) + f64::from(to.file() as u8)) / 2.0 + 0.5;
    let y = (f64::from(from.rank() as u8) + f64::from(to.rank() as u8)) / 2.0 + 0.5;
    let x = if x < 4.0 { x + 3.0 } else { x - 3.0 };
    // Two ranks and a half into the board at least, so that its arm shows.
    let y = match gesture.side {
        Color::White => y.max(2.5),
        Color::Black => y.min(5.5),
    };
    let over = [x, y, OTHER_HAND_HEIGHT];
    let rest = rest(gesture.side);
    let aside = [x, rest[1], rest[2]];
    Some(Keyframes {
        side: gesture.side,
        start: gesture.start,
        end: gesture.end,
        points: vec![
            (gesture.start, aside),
            (first, over),
            (last, over),
            (gesture.end, aside),
        ],
        pace: Pace::Stopping,
    })
}

/// Height over the board of the other hand in a two-handed move: above the
/// tallest piece, so that it touches none.
const OTHER_HAND_HEIGHT: f64 = 1.9;

/// Plays one event on the table; events the table contradicts change nothing
/// (the choreography only writes consistent ones).
fn apply(table: &mut Table, event: &Event) {
    let _ = match event.action {
        Action::Lift(sq) => table.lift(sq).map(drop),
        Action::Release(sq) => table.release(sq).map(drop),
        Action::Capture(sq) => table.capture(sq).map(drop),
        Action::Add(sq, role) => {
            // The choreography writes the side of every `add`.
            let color = event.side.unwrap_or(Color::White);
            table.add(shakmaty::Piece { color, role }, sq);
            Ok(())
        }
        _ => Ok(()),
    };
}
