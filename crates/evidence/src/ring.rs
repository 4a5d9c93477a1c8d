//! A board's recent frames, as JPEG with what the chain saw on each (the
//! fingertip's square, where the board lies): the last [`TAIL_SECONDS`]
//! always, and the first [`HEAD_SECONDS`] of the turn under way from a
//! second before a fingertip first met a piece, so that a touch told at
//! the end of a long think still has its frames. At most [`KEPT_FPS`]
//! frames a second and [`RING_BYTES`] in all.

use std::collections::VecDeque;
use std::sync::Arc;

use referee_vision::{BoardCorners, Orientation};
use referee_watch::Glance;

/// Frames kept a second, at most (a faster camera's frames are thinned).
pub const KEPT_FPS: f64 = 20.0;

/// The last seconds always kept: an incident is raised once the move is
/// read, a second or two after the hand let go.
pub const TAIL_SECONDS: f64 = 6.0;

/// How long before a touch its evidence begins (s).
pub const LEAD_SECONDS: f64 = 1.0;

/// The first seconds of a turn kept while it lasts, from [`LEAD_SECONDS`]
/// before its first contact.
pub const HEAD_SECONDS: f64 = 5.0;

/// The most bytes of JPEG a board's ring holds: the oldest frames go first.
pub const RING_BYTES: usize = 12 << 20;

/// How long before a still the "before" frame of an incident was taken (s).
const BEFORE_SECONDS: f64 = 0.5;

/// One frame kept, and what the chain saw on it.
#[derive(Debug, Clone)]
pub struct Sighting {
    /// Seconds since the stream started.
    pub t: f64,
    pub jpeg: Arc<[u8]>,
    /// What the chain saw of hands on pieces.
    pub glance: Glance,
    /// Where the board lay: its corners and which edge is White's.
    pub board: Option<(BoardCorners, Orientation)>,
}

/// The recent frames of one board (a clone shares the frames' bytes).
#[derive(Debug, Default, Clone)]
pub struct FrameRing {
    frames: VecDeque<Sighting>,
    bytes: usize,
    /// Frames from this time on, for [`HEAD_SECONDS`], belong to the turn
    /// under way and stay while it lasts.
    held_from: Option<f64>,
}

impl FrameRing {
    /// Whether a frame taken at `t` would be kept (the caller need not
    /// encode one that would not).
    pub fn wants(&self, t: f64) -> bool {
        self.frames
            .back()
            .is_none_or(|last| t - last.t >= 0.9 / KEPT_FPS || t < last.t)
    }

    /// Keeps a frame, and lets go of those no incident can need any more.
    pub fn keep(&mut self, sighting: Sighting) {
        if !self.wants(sighting.t) {
            return;
        }
        if self.frames.back().is_some_and(|last| sighting.t < last.t) {
            // Time went back: a new stream, nothing before it is this one's.
            self.clear();
        }
        let now = sighting.t;
        self.bytes += sighting.jpeg.len();
        self.frames.push_back(sighting);
        let held = self.held_from;
        let needed = |f: &Sighting| {
            f.t >= now - TAIL_SECONDS
                || held.is_some_and(|from| (from..=from + HEAD_SECONDS).contains(&f.t))
        };
        let mut bytes = self.bytes;
        self.frames.retain(|f| {
            let keep = needed(f);
            if !keep {
                bytes -= f.jpeg.len();
            }
            keep
        });
        while bytes > RING_BYTES && self.frames.len() > 1 {
            if let Some(oldest) = self.frames.pop_front() {
                bytes -= oldest.jpeg.len();
            }
        }
        self.bytes = bytes;
    }

    /// What the chain made of the frame just kept: when a fingertip first
    /// met a piece this turn, and whether a move ended the turn before.
    pub fn follow_turn(&mut self, first_contact: Option<f64>, moved: bool) {
        if moved {
            self.held_from = None;
        }
        if self.held_from.is_none() {
            self.held_from = first_contact.map(|t| t - LEAD_SECONDS);
        }
    }

    /// Nothing kept (the stream ended).
    pub fn clear(&mut self) {
        self.frames.clear();
        self.bytes = 0;
        self.held_from = None;
    }

    /// The frames kept, oldest first.
    pub fn frames(&self) -> impl Iterator<Item = &Sighting> {
        self.frames.iter()
    }

