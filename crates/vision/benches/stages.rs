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

use referee_vision::detector::DETECTOR_RECTIFIER;
use referee_vision::{
    BoardCorners, ChangeDetector, ColourBaseline, Detector, EYES_RECTIFIER, HandModels,
    HandTracker, Thumbnail, VideoReader, locate_board,
};

/// What `work` made of each item, and the milliseconds it took on each.
fn timed<T, R>(items: &[T], mut work: impl FnMut(&T) -> R) -> (Vec<R>, Vec<f64>) {
    items
        .iter()
        .map(|item| {
            let clock = Instant::now();
            let made = work(item);
            (made, clock.elapsed().as_secs_f64() * 1e3)
        })
        .unzip()
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
    let eyes = EYES_RECTIFIER;
    // Each warp timed dropped at once, as the chain drops it: the boards
    // the later stages read are warped again, untimed.
    let (_, ms) = timed(&frames, |f| drop(eyes.rectify(f, &corners).expect("warps")));
    report("eyes' warp", ms, decode);
    let boards: Vec<_> = frames
        .iter()
        .map(|f| eyes.rectify(f, &corners).expect("warps"))
        .collect();
    let mut change = ChangeDetector::new();
    let (_, ms) = timed(&boards, |b| change.observe(b).expect("observes"));
    report("change (blur, Lab, diffs)", ms, decode);
    // Any occupancy will do for timing the colours' reading.
    let known = std::array::from_fn(|cell| match cell / 16 {
        0 => referee_vision::Occupant::Black,
        3 => referee_vision::Occupant::White,
        _ => referee_vision::Occupant::Empty,
    });
    if let Some(baseline) = ColourBaseline::calibrate(&boards[0], &known).expect("calibrates") {
        let (_, ms) = timed(&boards, |b| baseline.probabilities(b).expect("reads"));
        report("colours", ms, decode);
    }
    let (_, ms) = timed(&frames, |f| Thumbnail::of(f, &corners).expect("copies"));
    report("thumbnail", ms, decode);
    let warp = |f: &opencv::core::Mat| DETECTOR_RECTIFIER.rectify(f, &corners).expect("warps");
    let (_, ms) = timed(&frames, |f| drop(warp(f)));
    report("detector's warp", ms, decode);
    let views: Vec<_> = frames.iter().map(warp).collect();
    let mut detector = Detector::load().expect("the detector loads");
    let (_, ms) = timed(&views, |v| {
        detector.detect_rectified(&v.image).expect("runs")
    });
    report("detector's run", ms, decode);
    let mut models = match HandModels::load() {
        Ok(models) => models,
        Err(err) => return println!("real-hand models not timed: {err}"),
    };
    let (_, ms) = timed(&frames, |f| models.palms(f).expect("runs"));
    report("palm model", ms, decode);
    let mut tracker = HandTracker::new(models);
    let times: Vec<f64> = (0..frames.len()).map(|i| i as f64 / reader.fps).collect();
    let mut frame = frames.iter();
    let (followed, ms) = timed(&times, |&t| {
        let before = tracker.palm_runs;
        let hands = tracker
            .track(frame.next().expect("a frame a time"), t)
            .expect("runs")
            .len();
        (tracker.palm_runs > before, hands)
    });
    report("hands followed (MediaPipe)", ms, decode);
    println!(
        "  palm model on {} of {} frames; {} hand crops read by the landmark model",
        tracker.palm_runs,
        frames.len(),
        followed.iter().map(|(_, n)| n).sum::<usize>()
    );
    let pattern: Vec<String> = followed
        .iter()
        .take(200)
        .map(|&(palm, n)| format!("{}{n}", if palm { "P" } else { "" }))
        .collect();
    println!(
        "  hands followed frame by frame (P: the palm model ran), the first 200: {}",
        pattern.join(" ")
    );
}
