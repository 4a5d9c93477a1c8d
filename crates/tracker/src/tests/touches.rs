//! Touches: dwell, rest, reach, adjustments, the hand letting go, two hands.

use super::*;

/// Six frames of a fingertip resting on `square` (changed under it) for
/// 0.3 s, the picture moving; the events they made.
fn rest_on(tracker: &mut Tracker, t: &mut f64, square: Square) -> Vec<Event> {
    let mut events = Vec::new();
    for _ in 0..6 {
        *t += 0.05;
        events.extend(
            tracker
                .push(&frame(*t, &[square], false, Some(square)))
                .events,
        );
    }
    events
}

/// `frames` frames `interval` seconds apart (`frame_at` makes the k-th at
/// its time) after the camera's first, then e2-e4 played; the actions seen.
fn frames_then_e4(
    frames: usize,
    interval: f64,
    frame_at: impl Fn(usize, f64) -> Observation,
) -> Vec<Action> {
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    // The camera's first frame: a rest is timed from the frame before.
    let mut events = tracker.push(&frame(t, &[], true, None)).events;
    for k in 0..frames {
        t += interval;
        events.extend(tracker.push(&frame_at(k, t)).events);
    }
    for _ in 0..6 {
        t += 0.1;
        events.extend(
            tracker
                .push(&frame(t, &[Square::E2, Square::E4], true, None))
                .events,
        );
    }
    actions_of(&events)
}

/// A fingertip read on `square` for 0.4 s of frames taken `fps` a second,
/// its square's picture moving on all but the first `resting` of them,
/// then e2-e4 played; the actions seen.
fn fingertip_then_e4(square: Square, resting: usize, fps: f64) -> Vec<Action> {
    let frames = (0.4 * fps).round() as usize;
    frames_then_e4(frames, 1.0 / fps, |k, t| {
        let mut obs = frame(t, &[square], false, Some(square));
        obs.motion[usize::from(square)] = if k < resting { 0.0 } else { 30.0 };
        obs
    })
}

#[test]
fn a_touch_accuses_only_where_the_fingertip_rested_on_the_piece() {
    let touched_then_e4 = |square| [Action::Touch(square), E4_PLAYED[0], E4_PLAYED[1]];
    // Passing over the knight on b1, its square moving under the hand on
    // every frame: no touch, e4 alone.
    assert_eq!(fingertip_then_e4(Square::B1, 0, 10.0), E4_PLAYED);
    // Stopping on it for a frame (at 10 a second, the frame the fingertip
    // arrives on is never still): the touch of b1, then e4 (art. 4.3a).
    assert_eq!(
        fingertip_then_e4(Square::B1, 1, 10.0),
        touched_then_e4(Square::B1)
    );
    // The piece then moved: the touch accuses no one and needs no rest
    // (a real hand grasping a piece hardly stops).
    assert_eq!(
        fingertip_then_e4(Square::E2, 0, 10.0),
        touched_then_e4(Square::E2)
    );
}

#[test]
fn a_hand_sliding_over_a_piece_its_palm_covering_its_square_is_not_resting() {
    // Read on b1 for 0.4 s, its square's picture still and changed under
    // the hand, at 10 frames a second. The squares around it moving on
    // every frame, or the picture past the board's edge beyond it: the
    // hand's outline sliding past, its palm over the knight, no touch.
    // All of it standing still: the hand stopped, the touch.
    let over_b1 = |around: f32, beyond: f32| {
        frames_then_e4(4, 0.1, |_, t| {
            let mut obs = frame(t, &[Square::B1], false, Some(Square::B1));
            obs.motion[usize::from(Square::B1)] = 0.0;
            obs.motion[usize::from(Square::C2)] = around;
            obs.beyond_motion[usize::from(Square::A1)] = beyond;
            obs
        })
    };
    assert_eq!(over_b1(30.0, 0.0), E4_PLAYED);
    assert_eq!(over_b1(0.0, 30.0), E4_PLAYED);
    assert_eq!(
        over_b1(0.0, 0.0),
        [Action::Touch(Square::B1), E4_PLAYED[0], E4_PLAYED[1]]
    );
}

