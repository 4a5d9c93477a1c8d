//! Moves read from still changes: single moves, runs, castling, relocations, the clock, hands resting over the board.

use super::*;

#[test]
fn a_hand_at_the_clock_presses_it_after_the_move_it_ends() {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    let mut t = 0.0;
    let mut push = |changed: &[Square], still: bool, at_clock: bool, t: f64| {
        let mut obs = frame(t, changed, still, None);
        obs.at_clock = at_clock;
        tracker.push(&obs).events
    };
    // e2-e4 made, the hand goes to the clock before the board is read…
    for _ in 0..3 {
        t += 0.05;
        events.extend(push(&[Square::E2, Square::E4], false, true, t));
    }
    for _ in 0..6 {
        t += 0.05;
        events.extend(push(&[Square::E2, Square::E4], true, false, t));
    }
    // …then Black's hand at the clock with no move made: no press.
    for _ in 0..3 {
        t += 0.05;
        events.extend(push(&[], true, true, t));
    }
    let actions = actions_of(&events);
    assert_eq!(
        actions,
        [
            Action::Lift(Square::E2),
            Action::Release(Square::E4),
            Action::Clock
        ]
    );
    assert!(events.windows(2).all(|w| w[0].t <= w[1].t));
}

#[test]
fn a_piece_moved_where_it_may_not_go_and_clocked_is_read_then_put_back() {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    let mut t = 0.0;
    let mut push =
        |changed: &[Square], still: bool, at_clock: bool, white_on: &[Square], t: f64| {
            let mut obs = frame(t, changed, still, None);
            obs.at_clock = at_clock;
            for sq in white_on {
                obs.occupancy[usize::from(*sq)] = Some(Color::White);
            }
            tracker.push(&obs).events
        };
    // Ng1-g3 (no such move), still, then the clock pressed.
    let moved = [Square::G1, Square::G3];
    for _ in 0..4 {
        t += 0.05;
        events.extend(push(&moved, true, false, &[Square::G3], t));
    }
    assert!(
        events.is_empty(),
        "no legal move: nothing read without the clock"
    );
    t += 0.05;
    events.extend(push(&moved, false, true, &[Square::G3], t));
    for _ in 0..4 {
        t += 0.05;
        events.extend(push(&moved, true, false, &[Square::G3], t));
    }
    // The knight put back on g1: the change from the accepted picture.
    for _ in 0..4 {
        t += 0.05;
        events.extend(push(&moved, true, false, &[Square::G1], t));
    }
    let actions = actions_of(&events);
    assert_eq!(
        actions,
        [
            Action::Lift(Square::G1),
            Action::Release(Square::G3),
            Action::Clock,
            Action::Lift(Square::G3),
            Action::Release(Square::G1),
        ]
    );
    assert!(events.windows(2).all(|w| w[0].t <= w[1].t));
}

#[test]
fn the_reply_moved_where_it_may_not_go_is_the_opponent_s_and_completes_the_move_before() {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    let mut t = 0.0;
    let mut push = |changed: &[Square], still: bool, at_clock: bool, t: f64| {
        let mut obs = frame(t, changed, still, None);
        obs.at_clock = at_clock;
        obs.occupancy[usize::from(Square::E4)] = Some(Color::White);
        obs.occupancy[usize::from(Square::B6)] = Some(Color::Black);
        tracker.push(&obs).events
    };
    // 1. e4, read (standing on the table until Black replies).
    for _ in 0..6 {
        t += 0.05;
        events.extend(push(&[Square::E2, Square::E4], true, false, t));
    }
    // Nb8-b6 (no such move), the clock pressed, the board still.
    let moved = [Square::B8, Square::B6];
    t += 0.05;
    events.extend(push(&moved, false, true, t));
    for _ in 0..10 {
        t += 0.05;
        events.extend(push(&moved, true, false, t));
    }
    let actions = actions_of(&events);
    assert_eq!(
        actions,
        [
            Action::Lift(Square::E2),
            Action::Release(Square::E4),
            Action::Lift(Square::B8),
            Action::Release(Square::B6),
            Action::Clock,
        ]
    );
    // The record has 1. e4 played: Black was to move.
    assert_eq!(tracker.position().turn(), Color::Black);
}

