//! Board localisation on the real photographs of `../shared/data/real` (a
//! test set, never trained on): the corners found with no help must lie
//! within 2% of the board's side of the labelled ones on at least 11 of the
//! 13, the figure. Each photograph's error is printed
//! (`cargo test -p referee-vision --test localisation -- --nocapture`).

mod common;

use common::real_dir;
use referee_vision::{locate_board, read_image};

fn photographs() -> Vec<(String, [[f32; 2]; 4])> {
    common::photographs()
        .into_iter()
        .map(|l| (l.file.clone(), l.corners()))
        .collect()
}

fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// Largest corner error as a share of the labelled board's mean side.
fn corner_error(found: [[f32; 2]; 4], labelled: [[f32; 2]; 4]) -> f32 {
    let side = (0..4)
        .map(|k| distance(labelled[k], labelled[(k + 1) % 4]))
        .sum::<f32>()
        / 4.0;
    (0..4)
        .map(|k| distance(found[k], labelled[k]))
        .fold(0.0, f32::max)
        / side
}

/// The tolerance and how many photographs must meet it.
const TOLERANCE: f32 = 0.02;
const MUST_MEET: usize = 11;

#[test]
fn the_board_is_found_on_the_real_photographs() {
    let photos = photographs();
    assert_eq!(photos.len(), 13, "the thirteen labelled photographs");
    let mut met = 0;
    for (file, labelled) in &photos {
        let image = read_image(&real_dir().join(file)).expect("photograph reads");
        let found = locate_board(&image).expect("localisation runs");
        match found {
            Some(found) => {
                let error = corner_error(found.corners.0, *labelled);
                met += usize::from(error <= TOLERANCE);
                println!(
                    "{file}: corners within {:.2}% of the side ({} squares seen, {} points refined)",
                    100.0 * error,
                    found.cells,
                    found.refined
                );
            }
            None => println!("{file}: no board found"),
        }
    }
    println!("{met} of {} within {:.0}%", photos.len(), 100.0 * TOLERANCE);
    assert!(met >= MUST_MEET, "only {met} of 13 photographs within 2%");
}

#[test]
fn a_plain_picture_has_no_board() {
    let blank = opencv::core::Mat::new_rows_cols_with_default(
        480,
        640,
        opencv::core::CV_8UC3,
        opencv::core::Scalar::all(128.0),
    )
    .expect("a grey picture");
    assert_eq!(locate_board(&blank).expect("runs"), None);
}
