//! Palm detection: MediaPipe's palm model on the whole frame, letterboxed to
//! 192x192, its 2016 anchor-relative boxes decoded and merged by weighted
//! non-maximum suppression.
//!
//! Input: a BGR frame. Output: [`Palm`]s in image pixels, each with the
//! seven keypoints the model gives (0: wrist centre, 2: middle finger's base,
//! which set the hand's rotation).

use opencv::core::{Mat, Scalar, Size};
use opencv::imgproc;
use opencv::prelude::*;

use crate::Result;
use crate::error::OpenCvContext;

/// The model's input side, in pixels.
pub const PALM_INPUT: i32 = 192;
/// Palms kept from this score (MediaPipe's `min_detection_confidence`).
pub const PALM_MIN_SCORE: f32 = 0.5;
/// Boxes overlapping a better one by more than this (intersection over
/// union) are merged into it.
pub const PALM_MERGE_IOU: f32 = 0.3;
/// Values a box has in the model's output: x, y, w, h, seven keypoints.
pub const PALM_COORDS: usize = 18;
/// Keypoints a palm has.
pub const PALM_KEYPOINTS: usize = 7;

/// One anchor: a box centre in [0, 1] of the model's input (anchors all
/// have unit size: MediaPipe's `fixed_anchor_size`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Anchor {
    pub x: f32,
    pub y: f32,
}

/// The palm model's anchors, in its output order: a 24x24 grid (stride 8)
/// with 2 anchors a cell, then a 12x12 grid (stride 16, three layers) with
/// 6 a cell: 2016 in all.
pub fn anchors() -> Vec<Anchor> {
    let mut anchors = Vec::with_capacity(2016);
    for (stride, per_cell) in [(8, 2), (16, 6)] {
        let cells = PALM_INPUT / stride;
        for y in 0..cells {
            for x in 0..cells {
                let centre = Anchor {
                    x: (x as f32 + 0.5) / cells as f32,
                    y: (y as f32 + 0.5) / cells as f32,
                };
                anchors.extend(std::iter::repeat_n(centre, per_cell));
            }
        }
    }
    anchors
}

/// A palm found in the frame, in image pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palm {
    pub score: f32,
    /// Box centre and size.
    pub centre: [f32; 2],
    pub size: [f32; 2],
    pub keypoints: [[f32; 2]; PALM_KEYPOINTS],
}

impl Palm {
    fn corners(&self) -> ([f32; 2], [f32; 2]) {
        let half = [self.size[0] / 2.0, self.size[1] / 2.0];
        (
            [self.centre[0] - half[0], self.centre[1] - half[1]],
            [self.centre[0] + half[0], self.centre[1] + half[1]],
        )
    }

    /// Intersection over union of the two boxes.
    pub fn iou(&self, other: &Palm) -> f32 {
        let (a0, a1) = self.corners();
        let (b0, b1) = other.corners();
        let w = (a1[0].min(b1[0]) - a0[0].max(b0[0])).max(0.0);
        let h = (a1[1].min(b1[1]) - a0[1].max(b0[1])).max(0.0);
        let inter = w * h;
        let union = self.size[0] * self.size[1] + other.size[0] * other.size[1] - inter;
        if union <= 0.0 { 0.0 } else { inter / union }
    }
}

/// How a frame was fitted into the model's square input: scaled by `scale`
/// and shifted by `offset` (pixels of the input).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Letterbox {
    pub scale: f32,
    pub offset: [f32; 2],
}

impl Letterbox {
    /// The fit of a `width` x `height` frame, centred, aspect kept.
    pub fn fit(width: i32, height: i32) -> Self {
        let scale = PALM_INPUT as f32 / width.max(height) as f32;
        Self {
            scale,
            offset: [
                (PALM_INPUT as f32 - width as f32 * scale) / 2.0,
                (PALM_INPUT as f32 - height as f32 * scale) / 2.0,
            ],
        }
    }

    /// A point of the input, given in [0, 1], back in image pixels.
    pub fn to_image(&self, [x, y]: [f32; 2]) -> [f32; 2] {
        let side = PALM_INPUT as f32;
        [
            (x * side - self.offset[0]) / self.scale,
            (y * side - self.offset[1]) / self.scale,
        ]
    }

    /// The frame letterboxed: RGB float in [0, 1], NHWC, zero padding.
    pub fn input(&self, image: &Mat) -> Result<Vec<f32>> {
        let m = Mat::from_slice_2d(&[
            [f64::from(self.scale), 0.0, f64::from(self.offset[0])],
            [0.0, f64::from(self.scale), f64::from(self.offset[1])],
        ])
        .doing("making the letterbox transform")?;
        let mut boxed = Mat::default();
        imgproc::warp_affine(
            image,
            &mut boxed,
            &m,
            Size::new(PALM_INPUT, PALM_INPUT),
            imgproc::INTER_LINEAR,
            opencv::core::BORDER_CONSTANT,
            Scalar::all(0.0),
        )
        .doing("letterboxing the frame for palm detection")?;
        rgb_unit(&boxed)
    }
}

/// A BGR 8-bit image as RGB float32 in [0, 1], interleaved (NHWC).
pub(crate) fn rgb_unit(image: &Mat) -> Result<Vec<f32>> {
    let bytes = image
        .data_bytes()
        .doing("reading the model's input image")?;
    let mut out = Vec::with_capacity(bytes.len());
    for bgr in bytes.chunks_exact(3) {
        out.extend([bgr[2], bgr[1], bgr[0]].map(|v| f32::from(v) / 255.0));
    }
    Ok(out)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x.clamp(-100.0, 100.0)).exp())
}

