//! Board localisation: the four outer corners of the playing area found in a
//! picture with no help, from the squares themselves.
//!
//! 1. Quads: adaptive thresholds at two scales and both polarities, eroded
//!    so that squares meeting at their corners come apart; the convex,
//!    four-sided contours with sides of like length are candidate squares.
//! 2. Lattice: from each quad as a seed, cells join when they sit where the
//!    lattice (a homography from lattice units to the image, refitted as
//!    cells join) puts a square; the largest lattice wins. A tiled floor's
//!    tiles or a board's lettering do not join a board's squares.
//! 3. Extent: pieces hide squares, so the lattice may cover fewer than
//!    8x8; of the 8x8 windows that hold it, the one whose cells alternate
//!    light and dark most strongly is the playing area (the board's frame
//!    and the table do not alternate).
//! 4. Refinement: every lattice point of the window that lies in the
//!    picture to sub-pixel (OpenCV's `cornerSubPix`), the homography refitted
//!    on them with RANSAC, and the outer corners taken from it.
//! 5. A picture cropped to the playing area: where all four outer corners
//!    come out within [`CROPPED_WITHIN`] of the picture's own, the playing
//!    area is the picture, whose corners are exact where the lattice's are
//!    extrapolated past the pieces of the first and last two ranks.
//!
//! Measured on the 13 real photographs (tests/localisation.rs): within 2%
//! of the board's side on 11.

use opencv::core::{self, Mat, Point, Point2f, Size, TermCriteria, Vector};
use opencv::prelude::*;
use opencv::{calib3d, imgproc};

use crate::error::OpenCvContext;
use crate::{BoardCorners, Error, Result};

/// How near the picture's corners (a share of its sides) all four outer
/// corners must come for the picture to be the playing area: beyond the
/// lattice's extrapolation error, below a board's frame.
const CROPPED_WITHIN: f64 = 0.015;
/// Pictures are searched at this long side (pixels), larger ones scaled down.
const WORK_LONG_SIDE: f64 = 640.0;
/// Adaptive threshold neighbourhoods, as shares of the long side.
const THRESHOLD_BLOCKS: [f64; 2] = [1.0 / 16.0, 1.0 / 7.0];
/// A candidate square's side ratio at most this (perspective stretches them).
const MAX_SIDE_RATIO: f64 = 1.8;
/// A contour fills at least this share of its four-sided outline.
const MIN_FILL: f64 = 0.85;
/// Smallest square considered, as a share of the long side.
const MIN_SQUARE_SHARE: f64 = 1.0 / 80.0;
/// How far (lattice units) a quad's centre and corners may sit from a cell's.
const CENTRE_TOLERANCE: f64 = 0.2;
const CORNER_TOLERANCE: f64 = 0.25;
/// Cells join only this close (lattice steps, Manhattan) to cells already in.
const REACH: i32 = 2;
const GROW_ROUNDS: usize = 12;
/// Fewest cells a board's lattice has (pieces on four ranks hide up to half).
const MIN_CELLS: usize = 16;
/// A refined lattice point may move at most this share of a square.
const REFINE_MAX_SHIFT: f64 = 0.15;
/// RANSAC's reprojection threshold, as a share of a square.
const RANSAC_SHARE: f64 = 0.05;

/// Where the board was found, and on what evidence.
#[derive(Debug, Clone, PartialEq)]
pub struct Localisation {
    pub corners: BoardCorners,
    /// Squares seen as quads in the lattice (of 64).
    pub cells: usize,
    /// Lattice points (of 81) refined to sub-pixel and kept by the fit.
    pub refined: usize,
}

/// Finds the board in a BGR or grey picture; `None` when no board's lattice
/// shows (too few squares seen, or a lattice larger than a board).
pub fn locate_board(image: &Mat) -> Result<Option<Localisation>> {
    let (grey, scale) = working_grey(image)?;
    let quads = find_quads(&grey)?;
    let Some(lattice) = largest_lattice(&quads) else {
        return Ok(None);
    };
    if lattice.cells.len() < MIN_CELLS {
        return Ok(None);
    }
    let Some((i0, j0)) = playing_window(&grey, &lattice)? else {
        return Ok(None);
    };
    // Refined at the picture's own resolution.
    let full_size = Homography([
        [1.0 / scale, 0.0, 0.0],
        [0.0, 1.0 / scale, 0.0],
        [0.0, 0.0, 1.0],
    ]);
    let (homography, refined) = refine(
        &full_grey(image)?,
        &full_size.then_after(&lattice.homography),
        i0,
        j0,
    )?;
    let outer = [(0, 0), (8, 0), (8, 8), (0, 8)].map(|(a, b)| {
        let [x, y] = homography.apply([f64::from(i0 + a), f64::from(j0 + b)]);
        [x as f32, y as f32]
    });
    let size = image.size().doing("sizing the picture")?;
    let corners = BoardCorners(cropped_to_picture(
        clockwise_from_top_left(outer),
        size.width as f32,
        size.height as f32,
    ));
    corners.validate()?;
    Ok(Some(Localisation {
        corners,
        cells: lattice.cells.len(),
        refined,
    }))
}

