//! The service's figures for `/metrics`, in Prometheus text: each board's
//! frames, the rate it is refereed at and the bytes its evidence ring
//! holds, the even rate's stride, incidents by kind, models missing, and
//! histograms of how long each stage of the chain takes over every board.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;

use referee_proto as pb;

/// One board's figures.
#[derive(Debug)]
pub struct Board {
    pub board: String,
    pub frames: pb::FrameStats,
    /// A camera streams now.
    pub streaming: bool,
    /// Bytes of JPEG its ring of recent frames holds for evidence.
    pub evidence_bytes: usize,
}

/// Everything `/metrics` shows.
#[derive(Debug)]
pub struct Figures<'a> {
    pub boards: Vec<Board>,
    /// Incidents raised, by kind.
    pub incidents: BTreeMap<String, u64>,
    /// Every how many frames one is refereed, on every board.
    pub stride: u32,
    pub models_missing: usize,
    pub stages: &'a StageHistograms,
}

type Pick = fn(&pb::FrameStats) -> u64;

/// The frame counters, by name, help and field.
const COUNTERS: [(&str, &str, Pick); 6] = [
    (
        "referee_frames_received_total",
        "Frames a camera sent.",
        |s| s.frames_received,
    ),
    (
        "referee_frames_dropped_total",
        "Frames dropped: queue full or over the rate limit.",
        |s| s.frames_dropped,
    ),
    (
        "referee_frames_paced_total",
        "Frames left out by the even rate under load (see referee_stride).",
        |s| s.frames_paced,
    ),
    (
        "referee_frames_corrupt_total",
        "Frames that could not be read.",
        |s| s.frames_corrupt,
    ),
    ("referee_frames_processed_total", "Frames refereed.", |s| {
        s.frames_processed
    }),
    (
        "referee_frames_refused_total",
        "Frames refused: a time not finite or going back.",
        |s| s.frames_refused,
    ),
];

impl Figures<'_> {
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (name, help, pick) in COUNTERS {
            header(&mut out, name, help, "counter");
            for board in &self.boards {
                let _ = writeln!(
                    out,
                    "{name}{{board=\"{}\"}} {}",
                    board.board,
                    pick(&board.frames)
                );
            }
        }
        let name = "referee_board_refereed_fps";
        header(
            &mut out,
            name,
            "Frames a second refereed, for each board streaming: its camera's rate over the stride.",
            "gauge",
        );
        for board in self.boards.iter().filter(|b| b.streaming) {
            let _ = writeln!(
                out,
                "{name}{{board=\"{}\"}} {}",
                board.board, board.frames.refereed_fps
            );
        }
        let name = "referee_board_evidence_bytes";
        header(
            &mut out,
            name,
            "Bytes of recent frames each board keeps for its incidents' clips (bounded by the ring).",
            "gauge",
        );
        for board in &self.boards {
            let _ = writeln!(
                out,
                "{name}{{board=\"{}\"}} {}",
                board.board, board.evidence_bytes
            );
        }
        let active = self.boards.iter().filter(|b| b.streaming).count();
        gauge(
            &mut out,
            "referee_boards_active",
            "Boards with a camera streaming now.",
            active,
        );
        gauge(
            &mut out,
            "referee_stride",
            "Every board is refereed at 1 frame in this many (1: all; more under load).",
            self.stride,
        );
        header(
            &mut out,
            "referee_incidents_total",
            "Incidents raised, by kind.",
            "counter",
        );
        for (kind, count) in &self.incidents {
            let _ = writeln!(out, "referee_incidents_total{{kind=\"{kind}\"}} {count}");
        }
        gauge(
            &mut out,
            "referee_models_missing",
            "Models the chain runs without (touches it cannot see).",
            self.models_missing,
        );
        out.push_str(&self.stages.render());
        out
    }
}

fn header(out: &mut String, name: &str, help: &str, kind: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

fn gauge(out: &mut String, name: &str, help: &str, value: impl std::fmt::Display) {
    header(out, name, help, "gauge");
    let _ = writeln!(out, "{name} {value}");
}

/// Upper bounds of the buckets, in milliseconds.
const BOUNDS: [f64; 11] = [
    0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 250.0, 500.0, 1000.0,
];

const STAGES: [&str; 5] = ["decode", "locate", "detect", "track", "rules"];

#[derive(Debug, Default, Clone, Copy)]
struct Histogram {
    /// Observations at or under each bound; the last slot counts all.
    buckets: [u64; 12],
    sum: f64,
}

/// One histogram a stage.
#[derive(Debug, Default)]
pub struct StageHistograms {
    stages: Mutex<[Histogram; 5]>,
}

impl StageHistograms {
    /// One frame's times, in milliseconds, in the order of the stages.
    pub fn observe(&self, times: &[f64; 5]) {
        let mut stages = self
            .stages
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (histogram, &ms) in stages.iter_mut().zip(times) {
            for (slot, bound) in BOUNDS.iter().enumerate() {
                if ms <= *bound {
                    histogram.buckets[slot] += 1;
                }
            }
            histogram.buckets[BOUNDS.len()] += 1;
            histogram.sum += ms / 1e3;
        }
    }

    pub fn render(&self) -> String {
        let stages = *self
            .stages
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let name = "referee_stage_seconds";
        let mut out = format!(
            "# HELP {name} Time a frame spends in each stage of the chain.\n# TYPE {name} histogram\n"
        );
        for (stage, histogram) in STAGES.iter().zip(stages) {
            for (bound, count) in BOUNDS.iter().zip(histogram.buckets) {
                let _ = writeln!(
                    out,
                    "{name}_bucket{{stage=\"{stage}\",le=\"{}\"}} {count}",
                    bound / 1e3
                );
            }
            let total = histogram.buckets[BOUNDS.len()];
            let _ = writeln!(
                out,
                "{name}_bucket{{stage=\"{stage}\",le=\"+Inf\"}} {total}"
            );
            let _ = writeln!(out, "{name}_sum{{stage=\"{stage}\"}} {}", histogram.sum);
            let _ = writeln!(out, "{name}_count{{stage=\"{stage}\"}} {total}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_cumulative() {
        let stages = StageHistograms::default();
        stages.observe(&[0.7, 3.0, 0.1, 0.0, 0.0]);
        stages.observe(&[1.5, 3.0, 0.1, 0.0, 0.0]);
        let text = stages.render();
        assert!(
            text.contains("referee_stage_seconds_bucket{stage=\"decode\",le=\"0.001\"} 1"),
            "{text}"
        );
        assert!(
            text.contains("referee_stage_seconds_bucket{stage=\"decode\",le=\"0.002\"} 2"),
            "{text}"
        );
        assert!(
            text.contains("referee_stage_seconds_count{stage=\"locate\"} 2"),
            "{text}"
        );
    }
}