/// The palms in the model's raw output (`boxes`: 2016 x 18, `scores`: 2016
/// logits), in image pixels through `letterbox`, merged.
pub fn decode(
    boxes: &[f32],
    scores: &[f32],
    anchors: &[Anchor],
    letterbox: &Letterbox,
) -> Vec<Palm> {
    let side = PALM_INPUT as f32;
    let mut found = Vec::new();
    for (i, anchor) in anchors.iter().enumerate() {
        let score = sigmoid(scores[i]);
        if score < PALM_MIN_SCORE {
            continue;
        }
        let raw = &boxes[i * PALM_COORDS..(i + 1) * PALM_COORDS];
        let point =
            |dx: f32, dy: f32| letterbox.to_image([dx / side + anchor.x, dy / side + anchor.y]);
        let centre = point(raw[0], raw[1]);
        let size = [raw[2] / letterbox.scale, raw[3] / letterbox.scale];
        let keypoints = std::array::from_fn(|k| point(raw[4 + 2 * k], raw[5 + 2 * k]));
        found.push(Palm {
            score,
            centre,
            size,
            keypoints,
        });
    }
    weighted_nms(found)
}

/// MediaPipe's weighted non-maximum suppression: the best remaining box and
/// those overlapping it become one, their coordinates averaged by score.
pub fn weighted_nms(mut palms: Vec<Palm>) -> Vec<Palm> {
    palms.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut merged = Vec::new();
    while let Some(best) = palms.first().copied() {
        let (cluster, rest): (Vec<Palm>, Vec<Palm>) = palms
            .into_iter()
            .partition(|p| p.iou(&best) > PALM_MERGE_IOU || *p == best);
        palms = rest;
        let total: f32 = cluster.iter().map(|p| p.score).sum();
        let mean =
            |f: &dyn Fn(&Palm) -> f32| cluster.iter().map(|p| f(p) * p.score).sum::<f32>() / total;
        merged.push(Palm {
            score: best.score,
            centre: [mean(&|p| p.centre[0]), mean(&|p| p.centre[1])],
            size: [mean(&|p| p.size[0]), mean(&|p| p.size[1])],
            keypoints: std::array::from_fn(|k| {
                [mean(&|p| p.keypoints[k][0]), mean(&|p| p.keypoints[k][1])]
            }),
        });
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_anchors_are_the_models_2016_in_its_order() {
        let a = anchors();
        assert_eq!(a.len(), 2016);
        // The first two share the top-left cell of the 24x24 grid.
        assert_eq!(
            a[0],
            Anchor {
                x: 0.5 / 24.0,
                y: 0.5 / 24.0
            }
        );
        assert_eq!(a[1], a[0]);
        assert_eq!(a[2].x, 1.5 / 24.0);
        // The last of the fine grid, then the coarse grid's first six.
        assert_eq!(
            a[1151],
            Anchor {
                x: 23.5 / 24.0,
                y: 23.5 / 24.0
            }
        );
        assert!(a[1152..1158].iter().all(|&x| x
            == Anchor {
                x: 0.5 / 12.0,
                y: 0.5 / 12.0
            }));
        assert_eq!(
            a[2015],
            Anchor {
                x: 11.5 / 12.0,
                y: 11.5 / 12.0
            }
        );
    }

    #[test]
    fn a_box_decodes_relative_to_its_anchor_in_192_pixel_units() {
        let anchors = anchors();
        // A 640x480 frame: scaled 0.3, 24 pixels of padding above and below.
        let letterbox = Letterbox::fit(640, 480);
        assert_eq!(letterbox.offset, [0.0, 24.0]);
        let mut boxes = vec![0.0; 2016 * PALM_COORDS];
        let mut scores = vec![-10.0; 2016];
        let i = 1152 + 6 * (12 * 5 + 7); // coarse grid, row 5, column 7
        scores[i] = 3.0;
        let raw = &mut boxes[i * PALM_COORDS..(i + 1) * PALM_COORDS];
        raw[..4].copy_from_slice(&[12.0, -6.0, 48.0, 30.0]);
        raw[4] = 1.0; // keypoint 0, x
        let palms = decode(&boxes, &scores, &anchors, &letterbox);
        assert_eq!(palms.len(), 1);
        let palm = palms[0];
        assert!((palm.score - sigmoid(3.0)).abs() < 1e-6);
        // Anchor centre (7.5/12, 5.5/12) of 192 pixels = (120, 88); +12, -6;
        // then the letterbox undone: x / 0.3, (y - 24) / 0.3.
        let expect = [(120.0 + 12.0) / 0.3, (88.0 - 6.0 - 24.0) / 0.3];
        assert!(
            (palm.centre[0] - expect[0]).abs() < 1e-3,
            "{:?}",
            palm.centre
        );
        assert!(
            (palm.centre[1] - expect[1]).abs() < 1e-3,
            "{:?}",
            palm.centre
        );
        assert!((palm.size[0] - 160.0).abs() < 1e-3 && (palm.size[1] - 100.0).abs() < 1e-3);
        assert!((palm.keypoints[0][0] - 121.0 / 0.3).abs() < 1e-3);
    }

    #[test]
    fn overlapping_boxes_merge_weighted_by_score_and_apart_ones_stay() {
        let palm = |score, x| Palm {
            score,
            centre: [x, 100.0],
            size: [40.0, 40.0],
            keypoints: [[x, 100.0]; PALM_KEYPOINTS],
        };
        let merged = weighted_nms(vec![palm(0.6, 104.0), palm(0.9, 100.0), palm(0.8, 300.0)]);
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[0].score, 0.9);
        let x = (0.9 * 100.0 + 0.6 * 104.0) / 1.5;
        assert!((merged[0].centre[0] - x).abs() < 1e-4);
        assert_eq!(merged[1].centre[0], 300.0);
    }
}
