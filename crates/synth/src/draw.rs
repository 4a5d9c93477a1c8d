//! Drawing the scene with OpenCV: the table and what lies on it, the board
//! with its border, texture and coordinates, hands and arms, and the
//! camera's faults (uneven light, glare, noise, blur).

use opencv::core::{self, CV_32FC3, Mat, Point, Scalar, Vector};
use opencv::imgproc;
use opencv::prelude::*;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use shakmaty::Color;

use crate::camera::{Pose, World, add};
use crate::pieces::ring;
use crate::style::{Bgr, Style, Texture};

/// Sub-pixel bits for OpenCV's drawing calls.
pub const SHIFT: i32 = 4;
/// Anti-aliased lines.
pub const LINE: i32 = imgproc::LINE_AA;

/// An image point with `SHIFT` fractional bits.
pub fn point(p: [f64; 2]) -> Point {
    let one = f64::from(1 << SHIFT);
    Point::new((p[0] * one).round() as i32, (p[1] * one).round() as i32)
}

pub fn bgr(c: Bgr) -> Scalar {
    Scalar::new(c[0], c[1], c[2], 0.0)
}

fn quad(img: &mut Mat, pose: &Pose, corners: [World; 4], colour: Bgr) -> opencv::Result<()> {
    let pts: Vector<Point> = corners.iter().map(|&c| point(pose.project(c))).collect();
    imgproc::fill_convex_poly(img, &pts, bgr(colour), LINE, SHIFT)
}

fn flat(x0: f64, y0: f64, x1: f64, y1: f64, z: f64) -> [World; 4] {
    [[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]]
}

/// The still part of the scene: table, clutter, board. Drawn once per pose.
pub fn background(pose: &Pose, style: &Style, rng: &mut ChaCha8Rng) -> opencv::Result<Mat> {
    let mut img =
        Mat::new_rows_cols_with_default(pose.height, pose.width, core::CV_8UC3, bgr(style.table))?;
    // Table grain.
    for _ in 0..30 {
        let y: f64 = rng.random_range(-12.0..20.0);
        let shade = rng.random_range(0.85..1.1);
        let a = pose.project([-12.0, y, 0.0]);
        let b = pose.project([20.0, y + rng.random_range(-0.5..0.5), 0.0]);
        let colour = style.table.map(|c| (c * shade).min(255.0));
        imgproc::line(&mut img, point(a), point(b), bgr(colour), 2, LINE, SHIFT)?;
    }
    // Scoresheets on both sides and the clock beside the board.
    quad(
        &mut img,
        pose,
        flat(-3.6, 0.5, -1.4, 3.3, 0.0),
        [235.0, 240.0, 240.0],
    )?;
    quad(
        &mut img,
        pose,
        flat(9.4, 4.7, 11.6, 7.5, 0.0),
        [235.0, 240.0, 240.0],
    )?;
    for k in 0..8 {
        let y = 0.8 + f64::from(k) * 0.3;
        let a = pose.project([-3.4, y, 0.0]);
        let b = pose.project([-1.6, y, 0.0]);
        imgproc::line(
            &mut img,
            point(a),
            point(b),
            bgr([150.0, 150.0, 150.0]),
            1,
            LINE,
            SHIFT,
        )?;
    }
    draw_clock(&mut img, pose)?;
    // The board: border, squares, coordinates.
    quad(
        &mut img,
        pose,
        flat(-0.55, -0.55, 8.55, 8.55, 0.0),
        style.border,
    )?;
    for file in 0..8 {
        for rank in 0..8 {
            draw_square(&mut img, pose, style, rng, file, rank)?;
        }
    }
    draw_coordinates(&mut img, pose, style)?;
    Ok(img)
}

/// Where the clock stands, on White's right (world units).
pub const CLOCK: World = [9.6, 3.0, 0.9];

fn draw_clock(img: &mut Mat, pose: &Pose) -> opencv::Result<()> {
    let body = [40.0, 40.0, 45.0];
    quad(
        img,
        pose,
        [
            [9.1, 1.9, 0.0],
            [10.3, 1.9, 0.0],
            [10.3, 1.9, 0.8],
            [9.1, 1.9, 0.8],
        ],
        [30.0, 30.0, 30.0],
    )?;
    quad(img, pose, flat(9.1, 1.9, 10.3, 4.1, 0.8), body)?;
    quad(
        img,
        pose,
        flat(9.3, 2.2, 10.1, 2.9, 0.81),
        [200.0, 210.0, 200.0],
    )?;
    quad(
        img,
        pose,
        flat(9.3, 3.1, 10.1, 3.8, 0.81),
        [200.0, 210.0, 200.0],
    )?;
    Ok(())
}

