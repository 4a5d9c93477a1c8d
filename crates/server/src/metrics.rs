//! Histograms of how long each stage of the chain takes, over every board,
//! written in Prometheus text for `/metrics`.

use std::fmt::Write as _;
use std::sync::Mutex;

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