#[test]
fn a_frame_the_fingertip_is_missed_on_does_not_make_its_rest_an_arrival() {
    // At 20 frames a second the fingertip arrives on b1, moving; the
    // detector misses it on the next frame, the finger still covering the
    // knight; then reads it there, resting, for a quarter of a second. The
    // knight's picture before the finger came is what the rest is told
    // against, not the frame it was missed on.
    let missed_once = frames_then_e4(7, 0.05, |k, t| {
        let tip = (k != 1).then_some(Square::B1);
        let mut obs = frame(t, &[Square::B1], false, tip);
        obs.scores[usize::from(Square::B1)] = 2.0 * REST_RISE;
        obs.motion[usize::from(Square::B1)] = if k == 0 { 30.0 } else { 0.0 };
        obs
    });
    assert_eq!(
        missed_once,
        [Action::Touch(Square::B1), E4_PLAYED[0], E4_PLAYED[1]]
    );
}

#[test]
fn a_fingertip_read_on_a_piece_whose_square_looks_as_before_is_a_hand_beside_it() {
    // Read on b1 for 0.4 s, its square still, its picture no more unlike
    // the board as accepted than before the fingertip came: the hand is
    // over the board's edge, not on the knight.
    let beside = frames_then_e4(4, 0.1, |_, t| {
        let mut obs = frame(t, &[], false, Some(Square::B1));
        obs.scores[usize::from(Square::B1)] = 0.5 * REST_RISE;
        obs
    });
    assert_eq!(beside, E4_PLAYED);
}

#[test]
fn a_finger_on_the_head_of_a_piece_at_the_board_s_edge_touches_it() {
    // Read on b1 for 0.4 s, its square's picture as before, but where the
    // knight's head leans out past the board's edge a finger covers it:
    // White touching it from behind. That picture standing still, the
    // finger rests on it; moving all along, a hand passes behind it.
    let from_behind = |head_motion: f32| {
        frames_then_e4(4, 0.1, |_, t| {
            let mut obs = frame(t, &[], false, Some(Square::B1));
            obs.scores[usize::from(Square::B1)] = 0.5 * REST_RISE;
            obs.head_scores[usize::from(Square::B1)] = 2.0 * REST_RISE;
            obs.head_motion[usize::from(Square::B1)] = head_motion;
            obs
        })
    };
    assert_eq!(
        from_behind(0.0),
        [Action::Touch(Square::B1), E4_PLAYED[0], E4_PLAYED[1]]
    );
    assert_eq!(from_behind(30.0), E4_PLAYED);
}

#[test]
fn a_fingertip_standing_still_over_a_piece_for_a_moment_is_a_hand_passing() {
    // Read on b1 for `frames` frames `interval` apart, all of them still.
    let still_on_b1 = |frames, interval| {
        frames_then_e4(frames, interval, |_, t| {
            let mut obs = frame(t, &[Square::B1], false, Some(Square::B1));
            obs.motion[usize::from(Square::B1)] = 0.0;
            obs
        })
    };
    // Three frames at 20 a second: three twentieths of a second, a hand
    // passing that paused, not a touch.
    assert_eq!(still_on_b1(3, 0.05), E4_PLAYED);
    // Two at 10 a second: a fifth of a second, a quick touch (a hand
    // passing is seen on a piece less long, or moving).
    assert_eq!(
        still_on_b1(2, 0.1),
        [Action::Touch(Square::B1), E4_PLAYED[0], E4_PLAYED[1]]
    );
}

