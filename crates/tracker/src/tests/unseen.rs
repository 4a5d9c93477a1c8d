//! Moves the colours miss, read or completed by the detector.

use super::*;

/// White playing c4, still, its pawn on the light square changing it
/// only faintly and read as empty there; the clock pressed or not; the
/// actions.
fn c4_unread_by_the_colours(clock_pressed: bool) -> Vec<Action> {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    for k in 0..30 {
        let mut obs = frame(0.1 * f64::from(k), &[Square::C2, Square::C4], true, None);
        obs.faint = 20.0;
        obs.scores[usize::from(Square::C2)] = 28.0;
        obs.scores[usize::from(Square::C4)] = 19.0;
        obs.at_clock = clock_pressed && k == 10;
        events.extend(tracker.push(&obs).events);
    }
    actions_of(&events)
}

#[test]
fn a_move_the_colours_miss_is_read_once_the_clock_is_pressed() {
    // A faint change the colours do not bear out may be a shadow.
    assert_eq!(c4_unread_by_the_colours(false), []);
    assert_eq!(
        c4_unread_by_the_colours(true),
        [
            Action::Lift(Square::C2),
            Action::Release(Square::C4),
            Action::Clock
        ]
    );
}

/// White playing e4, read, then Black e5 still with only e7 seen
/// changed (the pawn on e5 changing its square too little), the
/// detector reading e7 and e6 empty and e5 as `e5_detected`, but unsure
/// of those in `unsure`; the clock pressed or not; the actions after e4.
fn e5_seen_only_by_the_detector(
    e5_detected: Option<Color>,
    unsure: &[Square],
    clock_pressed: bool,
) -> Vec<Action> {
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    assert_eq!(
        settle(&mut tracker, &mut t, &[Square::E2, Square::E4]).len(),
        2
    );
    let mut events = Vec::new();
    for k in 0..30 {
        t += 0.1;
        let mut obs = frame(t, &[Square::E7], true, None);
        obs.faint = 0.5;
        obs.detected[usize::from(Square::E7)] = Some(None);
        obs.detected[usize::from(Square::E6)] = Some(None);
        obs.detected[usize::from(Square::E5)] = Some(e5_detected);
        for sq in unsure {
            obs.detected[usize::from(*sq)] = None;
        }
        obs.at_clock = clock_pressed && k == 10;
        events.extend(tracker.push(&obs).events);
    }
    actions_of(&events)
}

#[test]
fn a_move_half_seen_is_completed_by_the_detector_once_the_clock_is_pressed() {
    let e5 = [
        Action::Lift(Square::E7),
        Action::Release(Square::E5),
        Action::Clock,
    ];
    assert_eq!(
        e5_seen_only_by_the_detector(Some(Color::Black), &[], true),
        e5
    );
    // Not before the press, nor with the detector reading e5 empty.
    assert_eq!(
        e5_seen_only_by_the_detector(Some(Color::Black), &[], false),
        []
    );
    assert_eq!(e5_seen_only_by_the_detector(None, &[], true), []);
    // Unsure of e5 but sure the pawn left e7 and did not stop on e6:
    // the one legal move left.
    assert_eq!(e5_seen_only_by_the_detector(None, &[Square::E5], true), e5);
    // Not when unsure the pawn left, or of e6 as well (two moves fit).
    let unsure_of = |squares: &[Square]| e5_seen_only_by_the_detector(None, squares, true);
    assert_eq!(unsure_of(&[Square::E5, Square::E7]), []);
    assert_eq!(unsure_of(&[Square::E5, Square::E6]), []);
}

/// The detector's reading of `board`, sure of every square but those
/// of `unsure`, with `misread` read empty.
fn detected_on(board: &Board, unsure: u64, misread: Option<Square>) -> [Option<Option<Color>>; 64] {
    let mut detected = [None; 64];
    for sq in squares_in(!unsure) {
        detected[usize::from(sq)] = Some(colour_on(board, sq).filter(|_| Some(sq) != misread));
    }
    detected
}