fn draw_square(
    img: &mut Mat,
    pose: &Pose,
    style: &Style,
    rng: &mut ChaCha8Rng,
    file: i32,
    rank: i32,
) -> opencv::Result<()> {
    let light = (file + rank) % 2 == 1;
    let base = if light {
        style.light_square
    } else {
        style.dark_square
    };
    let (x, y) = (f64::from(file), f64::from(rank));
    let shade = match style.texture {
        Texture::Paper => rng.random_range(0.94..1.04),
        _ => rng.random_range(0.98..1.02),
    };
    quad(
        img,
        pose,
        flat(x, y, x + 1.0, y + 1.0, 0.0),
        base.map(|c| (c * shade).min(255.0)),
    )?;
    match style.texture {
        Texture::WoodGrain => {
            let horizontal = (file + rank) % 2 == 0;
            for k in 0..5 {
                let offset = (f64::from(k) + rng.random_range(0.1..0.9)) / 5.0;
                let wobble = rng.random_range(-0.08..0.08);
                let (a, b) = if horizontal {
                    ([x, y + offset, 0.0], [x + 1.0, y + offset + wobble, 0.0])
                } else {
                    ([x + offset, y, 0.0], [x + offset + wobble, y + 1.0, 0.0])
                };
                let grain = base.map(|c| c * rng.random_range(0.82..0.93));
                imgproc::line(
                    img,
                    point(pose.project(a)),
                    point(pose.project(b)),
                    bgr(grain),
                    1,
                    LINE,
                    SHIFT,
                )?;
            }
        }
        Texture::Vinyl => {
            // A faint sheen across each square.
            let sheen = base.map(|c| (c * 1.06).min(255.0));
            quad(
                img,
                pose,
                flat(x + 0.1, y + 0.55, x + 0.9, y + 0.75, 0.0),
                sheen,
            )?;
        }
        Texture::Plain | Texture::Paper => {}
    }
    if style.figure {
        draw_figure(img, pose, base, rng, x, y)?;
    }
    Ok(())
}

/// Figured wood on the square at (x, y): a light or dark streak at any
/// angle, sometimes a knot or a spot. A detector that has never seen one
/// takes a streak for a piece.
fn draw_figure(
    img: &mut Mat,
    pose: &Pose,
    base: Bgr,
    rng: &mut ChaCha8Rng,
    x: f64,
    y: f64,
) -> opencv::Result<()> {
    for _ in 0..rng.random_range(0..3) {
        let angle: f64 = rng.random_range(0.0..std::f64::consts::PI);
        let (dx, dy) = (angle.cos() * 0.5, angle.sin() * 0.5);
        let (cx, cy) = (
            x + rng.random_range(0.2..0.8),
            y + rng.random_range(0.2..0.8),
        );
        let clip = |v: f64, lo: f64| v.clamp(lo + 0.02, lo + 0.98);
        let a = [clip(cx - dx, x), clip(cy - dy, y), 0.0];
        let b = [clip(cx + dx, x), clip(cy + dy, y), 0.0];
        // Paler or darker than the square, never another hue.
        let shade = rng.random_range(0.8..1.12);
        let tone = base.map(|c| (c * shade).min(255.0));
        let width = (pose.scale_at(a) * rng.random_range(0.03..0.25)).max(1.0);
        imgproc::line(
            img,
            point(pose.project(a)),
            point(pose.project(b)),
            bgr(tone),
            width as i32,
            LINE,
            SHIFT,
        )?;
    }
    if rng.random_bool(0.15) {
        let centre = [
            x + rng.random_range(0.2..0.8),
            y + rng.random_range(0.2..0.8),
            0.0,
        ];
        let radius = pose.scale_at(centre) * rng.random_range(0.03..0.09);
        let shade = rng.random_range(0.6..0.9);
        let tone = base.map(|c| c * shade);
        imgproc::circle(
            img,
            point(pose.project(centre)),
            (radius * f64::from(1 << SHIFT)) as i32,
            bgr(tone),
            -1,
            LINE,
            SHIFT,
        )?;
    }
    Ok(())
}