#[test]
fn a_faint_change_like_a_move_is_one_only_where_the_colours_bear_it_out() {
    // g1 and f3 changed faintly (an arm's shadow coming in), still.
    let read = |g1: Option<Color>, f3: Option<Color>| {
        let mut tracker = Tracker::new(Chess::default());
        let mut events = Vec::new();
        for k in 0..8 {
            let mut obs = frame(
                0.05 * f64::from(k + 1),
                &[Square::G1, Square::F3],
                true,
                None,
            );
            obs.faint = 2.0;
            obs.occupancy[usize::from(Square::G1)] = g1;
            obs.occupancy[usize::from(Square::F3)] = f3;
            events.extend(tracker.push(&obs).events);
        }
        events.iter().map(|e| e.action).collect::<Vec<Action>>()
    };
    let white = Some(Color::White);
    // The knight still read on g1, f3 empty: a shadow, no move.
    assert_eq!(read(white, None), []);
    // A sleeve read on f3, the knight still on g1: no move either.
    assert_eq!(read(white, white), []);
    // g1 read empty and a white piece on f3: Ng1-f3.
    assert_eq!(
        read(None, white),
        [Action::Lift(Square::G1), Action::Release(Square::F3)]
    );
}

#[test]
fn a_hand_resting_over_the_changed_squares_holds_the_move_until_it_leaves() {
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    // e2-e4 made, the picture still, the hand resting over e4.
    for _ in 0..10 {
        t += 0.05;
        let mut obs = frame(t, &[Square::E2, Square::E4], true, None);
        obs.covered = 1 << usize::from(Square::E4) | 1 << usize::from(Square::E3);
        assert!(
            tracker.push(&obs).events.is_empty(),
            "read under the hand at {t}"
        );
    }
    // The hand gone: read.
    let mut events = Vec::new();
    for _ in 0..6 {
        t += 0.05;
        events.extend(
            tracker
                .push(&frame(t, &[Square::E2, Square::E4], true, None))
                .events,
        );
    }
    assert_eq!(actions_of(&events), E4_PLAYED);
}