fn full_grey(image: &Mat) -> Result<Mat> {
    if image.channels() != 3 {
        return Ok(image.clone());
    }
    let mut grey = Mat::default();
    imgproc::cvt_color_def(image, &mut grey, imgproc::COLOR_BGR2GRAY)
        .doing("converting the picture to grey")?;
    Ok(grey)
}

/// The picture in grey at the working size, and the scale applied.
fn working_grey(image: &Mat) -> Result<(Mat, f64)> {
    let mut grey = full_grey(image)?;
    let size = grey.size().doing("sizing the picture")?;
    let long = f64::from(size.width.max(size.height));
    if long <= 0.0 {
        return Err(Error::Calibration("the picture is empty".into()));
    }
    let scale = (WORK_LONG_SIDE / long).min(1.0);
    if scale < 1.0 {
        let mut small = Mat::default();
        imgproc::resize(
            &grey,
            &mut small,
            Size::new(0, 0),
            scale,
            scale,
            imgproc::INTER_AREA,
        )
        .doing("scaling the picture down")?;
        grey = small;
    }
    Ok((grey, scale))
}

/// A candidate square: four corners clockwise (in image coordinates).
type Quad = [[f64; 2]; 4];

fn find_quads(grey: &Mat) -> Result<Vec<Quad>> {
    let size = grey.size().doing("sizing the picture")?;
    let long = f64::from(size.width.max(size.height));
    let mut quads = Vec::new();
    for share in THRESHOLD_BLOCKS {
        let block = 2 * ((long * share) as i32 / 2) + 1;
        let mut light = Mat::default();
        imgproc::adaptive_threshold(
            grey,
            &mut light,
            255.0,
            imgproc::ADAPTIVE_THRESH_MEAN_C,
            imgproc::THRESH_BINARY,
            block.max(3),
            0.0,
        )
        .doing("thresholding the picture")?;
        let mut dark = Mat::default();
        core::bitwise_not_def(&light, &mut dark).doing("inverting the threshold")?;
        for mask in [&dark, &light] {
            for erosions in 1..=2 {
                quads_in(mask, erosions, long, &mut quads)?;
            }
        }
    }
    Ok(quads)
}

/// A quad's centre closer than this share of its side to one kept is the
/// same square seen again (by another threshold or erosion).
const SAME_QUAD_SHARE: f64 = 0.25;

/// The quads worth growing a lattice from: one for each square seen (the
/// lattice itself takes every quad, repeats included).
fn seeds(quads: &[Quad]) -> Vec<usize> {
    let mut kept: Vec<(usize, [f64; 2], f64)> = Vec::with_capacity(quads.len());
    for (k, quad) in quads.iter().enumerate() {
        let centre = centroid(quad);
        let side = (0..4)
            .map(|i| distance(quad[i], quad[(i + 1) % 4]))
            .sum::<f64>()
            / 4.0;
        let seen = kept
            .iter()
            .any(|&(_, c, s)| distance(c, centre) < SAME_QUAD_SHARE * s.min(side));
        if !seen {
            kept.push((k, centre, side));
        }
    }
    kept.into_iter().map(|(k, _, _)| k).collect()
}