fn draw_coordinates(img: &mut Mat, pose: &Pose, style: &Style) -> opencv::Result<()> {
    let scale = pose.scale_at([4.0, 4.0, 0.0]) / 60.0;
    for k in 0..8 {
        let file = char::from(b'a' + k as u8).to_string();
        let rank = (k + 1).to_string();
        let at_file = pose.project([f64::from(k) + 0.4, -0.35, 0.0]);
        let at_rank = pose.project([-0.4, f64::from(k) + 0.4, 0.0]);
        for (text, at) in [(file, at_file), (rank, at_rank)] {
            let origin = Point::new(at[0] as i32 - 3, at[1] as i32 + 4);
            imgproc::put_text(
                img,
                &text,
                origin,
                imgproc::FONT_HERSHEY_SIMPLEX,
                scale,
                bgr(style.coordinates),
                1,
                LINE,
                false,
            )?;
        }
    }
    Ok(())
}

/// A hand over the board: where the fingertip is and whose it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hand {
    pub side: Color,
    pub fingertip: World,
}

/// Radius of the palm, in squares.
const PALM: f64 = 0.42;

/// Where a side's arm comes from, off the board on the player's side.
pub fn shoulder(side: Color, fingertip: World) -> World {
    match side {
        Color::White => [fingertip[0] * 0.4 + 2.4, -6.5, 4.5],
        Color::Black => [fingertip[0] * 0.4 + 2.4, 14.5, 4.5],
    }
}

/// Draws an arm in its sleeve, the hand and fingers with the index
/// fingertip at `hand.fingertip`. Also draws it into `mask` (255) when given.
pub fn draw_hand(
    img: &mut Mat,
    mask: Option<&mut Mat>,
    pose: &Pose,
    style: &Style,
    hand: Hand,
) -> opencv::Result<()> {
    let who = usize::from(hand.side == Color::Black);
    let tip = hand.fingertip;
    let toward = if hand.side == Color::White { -1.0 } else { 1.0 };
    let palm = add(tip, [0.15, 0.55 * toward, 0.35]);
    let wrist = add(tip, [0.2, 1.1 * toward, 0.55]);
    let shoulder = shoulder(hand.side, tip);
    let px = pose.scale_at([tip[0], tip[1], 0.0]);
    let sleeve_w = (px * 0.9).max(3.0) as i32;
    let finger_w = (px * 0.18).max(2.0) as i32;
    let mut strokes: Vec<([f64; 2], [f64; 2], i32, Bgr)> = vec![
        (
            pose.project(shoulder),
            pose.project(wrist),
            sleeve_w,
            style.sleeve[who],
        ),
        (
            pose.project(wrist),
            pose.project(palm),
            (px * 0.7).max(3.0) as i32,
            style.skin[who],
        ),
    ];
    for (dx, dz, reach) in [
        (-0.22, 0.1, 0.75),
        (0.0, 0.0, 1.0),
        (0.22, 0.08, 0.85),
        (0.38, 0.12, 0.6),
    ] {
        let end = add(
            palm,
            [
                dx + (tip[0] - palm[0]) * reach * 0.2,
                (tip[1] - palm[1]) * reach,
                (tip[2] - palm[2]) * reach + dz,
            ],
        );
        let end = if dx == 0.0 { tip } else { end };
        strokes.push((
            pose.project(palm),
            pose.project(end),
            finger_w,
            style.skin[who].map(|c| c * 0.93),
        ));
    }
    // The thumb, on the side.
    strokes.push((
        pose.project(palm),
        pose.project(add(tip, [-0.35, 0.25 * toward, 0.1])),
        finger_w,
        style.skin[who].map(|c| c * 0.88),
    ));
    for (a, b, w, c) in &strokes {
        imgproc::line(img, point(*a), point(*b), bgr(*c), *w, LINE, SHIFT)?;
    }
    ring(img, pose, palm, PALM, style.skin[who], true)?;
    if let Some(mask) = mask {
        for (a, b, w, _) in &strokes {
            imgproc::line(
                mask,
                point(*a),
                point(*b),
                Scalar::all(255.0),
                *w,
                imgproc::LINE_8,
                SHIFT,
            )?;
        }
        ring(mask, pose, palm, PALM, [255.0; 3], true)?;
    }
    Ok(())
}