#[test]
fn a_brief_change_or_a_resting_hand_makes_no_move() {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    // Two still frames with e2 and e4 changed, then gone.
    for k in 0..2 {
        events.extend(
            tracker
                .push(&frame(
                    0.05 * f64::from(k),
                    &[Square::E2, Square::E4],
                    true,
                    None,
                ))
                .events,
        );
    }
    // A hand resting still over d2, d3 and d4: no legal move changes those.
    for k in 0..10 {
        events.extend(
            tracker
                .push(&frame(
                    0.2 + 0.05 * f64::from(k),
                    &[Square::D2, Square::D3, Square::D4],
                    true,
                    None,
                ))
                .events,
        );
    }
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn moves_made_without_a_pause_are_untangled_in_the_order_seen() {
    let start = Chess::default();
    let mut after = start.clone();
    let mut first_changed = [None; 64];
    for (k, uci) in ["e2e4", "e7e5", "d1h5", "b8c6"].into_iter().enumerate() {
        let m = uci
            .parse::<shakmaty::uci::UciMove>()
            .expect("uci")
            .to_move(&after)
            .expect("legal");
        for sq in [m.from().expect("from"), m.to()] {
            first_changed[usize::from(sq)].get_or_insert(k as f64);
        }
        after.play_unchecked(m);
    }
    let changed = board_difference(start.board(), after.board());
    let moves = explain_sequence(
        &start,
        &ChangeSet::exact(changed),
        &first_changed,
        &[None; 64],
    )
    .expect("explained");
    let ucis: Vec<String> = moves
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect();
    assert_eq!(ucis, ["e2e4", "e7e5", "d1h5", "b8c6"]);
}

#[test]
fn castling_begun_with_the_rook_is_told_as_it_happened() {
    let start = from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    let mut tracker = Tracker::new(start.clone());
    let mut t = 0.0;
    let mut events = settle(&mut tracker, &mut t, &[Square::H1, Square::F1]);
    events.extend(settle(&mut tracker, &mut t, &[Square::E1, Square::G1]));
    let actions = actions_of(&events);
    assert_eq!(
        actions,
        [
            Action::Lift(Square::H1),
            Action::Release(Square::F1),
            Action::Lift(Square::E1),
            Action::Release(Square::G1)
        ]
    );
    let mut referee = referee_rules::Referee::new(start, referee_rules::pgn::Tags::default());
    for event in &events {
        referee.apply(event).expect("consistent");
    }
    referee.finish();
    let verdict = referee.verdict();
    assert_eq!(verdict.moves[0].san, "O-O");
    assert_eq!(verdict.incidents[0].article, "4.4b");
}

#[test]
fn the_reply_is_preferred_to_the_mover_going_on() {
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    let first = settle(&mut tracker, &mut t, &[Square::E2, Square::E4]);
    assert_eq!(first.len(), 2);
    // e7 and e5 change next: Black's reply, not White's pawn going on.
    let reply = settle(&mut tracker, &mut t, &[Square::E7, Square::E5]);
    let actions: Vec<Action> = reply.iter().map(|e| e.action).collect();
    assert_eq!(
        actions,
        [Action::Lift(Square::E7), Action::Release(Square::E5)]
    );
    assert_eq!(
        tracker.position().turn(),
        shakmaty::Color::Black,
        "e4 completed, e5 stands"
    );
}

#[test]
fn a_run_is_read_only_when_the_colours_bear_it_out() {
    let run = [Square::E2, Square::E4, Square::E7, Square::E5];
    let still = |occupancy: [Option<Color>; 64]| {
        let mut tracker = Tracker::new(Chess::default());
        let mut moves = 0;
        for k in 0..12 {
            let mut obs = frame(0.05 * f64::from(k), &run, true, None);
            obs.occupancy = occupancy;
            moves += tracker.push(&obs).events.len();
        }
        moves
    };
    let mut seen: [Option<Color>; 64] = [None; 64];
    for (sq, piece) in Chess::default().board().iter() {
        seen[usize::from(sq)] = Some(piece.color);
    }
    seen[usize::from(Square::E2)] = None;
    seen[usize::from(Square::E7)] = None;
    seen[usize::from(Square::E4)] = Some(Color::White);
    seen[usize::from(Square::E5)] = Some(Color::Black);
    assert_eq!(still(seen), 4, "e4 e5: two lifts, two releases");
    // An arm lying there: e5 reads as White's, not the pawn Black would have put.
    seen[usize::from(Square::E5)] = Some(Color::White);
    assert_eq!(still(seen), 0);
}

#[test]
fn castling_changes_four_squares_and_en_passant_three() {
    let pos = from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
    let exact = |squares: &[Square]| ChangeSet::exact(bits(squares));
    let castle = explain(
        &pos,
        &exact(&[Square::E1, Square::F1, Square::G1, Square::H1]),
    )
    .expect("O-O");
    assert!(castle.is_castle());
    let ep = explain(&pos, &exact(&[Square::E5, Square::D6, Square::D5])).expect("exd6");
    assert!(ep.is_en_passant());
    assert!(
        explain(&pos, &exact(&[Square::E1, Square::G1])).is_none(),
        "half a castling is no move"
    );
    // A weak change beside the strong ones (a shadow) does not hide the move.
    let mut shadowed = exact(&[Square::E1, Square::F1, Square::G1, Square::H1, Square::F2]);
    shadowed.scores[usize::from(Square::F2)] = 0.3;
    assert!(explain(&pos, &shadowed).is_some_and(|m| m.is_castle()));
}

/// e2-e4 standing still while every other frame moves, the motion
/// changing `elsewhere` too; the events the tracker gives.
fn e4_with_motion_at(elsewhere: Square) -> Vec<Event> {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    for k in 0..6 {
        let t = 0.1 * f64::from(k);
        let moving = k % 2 == 1;
        let squares: &[Square] = if moving {
            &[Square::E2, Square::E4, elsewhere]
        } else {
            &[Square::E2, Square::E4]
        };
        events.extend(tracker.push(&frame(t, squares, !moving, None)).events);
    }
    events
}

#[test]
fn a_hand_at_the_clock_does_not_hold_up_a_move() {
    // The other hand crosses the board's far corner to the clock.
    assert_eq!(e4_with_motion_at(Square::H8).len(), 2);
    // The motion beside the move's squares: a hand still there.
    assert!(e4_with_motion_at(Square::E5).is_empty());
}

#[test]
fn a_move_read_with_the_hand_still_over_it_is_looked_at_again() {
    let mut tracker = Tracker::new(Chess::default());
    let mut t = 0.0;
    assert_eq!(
        settle(&mut tracker, &mut t, &[Square::E2, Square::E4]).len(),
        2
    );
    // The picture of e4 was taken with the hand there: e4 still differs,
    // though it shows White's pawn as the table says; d7 differs too.
    let mut seen: [Option<Color>; 64] = [None; 64];
    seen[usize::from(Square::E4)] = Some(Color::White);
    seen[usize::from(Square::D7)] = Some(Color::Black);
    let mut accepted = 0;
    for _ in 0..10 {
        t += 0.05;
        let mut obs = frame(t, &[Square::E4, Square::D7], true, None);
        obs.occupancy = seen;
        accepted |= tracker.push(&obs).accept;
    }
    assert_eq!(accepted, bits(&[Square::E4]), "e4 taken again, d7 left");
}

/// A hand gripping the e2 pawn, still a moment and unseen, changing e2
/// and e3 strongly: the colours read the pawn on e2 and `e3_colour` on
/// e3, the detector the pawn on e2 and nothing sure on e3. Then e4
/// played, the hand gone. The actions.
fn e2_gripped_then_e4(e3_colour: Option<Color>) -> Vec<Action> {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    for k in 0..10 {
        let mut obs = frame(0.05 * f64::from(k), &[Square::E2, Square::E3], true, None);
        obs.occupancy[usize::from(Square::E2)] = Some(Color::White);
        obs.occupancy[usize::from(Square::E3)] = e3_colour;
        obs.detected[usize::from(Square::E2)] = Some(Some(Color::White));
        events.extend(tracker.push(&obs).events);
    }
    let mut t = 0.5;
    let mut obs = frame(t, &[Square::E2, Square::E4], true, None);
    obs.occupancy[usize::from(Square::E4)] = Some(Color::White);
    for _ in 0..8 {
        t += 0.05;
        obs.t = t;
        events.extend(tracker.push(&obs).events);
    }
    actions_of(&events)
}

#[test]
fn a_hand_gripping_a_piece_still_a_moment_is_no_move() {
    // Both pairs of eyes read the pawn where it stood.
    assert_eq!(e2_gripped_then_e4(None), E4_PLAYED);
    // The hand's skin over e3 reads as a white piece to the colours;
    // the detector, sure of e2, still reads the pawn there.
    assert_eq!(e2_gripped_then_e4(Some(Color::White)), E4_PLAYED);
}

#[test]
fn a_square_flickering_faintly_does_not_hold_up_a_move() {
    let mut tracker = Tracker::new(Chess::default());
    let mut events = Vec::new();
    // e2-e4 still, d3 beside it flickering faintly every other frame.
    for k in 0..8 {
        let t = 0.05 * f64::from(k + 1);
        let flicker: &[Square] = if k % 2 == 0 { &[] } else { &[Square::D3] };
        let changed = [&[Square::E2, Square::E4][..], flicker].concat();
        let mut obs = frame(t, &changed, true, None);
        obs.faint = 0.2;
        obs.scores[usize::from(Square::D3)] = 0.1;
        obs.occupancy[usize::from(Square::E4)] = Some(Color::White);
        events.extend(tracker.push(&obs).events);
    }
    assert_eq!(actions_of(&events), E4_PLAYED);
}

#[test]
fn a_faint_residue_beside_a_faint_move_does_not_hide_it() {
    // A white pawn set on a light square changes it little; the square a
    // piece was set down on a little off still shows a residue.
    let mut change = ChangeSet::exact(bits(&[Square::E2, Square::E4, Square::D7]));
    change.faint = 20.0;
    change.scores[usize::from(Square::E2)] = 37.0;
    change.scores[usize::from(Square::E4)] = 25.0;
    change.scores[usize::from(Square::D7)] = 14.0;
    let m = explain(&Chess::default(), &change).expect("e4");
    assert_eq!(m.to(), Square::E4);
    // A hand beside it is no residue.
    change.scores[usize::from(Square::D7)] = 45.0;
    assert!(explain(&Chess::default(), &change).is_none());
}

/// After 5.Bf4 in Byrne-Fischer, the queen's square d1 reads changed and
/// empty to the colours (its accepted picture taken with an arm over it);
/// Black plays d7-d5, the hand crosses the board to the clock and presses
/// it, and the picture is still again. The whole board shows the legal
/// move: it is read, and no piece is taken for one moved where it may not
/// go (art. 7.5).
#[test]
fn a_stale_square_beside_a_legal_move_clocked_at_once_is_no_illegal_move() {
    let start = from_fen("rnbq1rk1/ppppppbp/5np1/8/2PP1B2/2N2N2/PP2PPPP/R2QKB1R b KQ - 3 5");
    let mut tracker = Tracker::new(start.clone());
    let mut played = start;
    let d5 = shakmaty::uci::UciMove::from_ascii(b"d7d5")
        .expect("uci")
        .to_move(&played)
        .expect("legal");
    played.play_unchecked(d5);
    let mut events = Vec::new();
    let mut t = 0.0;
    let mut push = |still: bool, at_clock: bool, t: f64| {
        let mut obs = frame(t, &[Square::D1, Square::D5, Square::D7], still, None);
        obs.at_clock = at_clock;
        obs.faint = 20.0;
        for (sq, score) in [
            (Square::D1, 131.0),
            (Square::D5, 121.0),
            (Square::D7, 114.0),
        ] {
            obs.scores[usize::from(sq)] = score;
        }
        for sq in squares_in(played.board().occupied().0) {
            obs.occupancy[usize::from(sq)] = played.board().color_at(sq);
        }
        obs.occupancy[usize::from(Square::D1)] = None;
        obs.belief = BoardBelief::seeing(played.board(), 0.98);
        tracker.push(&obs).events
    };
    for (still, at_clock) in [(false, false), (true, false), (false, false), (false, true)] {
        t += 0.2;
        events.extend(push(still, at_clock, t));
    }
    for _ in 0..4 {
        t += 0.2;
        events.extend(push(true, false, t));
    }
    let actions = actions_of(&events);
    assert_eq!(
        actions,
        [
            Action::Lift(Square::D7),
            Action::Release(Square::D5),
            Action::Clock
        ]
    );
}

/// 1.e4 e5 appear at once on a still picture; `dropped`: half a second of
/// frames was lost just before. Whether the events read are marked
/// recovered.
fn a_run_read_marked(dropped: bool) -> Vec<bool> {
    let mut tracker = Tracker::new(Chess::default());
    let mut played = Chess::default();
    for uci in ["e2e4", "e7e5"] {
        let m = shakmaty::uci::UciMove::from_ascii(uci.as_bytes())
            .expect("uci")
            .to_move(&played)
            .expect("legal");
        played.play_unchecked(m);
    }
    let moved = [Square::E2, Square::E4, Square::E7, Square::E5];
    let mut events = Vec::new();
    let mut t = 0.0;
    for _ in 0..10 {
        t += 0.1;
        tracker.push(&frame(t, &[], true, None));
    }
    t += if dropped { 0.5 } else { 0.1 };
    for _ in 0..8 {
        let mut obs = frame(t, &moved, true, None);
        obs.occupancy[usize::from(Square::E4)] = Some(Color::White);
        obs.occupancy[usize::from(Square::E5)] = Some(Color::Black);
        events.extend(tracker.push(&obs).events);
        t += 0.1;
    }
    assert_eq!(
        actions_of(&events),
        [
            Action::Lift(Square::E2),
            Action::Release(Square::E4),
            Action::Lift(Square::E7),
            Action::Release(Square::E5)
        ]
    );
    events.iter().map(|e| e.recovered).collect()
}

#[test]
fn a_run_of_moves_read_after_frames_were_dropped_is_marked_recovered() {
    assert_eq!(a_run_read_marked(true), [true; 4], "its order was not seen");
    assert_eq!(a_run_read_marked(false), [false; 4]);
}

/// A game's frames as the tracker's eyes give them, `interval` seconds
/// apart, and the events the tracker made of them.
struct Footage {
    tracker: Tracker,
    t: f64,
    interval: f64,
    events: Vec<Event>,
    gaps: Vec<Gap>,
}

impl Footage {
    fn new(tracker: Tracker, interval: f64) -> Self {
        Self {
            tracker,
            t: 0.0,
            interval,
            events: Vec::new(),
            gaps: Vec::new(),
        }
    }

    /// One frame of `board`: still, or with a hand moving over `moving`
    /// (the board under it unread).
    fn show(&mut self, board: &Board, moving: Bitboard) {
        self.show_as(board, moving, |_| {});
    }

    /// [`Self::show`], the eyes' observation as `seen` leaves it.
    fn show_as(&mut self, board: &Board, moving: Bitboard, seen: impl Fn(&mut Observation)) {
        self.t += self.interval;
        let changed: Vec<Square> =
            squares_in(board_difference(self.tracker.table(), board)).collect();
        let mut obs = frame(self.t, &changed, moving.is_empty(), None);
        for sq in Square::ALL {
            obs.occupancy[usize::from(sq)] = board.color_at(sq);
        }
        for sq in moving {
            obs.motion[usize::from(sq)] = 40.0;
        }
        if moving.is_empty() {
            obs.belief = BoardBelief::seeing(board, 0.9);
        }
        seen(&mut obs);
        let step = self.tracker.push(&obs);
        self.events.extend(step.events);
        self.gaps.extend(step.gap);
    }

    /// `still` still frames of `board`.
    fn still(&mut self, board: &Board, still: usize) {
        for _ in 0..still {
            self.show(board, Bitboard::EMPTY);
        }
    }

    /// `uci` played on from `played` (a hand over its two squares for one
    /// frame), then `still` still frames of the board it leaves.
    fn play<'a>(&mut self, played: &mut Vec<&'a str>, uci: &'a str, still: usize) {
        played.push(uci);
        let board = after(played).board().clone();
        self.show(&board, squares_of(uci).into_iter().collect());
        self.still(&board, still);
    }
}