/// The four-sided blobs of `mask` after `erosions` erosions, grown back.
fn quads_in(mask: &Mat, erosions: i32, long: f64, quads: &mut Vec<Quad>) -> Result<()> {
    let mut eroded = Mat::default();
    let kernel = Mat::ones(3, 3, core::CV_8U)
        .doing("making the erosion kernel")?
        .to_mat()
        .doing("making the erosion kernel")?;
    imgproc::erode(
        mask,
        &mut eroded,
        &kernel,
        Point::new(-1, -1),
        erosions,
        core::BORDER_CONSTANT,
        imgproc::morphology_default_border_value().doing("erosion border")?,
    )
    .doing("eroding the threshold")?;
    let mut contours: Vector<Vector<Point>> = Vector::new();
    imgproc::find_contours_def(
        &eroded,
        &mut contours,
        imgproc::RETR_LIST,
        imgproc::CHAIN_APPROX_SIMPLE,
    )
    .doing("finding contours")?;
    let min_area = (long * MIN_SQUARE_SHARE).powi(2);
    for contour in contours {
        let area = imgproc::contour_area_def(&contour).doing("measuring a contour")?;
        if area < min_area {
            continue;
        }
        let mut hull: Vector<Point> = Vector::new();
        imgproc::convex_hull_def(&contour, &mut hull).doing("taking a hull")?;
        let perimeter = imgproc::arc_length(&hull, true).doing("measuring a hull")?;
        let mut outline: Vector<Point> = Vector::new();
        imgproc::approx_poly_dp(&hull, &mut outline, 0.05 * perimeter, true)
            .doing("simplifying a hull")?;
        if outline.len() != 4 {
            continue;
        }
        let outline_area = imgproc::contour_area_def(&outline).doing("measuring an outline")?;
        if area < MIN_FILL * outline_area {
            continue;
        }
        let points: Vec<[f64; 2]> = outline
            .iter()
            .map(|p| [f64::from(p.x), f64::from(p.y)])
            .collect();
        let quad = clockwise([points[0], points[1], points[2], points[3]]);
        let sides: Vec<f64> = (0..4)
            .map(|k| distance(quad[k], quad[(k + 1) % 4]))
            .collect();
        let (shortest, longest) = sides
            .iter()
            .fold((f64::MAX, 0.0_f64), |(lo, hi), &s| (lo.min(s), hi.max(s)));
        if longest > MAX_SIDE_RATIO * shortest {
            continue;
        }
        // Erosion shrank the square by about a pixel an erosion each side.
        let mean_side = sides.iter().sum::<f64>() / 4.0;
        let grow = 1.0 + 2.0 * f64::from(erosions) / mean_side;
        let centre = centroid(&quad);
        quads.push(quad.map(|[x, y]| {
            [
                centre[0] + (x - centre[0]) * grow,
                centre[1] + (y - centre[1]) * grow,
            ]
        }));
    }
    Ok(())
}

/// Cells of a lattice by (column, row) in lattice units, with the quad seen
/// there, and the homography from lattice units to the image.
struct Lattice {
    cells: Vec<((i32, i32), usize)>,
    homography: Homography,
}

fn largest_lattice(quads: &[Quad]) -> Option<Lattice> {
    let mut covered = vec![false; quads.len()];
    let mut best: Option<Lattice> = None;
    for seed in seeds(quads) {
        if covered[seed] {
            continue;
        }
        let Some(lattice) = grow_lattice(quads, seed) else {
            continue;
        };
        for &(_, k) in &lattice.cells {
            covered[k] = true;
        }
        if best
            .as_ref()
            .is_none_or(|b| lattice.cells.len() > b.cells.len())
        {
            best = Some(lattice);
        }
    }
    best
}

fn grow_lattice(quads: &[Quad], seed: usize) -> Option<Lattice> {
    let unit = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let mut homography = Homography::fit(&unit, &quads[seed])?;
    let mut cells = vec![((0, 0), seed)];
    for round in 0..GROW_ROUNDS {
        let inverse = homography.inverse()?;
        let mut joined: Vec<((i32, i32), usize)> = Vec::new();
        for (k, quad) in quads.iter().enumerate() {
            let Some(at) = cell_of(&inverse, quad) else {
                continue;
            };
            let near = cells
                .iter()
                .any(|&((i, j), _)| (i - at.0).abs() + (j - at.1).abs() <= REACH);
            if near && !joined.iter().any(|&(c, _)| c == at) {
                joined.push((at, k));
            }
        }
        if round > 0 && joined.len() <= cells.len() {
            if joined.len() == cells.len() {
                cells = joined;
            }
            break;
        }
        cells = joined;
        let (mut lattice, mut image) = (Vec::new(), Vec::new());
        for &(_, k) in &cells {
            for p in quads[k] {
                let [u, v] = inverse.apply(p);
                lattice.push([u.round(), v.round()]);
                image.push(p);
            }
        }
        homography = Homography::fit(&lattice, &image)?;
    }
    Some(Lattice { cells, homography })
}

