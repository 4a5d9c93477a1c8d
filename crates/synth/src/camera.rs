//! The camera above the board: a pinhole looking at the board's centre from
//! above and slightly to the side, with lens distortion.
//!
//! World units are squares: the playing area spans x, y in 0..8 with a1 at
//! the origin and White's first rank along y = 0; z points up. `tilt` moves
//! the camera from straight above towards White's side, `yaw` turns it
//! around the board, `roll` turns the image.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::scenario::Camera;

/// A point in the world, in squares.
pub type World = [f64; 3];

/// A posed camera.
#[derive(Debug, Clone)]
pub struct Pose {
    eye: World,
    right: World,
    down: World,
    forward: World,
    focal_px: f64,
    centre: [f64; 2],
    /// Radial distortion of normalised coordinates.
    k1: f64,
    pub width: i32,
    pub height: i32,
}

/// Board centre, the point the camera looks at.
const TARGET: World = [4.0, 4.0, 0.0];

/// How much of the image height the board with its border spans.
const BOARD_FILL: f64 = 0.82;

/// Side of the board with its border, in squares.
pub const BOARD_WITH_BORDER: f64 = 9.0;

impl Pose {
    /// The pose a scenario's camera asks for, with `drift` degrees added to
    /// tilt and yaw (for a slowly drifting or bumped camera).
    pub fn new(camera: &Camera, drift: [f64; 2], k1: f64) -> Self {
        let (tilt, yaw, roll) = (
            (camera.tilt + drift[0]).to_radians(),
            (camera.yaw + drift[1]).to_radians(),
            camera.roll.to_radians(),
        );
        let focal_px = f64::from(camera.height) * 1.1;
        let distance =
            BOARD_WITH_BORDER * focal_px / (BOARD_FILL * camera.zoom * f64::from(camera.height));
        let dir = [tilt.sin() * yaw.sin(), -tilt.sin() * yaw.cos(), tilt.cos()];
        let eye = add(TARGET, scale(dir, distance));
        let forward = normalize(sub(TARGET, eye));
        // Image "up" points to Black's side, turned by yaw.
        let down_hint = [yaw.sin(), -yaw.cos(), 0.0];
        let down0 = normalize(sub(down_hint, scale(forward, dot(down_hint, forward))));
        let right0 = cross(down0, forward);
        let (s, c) = roll.sin_cos();
        let right = add(scale(right0, c), scale(down0, s));
        let down = sub(scale(down0, c), scale(right0, s));
        Self {
            eye,
            right,
            down,
            forward,
            focal_px,
            centre: [
                f64::from(camera.width) / 2.0,
                f64::from(camera.height) / 2.0,
            ],
            k1,
            width: camera.width as i32,
            height: camera.height as i32,
        }
    }

    /// A pose with a little random lens distortion, as real webcams have.
    pub fn with_lens(camera: &Camera, rng: &mut ChaCha8Rng) -> Self {
        let k1 = rng.random_range(-0.08..0.04);
        Self::new(camera, [0.0, 0.0], k1)
    }

    /// A copy turned by `drift` degrees of tilt and yaw.
    pub fn drifted(&self, camera: &Camera, drift: [f64; 2]) -> Self {
        Self::new(camera, drift, self.k1)
    }

    /// How far the camera has turned from its pose at `t` (degrees of tilt
    /// and yaw): slow drift, plus a bump's sudden turn once it happened.
    pub fn drift_at(camera: &Camera, t: f64) -> [f64; 2] {
        let slow = camera.drift * t / 60.0;
        let bumped = camera.bump.is_some_and(|at| t >= at);
        let kick = if bumped { [2.5, 4.0] } else { [0.0, 0.0] };
        [slow * 0.5 + kick[0], slow + kick[1]]
    }

    /// Image pixel of a world point (in front of the camera).
    pub fn project(&self, p: World) -> [f64; 2] {
        let rel = sub(p, self.eye);
        let z = dot(rel, self.forward).max(1e-6);
        let (x, y) = (dot(rel, self.right) / z, dot(rel, self.down) / z);
        let r2 = x * x + y * y;
        let d = 1.0 + self.k1 * r2;
        [
            self.centre[0] + self.focal_px * x * d,
            self.centre[1] + self.focal_px * y * d,
        ]
    }