/// The squares a move (UCI) goes from and to.
fn squares_of(uci: &str) -> [Square; 2] {
    let square = |at: &str| at.parse::<Square>().expect("square");
    [square(&uci[..2]), square(&uci[2..4])]
}

/// The lift and release of each of `moves` (UCI, none a capture), in order.
fn lifted_and_released(moves: &[&str]) -> Vec<Action> {
    moves
        .iter()
        .flat_map(|uci| {
            let [from, to] = squares_of(uci);
            [Action::Lift(from), Action::Release(to)]
        })
        .collect()
}

#[test]
fn frames_far_apart_read_the_way_the_next_move_tells_not_the_change_from_the_table() {
    // 4... Bb4 5. Nd5 Bc5 6. Nc3, frames 0.2 s apart, a still moment
    // only after 5... Bc5 (two ways to it: 4... Bc5 5. Nd5 with Black to
    // move, or through b4 with White to move). Against the table, the
    // board after 6. Nc3 shows only the bishop from f8 to c5: 4... Bc5
    // alone, with White to move, the turn wrong and nothing told.
    let opening = ["c2c4", "g8f6", "b1c3", "e7e5", "g1f3", "b8c6", "g2g3"];
    let mut footage = Footage::new(Tracker::new(after(&opening)), 0.2);
    let mut played = opening.to_vec();
    footage.still(after(&played).board(), 4);
    for (uci, still) in [("f8b4", 0), ("c3d5", 0), ("b4c5", 3), ("d5c3", 6)] {
        footage.play(&mut played, uci, still);
    }
    assert_eq!(
        actions_of(&footage.events),
        lifted_and_released(&played[opening.len()..])
    );
}

