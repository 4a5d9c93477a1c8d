//! What each part of the chain's eyes costs a frame, on one core (OpenCV
//! held to one thread, as each board's chain runs in the service): the
//! decode, the eyes' warp, their change and colour reading, the small copy
//! the attention compares, the detector (its warp and its run apart) and
//! the real-hand models (the palm model alone, then MediaPipe's following
//! over the frames as they come, with the frames the palm model ran on and
//! the hands it followed).
//!
//! `cargo bench -p referee-vision --bench stages [-- VIDEO X0,Y0,X1,Y1,X2,Y2,X3,Y3]`
//! (default: the shared real opening clip, its corners found in its first
//! frame) prints milliseconds a frame, mean and median, over the video's
//! first 400 frames; under `cargo test` it times a few frames as a smoke
//! test.

use std::path::PathBuf;
use std::time::Instant;

use opencv::core::Mat;
use referee_vision::detector::DETECTOR_RECTIFIER;
use referee_vision::{
    BoardCorners, ChangeDetector, ColourBaseline, Detector, HandModels, HandTracker, Rectifier,
    Thumbnail, VideoReader, locate_board,
};

/// Milliseconds `work` took on each frame.
fn timed(frames: &[Mat], mut work: impl FnMut(&Mat)) -> Vec<f64> {
    frames
        .iter()
        .map(|frame| {
            let clock = Instant::now();
            work(frame);
            clock.elapsed().as_secs_f64() * 1e3
        })
        .collect()
}

/// Prints a stage's mean and median against the decode's mean; the
/// first frame is left out (one-time setup: OpenCV's colour tables, the
/// runtime's buffers).
fn report(stage: &str, mut ms: Vec<f64>, decode: f64) {
    if ms.len() > 1 {
        ms.remove(0);
    }
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    ms.sort_by(f64::total_cmp);
    let median = ms[ms.len() / 2];
    println!(
        "{stage:<28} mean {mean:7.3} ms   median {median:7.3} ms   {:5.2} x decode",
        mean / decode
    );
}

fn corners_argument(text: &str) -> BoardCorners {
    let v: Vec<f32> = text
        .split(',')
        .map(|x| x.parse().expect("corners are eight numbers"))
        .collect();
    assert_eq!(v.len(), 8, "corners are eight numbers");
    BoardCorners([[v[0], v[1]], [v[2], v[3]], [v[4], v[5]], [v[6], v[7]]])
}

fn main() {
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let free: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    opencv::core::set_num_threads(1).expect("OpenCV threads");
    let video = free.first().map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/real/opening_clip.avi")
    });
    let mut reader = VideoReader::open(&video).expect("the video opens");
    // Enough frames for a steady figure, few enough to hold decoded.
    let limit = if benchmarking { 400 } else { 5 };
    let mut frames = Vec::new();
    let mut decoding = Vec::new();
    while frames.len() < limit {
        let clock = Instant::now();
        let Some(frame) = reader.next_frame().expect("a frame decodes") else {
            break;
        };
        decoding.push(clock.elapsed().as_secs_f64() * 1e3);
        frames.push(frame);
    }
    let decode = decoding[1..].iter().sum::<f64>() / (decoding.len() - 1) as f64;
    let corners = match free.get(1) {
        Some(text) => corners_argument(text),
        None => {
            locate_board(&frames[0])
                .expect("locating")
                .expect("a board in the first frame")
                .corners
        }
    };
    println!("{}: {} frames", video.display(), frames.len());
    report("decode", decoding, decode);
    let eyes = Rectifier::default();
    report(
        "eyes' warp",
        timed(&frames, |f| {
            eyes.rectify(f, &corners).expect("warps");
        }),
        decode,
    );
    let boards: Vec<_> = frames
        .iter()
        .map(|f| eyes.rectify(f, &corners).expect("warps"))
        .collect();
    let mut change = ChangeDetector::new();
    let mut index = 0;
    report(
        "change (blur, Lab, diffs)",
        timed(&frames, |_| {
            change.observe(&boards[index]).expect("observes");
            index += 1;
        }),
        decode,
    );
    // Any occupancy will do for timing the colours' reading.
    let known = std::array::from_fn(|cell| match cell / 16 {
        0 => referee_vision::Occupant::Black,
        3 => referee_vision::Occupant::White,
        _ => referee_vision::Occupant::Empty,
    });
    if let Some(baseline) = ColourBaseline::calibrate(&boards[0], &known).expect("calibrates") {
        let mut index = 0;
        report(
            "colours",
            timed(&frames, |_| {
                baseline.probabilities(&boards[index]).expect("reads");
                index += 1;
            }),
            decode,
        );
    }
    report(
        "thumbnail",
        timed(&frames, |f| {
            Thumbnail::of(f, &corners).expect("copies");
        }),
        decode,
    );
    report(
        "detector's warp",
        timed(&frames, |f| {
            DETECTOR_RECTIFIER.rectify(f, &corners).expect("warps");
        }),
        decode,
    );
    let views: Vec<_> = frames
        .iter()
        .map(|f| DETECTOR_RECTIFIER.rectify(f, &corners).expect("warps"))
        .collect();
    let mut detector = Detector::load().expect("the detector loads");
    let mut index = 0;
    report(
        "detector's run",
        timed(&frames, |_| {
            detector
                .detect_rectified(&views[index].image)
                .expect("runs");
            index += 1;
        }),
        decode,
    );
    match HandModels::load() {
        Ok(mut hands) => report(
            "palm model",
            timed(&frames, |f| {
                hands.palms(f).expect("runs");
            }),
            decode,
        ),
        Err(err) => println!("real-hand models not timed: {err}"),
    }
    if let Ok(models) = HandModels::load() {
        let mut tracker = HandTracker::new(models);
        let (mut index, mut followed) = (0, 0);
        let mut pattern = String::new();
        report(
            "hands followed (MediaPipe)",
            timed(&frames, |f| {
                let before = tracker.palm_runs;
                let n = tracker
                    .track(f, index as f64 / reader.fps)
                    .expect("runs")
                    .len();
                followed += n;
                if index < 200 {
                    pattern.push_str(&format!(
                        "{}{n} ",
                        if tracker.palm_runs > before { "P" } else { "" }
                    ));
                }
                index += 1;
            }),
            decode,
        );
        println!(
            "  palm model on {} of {} frames; {followed} hand crops read by the landmark model",
            tracker.palm_runs,
            frames.len()
        );
        println!(
            "  hands followed frame by frame (P: the palm model ran), the first 200: {pattern}"
        );
    }
}