/// The lattice cell a quad fills under `inverse` (image → lattice), if it
/// fills one.
fn cell_of(inverse: &Homography, quad: &Quad) -> Option<(i32, i32)> {
    let lattice = quad.map(|p| inverse.apply(p));
    let centre = centroid(&lattice);
    let (ci, cj) = ((centre[0] - 0.5).round(), (centre[1] - 0.5).round());
    if (centre[0] - 0.5 - ci).abs() > CENTRE_TOLERANCE
        || (centre[1] - 0.5 - cj).abs() > CENTRE_TOLERANCE
    {
        return None;
    }
    let targets = [
        [ci, cj],
        [ci + 1.0, cj],
        [ci + 1.0, cj + 1.0],
        [ci, cj + 1.0],
    ];
    let fits = lattice
        .iter()
        .all(|&p| targets.iter().any(|&t| distance(p, t) <= CORNER_TOLERANCE));
    fits.then_some((ci as i32, cj as i32))
}

/// Per-cell lightness of an `n`x`n` block of lattice cells from (i0, j0):
/// the median of each cell's outer ring (a piece stands in its middle).
fn cell_lightness(
    grey: &Mat,
    homography: &Homography,
    i0: i32,
    j0: i32,
    n: i32,
) -> Result<Vec<f64>> {
    const CELL_PX: i32 = 12;
    const RING_PX: i32 = 3;
    let step = 1.0 / f64::from(CELL_PX);
    let to_lattice = Homography([
        [step, 0.0, f64::from(i0)],
        [0.0, step, f64::from(j0)],
        [0.0, 0.0, 1.0],
    ]);
    let warp = homography.then_after(&to_lattice).to_mat()?;
    let mut block = Mat::default();
    imgproc::warp_perspective(
        grey,
        &mut block,
        &warp,
        Size::new(n * CELL_PX, n * CELL_PX),
        imgproc::WARP_INVERSE_MAP | imgproc::INTER_LINEAR,
        core::BORDER_REPLICATE,
        core::Scalar::all(0.0),
    )
    .doing("sampling the lattice's cells")?;
    let mut values = Vec::with_capacity((n * n) as usize);
    for row in 0..n {
        for col in 0..n {
            let mut ring = Vec::with_capacity((CELL_PX * CELL_PX) as usize);
            for y in 0..CELL_PX {
                for x in 0..CELL_PX {
                    let inner = (RING_PX..CELL_PX - RING_PX).contains(&x)
                        && (RING_PX..CELL_PX - RING_PX).contains(&y);
                    if !inner {
                        let v = *block
                            .at_2d::<u8>(row * CELL_PX + y, col * CELL_PX + x)
                            .doing("reading a cell")?;
                        ring.push(v);
                    }
                }
            }
            ring.sort_unstable();
            values.push(f64::from(ring[ring.len() / 2]));
        }
    }
    Ok(values)
}

/// The 8x8 window over the lattice (its top-left cell) whose cells
/// alternate light and dark most strongly.
fn playing_window(grey: &Mat, lattice: &Lattice) -> Result<Option<(i32, i32)>> {
    let (mut imin, mut imax, mut jmin, mut jmax) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    for &((i, j), _) in &lattice.cells {
        (imin, imax, jmin, jmax) = (imin.min(i), imax.max(i), jmin.min(j), jmax.max(j));
    }
    if imax - imin > 7 || jmax - jmin > 7 {
        return Ok(None);
    }
    let (first_i, first_j) = (imax - 7, jmax - 7);
    let n = 8 + (imin - first_i).max(jmin - first_j);
    let values = cell_lightness(grey, &lattice.homography, first_i, first_j, n)?;
    let mut best: Option<(f64, (i32, i32))> = None;
    for i0 in first_i..=imin {
        for j0 in first_j..=jmin {
            let mut sum = 0.0;
            for b in 0..8 {
                for a in 0..8 {
                    let (col, row) = (i0 - first_i + a, j0 - first_j + b);
                    let sign = if (a + b) % 2 == 0 { 1.0 } else { -1.0 };
                    sum += sign * values[(row * n + col) as usize];
                }
            }
            let alternation = sum.abs() / 64.0;
            if best.is_none_or(|(b, _)| alternation > b) {
                best = Some((alternation, (i0, j0)));
            }
        }
    }
    Ok(best.map(|(_, window)| window))
}