#[test]
fn a_piece_moved_on_beside_the_reply_between_two_still_frames_is_read_as_both_moves() {
    // 4... Bb4 read, White yet to reply; 5. Nd5 Bc5 between two still
    // frames 0.3 s apart (the rate a loaded service referees at), the
    // knight's squares changing half as much as the bishop's and c3 still
    // reading white. The colours alone read the bishop moved on from f8
    // to c5 in the same turn and the knight shifted in its square: 5. Nd5
    // lost, then Black's bishop taken for an adjustment and every move
    // after for a touch out of turn. The whole board reads both moves.
    let opening = ["c2c4", "g8f6", "b1c3", "e7e5", "g1f3", "b8c6", "g2g3"];
    let mut footage = Footage::new(Tracker::new(after(&opening)), 0.3);
    let mut played = opening.to_vec();
    footage.still(after(&played).board(), 4);
    footage.play(&mut played, "f8b4", 6);
    played.extend(["c3d5", "b4c5"]);
    let board = after(&played).board().clone();
    let moved = [Square::C3, Square::D5, Square::B4, Square::C5];
    footage.show(&board, moved.into_iter().collect());
    let changed_less = |obs: &mut Observation| {
        obs.faint = 20.0;
        for (sq, score) in moved.into_iter().zip([63.0, 53.0, 121.0, 120.0]) {
            obs.scores[usize::from(sq)] = score;
        }
        obs.occupancy[usize::from(Square::C3)] = Some(Color::White);
    };
    for _ in 0..6 {
        footage.show_as(&board, Bitboard::EMPTY, changed_less);
    }
    assert_eq!(
        actions_of(&footage.events),
        lifted_and_released(&["f8b4", "c3d5", "b4c5"])
    );
}

