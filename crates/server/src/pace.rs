//! The service's pace: when the boards together ask more of the chain than
//! the cores give, every board is refereed at the same lower, even rate
//! (every k-th frame of each camera, k the same for all), instead of frames
//! dropping wherever a queue happens to be full. The chain keeps the
//! frames' capture times, so a lower rate reads the same moves.
//!
//! The stride k follows the load: the share of the workers' time the chain
//! took over the last window, scaled to what every frame would cost, sets
//! the least k that keeps the workers under [`BUSY_TARGET`]; a full queue
//! raises k at once; k comes down one step at a time once the load would
//! stay under [`BUSY_CALM`] at the lower stride for [`CALM_WINDOWS`] windows.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How long the load is summed before the stride is set again.
pub const WINDOW: Duration = Duration::from_secs(1);

/// The share of the workers' time the chain may take: the rest is left to
/// receiving, decoding the wire and answering.
pub const BUSY_TARGET: f64 = 0.7;

/// The stride comes down only when the lower one would keep the workers
/// under this share …
pub const BUSY_CALM: f64 = 0.55;

/// … for this many windows in a row.
pub const CALM_WINDOWS: u32 = 3;

/// The largest stride …
pub const MAX_STRIDE: u32 = 5;

/// … and the least rate a camera is taken down to (frames a second): the
/// least rate rendered games were measured to read every move exactly at
/// (`scripts/measure_replay.py --every 3` on games filmed at 10; a touch
/// of an opponent's piece may be missed below 5). Past that, frames drop
/// (and are counted) as the queues fill, and records may go wrong: a
/// lower rate is the lesser harm.
pub const LEAST_FPS: f64 = 10.0 / 3.0;

/// The stride all boards are refereed at, and the load it is set from.
#[derive(Debug)]
pub struct Pace {
    stride: AtomicU32,
    workers: f64,
    load: Mutex<Load>,
}

/// The chain's work since the window began.
#[derive(Debug)]
struct Load {
    since: Instant,
    busy: Duration,
    /// A board's queue was full during the window.
    overflowed: bool,
    /// Windows in a row the stride could have come down.
    calm: u32,
    /// When the stride last went up (a full queue raises it once a window).
    raised: Instant,
}

impl Pace {
    /// The pace of a service whose chain runs on `workers` threads.
    pub fn new(workers: usize) -> Self {
        let now = Instant::now();
        Self {
            stride: AtomicU32::new(1),
            workers: workers.max(1) as f64,
            load: Mutex::new(Load {
                since: now,
                busy: Duration::ZERO,
                overflowed: false,
                calm: 0,
                raised: now - WINDOW,
            }),
        }
    }

    /// Every how many frames of a camera one is refereed (1: all of them).
    pub fn stride(&self) -> u32 {
        self.stride.load(Ordering::Relaxed)
    }

    /// The stride a camera sending `fps` frames a second is refereed at:
    /// the service's, but never below [`LEAST_FPS`].
    pub fn stride_for(&self, fps: f64) -> u32 {
        let floor = (fps / LEAST_FPS + 1e-6).floor().max(1.0) as u32;
        self.stride().min(floor)
    }

    fn load(&self) -> std::sync::MutexGuard<'_, Load> {
        self.load
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The chain took `busy` on one frame.
    pub fn worked(&self, busy: Duration) {
        self.worked_at(busy, Instant::now());
    }

    /// A board's queue was full: the chain is behind now, so the stride
    /// goes up at once (once a window, the queues having to drain).
    pub fn overflowed(&self) {
        self.overflowed_at(Instant::now());
    }

    fn overflowed_at(&self, now: Instant) {
        let mut load = self.load();
        load.overflowed = true;
        if now.duration_since(load.raised) >= WINDOW {
            load.raised = now;
            load.calm = 0;
            self.set(self.stride() + 1);
        }
    }

    fn worked_at(&self, busy: Duration, now: Instant) {
        let mut load = self.load();
        load.busy += busy;
        let elapsed = now.duration_since(load.since);
        if elapsed < WINDOW {
            return;
        }
        let stride = self.stride();
        // What every frame would cost, as a share of the workers' time.
        let demand =
            load.busy.as_secs_f64() / (self.workers * elapsed.as_secs_f64()) * f64::from(stride);
        let needed = (1..=MAX_STRIDE)
            .find(|&k| demand / f64::from(k) <= BUSY_TARGET)
            .unwrap_or(MAX_STRIDE);
        if needed > stride {
            load.raised = now;
            load.calm = 0;
            self.set(needed);
        } else if stride > 1 && !load.overflowed && demand / f64::from(stride - 1) <= BUSY_CALM {
            load.calm += 1;
            if load.calm >= CALM_WINDOWS {
                load.calm = 0;
                self.set(stride - 1);
            }
        } else {
            load.calm = 0;
        }
        load.since = now;
        load.busy = Duration::ZERO;
        load.overflowed = false;
    }

    fn set(&self, stride: u32) {
        let stride = stride.clamp(1, MAX_STRIDE);
        let was = self.stride.swap(stride, Ordering::Relaxed);
        if was != stride {
            tracing::info!(
                "the chain is behind or has room: every board refereed at 1 frame in {stride} (was 1 in {was})"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `pace` one window in which the chain took `share` of two
    /// workers' time, ending at `at`.
    fn window(pace: &Pace, at: &mut Instant, share: f64) {
        *at += WINDOW;
        pace.worked_at(WINDOW.mul_f64(2.0 * share), *at);
    }

    #[test]
    fn the_stride_rises_with_the_load_and_comes_down_once_it_is_calm() {
        let pace = Pace::new(2);
        let mut at = pace.load().since;
        window(&pace, &mut at, 0.5);
        assert_eq!(pace.stride(), 1, "half the time is within the target");
        // Every frame would need 1.6 times the workers: 1 in 3 keeps under 0.7.
        window(&pace, &mut at, 1.6);
        assert_eq!(pace.stride(), 3);
        // At 1 in 3 the same load reads as a third of it.
        window(&pace, &mut at, 1.6 / 3.0);
        assert_eq!(pace.stride(), 3, "as loaded as before");
        // The boards go quiet: down one step after three calm windows.
        for _ in 0..CALM_WINDOWS - 1 {
            window(&pace, &mut at, 0.1);
            assert_eq!(pace.stride(), 3);
        }
        window(&pace, &mut at, 0.1);
        assert_eq!(pace.stride(), 2);
    }

    #[test]
    fn no_camera_is_taken_below_the_least_rate() {
        let pace = Pace::new(2);
        pace.set(MAX_STRIDE);
        assert_eq!(pace.stride_for(30.0), 5, "6 a second");
        assert_eq!(pace.stride_for(10.0), 3, "3.3 a second");
        assert_eq!(pace.stride_for(7.0), 2, "3.5 a second");
        assert_eq!(pace.stride_for(5.0), 1);
        assert_eq!(pace.stride_for(0.0), 1, "rate not known yet");
    }

    #[test]
    fn a_full_queue_raises_the_stride_once_a_window_and_it_is_bounded() {
        let pace = Pace::new(2);
        let start = pace.load().since;
        pace.overflowed_at(start + Duration::from_millis(10));
        assert_eq!(pace.stride(), 2);
        pace.overflowed_at(start + Duration::from_millis(20));
        assert_eq!(pace.stride(), 2, "the queues get a window to drain");
        let mut at = start;
        for _ in 0..20 {
            at += WINDOW;
            pace.overflowed_at(at);
        }
        assert_eq!(pace.stride(), MAX_STRIDE);
    }
}