/// The lattice points of the window refined to sub-pixel and the homography
/// refitted on them; the count of points kept.
fn refine(grey: &Mat, homography: &Homography, i0: i32, j0: i32) -> Result<(Homography, usize)> {
    let size = grey.size().doing("sizing the picture")?;
    let square = distance(
        homography.apply([f64::from(i0) + 3.5, f64::from(j0) + 3.5]),
        homography.apply([f64::from(i0) + 4.5, f64::from(j0) + 3.5]),
    );
    let half_window = ((square / 4.0) as i32).max(2);
    let margin = f64::from(half_window + 1);
    let mut lattice = Vec::new();
    let mut predicted: Vector<Point2f> = Vector::new();
    for b in 0..=8 {
        for a in 0..=8 {
            let point = [f64::from(i0 + a), f64::from(j0 + b)];
            let [x, y] = homography.apply(point);
            let inside = x >= margin
                && y >= margin
                && x < f64::from(size.width) - margin
                && y < f64::from(size.height) - margin;
            if inside {
                lattice.push(point);
                predicted.push(Point2f::new(x as f32, y as f32));
            }
        }
    }
    if predicted.len() < 8 {
        return Ok((*homography, 0));
    }
    let mut refined = predicted.clone();
    imgproc::corner_sub_pix(
        grey,
        &mut refined,
        Size::new(half_window, half_window),
        Size::new(-1, -1),
        TermCriteria::new(core::TermCriteria_EPS + core::TermCriteria_COUNT, 30, 0.01)
            .doing("refinement criteria")?,
    )
    .doing("refining lattice points to sub-pixel")?;
    let (mut from, mut to) = (Vec::new(), Vec::new());
    for (k, point) in lattice.iter().enumerate() {
        let (p, r) = (
            predicted.get(k).doing("a lattice point")?,
            refined.get(k).doing("a lattice point")?,
        );
        let shift = f64::from((r.x - p.x).hypot(r.y - p.y));
        if shift < REFINE_MAX_SHIFT * square {
            from.push(*point);
            to.push([f64::from(r.x), f64::from(r.y)]);
        }
    }
    if from.len() < 8 {
        return Ok((*homography, 0));
    }
    let mut inliers = Mat::default();
    let fitted = calib3d::find_homography(
        &points(&from),
        &points(&to),
        &mut inliers,
        calib3d::RANSAC,
        RANSAC_SHARE * square,
    )
    .doing("fitting the board to its refined points")?;
    if fitted.empty() {
        return Ok((*homography, 0));
    }
    let kept = core::count_non_zero(&inliers).doing("counting inliers")? as usize;
    Ok((Homography::from_mat(&fitted)?, kept))
}

fn points(list: &[[f64; 2]]) -> Vector<Point2f> {
    list.iter()
        .map(|&[x, y]| Point2f::new(x as f32, y as f32))
        .collect()
}

/// A plane-to-plane projective map, row-major.
#[derive(Debug, Clone, Copy)]
struct Homography([[f64; 3]; 3]);

impl Homography {
    /// Least-squares fit (OpenCV's, all points) from `from` to `to`.
    fn fit(from: &[[f64; 2]], to: &[[f64; 2]]) -> Option<Self> {
        let mut mask = Mat::default();
        let fitted =
            calib3d::find_homography(&points(from), &points(to), &mut mask, 0, 3.0).ok()?;
        if fitted.empty() {
            return None;
        }
        Self::from_mat(&fitted).ok()
    }

    fn from_mat(mat: &Mat) -> Result<Self> {
        let mut h = [[0.0; 3]; 3];
        for (r, row) in h.iter_mut().enumerate() {
            for (c, value) in row.iter_mut().enumerate() {
                *value = *mat
                    .at_2d::<f64>(r as i32, c as i32)
                    .doing("reading a homography")?;
            }
        }
        Ok(Self(h))
    }

    fn to_mat(self) -> Result<Mat> {
        Mat::from_slice_2d(&self.0).doing("writing a homography")
    }

    fn apply(&self, [x, y]: [f64; 2]) -> [f64; 2] {
        let h = &self.0;
        let w = h[2][0] * x + h[2][1] * y + h[2][2];
        [
            (h[0][0] * x + h[0][1] * y + h[0][2]) / w,
            (h[1][0] * x + h[1][1] * y + h[1][2]) / w,
        ]
    }

    /// `self ∘ first`: apply `first`, then `self`.
    fn then_after(&self, first: &Homography) -> Homography {
        let (a, b) = (&self.0, &first.0);
        let mut m = [[0.0; 3]; 3];
        for (r, row) in m.iter_mut().enumerate() {
            for (c, value) in row.iter_mut().enumerate() {
                *value = (0..3).map(|k| a[r][k] * b[k][c]).sum();
            }
        }
        Homography(m)
    }

