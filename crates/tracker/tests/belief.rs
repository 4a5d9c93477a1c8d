//! The tracker on the eyes' belief alone: a still board whose change the
//! colours' difference never shows (a dark pawn over dark squares), or
//! shows only part of, is read by likelihood over the legal continuations,
//! and a board resumed after nobody watched is recovered and marked so.

use referee_rules::{Action, Event};
use referee_tracker::{BoardBelief, Observation, Tracker};
use shakmaty::{Board, Chess, Position, Square, uci::UciMove};

/// A still frame at `t` whose belief reads `board` on every square, no
/// change seen, no hand.
fn still_reading(t: f64, board: &Board) -> Observation {
    let belief = BoardBelief::seeing(board, 0.8);
    Observation {
        t,
        changed: 0,
        scores: [0.0; 64],
        faint: 0.0,
        occupancy: [None; 64],
        detected: [None; 64],
        promoted: [None; 64],
        fingertip: None,
        toucher: None,
        at_clock: false,
        two_hands: None,
        covered: 0,
        still: true,
        motion: [0.0; 64],
        head_scores: [0.0; 64],
        head_motion: [0.0; 64],
        beyond_motion: [0.0; 64],
        belief,
    }
}

/// What 1.e4 e5 played with nothing else seen are.
const E4_E5_PLAYED: [Action; 4] = [
    Action::Lift(Square::E2),
    Action::Release(Square::E4),
    Action::Lift(Square::E7),
    Action::Release(Square::E5),
];

fn played(moves: &[&str]) -> Chess {
    let mut pos = Chess::default();
    for uci in moves {
        let m = uci
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        pos.play_unchecked(m);
    }
    pos
}

/// The events of `frames` still frames 0.1 s apart reading `board`, from `t`.
fn watch(tracker: &mut Tracker, t: &mut f64, board: &Board, frames: usize) -> Vec<Event> {
    let mut events = Vec::new();
    for _ in 0..frames {
        *t += 0.1;
        events.extend(tracker.push(&still_reading(*t, board)).events);
    }
    events
}

#[test]
fn a_move_the_change_never_shows_is_read_from_the_belief() {
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    assert!(watch(&mut tracker, &mut t, Chess::default().board(), 5).is_empty());
    let e5 = played(&["e2e4", "e7e5"]);
    let events = watch(&mut tracker, &mut t, e5.board(), 5);
    let actions: Vec<Action> = events.iter().map(|e| e.action).collect();
    assert_eq!(actions, E4_E5_PLAYED);
    assert!(events.iter().all(|e| !e.recovered), "seen as it happened");
    assert_eq!(tracker.table(), e5.board());
}

#[test]
fn moves_made_while_nobody_watched_are_recovered_and_marked() {
    let mut tracker = Tracker::resumed(Chess::default(), Chess::default().board());
    let mut t = 0.0;
    // Six plies, or seven with a piece taking two moves to its square: the
    // board alone cannot tell whose turn it is, so nothing is taken yet.
    let missed = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];
    let board = played(&missed);
    assert!(watch(&mut tracker, &mut t, board.board(), 20).is_empty());
    // White's next move tells: it was White's turn.
    let after = played(&[&missed[..], &["d2d3"]].concat());
    let events = watch(&mut tracker, &mut t, after.board(), 20);
    assert_eq!(tracker.table(), after.board());
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e.action, Action::Release(_)))
            .count(),
        7
    );
    assert!(events.iter().all(|e| e.recovered), "{events:?}");
}

#[test]
fn a_gap_in_the_frames_marks_the_move_made_in_it_recovered() {
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    watch(&mut tracker, &mut t, Chess::default().board(), 5);
    t += 3.0;
    let e4 = played(&["e2e4"]);
    let events = watch(&mut tracker, &mut t, e4.board(), 5);
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(events.iter().all(|e| e.recovered));
    // Seen again as the table, the next move is watched as it happens.
    watch(&mut tracker, &mut t, e4.board(), 5);
    let e5 = played(&["e2e4", "e7e5"]);
    let events = watch(&mut tracker, &mut t, e5.board(), 5);
    assert_eq!(events.len(), 2);
    assert!(events.iter().all(|e| !e.recovered));
}

#[test]
fn a_run_the_change_shows_only_part_of_is_read_whole_from_the_belief() {
    // The colours' difference shows 1.e4 (e2 and e4 changed, e4 read
    // White); the belief reads 1...e5 as well (a dark pawn over dark
    // squares changes them too little): both moves are read at once.
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    watch(&mut tracker, &mut t, Chess::default().board(), 5);
    let e5 = played(&["e2e4", "e7e5"]);
    let mut frame = still_reading(t, e5.board());
    frame.changed = (1 << usize::from(Square::E2)) | (1 << usize::from(Square::E4));
    frame.scores[usize::from(Square::E2)] = 50.0;
    frame.scores[usize::from(Square::E4)] = 50.0;
    frame.occupancy = std::array::from_fn(|i| e5.board().color_at(Square::new(i as u32)));
    let step = (0..10)
        .map(|_| {
            t += 0.1;
            frame.t = t;
            tracker.push(&frame)
        })
        .find(|step| !step.events.is_empty())
        .expect("a reading");
    let actions: Vec<Action> = step.events.iter().map(|e| e.action).collect();
    assert_eq!(actions, E4_E5_PLAYED);
    assert_eq!(tracker.table(), e5.board());
}