    /// Pixels per square near a world point (for sizes of drawn things).
    pub fn scale_at(&self, p: World) -> f64 {
        let a = self.project(p);
        let b = self.project(add(p, [1.0, 0.0, 0.0]));
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
    }

    /// The outer corners of the playing area in the image, clockwise from
    /// the image's top-left (contracts.md §4).
    pub fn board_corners(&self) -> [[f64; 2]; 4] {
        let mut corners = [[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]]
            .map(|[x, y]| self.project([x, y, 0.0]));
        // Start from the corner nearest the image's top-left, then go clockwise.
        let centre = corners.iter().fold([0.0, 0.0], |acc, c| {
            [acc[0] + c[0] / 4.0, acc[1] + c[1] / 4.0]
        });
        corners.sort_by(|a, b| angle(centre, *a).total_cmp(&angle(centre, *b)));
        let start = (0..4)
            .min_by(|&i, &j| {
                (corners[i][0] + corners[i][1]).total_cmp(&(corners[j][0] + corners[j][1]))
            })
            .expect("four corners");
        corners.rotate_left(start);
        corners
    }

    /// The edge of the board's outline (in [`Pose::board_corners`]'s order:
    /// top, right, bottom, left) along White's first rank, named as
    /// contracts.md §4 names it. Taken from the corners, not the image's
    /// axes, so that it agrees with the outline when the board is seen
    /// turned about 45 degrees.
    pub fn white_side(&self) -> &'static str {
        let corners = self.board_corners();
        let nearest = |p: [f64; 2]| {
            (0..4)
                .min_by(|&i, &j| {
                    let d = |k: usize| (corners[k][0] - p[0]).hypot(corners[k][1] - p[1]);
                    d(i).total_cmp(&d(j))
                })
                .expect("four corners")
        };
        let a1 = nearest(self.project([0.0, 0.0, 0.0]));
        let h1 = nearest(self.project([8.0, 0.0, 0.0]));
        match (a1.min(h1), a1.max(h1)) {
            (0, 1) => "top",
            (1, 2) => "right",
            (2, 3) => "bottom",
            _ => "left",
        }
    }
}

/// Angle of `p` around `centre` in image coordinates (clockwise on screen).
fn angle(centre: [f64; 2], p: [f64; 2]) -> f64 {
    (p[1] - centre[1]).atan2(p[0] - centre[0])
}

pub fn add(a: World, b: World) -> World {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub fn sub(a: World, b: World) -> World {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn scale(a: World, s: f64) -> World {
    [a[0] * s, a[1] * s, a[2] * s]
}

fn dot(a: World, b: World) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: World, b: World) -> World {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalize(a: World) -> World {
    scale(a, 1.0 / dot(a, a).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_above_white_is_at_the_bottom() {
        let pose = Pose::new(&Camera::default(), [0.0, 0.0], 0.0);
        let a1 = pose.project([0.5, 0.5, 0.0]);
        let h8 = pose.project([7.5, 7.5, 0.0]);
        assert!(a1[1] > h8[1], "rank 1 lower in the image");
        assert!(a1[0] < h8[0], "file a on the left");
        let centre = pose.project(TARGET);
        assert!((centre[0] - 320.0).abs() < 1e-6 && (centre[1] - 240.0).abs() < 1e-6);
    }

    #[test]
    fn white_side_follows_the_yaw() {
        for (yaw, side) in [
            (0.0, "bottom"),
            (90.0, "left"),
            (180.0, "top"),
            (270.0, "right"),
        ] {
            let camera = Camera {
                yaw,
                tilt: 10.0,
                ..Camera::default()
            };
            let pose = Pose::new(&camera, [0.0, 0.0], 0.0);
            assert_eq!(pose.white_side(), side, "yaw {yaw}");
        }
    }

    #[test]
    fn corners_run_clockwise_from_top_left() {
        let camera = Camera {
            yaw: 90.0,
            tilt: 10.0,
            ..Camera::default()
        };
        let c = Pose::new(&camera, [0.0, 0.0], 0.0).board_corners();
        assert!(c[0][0] < c[1][0] && c[0][1] < c[3][1], "{c:?}");
        assert!(c[2][0] > c[3][0] && c[2][1] > c[1][1], "{c:?}");
    }
}
