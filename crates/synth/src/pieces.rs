//! Staunton-like pieces as the camera sees them: each a surface of
//! revolution (a profile of rings, drawn as stacked ellipses bottom to top,
//! shaded by the light) with the feature that tells its type: the pawn's
//! ball, the rook's battlements, the knight's head, the bishop's mitre and
//! slit, the queen's crown, the king's cross. Heights follow real sets
//! (king about 1.7 squares, pawn about 0.9).

use opencv::core::{Mat, Point, Size, Vector};
use opencv::imgproc;
use shakmaty::{Color, Role};

use crate::camera::{Pose, World, add};
use crate::draw::{LINE, SHIFT, bgr, point};
use crate::style::{Bgr, Style};

/// (height, radius) rings of a piece's body, in squares.
fn profile(role: Role) -> &'static [(f64, f64)] {
    match role {
        Role::Pawn => &[
            (0.0, 0.27),
            (0.08, 0.27),
            (0.13, 0.19),
            (0.45, 0.11),
            (0.5, 0.17),
            (0.56, 0.1),
        ],
        Role::Rook => &[
            (0.0, 0.31),
            (0.1, 0.31),
            (0.16, 0.24),
            (0.7, 0.19),
            (0.76, 0.25),
            (0.98, 0.25),
        ],
        Role::Knight => &[(0.0, 0.31), (0.1, 0.31), (0.16, 0.25), (0.4, 0.22)],
        Role::Bishop => &[
            (0.0, 0.29),
            (0.1, 0.29),
            (0.16, 0.21),
            (0.75, 0.11),
            (0.8, 0.18),
            (0.85, 0.1),
        ],
        Role::Queen => &[
            (0.0, 0.33),
            (0.1, 0.33),
            (0.17, 0.25),
            (1.05, 0.12),
            (1.12, 0.22),
            (1.18, 0.13),
            (1.35, 0.2),
        ],
        Role::King => &[
            (0.0, 0.34),
            (0.1, 0.34),
            (0.17, 0.26),
            (1.15, 0.13),
            (1.22, 0.23),
            (1.28, 0.14),
            (1.45, 0.2),
        ],
    }
}

/// Height of a piece's top, in squares (where a fingertip rests).
pub fn height(role: Role) -> f64 {
    match role {
        Role::Pawn => 0.75,
        Role::Rook => 0.98,
        Role::Knight => 1.15,
        Role::Bishop => 1.2,
        Role::Queen => 1.45,
        Role::King => 1.72,
    }
}

/// Ring spacing when stacking ellipses, in squares.
const RING_STEP: f64 = 0.045;

/// Draws a piece standing with its base centre at `base`.
pub fn draw_piece(
    img: &mut Mat,
    pose: &Pose,
    style: &Style,
    role: Role,
    color: Color,
    base: World,
) -> opencv::Result<()> {
    let colour = if color == Color::White {
        style.white_pieces
    } else {
        style.black_pieces
    };
    let s = style.piece_scale;
    let rings = profile(role);
    let top = rings.last().map_or(0.0, |r| r.0);
    let mut z = 0.0;
    while z <= top + 1e-9 {
        let r = radius_at(rings, z) * s;
        let shade = 0.62 + 0.38 * (z / height(role)).min(1.0);
        ring(
            img,
            pose,
            add(base, [0.0, 0.0, z * s]),
            r,
            shade_colour(colour, shade),
            true,
        )?;
        z += RING_STEP;
    }
    // The lit side of the top ring.
    let top_r = radius_at(rings, top) * s;
    let lit = add(
        base,
        [
            style.light_dir[0] * top_r * 0.3,
            style.light_dir[1] * top_r * 0.3,
            top * s,
        ],
    );
    ring(
        img,
        pose,
        lit,
        top_r * 0.55,
        shade_colour(colour, 1.18),
        true,
    )?;
    draw_feature(img, pose, colour, role, color, base, s)
}