#[test]
fn moves_made_while_nobody_watched_are_read_marked_and_the_turn_kept() {
    // Watched again (a camera reconnected) after 4... Bb4 5. Nd5 Bc5,
    // frames 0.3 s apart: a board two ways reach, either side to move;
    // 6. e3 tells it was White's turn.
    let opening = ["c2c4", "g8f6", "b1c3", "e7e5", "g1f3", "b8c6", "g2g3"];
    let unseen = ["f8b4", "c3d5", "b4c5"];
    let mut played = [&opening[..], &unseen[..]].concat();
    let tracker = Tracker::resumed(after(&opening), after(&played).board());
    let mut footage = Footage::new(tracker, 0.3);
    footage.still(after(&played).board(), 6);
    for uci in ["e2e3", "e8g8", "a2a3", "e5e4"] {
        footage.play(&mut played, uci, 6);
    }
    let lifts: Vec<(Square, bool)> = footage
        .events
        .iter()
        .filter_map(|e| match e.action {
            Action::Lift(sq) => Some((sq, e.recovered)),
            _ => None,
        })
        .collect();
    // The bishop's way (by a3, b4, d6 or e7) and 6. e3, read from a
    // board the colours alone show, are marked; the moves seen are not.
    assert_eq!(
        lifts,
        [
            (Square::F8, true),
            (Square::C3, true),
            (lifts[2].0, true),
            (Square::E2, true),
            (Square::E8, false),
            (Square::H8, false),
            (Square::A2, false),
            (Square::E5, false),
        ]
    );
    assert!(footage.gaps.is_empty(), "the next move told the turn");
}

