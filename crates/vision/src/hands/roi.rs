//! The hand's crop: a rotated square around the hand, placed from a palm
//! (on detection) or from the last frame's landmarks (when tracking), warped
//! upright to the landmark model's 224x224 input; and its inverse, taking
//! the model's landmarks back to image pixels.
//!
//! Rotations follow MediaPipe: radians, 0 when the hand points up in the
//! image (wrist below fingers), growing as it turns clockwise on screen.

use opencv::core::{Mat, Scalar, Size};
use opencv::imgproc;

use super::palm::Palm;
use crate::Result;
use crate::error::OpenCvContext;

/// The landmark model's input side, in pixels.
pub const CROP_INPUT: i32 = 224;

/// A palm's box grown to hold the whole hand: 2.6 times its longer side,
/// moved half its height towards the fingers.
const PALM_SCALE: f32 = 2.6;
const PALM_SHIFT_UP: f32 = 0.5;
/// Landmarks' bounding box grown to next frame's crop: twice its longer
/// side, moved a tenth of its height towards the fingers.
const LANDMARKS_SCALE: f32 = 2.0;
const LANDMARKS_SHIFT_UP: f32 = 0.1;

/// The landmarks that place the next crop: wrist, thumb's first three,
/// and the first two of each finger (MediaPipe's "partial landmarks").
const PLACING: [usize; 12] = [0, 1, 2, 3, 5, 6, 9, 10, 13, 14, 17, 18];

/// A rotated square of the image, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandRoi {
    pub centre: [f32; 2],
    pub side: f32,
    pub rotation: f32,
}

/// An angle brought into [-π, π).
fn normalize(angle: f32) -> f32 {
    use std::f32::consts::PI;
    angle - 2.0 * PI * ((angle + PI) / (2.0 * PI)).floor()
}

/// The rotation that turns the direction `from` → `to` upright.
fn upright(from: [f32; 2], to: [f32; 2]) -> f32 {
    normalize(std::f32::consts::FRAC_PI_2 - (-(to[1] - from[1])).atan2(to[0] - from[0]))
}

/// `v` turned by `angle` (image axes: clockwise on screen).
fn rotate([x, y]: [f32; 2], angle: f32) -> [f32; 2] {
    let (sin, cos) = angle.sin_cos();
    [x * cos - y * sin, x * sin + y * cos]
}

impl HandRoi {
    /// A box at `centre` of `size` turned by `rotation`, moved `shift_up` of
    /// its height towards the fingers and grown to a square `scale` times
    /// its longer side.
    fn transformed(
        centre: [f32; 2],
        size: [f32; 2],
        rotation: f32,
        scale: f32,
        shift_up: f32,
    ) -> Self {
        let shift = rotate([0.0, -shift_up * size[1]], rotation);
        Self {
            centre: [centre[0] + shift[0], centre[1] + shift[1]],
            side: size[0].max(size[1]) * scale,
            rotation,
        }
    }

    /// The crop for a palm just detected.
    pub fn from_palm(palm: &Palm) -> Self {
        let rotation = upright(palm.keypoints[0], palm.keypoints[2]);
        Self::transformed(palm.centre, palm.size, rotation, PALM_SCALE, PALM_SHIFT_UP)
    }

