//! The eyes calibrate on rendered first frames: which way the board lies is
//! found from the square colours and the pieces, for the standard start and
//! for a position of four pieces, and for the same picture turned half-way
//! round; the camera's place over the board is found from the corners.

use opencv::core::{Mat, ROTATE_180, rotate};
use opencv::prelude::*;
use referee_vision::{BoardCorners, CameraView, Eyes, Orientation};
use shakmaty::{Chess, Position};

/// The first frame of a scenario, its board's corners and start position.
fn first_frame(text: &str) -> (Mat, BoardCorners, Chess) {
    let scenario = referee_synth::Scenario::parse(text).expect("parses");
    let start = referee_synth::start_position(&scenario).expect("start");
    let (renderer, _) = referee_synth::stage(&scenario).expect("stages");
    let (frame, truth) = renderer.frame(0.0, 0).expect("frame");
    let corners = BoardCorners(truth.corners.map(|[x, y]| [x as f32, y as f32]));
    (frame, corners, start)
}

/// The same picture turned half-way round, with its corners.
fn turned(frame: &Mat, corners: BoardCorners) -> (Mat, BoardCorners) {
    let mut out = Mat::default();
    rotate(frame, &mut out, ROTATE_180).expect("rotates");
    let (w, h) = (frame.cols() as f32, frame.rows() as f32);
    let c = corners.0.map(|[x, y]| [w - x, h - y]);
    // Clockwise from the top-left again: the old bottom-right leads.
    (out, BoardCorners([c[2], c[3], c[0], c[1]]))
}

fn orientation(frame: &Mat, corners: BoardCorners, start: &Chess) -> Orientation {
    Eyes::calibrate(frame, corners, start.board(), None)
        .expect("calibrates")
        .orientation()
}

#[test]
fn the_board_is_found_either_way_round_with_many_pieces_or_few() {
    for text in [
        "camera seed=3 tilt=8\n",
        "start fen 8/4P2p/8/8/8/8/k7/4K3 w - - 0 1\ncamera seed=5 tilt=6\n",
    ] {
        let (frame, corners, start) = first_frame(text);
        assert_eq!(
            orientation(&frame, corners, &start),
            Orientation::WhiteBottom,
            "{text}"
        );
        let (frame, corners) = turned(&frame, corners);
        assert_eq!(
            orientation(&frame, corners, &start),
            Orientation::WhiteTop,
            "{text}"
        );
    }
}

#[test]
fn truth_names_the_edge_the_eyes_find_even_seen_corner_first() {
    // Near 45 degrees the image's axes cannot say which edge is White's;
    // truth must name the edge of the corners' outline, as the eyes do.
    for yaw in [
        0.0, 40.0, 45.0, 50.0, 90.0, 135.0, 180.0, -135.0, -60.0, -45.0,
    ] {
        let text = format!("camera seed=3 tilt=8 yaw={yaw}\n");
        let scenario = referee_synth::Scenario::parse(&text).expect("parses");
        let start = referee_synth::start_position(&scenario).expect("start");
        let (renderer, _) = referee_synth::stage(&scenario).expect("stages");
        let (frame, truth) = renderer.frame(0.0, 0).expect("frame");
        let corners = BoardCorners(truth.corners.map(|[x, y]| [x as f32, y as f32]));
        let found = orientation(&frame, corners, &start);
        assert_eq!(found.white_side(), truth.white_side, "yaw {yaw}");
    }
}

#[test]
fn the_camera_is_found_over_the_board_from_the_corners() {
    // The renderer's camera stands 9 · 1.1 / 0.82 squares from the board's
    // centre (camera.rs), tilted from the vertical by `tilt` degrees.
    for tilt in [0.0f64, 12.0, 25.0] {
        let (frame, corners, _) = first_frame(&format!("camera seed=3 tilt={tilt}\n"));
        let size = frame.size().expect("size");
        let view = CameraView::from_corners(&corners, size).expect("a camera");
        let distance = 9.0 * 1.1 / 0.82;
        let height = distance * tilt.to_radians().cos();
        assert!(
            (view.height - height).abs() < 0.05 * height,
            "tilt {tilt}: {view:?}, want {height:.2}"
        );
        // Under the camera: the board's centre, moved towards White by the tilt.
        let behind = distance * tilt.to_radians().sin();
        assert!((view.nadir[0] - 4.0).abs() < 0.3, "tilt {tilt}: {view:?}");
        assert!(
            (view.nadir[1] - (4.0 + behind)).abs() < 0.3 + 0.05 * behind,
            "tilt {tilt}: {view:?}"
        );
        assert!(
            view.lean() > 0.05 && view.lean() < 0.2,
            "tilt {tilt}: lean {}",
            view.lean()
        );
    }
}