/// The scene's light as a per-pixel gain (float, 3 channels): the room's
/// `brightness` (the scenario's `light`, 1 for even daylight), colour
/// temperature, uneven light, glare, and the shadow of someone standing by
/// covering `occlusion` of the image from its left edge. Computed once per scene.
pub fn light_map(
    pose: &Pose,
    style: &Style,
    brightness: f64,
    occlusion: f64,
) -> opencv::Result<Mat> {
    let (w, h) = (pose.width, pose.height);
    let mut map = Mat::new_rows_cols_with_default(h, w, CV_32FC3, Scalar::all(0.0))?;
    let glare = style
        .glare
        .map(|[gx, gy]| [gx * f64::from(w), gy * f64::from(h)]);
    let diag = f64::from(w * w + h * h).sqrt();
    for y in 0..h {
        for x in 0..w {
            let (dx, dy) = (
                f64::from(x) - f64::from(w) / 2.0,
                f64::from(y) - f64::from(h) / 2.0,
            );
            let r = (dx * dx + dy * dy).sqrt() / (diag / 2.0);
            let mut gain = 1.0 - style.vignette * r * r;
            gain += 0.25 * style.vignette * (dx * style.light_dir[0] - dy * style.light_dir[1])
                / (diag / 2.0);
            let shadow_edge =
                occlusion * f64::from(w) * (1.0 + 0.3 * (f64::from(y) / f64::from(h) * 6.0).sin());
            if f64::from(x) < shadow_edge {
                gain *= 0.45;
            }
            if let Some([gx, gy]) = glare {
                let d2 = ((f64::from(x) - gx).powi(2) + (f64::from(y) - gy).powi(2))
                    / (0.01 * diag * diag);
                gain += 0.6 * (-d2).exp();
            }
            let px = map.at_2d_mut::<core::Vec3f>(y, x)?;
            for c in 0..3 {
                px[c] = (brightness * gain * style.tint[c]) as f32;
            }
        }
    }
    Ok(map)
}

/// Applies the light map, sensor noise and blur to a rendered frame.
pub fn camera_faults(
    frame: &Mat,
    light: &Mat,
    noise: f64,
    blur: f64,
    seed: u64,
) -> opencv::Result<Mat> {
    let mut f = Mat::default();
    frame.convert_to(&mut f, CV_32FC3, 1.0, 0.0)?;
    let mut lit = Mat::default();
    core::multiply(&f, light, &mut lit, 1.0, -1)?;
    if noise > 0.0 {
        core::set_rng_seed(seed as i32)?;
        let mut grain = Mat::new_rows_cols_with_default(
            frame.rows(),
            frame.cols(),
            CV_32FC3,
            Scalar::all(0.0),
        )?;
        core::randn(&mut grain, &Scalar::all(0.0), &Scalar::all(noise * 25.0))?;
        let mut noisy = Mat::default();
        core::add(&lit, &grain, &mut noisy, &core::no_array(), -1)?;
        lit = noisy;
    }
    let mut out = Mat::default();
    lit.convert_to(&mut out, core::CV_8UC3, 1.0, 0.0)?;
    if blur > 0.0 {
        let k = 2 * ((blur * 3.0).round() as i32) + 1;
        let mut blurred = Mat::default();
        imgproc::gaussian_blur_def(&out, &mut blurred, core::Size::new(k, k), blur * 1.5)?;
        out = blurred;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::scenario::Camera;

    /// How far the light squares' pixels spread (grey level), over the
    /// middle of each, on a background drawn in `style`.
    fn light_square_spread(style: &Style) -> f64 {
        let pose = Pose::new(&Camera::default(), [0.0, 0.0], 0.0);
        let img = background(&pose, style, &mut ChaCha8Rng::seed_from_u64(7)).expect("draws");
        let mut grey = Mat::default();
        imgproc::cvt_color_def(&img, &mut grey, imgproc::COLOR_BGR2GRAY).expect("grey");
        let mut values = Vec::new();
        for (file, rank) in (0..8).flat_map(|f| (0..8).map(move |r| (f, r))) {
            if (file + rank) % 2 == 0 {
                continue;
            }
            for (dx, dy) in (1..10).flat_map(|i| (1..10).map(move |j| (i, j))) {
                let at = pose.project([
                    f64::from(file) + f64::from(dx) / 10.0,
                    f64::from(rank) + f64::from(dy) / 10.0,
                    0.0,
                ]);
                let v = *grey
                    .at_2d::<u8>(at[1] as i32, at[0] as i32)
                    .expect("inside");
                values.push(f64::from(v));
            }
        }
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64).sqrt()
    }

    #[test]
    fn figured_wood_marks_the_squares() {
        let plain = Style::plain();
        let figured = Style {
            figure: true,
            ..Style::plain()
        };
        let (flat, marked) = (light_square_spread(&plain), light_square_spread(&figured));
        assert!(
            marked > flat + 2.0,
            "figured squares spread {marked:.1} grey levels, plain {flat:.1}"
        );
    }
}