#[test]
fn a_fingertip_already_on_a_piece_as_the_eyes_open_touches_nothing() {
    // Watched again after 2. Nf3, unseen, with a fingertip resting on h7
    // from the first frame (a hand on its way to the clock): when it
    // arrived, and before which move, nobody saw. Then 2... Nc6.
    let opening = ["e2e4", "e7e5"];
    let unseen = [&opening[..], &["g1f3"]].concat();
    let touches_of = |tracker: Tracker, bare_first: bool| {
        let mut footage = Footage::new(tracker, 0.1);
        let board = after(&unseen).board().clone();
        if bare_first {
            footage.still(&board, 1);
        }
        for _ in 0..5 {
            footage.show_as(&board, Bitboard::EMPTY, |obs| {
                obs.fingertip = Some(Square::H7);
                obs.scores[usize::from(Square::H7)] += 2.0 * REST_RISE;
            });
        }
        footage.still(&board, 10);
        footage.play(&mut unseen.clone(), "b8c6", 10);
        let touched: Vec<Action> = footage
            .events
            .iter()
            .map(|e| e.action)
            .filter(|a| matches!(a, Action::Touch(_)))
            .collect();
        (
            touched,
            actions_of(&footage.events).contains(&Action::Lift(Square::B8)),
        )
    };
    let resumed = || Tracker::resumed(after(&opening), after(&opening).board());
    assert_eq!(touches_of(resumed(), false), (vec![], true));
    // On a game's first frame too: a piece the detector takes for a
    // fingertip there (a queen's crown) looks the same on every frame.
    assert_eq!(
        touches_of(Tracker::new(after(&unseen)), false),
        (vec![], true)
    );
    // Seen arriving, the same fingertip is a touch.
    let touch = (vec![Action::Touch(Square::H7)], true);
    assert_eq!(touches_of(Tracker::new(after(&unseen)), true), touch);
}