fn draw_feature(
    img: &mut Mat,
    pose: &Pose,
    colour: Bgr,
    role: Role,
    color: Color,
    base: World,
    s: f64,
) -> opencv::Result<()> {
    let dark = shade_colour(colour, 0.45);
    let at = |dz: f64, dx: f64, dy: f64| add(base, [dx * s, dy * s, dz * s]);
    match role {
        Role::Pawn => {
            // The ball on top.
            stack(
                img,
                pose,
                colour,
                &at,
                &[
                    (0.62, 0.15, 0.85),
                    (0.66, 0.14, 0.95),
                    (0.7, 0.11, 1.05),
                    (0.73, 0.06, 1.2),
                ],
            )?;
        }
        Role::Rook => {
            // Battlements: dark notches around the rim.
            for k in 0..6 {
                let a = f64::from(k) * std::f64::consts::TAU / 6.0;
                let p = pose.project(at(0.98, 0.2 * a.cos(), 0.2 * a.sin()));
                let r = (pose.scale_at(base) * 0.045 * s).max(1.0);
                imgproc::circle(
                    img,
                    point(p),
                    (r * f64::from(1 << SHIFT)) as i32,
                    bgr(dark),
                    -1,
                    LINE,
                    SHIFT,
                )?;
            }
            ring(img, pose, at(0.98, 0.0, 0.0), 0.13 * s, dark, true)?;
        }
        Role::Knight => {
            // The head and mane: a silhouette in the plane facing the opponent.
            let facing = if color == Color::White { 1.0 } else { -1.0 };
            let outline: [(f64, f64); 9] = [
                (-0.2, 0.35),
                (-0.22, 0.8),
                (-0.1, 1.1),
                (0.05, 1.15),
                (0.28, 0.85),
                (0.3, 0.72),
                (0.12, 0.75),
                (0.05, 0.6),
                (0.15, 0.35),
            ];
            for (thick, shade) in [(-0.08, 0.7), (0.0, 0.9), (0.08, 1.05)] {
                let pts: Vector<Point> = outline
                    .iter()
                    .map(|&(u, z)| point(pose.project(at(z, thick, u * facing))))
                    .collect();
                imgproc::fill_poly(
                    img,
                    &Vector::<Vector<Point>>::from(vec![pts]),
                    bgr(shade_colour(colour, shade)),
                    LINE,
                    SHIFT,
                    Point::new(0, 0),
                )?;
            }
            let eye = pose.project(at(0.95, 0.09, 0.02 * facing));
            let r = (pose.scale_at(base) * 0.03).max(1.0);
            imgproc::circle(
                img,
                point(eye),
                (r * f64::from(1 << SHIFT)) as i32,
                bgr(dark),
                -1,
                LINE,
                SHIFT,
            )?;
        }
        Role::Bishop => {
            // The mitre: a bulb narrowing to a point, with its slit.
            stack(
                img,
                pose,
                colour,
                &at,
                &[
                    (0.88, 0.14, 0.8),
                    (0.95, 0.15, 0.9),
                    (1.02, 0.13, 1.0),
                    (1.09, 0.09, 1.08),
                    (1.15, 0.04, 1.15),
                ],
            )?;
            let a = pose.project(at(1.08, -0.09, -0.02));
            let b = pose.project(at(0.96, 0.08, 0.04));
            let w = (pose.scale_at(base) * 0.03).max(1.0) as i32;
            imgproc::line(img, point(a), point(b), bgr(dark), w, LINE, SHIFT)?;
        }
        Role::Queen => {
            // The crown: a ring of points and a ball.
            for k in 0..8 {
                let a = f64::from(k) * std::f64::consts::TAU / 8.0;
                ring(
                    img,
                    pose,
                    at(1.38, 0.17 * a.cos(), 0.17 * a.sin()),
                    0.05 * s,
                    shade_colour(colour, 1.1),
                    true,
                )?;
            }
            ring(
                img,
                pose,
                at(1.45, 0.0, 0.0),
                0.07 * s,
                shade_colour(colour, 1.15),
                true,
            )?;
        }
        Role::King => {
            // The cross.
            let w = (pose.scale_at(base) * 0.06).max(1.5) as i32;
            let c = shade_colour(colour, 0.8);
            imgproc::line(
                img,
                point(pose.project(at(1.45, 0.0, 0.0))),
                point(pose.project(at(1.72, 0.0, 0.0))),
                bgr(c),
                w,
                LINE,
                SHIFT,
            )?;
            imgproc::line(
                img,
                point(pose.project(at(1.62, -0.09, 0.0))),
                point(pose.project(at(1.62, 0.09, 0.0))),
                bgr(c),
                w,
                LINE,
                SHIFT,
            )?;
        }
    }
    Ok(())
}

/// Rings of (height, radius, shade) on the piece's axis, bottom to top.
fn stack(
    img: &mut Mat,
    pose: &Pose,
    colour: Bgr,
    at: &dyn Fn(f64, f64, f64) -> World,
    rings: &[(f64, f64, f64)],
) -> opencv::Result<()> {
    for &(z, r, shade) in rings {
        let edge = at(z, r, 0.0);
        let centre = at(z, 0.0, 0.0);
        ring(
            img,
            pose,
            centre,
            edge[0] - centre[0],
            shade_colour(colour, shade),
            true,
        )?;
    }
    Ok(())
}

fn radius_at(rings: &[(f64, f64)], z: f64) -> f64 {
    for pair in rings.windows(2) {
        let ((z0, r0), (z1, r1)) = (pair[0], pair[1]);
        if z <= z1 {
            let s = if z1 > z0 { (z - z0) / (z1 - z0) } else { 1.0 };
            return r0 + (r1 - r0) * s.clamp(0.0, 1.0);
        }
    }
    rings.last().map_or(0.0, |r| r.1)
}

fn shade_colour(colour: Bgr, shade: f64) -> Bgr {
    colour.map(|c| (c * shade).clamp(0.0, 255.0))
}

/// A horizontal circle of radius `r` (squares) around `centre`, as the
/// camera sees it: an ellipse.
pub fn ring(
    img: &mut Mat,
    pose: &Pose,
    centre: World,
    r: f64,
    colour: Bgr,
    filled: bool,
) -> opencv::Result<()> {
    let c = pose.project(centre);
    let px = pose.project(add(centre, [r, 0.0, 0.0]));
    let py = pose.project(add(centre, [0.0, r, 0.0]));
    let (ax, ay) = ([px[0] - c[0], px[1] - c[1]], [py[0] - c[0], py[1] - c[1]]);
    let la = (ax[0] * ax[0] + ax[1] * ax[1]).sqrt();
    let lb = (ay[0] * ay[0] + ay[1] * ay[1]).sqrt();
    let angle = ax[1].atan2(ax[0]).to_degrees();
    let one = f64::from(1 << SHIFT);
    imgproc::ellipse(
        img,
        point(c),
        Size::new((la * one) as i32, (lb * one) as i32),
        angle,
        0.0,
        360.0,
        bgr(colour),
        if filled { -1 } else { 1 },
        LINE,
        SHIFT,
    )
}
