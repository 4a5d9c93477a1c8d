//! Promotions: the piece read, in a run, exchanged before the picture is still.

use super::*;

#[test]
fn a_pawn_promotes_to_the_piece_read_and_an_exchanged_piece_is_read_too() {
    let start = from_fen("8/4P2p/8/8/8/8/k7/4K3 w - - 0 1");
    let mut tracker = Tracker::new(start);
    let mut events = Vec::new();
    let mut t = 0.0;
    let mut push = |changed: &[Square], role: Role, t: f64| {
        let mut obs = frame(t, changed, true, None);
        obs.occupancy[usize::from(Square::E8)] = Some(Color::White);
        obs.promoted[usize::from(Square::E8)] = Some(role.of(Color::White));
        tracker.push(&obs).events
    };
    // e7-e8, a queen set down…
    for _ in 0..6 {
        t += 0.05;
        events.extend(push(&[Square::E7, Square::E8], Role::Queen, t));
    }
    // …then exchanged for a knight.
    for _ in 0..6 {
        t += 0.05;
        events.extend(push(&[Square::E8], Role::Knight, t));
    }
    let actions = actions_of(&events);
    assert_eq!(
        actions,
        [
            Action::Capture(Square::E7),
            Action::Add(Square::E8, Role::Queen),
            Action::Release(Square::E8),
            Action::Capture(Square::E8),
            Action::Add(Square::E8, Role::Knight),
            Action::Release(Square::E8),
        ]
    );
}

#[test]
fn a_pawn_promoting_in_a_run_of_moves_promotes_to_the_piece_read() {
    // Black's h6 and White's e8, a rook, with no still picture between.
    let read = |role: Option<Role>| {
        let mut tracker = Tracker::new(from_fen("8/4P2p/8/8/8/8/k7/4K3 b - - 0 1"));
        let mut events = Vec::new();
        for k in 0..10 {
            let changed = [Square::H7, Square::H6, Square::E7, Square::E8];
            let mut obs = frame(0.05 * f64::from(k), &changed, true, None);
            obs.occupancy[usize::from(Square::H6)] = Some(Color::Black);
            obs.occupancy[usize::from(Square::E8)] = Some(Color::White);
            obs.promoted[usize::from(Square::E8)] = role.map(|r| r.of(Color::White));
            events.extend(tracker.push(&obs).events);
        }
        actions_of(&events)
    };
    let run = |role| {
        [
            Action::Lift(Square::H7),
            Action::Release(Square::H6),
            Action::Capture(Square::E7),
            Action::Add(Square::E8, role),
            Action::Release(Square::E8),
        ]
    };
    assert_eq!(read(Some(Role::Rook)), run(Role::Rook));
    // A queen where the eyes cannot tell.
    assert_eq!(read(None), run(Role::Queen));
}

#[test]
fn a_promoted_piece_exchanged_before_the_picture_is_still_is_read_too() {
    // A white rook stands on b8 already, read there every frame.
    let start = from_fen("1R6/4P2p/8/8/8/8/k7/4K3 w - - 0 1");
    let read = |role: Option<Role>, frames: usize| {
        let mut tracker = Tracker::new(start.clone());
        let mut events = Vec::new();
        let mut t = 0.0;
        let mut push = |role: Option<Role>, still: bool, t: f64| {
            let mut obs = frame(t, &[Square::E7, Square::E8], still, None);
            obs.occupancy[usize::from(Square::E8)] = role.map(|_| Color::White);
            obs.promoted[usize::from(Square::E8)] = role.map(|r| r.of(Color::White));
            obs.promoted[usize::from(Square::B8)] = Some(Role::Rook.of(Color::White));
            tracker.push(&obs).events
        };
        // The pawn gone, a queen read on e8 while the hand moves on…
        for _ in 0..frames {
            t += 0.05;
            events.extend(push(Some(Role::Queen), false, t));
        }
        // …the square hidden, then a knight standing there, still.
        for _ in 0..3 {
            t += 0.05;
            events.extend(push(None, false, t));
        }
        for _ in 0..6 {
            t += 0.05;
            events.extend(push(role, true, t));
        }
        events.iter().map(|e| e.action).collect::<Vec<Action>>()
    };
    assert_eq!(
        read(Some(Role::Knight), 3),
        [
            Action::Capture(Square::E7),
            Action::Add(Square::E8, Role::Queen),
            Action::Release(Square::E8),
            Action::Capture(Square::E8),
            Action::Add(Square::E8, Role::Knight),
            Action::Release(Square::E8),
        ]
    );
    // A queen glimpsed on two frames only is no choice seen.
    assert_eq!(
        read(Some(Role::Knight), 2),
        [
            Action::Capture(Square::E7),
            Action::Add(Square::E8, Role::Knight),
            Action::Release(Square::E8),
        ]
    );
    // The queen kept: one promotion.
    assert_eq!(
        read(Some(Role::Queen), 3),
        [
            Action::Capture(Square::E7),
            Action::Add(Square::E8, Role::Queen),
            Action::Release(Square::E8),
        ]
    );
}