    /// The next frame's crop from this frame's 21 landmarks (image pixels).
    pub fn from_landmarks(landmarks: &[[f32; 2]; 21]) -> Self {
        let mean = |a: [f32; 2], b: [f32; 2]| [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        let knuckles = mean(mean(landmarks[5], landmarks[13]), landmarks[9]);
        let rotation = upright(landmarks[0], knuckles);
        let points = PLACING.map(|i| landmarks[i]);
        let (lo, hi) = bounds(points.iter().copied());
        let axis_centre = mean(lo, hi);
        // The box of the points in the hand's own upright frame.
        let upright_points =
            points.map(|p| rotate([p[0] - axis_centre[0], p[1] - axis_centre[1]], -rotation));
        let (lo, hi) = bounds(upright_points.iter().copied());
        let offset = rotate(mean(lo, hi), rotation);
        let centre = [axis_centre[0] + offset[0], axis_centre[1] + offset[1]];
        let size = [hi[0] - lo[0], hi[1] - lo[1]];
        Self::transformed(centre, size, rotation, LANDMARKS_SCALE, LANDMARKS_SHIFT_UP)
    }

    /// The affine map from crop pixels (0..224) to image pixels.
    pub fn crop_to_image(&self) -> [[f32; 3]; 2] {
        let k = self.side / CROP_INPUT as f32;
        let (sin, cos) = self.rotation.sin_cos();
        let half = rotate([self.side / 2.0, self.side / 2.0], self.rotation);
        [
            [cos * k, -sin * k, self.centre[0] - half[0]],
            [sin * k, cos * k, self.centre[1] - half[1]],
        ]
    }

    /// A point of the crop (pixels of the model's input) in the image.
    pub fn to_image(&self, [u, v]: [f32; 2]) -> [f32; 2] {
        let m = self.crop_to_image();
        [
            m[0][0] * u + m[0][1] * v + m[0][2],
            m[1][0] * u + m[1][1] * v + m[1][2],
        ]
    }

    /// A point of the image in the crop's pixels (the inverse of [`Self::to_image`]).
    pub fn to_crop(&self, [x, y]: [f32; 2]) -> [f32; 2] {
        let k = CROP_INPUT as f32 / self.side;
        let [u, v] = rotate([x - self.centre[0], y - self.centre[1]], -self.rotation);
        let half = CROP_INPUT as f32 / 2.0;
        [u * k + half, v * k + half]
    }

    /// The crop, upright, at the model's size (BGR; black outside the image).
    pub fn crop(&self, image: &Mat) -> Result<Mat> {
        let m = self.crop_to_image().map(|row| row.map(f64::from));
        let m = Mat::from_slice_2d(&m).doing("making the hand crop's transform")?;
        let mut crop = Mat::default();
        imgproc::warp_affine(
            image,
            &mut crop,
            &m,
            Size::new(CROP_INPUT, CROP_INPUT),
            imgproc::INTER_LINEAR | imgproc::WARP_INVERSE_MAP,
            opencv::core::BORDER_CONSTANT,
            Scalar::all(0.0),
        )
        .doing("cropping the hand")?;
        Ok(crop)
    }

    /// Overlap with `other` as intersection over union of the two squares'
    /// upright bounding boxes (how MediaPipe tells a new palm from a hand it
    /// already follows).
    pub fn overlap(&self, other: &HandRoi) -> f32 {
        let extent = |r: &HandRoi| {
            let (sin, cos) = r.rotation.sin_cos();
            let half = r.side / 2.0 * (sin.abs() + cos.abs());
            (
                [r.centre[0] - half, r.centre[1] - half],
                [r.centre[0] + half, r.centre[1] + half],
            )
        };
        let (a0, a1) = extent(self);
        let (b0, b1) = extent(other);
        let w = (a1[0].min(b1[0]) - a0[0].max(b0[0])).max(0.0);
        let h = (a1[1].min(b1[1]) - a0[1].max(b0[1])).max(0.0);
        let area = |lo: [f32; 2], hi: [f32; 2]| (hi[0] - lo[0]) * (hi[1] - lo[1]);
        let union = area(a0, a1) + area(b0, b1) - w * h;
        if union <= 0.0 { 0.0 } else { w * h / union }
    }
}

fn bounds(points: impl Iterator<Item = [f32; 2]>) -> ([f32; 2], [f32; 2]) {
    points.fold(
        ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]),
        |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1])],
                [hi[0].max(p[0]), hi[1].max(p[1])],
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{CV_8UC3, Vec3b};
    use opencv::prelude::*;
    use std::f32::consts::FRAC_PI_2;

    fn close(a: [f32; 2], b: [f32; 2]) -> bool {
        (a[0] - b[0]).abs() < 1e-3 && (a[1] - b[1]).abs() < 1e-3
    }

    #[test]
    fn a_hand_pointing_up_needs_no_turn_and_one_pointing_right_a_quarter() {
        assert!(upright([0.0, 10.0], [0.0, 0.0]).abs() < 1e-6);
        assert!((upright([0.0, 0.0], [10.0, 0.0]) - FRAC_PI_2).abs() < 1e-6);
        assert!((upright([0.0, 0.0], [-10.0, 0.0]) + FRAC_PI_2).abs() < 1e-6);
    }

    #[test]
    fn the_crop_and_its_inverse_meet() {
        let roi = HandRoi {
            centre: [300.0, 200.0],
            side: 150.0,
            rotation: 0.7,
        };
        for p in [[0.0, 0.0], [224.0, 0.0], [112.0, 112.0], [31.0, 190.0]] {
            assert!(close(roi.to_crop(roi.to_image(p)), p), "{p:?}");
        }
        assert!(close(roi.to_image([112.0, 112.0]), [300.0, 200.0]));
    }

    #[test]
    fn the_crop_turns_a_hand_pointing_right_upright() {
        // A hand whose fingers point right (+x): its crop's top is the image's right.
        let roi = HandRoi {
            centre: [100.0, 100.0],
            side: 112.0,
            rotation: FRAC_PI_2,
        };
        let top_middle = roi.to_image([112.0, 0.0]);
        assert!(close(top_middle, [156.0, 100.0]), "{top_middle:?}");
        // And the pixels follow: a bright spot right of centre lands at the crop's top.
        let mut image =
            Mat::new_rows_cols_with_default(200, 200, CV_8UC3, Scalar::all(0.0)).expect("an image");
        *image.at_2d_mut::<Vec3b>(100, 150).expect("a pixel") = Vec3b::from([255, 255, 255]);
        let crop = roi.crop(&image).expect("a crop");
        let spot = crop.at_2d::<Vec3b>(12, 112).expect("a pixel")[0];
        assert!(spot > 100, "crop at (112, 12) is {spot}");
    }

    #[test]
    fn a_palm_crop_grows_and_moves_towards_the_fingers() {
        // Fingers up: keypoint 2 above keypoint 0.
        let mut keypoints = [[100.0, 100.0]; 7];
        keypoints[0] = [100.0, 120.0];
        keypoints[2] = [100.0, 80.0];
        let palm = Palm {
            score: 0.9,
            centre: [100.0, 100.0],
            size: [40.0, 50.0],
            keypoints,
        };
        let roi = HandRoi::from_palm(&palm);
        assert!(roi.rotation.abs() < 1e-6);
        assert!((roi.side - 130.0).abs() < 1e-4);
        assert!(close(roi.centre, [100.0, 75.0]), "{:?}", roi.centre);
    }

    #[test]
    fn landmarks_place_the_next_crop_along_the_hand() {
        // A hand lying along +x (wrist left, fingers right), 60 pixels long.
        let landmarks: [[f32; 2]; 21] =
            std::array::from_fn(|i| [100.0 + 3.0 * i as f32, 100.0 + (i % 4) as f32 * 5.0 - 7.5]);
        let roi = HandRoi::from_landmarks(&landmarks);
        assert!((roi.rotation - FRAC_PI_2).abs() < 0.3, "{}", roi.rotation);
        assert!(
            roi.centre[0] > 100.0 + 3.0 * 9.0,
            "moved towards the fingers: {:?}",
            roi.centre
        );
        assert!(roi.side > 90.0 && roi.side < 130.0, "{}", roi.side);
    }
}
