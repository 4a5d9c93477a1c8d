//! The real-hand models on the real game clip (`opening_clip.avi`, four
//! moves filmed from above, arms reaching in from both sides), against its
//! labels: hands found on the clear-hand frames and on none of the empty
//! ones; each moved piece gripped by the hand of the side that moved it;
//! a hand kept by tracking alone (no palm model) from frame to frame.
//!
//! Needs the converted models (`scripts/setup` makes them).

mod common;

use opencv::core::{Mat, Size};
use referee_vision::hands::on_board::BoardGeometry;
use referee_vision::hands::{Contact, HandOnBoard};
use referee_vision::{BoardCorners, HandModels, HandTracker, Orientation, VideoReader};
use shakmaty::{Color, Square};

/// The clip's frames with their times (seconds).
fn frames() -> Vec<(f64, Mat)> {
    let path = common::real_dir().join("opening_clip.avi");
    let mut video = VideoReader::open(&path).expect("the clip opens");
    let mut frames = Vec::new();
    while let Some(frame) = video.next_timed_frame().expect("a frame decodes") {
        frames.push(frame);
    }
    frames
}

fn models() -> HandModels {
    HandModels::load().expect("the hand models: run scripts/setup")
}

fn orientation(white_side: &str) -> Orientation {
    Orientation::ALL
        .into_iter()
        .find(|o| o.white_side() == white_side)
        .expect("a known side")
}

/// Every frame's hands read on the board, the tracker running through the clip.
fn hands_through_clip() -> (Vec<Vec<HandOnBoard>>, u64) {
    let clip = common::game_clip();
    let board = BoardGeometry::new(
        &BoardCorners(clip.corners),
        Size::new(640, 480),
        orientation(&clip.white_side),
    )
    .expect("the labelled corners make a board");
    let mut tracker = HandTracker::new(models());
    let seen = frames()
        .iter()
        .map(|(t, frame)| {
            let hands = tracker.track(frame, *t).expect("tracking runs");
            hands.iter().map(|h| board.read(&h.hand)).collect()
        })
        .collect();
    (seen, tracker.palm_runs)
}

#[test]
fn hands_are_found_where_the_labels_see_them_and_nowhere_else() {
    let clip = common::game_clip();
    let (seen, _) = hands_through_clip();
    assert_eq!(seen.len(), 131);
    let found: Vec<usize> = clip
        .hand_frames_clear
        .iter()
        .copied()
        .filter(|&f| !seen[f].is_empty())
        .collect();
    // Measured: 14 of 15 (frame 72, the queen carried fast, is missed).
    assert!(
        found.len() * 10 >= clip.hand_frames_clear.len() * 9,
        "hands found on {found:?} of the clear frames {:?}",
        clip.hand_frames_clear
    );
    let false_alarms: Vec<usize> = clip
        .no_hand_frames(seen.len())
        .into_iter()
        .filter(|&f| !seen[f].is_empty())
        .collect();
    assert!(
        false_alarms.is_empty(),
        "hands on frames without any: {false_alarms:?}"
    );
}

#[test]
fn each_moved_piece_is_gripped_by_the_hand_of_its_side() {
    let (seen, _) = hands_through_clip();
    // e4 e5 Qh5 Nc6: the squares the pieces left, and who moved them.
    let moved = [
        (Square::E2, Color::White),
        (Square::E7, Color::Black),
        (Square::D1, Color::White),
        (Square::B8, Color::Black),
    ];
    for (square, side) in moved {
        let gripping: Vec<usize> = (0..seen.len())
            .filter(|&f| {
                seen[f].iter().any(|h| {
                    h.contact == Some(Contact::Grip(square)) && h.reach.player == Some(side)
                })
            })
            .collect();
        // Measured: 5 (e2), 5 (e7), 6 (d1), 6 (b8) frames.
        assert!(
            gripping.len() >= 3,
            "{square} gripped by {side} on frames {gripping:?}"
        );
    }
    // Every arm comes in from a player's edge (the right is White's).
    for (f, hands) in seen.iter().enumerate() {
        for hand in hands {
            assert!(
                hand.reach.player.is_some(),
                "frame {f}: an arm from {:?}",
                hand.reach.edge
            );
        }
    }
}

#[test]
fn a_hand_is_followed_from_its_last_landmarks_without_the_palm_model() {
    let frames = frames();
    let mut tracker = HandTracker::new(models());
    // White's hand reaching for e2 (a clear-hand frame): found by the palm model…
    let (t, frame) = &frames[32];
    assert_eq!(tracker.track(frame, *t).expect("tracking runs").len(), 1);
    // …then kept on the next eight frames by tracking alone.
    for (k, (_, frame)) in frames[33..41].iter().enumerate() {
        let hands = tracker.follow(frame).expect("tracking runs");
        assert_eq!(hands.len(), 1, "frame {}: the hand was lost", 33 + k);
        assert_eq!(hands[0].frames, k as u32 + 2);
    }
    // With no hand in view it is lost (the board alone, frame 120).
    assert!(
        tracker
            .follow(&frames[120].1)
            .expect("tracking runs")
            .is_empty()
    );
}