#[test]
fn a_touch_seen_with_frames_lost_in_its_turn_is_marked_recovered() {
    // The fingertip resting on b1 at 10 frames a second, then e2-e4;
    // `lost`: half a second of frames dropped between. Where frames were
    // lost, another touch may have come first unseen (the king's before
    // the rook's): its order is not known.
    let touches_recovered = |lost: bool| {
        let mut tracker = Tracker::new(Chess::default());
        let mut t = 0.0;
        let mut events = tracker.push(&frame(t, &[], true, None)).events;
        for _ in 0..6 {
            t += 0.1;
            let obs = frame(t, &[Square::B1], false, Some(Square::B1));
            events.extend(tracker.push(&obs).events);
        }
        if lost {
            t += 0.5;
        }
        for _ in 0..6 {
            t += 0.1;
            let obs = frame(t, &[Square::E2, Square::E4], true, None);
            events.extend(tracker.push(&obs).events);
        }
        events
            .iter()
            .filter(|e| matches!(e.action, Action::Touch(_)))
            .map(|e| e.recovered)
            .collect::<Vec<bool>>()
    };
    assert_eq!(touches_recovered(false), [false]);
    assert_eq!(touches_recovered(true), [true]);
}

/// White's pawn takes on d5, the fingertip on d5 until the move is
/// read; then `between`, a frame each (read on a neighbour, or no
/// fingertip at all), then the fingertip back on d5, resting, the hand
/// seen to be `toucher`'s; then the hand gone. The actions after the
/// move.
fn exd5_then_fingertip_back_on_it(
    between: &[Option<Square>],
    toucher: Option<Color>,
) -> Vec<Action> {
    let mut tracker = Tracker::new(from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"));
    let mut t = 0.0;
    let mut events = tracker.push(&frame(t, &[], true, None)).events;
    for _ in 0..8 {
        t += 0.05;
        let mut obs = frame(t, &[Square::E4, Square::D5], true, Some(Square::D5));
        obs.occupancy[usize::from(Square::D5)] = Some(Color::White);
        let step = tracker.push(&obs);
        events.extend(step.events);
        if step.accept != 0 {
            break;
        }
    }
    let taken = [
        Action::Lift(Square::E4),
        Action::Capture(Square::D5),
        Action::Release(Square::D5),
    ];
    assert_eq!(actions_of(&events), taken, "the move is read");
    let mut events = Vec::new();
    let tips = between
        .iter()
        .copied()
        .chain([Some(Square::D5); 5])
        .chain([None; 3]);
    for tip in tips {
        t += 0.05;
        let mut obs = frame(t, &[], true, tip);
        obs.toucher = toucher;
        events.extend(tracker.push(&obs).events);
    }
    actions_of(&events)
}

#[test]
fn the_hand_letting_go_of_the_piece_it_moved_touches_nothing() {
    // The fingertip read a frame on a neighbour as the hand lets go, or
    // missed a frame: the same hand, no touch of the next turn.
    assert_eq!(
        exd5_then_fingertip_back_on_it(&[Some(Square::C6)], None),
        []
    );
    assert_eq!(
        exd5_then_fingertip_back_on_it(&[Some(Square::E5)], Some(Color::White)),
        []
    );
    assert_eq!(exd5_then_fingertip_back_on_it(&[None], None), []);
    // The hand gone longer than a missed frame and back, or Black's hand:
    // a touch.
    assert_eq!(
        exd5_then_fingertip_back_on_it(&[None; 4], None),
        [Action::Touch(Square::D5)]
    );
    assert_eq!(
        exd5_then_fingertip_back_on_it(&[Some(Square::C6)], Some(Color::Black)),
        [Action::Touch(Square::D5)]
    );
}

#[test]
fn a_fingertip_rests_as_long_in_seconds_whatever_the_frame_rate() {
    // At 30 frames a second, two still frames are a fifteenth of a
    // second: a hand passing can pause that long.
    assert_eq!(fingertip_then_e4(Square::B1, 2, 30.0), E4_PLAYED);
    // Three (a tenth of a second) is a rest, as one frame is at 10 a second.
    assert_eq!(
        fingertip_then_e4(Square::B1, 3, 30.0),
        [Action::Touch(Square::B1), E4_PLAYED[0], E4_PLAYED[1]]
    );
}

#[test]
fn a_dwell_is_a_touch_and_a_still_change_a_move() {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    let mut t = 0.0;
    // The camera's first frame, the board bare (a fingertip on the first
    // frame watched arrived unseen).
    events.extend(tracker.push(&frame(t, &[], true, None)).events);
    // The hand reaches e2 and rests there, the picture moving.
    for _ in 0..4 {
        t += 0.05;
        events.extend(
            tracker
                .push(&frame(
                    t,
                    &[Square::E1, Square::E2],
                    false,
                    Some(Square::E2),
                ))
                .events,
        );
    }
    // The hand has gone; e2 and e4 differ from the accepted picture.
    let mut accepted = 0;
    for _ in 0..6 {
        t += 0.05;
        let step = tracker.push(&frame(t, &[Square::E2, Square::E4], true, None));
        accepted |= step.accept;
        events.extend(step.events);
    }
    assert_eq!(accepted, bits(&[Square::E2, Square::E4]));
    let actions = actions_of(&events);
    assert_eq!(
        actions,
        [
            Action::Touch(Square::E2),
            Action::Lift(Square::E2),
            Action::Release(Square::E4)
        ]
    );
    assert!(events.windows(2).all(|w| w[0].t <= w[1].t));
}

/// Castling seen frame by frame: the hand over `first` (its fingertip
/// resting there), then over both the king's and the rook's squares
/// with the fingertip on `second`, then the castled board still.
fn castling_with_fingertips(first: Square, second: Square) -> Vec<Action> {
    let start = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let mut tracker = Tracker::new(start);
    let mut events = Vec::new();
    let mut t = 0.0;
    // The camera's first frame, the board bare (a fingertip on the first
    // frame watched arrived unseen).
    events.extend(tracker.push(&frame(t, &[], true, None)).events);
    for (changed, tip) in [(vec![first], first), (vec![first, second], second)] {
        for _ in 0..4 {
            t += 0.05;
            events.extend(tracker.push(&frame(t, &changed, false, Some(tip))).events);
        }
    }
    let castled = [Square::E1, Square::F1, Square::G1, Square::H1];
    for _ in 0..6 {
        t += 0.05;
        events.extend(tracker.push(&frame(t, &castled, true, None)).events);
    }
    assert!(events.windows(2).all(|w| w[0].t <= w[1].t));
    actions_of(&events)
}

#[test]
fn the_rook_touched_in_the_course_of_castling_is_part_of_it() {
    let moved = [
        Action::Lift(Square::E1),
        Action::Release(Square::G1),
        Action::Lift(Square::H1),
        Action::Release(Square::F1),
    ];
    let mut king_first = vec![Action::Touch(Square::E1)];
    king_first.extend(moved);
    assert_eq!(castling_with_fingertips(Square::E1, Square::H1), king_first);
    // The rook touched before the king: both touches stand, rook first.
    let seen = castling_with_fingertips(Square::H1, Square::E1);
    assert_eq!(seen[0], Action::Touch(Square::H1), "{seen:?}");
    assert!(!seen[1..].contains(&Action::Touch(Square::H1)), "{seen:?}");
}

#[test]
fn in_a_run_of_moves_each_touch_comes_before_its_own_move_with_its_hand_s_side() {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    let mut t = 0.0;
    // The camera's first frame, the board bare (a fingertip on the first
    // frame watched arrived unseen).
    events.extend(tracker.push(&frame(t, &[], true, None)).events);
    // White's hand grips e2 and carries it; then Black's grips e7, the
    // picture never still in between (the moves follow each other fast).
    let hands = [
        (vec![Square::E2], Square::E2, Color::White),
        (
            vec![Square::E2, Square::E4, Square::E7],
            Square::E7,
            Color::Black,
        ),
    ];
    for (changed, tip, side) in hands {
        for _ in 0..4 {
            t += 0.05;
            let mut obs = frame(t, &changed, false, Some(tip));
            obs.toucher = Some(side);
            events.extend(tracker.push(&obs).events);
        }
    }
    let after = [Square::E2, Square::E4, Square::E5, Square::E7];
    for _ in 0..10 {
        t += 0.05;
        let mut obs = frame(t, &after, true, None);
        obs.occupancy[usize::from(Square::E4)] = Some(Color::White);
        obs.occupancy[usize::from(Square::E5)] = Some(Color::Black);
        events.extend(tracker.push(&obs).events);
    }
    let seen: Vec<(Action, Option<Color>)> = events.iter().map(|e| (e.action, e.side)).collect();
    assert_eq!(
        seen,
        [
            (Action::Touch(Square::E2), Some(Color::White)),
            (Action::Lift(Square::E2), None),
            (Action::Release(Square::E4), None),
            (Action::Touch(Square::E7), Some(Color::Black)),
            (Action::Lift(Square::E7), None),
            (Action::Release(Square::E5), None),
        ]
    );
    assert!(events.windows(2).all(|w| w[0].t <= w[1].t));
}

#[test]
fn both_hands_gripping_pieces_are_told_once_a_turn_as_they_happen() {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    let mut t = 0.0;
    // White castles-like with two hands: a flicker first, then held.
    for two in [true, false, true, true, true, true, true] {
        t += 0.05;
        let mut obs = frame(t, &[Square::E1], false, Some(Square::E1));
        obs.two_hands = two.then_some(Color::White);
        events.extend(tracker.push(&obs).events);
    }
    let seen: Vec<(Action, Option<Color>)> = events.iter().map(|e| (e.action, e.side)).collect();
    assert_eq!(seen, [(Action::TwoHands, Some(Color::White))]);
}

#[test]
fn two_arms_over_the_board_with_no_hand_on_a_piece_make_no_move() {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    let mut t = 0.0;
    // Two arms read along White's edge of a still picture, no fingertip.
    for _ in 0..20 {
        t += 0.1;
        let mut obs = frame(t, &[], true, None);
        obs.two_hands = Some(Color::White);
        events.extend(tracker.push(&obs).events);
    }
    assert!(
        !events.iter().any(|e| e.action == Action::TwoHands),
        "{events:?}"
    );
}

#[test]
fn a_touched_piece_left_shifted_in_its_square_was_adjusted() {
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    // The fingertip rests on e2, the picture moving…
    let mut events = rest_on(&mut tracker, &mut t, Square::E2);
    // …then e2 stays changed, still, the pawn read where it stood.
    for _ in 0..30 {
        t += 0.05;
        let mut obs = frame(t, &[Square::E2], true, None);
        obs.occupancy[usize::from(Square::E2)] = Some(Color::White);
        events.extend(tracker.push(&obs).events);
    }
    t += 0.05;
    events.extend(tracker.push(&frame(t, &[], true, None)).events);
    let actions = actions_of(&events);
    assert_eq!(actions, [Action::Adjust(Square::E2)]);
}

#[test]
fn a_touch_beside_the_piece_lifted_at_once_after_is_the_reach_for_it() {
    // The fingertip read on f2 for `dwell` frames, then e2 lifted `after`
    // seconds after it left and set down on e4.
    let read_after = |dwell: usize, after: f64| {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        let mut t = 0.0;
        // The camera's first frame: a rest is timed from the frame before.
        events.extend(tracker.push(&frame(t, &[], true, None)).events);
        for _ in 0..dwell {
            t += 0.05;
            events.extend(tracker.push(&frame(t, &[], false, Some(Square::F2))).events);
        }
        let lift = t + after;
        while t < lift {
            t += 0.05;
            events.extend(tracker.push(&frame(t, &[], false, None)).events);
        }
        for _ in 0..4 {
            t += 0.05;
            events.extend(tracker.push(&frame(t, &[Square::E2], false, None)).events);
        }
        for _ in 0..6 {
            t += 0.05;
            let mut obs = frame(t, &[Square::E2, Square::E4], true, None);
            obs.occupancy[usize::from(Square::E4)] = Some(Color::White);
            events.extend(tracker.push(&obs).events);
        }
        actions_of(&events)
    };
    let read = |after: f64| read_after(6, after);
    let moved = E4_PLAYED;
    assert_eq!(read(0.1), moved);
    // However long the fingertip stayed beside it: the reach is timed from
    // when it left (a still picture of a hand held half a second).
    assert_eq!(read_after(12, 0.3), moved);
    // A second later: the f2 pawn was touched first (art. 4.3a).
    assert_eq!(read(1.0)[0], Action::Touch(Square::F2));
    assert_eq!(read(1.0)[1..], moved);
}

#[test]
fn a_piece_set_straight_then_another_moved_is_an_adjustment_and_a_move() {
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    // The fingertip rests on d2, the picture moving…
    let mut events = rest_on(&mut tracker, &mut t, Square::D2);
    // …then g1-f3 made: d2 changed too, its pawn read where it stood.
    for _ in 0..6 {
        t += 0.05;
        let mut obs = frame(t, &[Square::D2, Square::G1, Square::F3], true, None);
        obs.occupancy[usize::from(Square::D2)] = Some(Color::White);
        obs.occupancy[usize::from(Square::F3)] = Some(Color::White);
        events.extend(tracker.push(&obs).events);
    }
    let actions = actions_of(&events);
    assert_eq!(
        actions,
        [
            Action::Adjust(Square::D2),
            Action::Lift(Square::G1),
            Action::Release(Square::F3),
        ]
    );
    // The pawn read gone from d2 instead: no adjustment explains it,
    // nothing is read.
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    for k in 0..10 {
        let t = 0.05 * f64::from(k + 1);
        let mut obs = if k < 4 {
            frame(t, &[Square::D2], false, Some(Square::D2))
        } else {
            frame(t, &[Square::D2, Square::G1, Square::F3], true, None)
        };
        obs.occupancy[usize::from(Square::F3)] = Some(Color::White);
        events.extend(tracker.push(&obs).events);
    }
    assert_eq!(events, []);
}

/// The events of d7 shifted in its square (a fingertip seen on it in
/// `glimpse` frames of the hand's four), then, after a short pause,
/// f8-c5 made, Black to move after 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O.
fn d7_shifted_then_bc5(glimpse: usize) -> Vec<Action> {
    let start = from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4");
    let mut tracker = Tracker::new(start);
    let mut events = Vec::new();
    let mut t = 0.0;
    let d7 = usize::from(Square::D7);
    for k in 0..4 {
        t += 0.05;
        let tip = (k >= 4 - glimpse).then_some(Square::D7);
        events.extend(tracker.push(&frame(t, &[Square::D7], false, tip)).events);
    }
    // Still a moment (shorter than STALE_SECONDS), the pawn where it stood…
    for _ in 0..8 {
        t += 0.05;
        let mut obs = frame(t, &[Square::D7], true, None);
        obs.occupancy[d7] = Some(Color::Black);
        events.extend(tracker.push(&obs).events);
    }
    // …then the bishop carried to c5, and the board still.
    for k in 0..12 {
        t += 0.05;
        let mut obs = frame(t, &[Square::D7, Square::F8, Square::C5], k >= 4, None);
        obs.occupancy[d7] = Some(Color::Black);
        obs.occupancy[usize::from(Square::C5)] = Some(Color::Black);
        events.extend(tracker.push(&obs).events);
    }
    actions_of(&events)
}

#[test]
fn a_piece_shifted_with_no_touch_seen_does_not_hide_the_next_move() {
    // No fingertip seen on d7: the move is read, no touch made up.
    assert_eq!(
        d7_shifted_then_bc5(0),
        [Action::Lift(Square::F8), Action::Release(Square::C5)]
    );
}

#[test]
fn a_fingertip_glimpsed_on_a_piece_then_found_shifted_was_an_adjustment() {
    // Seen on d7 two frames, fewer than a touch needs alone; the pawn
    // found shifted bears it out.
    let adjusted = [
        Action::Adjust(Square::D7),
        Action::Lift(Square::F8),
        Action::Release(Square::C5),
    ];
    assert_eq!(d7_shifted_then_bc5(2), adjusted);
    assert_eq!(d7_shifted_then_bc5(DWELL_FRAMES as usize), adjusted);
}

/// White playing e4, read with a fingertip resting on f1 from the
/// frame before the read until `after` frames after it, then the hand
/// gone; the events it made.
fn e4_with_a_fingertip_on_f1_as_it_is_read(after: usize) -> Vec<Event> {
    let e4 = |k: usize, tip| frame(0.05 * k as f64, &[Square::E2, Square::E4], true, tip);
    let mut dry = Tracker::new(Chess::default());
    let read = (0..20)
        .find(|&k| dry.push(&e4(k, None)).accept != 0)
        .expect("e4 read with no fingertip");
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    for k in 0..=read {
        let tip = (k + 1 >= read).then_some(Square::F1);
        events.extend(tracker.push(&e4(k, tip)).events);
    }
    // The picture taken again: nothing differs from it any more.
    for k in read + 1..read + after + 10 {
        let tip = (k <= read + after).then_some(Square::F1);
        events.extend(tracker.push(&frame(0.05 * k as f64, &[], true, tip)).events);
    }
    events
}

#[test]
fn a_fingertip_resting_as_the_move_is_read_is_the_mover_s_hand_leaving() {
    for after in [1, 12] {
        assert_eq!(
            actions_of(&e4_with_a_fingertip_on_f1_as_it_is_read(after)),
            E4_PLAYED,
            "{after} frames after the read"
        );
    }
}

/// At 20 frames a second on a still board, a fingertip arriving on the
/// knight on b1 (its square's picture moving on `arriving` frames), then
/// resting there `resting` frames, then gone; then e2-e4 played. The
/// actions seen.
fn fingertip_arrives_and_rests_on_b1(arriving: usize, resting: usize) -> Vec<Action> {
    frames_then_e4(arriving + resting + 6, 0.05, |k, t| {
        let tip = (k < arriving + resting).then_some(Square::B1);
        let mut obs = frame(t, &[], true, tip);
        obs.motion[usize::from(Square::B1)] = if k < arriving { 30.0 } else { 0.0 };
        obs
    })
}

#[test]
fn a_touch_is_judged_on_its_whole_contact_not_on_its_first_frames() {
    // Resting a quarter of a second after arriving: a touch, though its
    // first frames (the fingertip still arriving) did not rest.
    assert_eq!(
        fingertip_arrives_and_rests_on_b1(2, 5),
        [Action::Touch(Square::B1), E4_PLAYED[0], E4_PLAYED[1]]
    );
    // Resting a single frame: a hand passing over, no touch.
    assert_eq!(fingertip_arrives_and_rests_on_b1(3, 1), E4_PLAYED);
}

#[test]
fn a_touch_of_the_piece_just_moved_is_a_touch_of_the_piece_where_it_stands() {
    // 1. e4, then Black's fingertip rests on the pawn on e4 before 1... e5:
    // the record's position keeps 1. e4 standing until Black's reply
    // completes it, but the pawn stands on e4.
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    let mut events = settle(&mut tracker, &mut t, &[Square::E2, Square::E4]);
    for _ in 0..6 {
        t += 0.1;
        events.extend(tracker.push(&frame(t, &[], true, None)).events);
    }
    events.extend(rest_on(&mut tracker, &mut t, Square::E4));
    for _ in 0..4 {
        t += 0.1;
        events.extend(tracker.push(&frame(t, &[], false, None)).events);
    }
    events.extend(settle(&mut tracker, &mut t, &[Square::E7, Square::E5]));
    assert_eq!(
        actions_of(&events),
        [
            E4_PLAYED[0],
            E4_PLAYED[1],
            Action::Touch(Square::E4),
            Action::Lift(Square::E7),
            Action::Release(Square::E5)
        ]
    );
}
