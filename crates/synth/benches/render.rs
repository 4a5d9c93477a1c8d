//! Rendering speed: frames per second at 640x480 on one core (OpenCV held
//! to one thread), over the bundled scenario with a hand moving.
//!
//! `cargo bench -p referee-synth --bench render` prints the figure; under
//! `cargo test` it renders a few frames as a smoke test.

use std::path::PathBuf;
use std::time::Instant;

use referee_synth::Scenario;

fn main() {
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    opencv::core::set_num_threads(1).expect("OpenCV threads");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/scenarios/castling_rook_first.scn");
    let scenario =
        Scenario::parse(&std::fs::read_to_string(path).expect("scenario")).expect("parses");
    let (renderer, played) = referee_synth::stage(&scenario).expect("stages");
    let fps = scenario.camera.fps;
    let frames = if benchmarking {
        (played.duration * fps) as u64
    } else {
        10
    };
    let started = Instant::now();
    for index in 0..frames {
        renderer.frame(index as f64 / fps, index).expect("frame");
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "render: {frames} frames of {}x{} in {:.2} s on one thread: {:.1} frames/s ({:.1} ms/frame, truth included)",
        scenario.camera.width,
        scenario.camera.height,
        seconds,
        frames as f64 / seconds,
        seconds * 1e3 / frames as f64
    );
}
