//! OpenCV on the real photographs of `../shared/data/real`: each is read,
//! warped to a top-down board with the corners of `labels.json`, and its 64
//! squares must alternate light and dark. A control warps the same
//! photographs half a square off, where the check must fail.

mod common;

use common::real_dir;
use referee_vision::{BoardCorners, Rectifier, read_image};

/// The labelled photographs with their corners.
fn photographs() -> Vec<(String, BoardCorners)> {
    common::photographs()
        .into_iter()
        .map(|l| (l.file.clone(), BoardCorners(l.corners())))
        .collect()
}

/// Squares of one parity share a colour on any board, however it is turned.
fn parity(index: usize) -> usize {
    (index / 8 + index % 8) % 2
}

fn neighbours(index: usize) -> impl Iterator<Item = usize> {
    let (r, c) = ((index / 8) as i32, (index % 8) as i32);
    [(0, 1), (1, 0), (0, -1), (-1, 0)]
        .into_iter()
        .map(move |(dr, dc)| (r + dr, c + dc))
        .filter(|(r, c)| (0..8).contains(r) && (0..8).contains(c))
        .map(|(r, c)| (r * 8 + c) as usize)
}

/// Grey levels by which a square must differ from a neighbour to count as
/// lighter or darker than it.
const MIN_CONTRAST: f32 = 10.0;

/// How many squares are not clearly on their colour's side of most of their
/// neighbours (lighter for the light parity, darker for the dark one). A
/// piece standing on a square can flip one comparison, not most of them.
fn alternation_faults(means: &[f32; 64]) -> usize {
    let average = |p: usize| {
        let sum: f32 = (0..64).filter(|&i| parity(i) == p).map(|i| means[i]).sum();
        sum / 32.0
    };
    let light = usize::from(average(1) > average(0));
    (0..64)
        .filter(|&i| {
            let sign = if parity(i) == light { 1.0 } else { -1.0 };
            let (n, clear) = neighbours(i).fold((0, 0), |(n, clear), j| {
                let contrast = sign * (means[i] - means[j]);
                (n + 1, clear + usize::from(contrast >= MIN_CONTRAST))
            });
            clear * 2 <= n
        })
        .count()
}

fn square_means(file: &str, corners: &BoardCorners) -> [f32; 64] {
    let image = read_image(&real_dir().join(file)).expect("photograph reads");
    let rectifier = Rectifier::default();
    let board = rectifier
        .rectify(&image, corners)
        .expect("labelled corners warp");
    assert_eq!(board.size(), (rectifier.side_px(), rectifier.side_px()));
    let stats = board.square_stats(0.15).expect("square statistics");
    stats.map(|s| s.mean)
}

#[test]
fn every_photograph_rectifies_to_alternating_squares() {
    let photographs = photographs();
    assert_eq!(photographs.len(), 13, "the real set has 13 photographs");
    let faults: Vec<(String, usize)> = photographs
        .iter()
        .map(|(file, corners)| {
            (
                file.clone(),
                alternation_faults(&square_means(file, corners)),
            )
        })
        .filter(|(_, faults)| *faults > 0)
        .collect();
    assert!(faults.is_empty(), "squares out of alternation: {faults:?}");
}

#[test]
fn corners_half_a_square_off_break_the_alternation() {
    for (file, BoardCorners(c)) in photographs() {
        // Slide the quadrilateral half a square right and half a square down:
        // every warped square then holds two light and two dark quarters.
        let shift = [
            (c[1][0] - c[0][0] + c[3][0] - c[0][0]) / 16.0,
            (c[1][1] - c[0][1] + c[3][1] - c[0][1]) / 16.0,
        ];
        let shifted = BoardCorners(c.map(|[x, y]| [x + shift[0], y + shift[1]]));
        let faults = alternation_faults(&square_means(&file, &shifted));
        assert!(
            faults >= 16,
            "{file}: only {faults} faults half a square off"
        );
    }
}