    /// The bytes of JPEG held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The stills of something at `t`: a frame from before it, the one
    /// nearest to it and the latest one, each once.
    pub fn around(&self, t: f64) -> Vec<&[u8]> {
        let before = self
            .frames
            .iter()
            .rposition(|f| f.t <= t - BEFORE_SECONDS)
            .or((!self.frames.is_empty()).then_some(0));
        let nearest = (0..self.frames.len()).min_by(|&a, &b| {
            (self.frames[a].t - t)
                .abs()
                .total_cmp(&(self.frames[b].t - t).abs())
        });
        let latest = self.frames.len().checked_sub(1);
        let mut picked: Vec<usize> = [before, nearest, latest].into_iter().flatten().collect();
        picked.dedup();
        picked.into_iter().map(|k| &*self.frames[k].jpeg).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(t: f64, bytes: usize) -> Sighting {
        Sighting {
            t,
            jpeg: vec![(t * 20.0) as u8; bytes].into(),
            glance: Glance::default(),
            board: None,
        }
    }

    fn stream(ring: &mut FrameRing, from: f64, to: f64, contact: Option<f64>) {
        let mut k = (from * 20.0).round() as u32;
        while f64::from(k) / 20.0 <= to {
            ring.keep(frame(f64::from(k) / 20.0, 1000));
            ring.follow_turn(contact, false);
            k += 1;
        }
    }

    #[test]
    fn a_fast_camera_is_thinned_and_only_the_last_seconds_stay() {
        let mut ring = FrameRing::default();
        // 50 frames a second for 20 s.
        for k in 0..=1000 {
            ring.keep(frame(f64::from(k) / 50.0, 1000));
        }
        let times: Vec<f64> = ring.frames().map(|f| f.t).collect();
        assert!(
            times.len() <= (TAIL_SECONDS * KEPT_FPS) as usize + 1,
            "{times:?}"
        );
        assert!(
            times[0] >= times[times.len() - 1] - TAIL_SECONDS,
            "{times:?}"
        );
        assert!(
            times
                .windows(2)
                .all(|w| w[1] - w[0] >= 0.9 / KEPT_FPS - 1e-9),
            "{times:?}"
        );
        assert_eq!(ring.bytes(), times.len() * 1000);
    }

    #[test]
    fn the_turn_s_first_seconds_stay_while_it_lasts_and_go_with_its_move() {
        let mut ring = FrameRing::default();
        stream(&mut ring, 0.0, 3.0, None);
        // A fingertip meets a piece at 3 s; the player thinks for 30 s.
        stream(&mut ring, 3.05, 33.0, Some(3.0));
        let head: Vec<f64> = ring.frames().map(|f| f.t).filter(|&t| t < 20.0).collect();
        assert_eq!(head.first().copied(), Some(2.0), "{head:?}");
        assert!(
            head.last().is_some_and(|&t| t <= 2.0 + HEAD_SECONDS),
            "{head:?}"
        );
        ring.follow_turn(None, true);
        ring.keep(frame(33.1, 1000));
        assert!(ring.frames().all(|f| f.t >= 33.1 - TAIL_SECONDS));
    }

    #[test]
    fn bytes_are_bounded_and_a_new_stream_starts_afresh() {
        let mut ring = FrameRing::default();
        for k in 0..60 {
            ring.keep(frame(f64::from(k) * 0.1, 400_000));
        }
        assert!(ring.bytes() <= RING_BYTES, "{}", ring.bytes());
        ring.keep(frame(0.0, 10));
        assert_eq!(ring.frames().count(), 1);
        assert_eq!(ring.bytes(), 10);
    }

    #[test]
    fn stills_are_a_frame_before_the_one_at_and_the_latest() {
        let mut ring = FrameRing::default();
        stream(&mut ring, 0.0, 4.95, None);
        let picked: Vec<u8> = ring.around(4.0).iter().map(|j| j[0]).collect();
        assert_eq!(picked.len(), 3, "{picked:?}");
        assert!(f64::from(picked[0]) / 20.0 <= 3.5, "{picked:?}");
        assert!(
            (f64::from(picked[1]) / 20.0 - 4.0).abs() <= 0.1,
            "{picked:?}"
        );
        assert_eq!(picked[2], 99);
    }
}