    fn inverse(&self) -> Option<Homography> {
        let m = &self.0;
        let cof = |r0: usize, r1: usize, c0: usize, c1: usize| {
            m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]
        };
        let adj = [
            [cof(1, 2, 1, 2), -cof(0, 2, 1, 2), cof(0, 1, 1, 2)],
            [-cof(1, 2, 0, 2), cof(0, 2, 0, 2), -cof(0, 1, 0, 2)],
            [cof(1, 2, 0, 1), -cof(0, 2, 0, 1), cof(0, 1, 0, 1)],
        ];
        let det = m[0][0] * adj[0][0] + m[0][1] * adj[1][0] + m[0][2] * adj[2][0];
        (det.abs() > 1e-12).then(|| Homography(adj.map(|row| row.map(|v| v / det))))
    }
}

/// The picture's own corners when `corners` (clockwise from top-left) all
/// lie within [`CROPPED_WITHIN`] of them; else `corners`.
fn cropped_to_picture(corners: [[f32; 2]; 4], width: f32, height: f32) -> [[f32; 2]; 4] {
    let picture = [[0.0, 0.0], [width, 0.0], [width, height], [0.0, height]];
    let near = corners.iter().zip(&picture).all(|(corner, at)| {
        f64::from((corner[0] - at[0]).abs()) <= CROPPED_WITHIN * f64::from(width)
            && f64::from((corner[1] - at[1]).abs()) <= CROPPED_WITHIN * f64::from(height)
    });
    if near { picture } else { corners }
}

fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

fn centroid(points: &[[f64; 2]; 4]) -> [f64; 2] {
    let sum = points
        .iter()
        .fold([0.0, 0.0], |s, p| [s[0] + p[0], s[1] + p[1]]);
    [sum[0] / 4.0, sum[1] / 4.0]
}

/// Four points ordered clockwise on screen (y down), from any start.
fn clockwise(mut points: [[f64; 2]; 4]) -> [[f64; 2]; 4] {
    let c = centroid(&points);
    points.sort_by(|a, b| {
        let angle = |p: &[f64; 2]| (p[1] - c[1]).atan2(p[0] - c[0]);
        angle(a).total_cmp(&angle(b))
    });
    points
}

/// Four points clockwise from the one nearest the image's top-left
/// (contracts.md §4's order).
fn clockwise_from_top_left(points: [[f32; 2]; 4]) -> [[f32; 2]; 4] {
    let mut ordered = clockwise(points.map(|[x, y]| [f64::from(x), f64::from(y)]));
    let start = (0..4)
        .min_by(|&a, &b| {
            (ordered[a][0] + ordered[a][1]).total_cmp(&(ordered[b][0] + ordered[b][1]))
        })
        .unwrap_or(0);
    ordered.rotate_left(start);
    ordered.map(|[x, y]| [x as f32, y as f32])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_homography_and_its_inverse_undo_each_other() {
        let h = Homography([[2.0, 0.1, 5.0], [0.2, 1.5, -3.0], [0.001, 0.002, 1.0]]);
        let inverse = h.inverse().expect("invertible");
        let p = [3.0, 4.0];
        let back = inverse.apply(h.apply(p));
        assert!(distance(p, back) < 1e-9, "{back:?}");
        let both = h.then_after(&inverse);
        assert!(distance(both.apply(p), p) < 1e-9);
    }

    #[test]
    fn a_board_cropped_to_the_picture_takes_its_corners() {
        let found = [[-2.8, -2.5], [479.5, 0.3], [475.9, 479.0], [-0.4, 481.0]];
        assert_eq!(
            cropped_to_picture(found, 480.0, 480.0),
            [[0.0, 0.0], [480.0, 0.0], [480.0, 480.0], [0.0, 480.0]]
        );
        // A board with its frame around it in the picture keeps its own.
        let framed = [[14.0, 15.0], [466.0, 14.0], [465.0, 466.0], [15.0, 465.0]];
        assert_eq!(cropped_to_picture(framed, 480.0, 480.0), framed);
    }

    #[test]
    fn corners_are_put_in_contract_order() {
        let shuffled = [[100.0, 10.0], [0.0, 110.0], [10.0, 0.0], [110.0, 100.0]];
        assert_eq!(
            clockwise_from_top_left(shuffled),
            [[10.0, 0.0], [100.0, 10.0], [110.0, 100.0], [0.0, 110.0]]
        );
    }
}