#[test]
fn a_move_never_shown_still_before_the_stream_ends_raises_a_gap() {
    // 2 frames a second, below the service's floor: 1. e4 made, then on
    // every frame something moves on the board (a hand leaving it, at
    // the clock) until the stream ends 1.5 s later. No still frame ever
    // showed the move: the record stops short of the board, for the
    // arbiter to look.
    let ended_after = |board: &Board| {
        let mut footage = Footage::new(Tracker::new(Chess::default()), 0.5);
        footage.still(Chess::default().board(), 4);
        for _ in 0..4 {
            footage.show(board, Bitboard::from(Square::H1));
        }
        let step = footage.tracker.left_open(footage.t);
        (actions_of(&step.events), step.gap)
    };
    let (read, gap) = ended_after(after(&["e2e4"]).board());
    assert_eq!(read, []);
    let gap = gap.expect("a gap raised");
    assert_eq!(
        gap.squares,
        Bitboard::from(Square::E2) | Bitboard::from(Square::E4)
    );
    // Nothing changed on the board: nothing to look at.
    assert_eq!(ended_after(Chess::default().board()), (vec![], None));
}

#[test]
fn a_stream_that_ends_on_moves_no_way_could_be_told_for_raises_a_gap() {
    // 1. e2 left empty, the pawn's square unseen (e3 and e4 tell nothing):
    // e3 or e4 alike to the eyes, and the stream ends before the board
    // told which. The record stops short of the board, for the arbiter.
    let mut footage = Footage::new(Tracker::new(Chess::default()), 0.1);
    footage.still(Chess::default().board(), 4);
    let board = after(&["e2e4"]).board().clone();
    let unseen = Bitboard::from(Square::E3) | Bitboard::from(Square::E4);
    footage.show(&board, Bitboard::from(Square::E2) | unseen);
    for _ in 0..2 {
        footage.show_as(&board, Bitboard::EMPTY, |obs| {
            obs.belief = BoardBelief::seeing(&board, 0.99);
            obs.belief.hide(unseen);
        });
    }
    let step = footage.tracker.left_open(footage.t);
    assert_eq!(actions_of(&step.events), []);
    let gap = step.gap.expect("a gap raised");
    assert!(gap.squares.contains(Square::E2), "{gap:?}");
    assert_eq!((gap.squares & !unseen).count(), 1, "{gap:?}");
}

#[test]
fn moves_read_after_two_ways_were_let_go_untold_raise_a_gap() {
    // Watched again on a board three plies on, two ways to it followed
    // (e7-e5 in one move or two); the board is next seen five plies
    // further on, further than the moves looked for on from each way, and
    // the search from the table reads it. Whose turn it was was never
    // told: the record may be a ply short.
    let start = Chess::default();
    let tracker = Tracker::resumed(start.clone(), start.board());
    let mut footage = Footage::new(tracker, 0.1);
    let mut played = vec!["e2e4", "e7e5", "g1f3"];
    footage.still(after(&played).board(), 30);
    assert!(footage.tracker.decision.two_ways(), "either side to move");
    assert!(footage.gaps.is_empty() && footage.events.is_empty());
    played.extend(["b8c6", "f1b5", "a7a6", "b5a4", "g8f6"]);
    footage.still(after(&played).board(), 60);
    assert!(!footage.events.is_empty(), "read");
    assert_eq!(footage.gaps.len(), 1, "{:?}", footage.gaps);
}

#[test]
fn a_change_the_whole_board_reads_against_is_not_taken_for_a_move() {
    // 9. Qxc3: the queen's square and c3 were read as moved to d3 by the
    // colours (warmer light on d3), the whole board reads the capture.
    let opening = [
        "d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "d1c2", "f6e4", "g1f3", "e4c3",
    ];
    let read = |whole_board: &[&str]| {
        let from = after(&opening);
        let colours = after(&[&opening[..], &["c2d3"]].concat());
        let belief = BoardBelief::seeing(after(whole_board).board(), 0.9);
        let mut tracker = Tracker::new(from);
        let mut events = Vec::new();
        for k in 0..20 {
            let mut obs = frame(
                0.05 * f64::from(k + 1),
                &[Square::C2, Square::D3],
                true,
                None,
            );
            for sq in Square::ALL {
                obs.occupancy[usize::from(sq)] = colour_on(colours.board(), sq);
            }
            obs.belief = belief.clone();
            events.extend(tracker.push(&obs).events);
        }
        actions_of(&events)
    };
    assert_eq!(
        read(&[&opening[..], &["c2c3"]].concat()),
        [
            Action::Lift(Square::C2),
            Action::Capture(Square::C3),
            Action::Release(Square::C3)
        ]
    );
    // Where the whole board reads the same as the colours, the change is the move.
    assert_eq!(
        read(&[&opening[..], &["c2d3"]].concat()),
        [Action::Lift(Square::C2), Action::Release(Square::D3)]
    );
}