/// A tracker that has read White's e4 and its press of the clock, and
/// the time then.
fn e4_read_and_clocked() -> (Tracker, f64) {
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    settle(&mut tracker, &mut t, &[Square::E2, Square::E4]);
    t += 0.05;
    let mut press = frame(t, &[], true, None);
    press.at_clock = true;
    assert_eq!(actions_of(&tracker.push(&press).events), [Action::Clock]);
    (tracker, t)
}

/// White's e4 read and clocked; then Black's e5 made with neither
/// square seen to change (as a light piece between light squares in a
/// bright light), the detector reading the board after it (unsure of
/// `unsure`, `misread` read empty), the clock pressed or not. The
/// actions after e4's press.
fn e5_unseen_by_the_colours(
    clock_pressed: bool,
    unsure: u64,
    misread: Option<Square>,
) -> Vec<Action> {
    let (mut tracker, mut t) = e4_read_and_clocked();
    let after_e5 = from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let mut events = Vec::new();
    for k in 0..30 {
        t += 0.1;
        let mut obs = frame(t, &[], true, None);
        obs.at_clock = clock_pressed && k == 10;
        if tracker.asks_detector() {
            obs.detected = detected_on(after_e5.board(), unsure, misread);
        }
        events.extend(tracker.push(&obs).events);
    }
    actions_of(&events)
}

#[test]
fn a_move_the_colours_never_see_is_read_by_the_detector_once_the_clock_is_pressed() {
    assert_eq!(
        e5_unseen_by_the_colours(true, 0, None),
        [
            Action::Lift(Square::E7),
            Action::Release(Square::E5),
            Action::Clock
        ]
    );
    // Not without a press; not when the detector misreads one square
    // beyond the move's, or is unsure of one of the move's, or of a
    // quarter of the board.
    assert_eq!(e5_unseen_by_the_colours(false, 0, None), []);
    assert_eq!(e5_unseen_by_the_colours(true, 0, Some(Square::A2)), []);
    assert_eq!(
        e5_unseen_by_the_colours(true, bits(&[Square::E7]), None),
        []
    );
    let first_three_ranks = Bitboard::from_rank(Rank::First)
        | Bitboard::from_rank(Rank::Second)
        | Bitboard::from_rank(Rank::Third);
    assert_eq!(
        e5_unseen_by_the_colours(true, first_three_ranks.0, None),
        []
    );
}

/// White's e4 read and clocked; Black's e5 made unseen by the colours
/// and its press of the clock missed; then White's Nf3 seen, no hand in
/// view, the detector reading the board after both on its first `right`
/// frames and with `misread` read empty on the others. The actions
/// after e4's press.
fn e5_unseen_then_nf3(right: usize, misread: Option<Square>) -> Vec<Action> {
    let (mut tracker, mut t) = e4_read_and_clocked();
    let after_nf3 = from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    let mut events = Vec::new();
    for k in 0..10 {
        t += 0.1;
        let mut obs = frame(t, &[Square::G1, Square::F3], true, None);
        let misread = if k < right { None } else { misread };
        obs.detected = detected_on(after_nf3.board(), 0, misread);
        events.extend(tracker.push(&obs).events);
    }
    actions_of(&events)
}

#[test]
fn a_move_the_colours_never_see_is_read_by_the_detector_when_the_next_needs_it() {
    let both = [
        Action::Lift(Square::E7),
        Action::Release(Square::E5),
        Action::Lift(Square::G1),
        Action::Release(Square::F3),
    ];
    assert_eq!(e5_unseen_then_nf3(10, None), both);
    // Not when the detector misreads a square beyond the two moves'.
    assert_eq!(e5_unseen_then_nf3(0, Some(Square::A2)), []);
    // With no hand in view it is read from the first still frames,
    // where the detector may be surer than on the later ones (a light
    // piece on a light square, read empty from the fourth frame on).
    assert_eq!(e5_unseen_then_nf3(3, Some(Square::E5)), both);
    assert_eq!(e5_unseen_then_nf3(0, Some(Square::E5)), []);
}
