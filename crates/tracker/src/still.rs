//! The decoder's verdict followed over the frames of a still board: a
//! continuation decided clearly is taken once it has stood on
//! [`DECIDE_FRAMES`] frames over [`DECIDE_SECONDS`]; a board reached as
//! likely with either side to move is followed both ways until the next
//! move tells whose turn it was; what stood too briefly when nobody
//! watches any more is given up as a guess.
//!
//! A ply read beside an arm nobody saw waits for the next still board
//! (`unseen_arm.rs`).
//!
//! Input: each still frame's belief, the position the next move is made
//! from, how the board was watched ([`Watch`]), the squares seen moving.
//! Output: the continuation taken and how it was decided ([`Decided`]).

use shakmaty::{Bitboard, ByColor, Chess, Position};

use crate::belief::{BoardBelief, differing};
use crate::decode::{
    Continuation, DECIDE_FRAMES, DECIDE_MARGIN, DECIDE_SECONDS, Decided, Decision, MAX_RESIDUE,
    RECOVER_SECONDS, Search, Weighed, decide, ranked, residue, uci, weigh,
};
use crate::glimpse::Glimpses;
use crate::unseen_arm::Hold;

/// How the board was watched since the table was last seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watch {
    /// Every frame, close enough together that every still moment between
    /// two moves is seen: nothing was missed.
    Throughout,
    /// Every frame, but too far apart ([`crate::SPARSE_GAP`], a service
    /// refereeing one frame in several under load) to see every still
    /// moment: a piece may have gone two ways to its square meanwhile.
    Sparse,
    /// Frames were lost, or the picture was blank, a while: a move may
    /// have been missed.
    Lapsed,
    /// Watched again (a camera reconnected, the service restarted), the
    /// eyes calibrated on a board not known to show the table: moves made
    /// meanwhile are likely.
    Resumed,
}

/// A decision borne out over the frames of a still board.
#[derive(Debug, Clone)]
struct Standing {
    /// The way decided.
    way: Continuation,
    /// The first frame it was decided on.
    since: f64,
    frames: u32,
    how: Decided,
}

/// What a still board showed that no move was read from yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unconfirmed {
    /// A way decided, borne out over fewer frames than a move needs.
    Standing,
    /// A board reached as likely with either side to move: which, the
    /// next move was to tell.
    EitherTurn,
}

/// Two ways to one board, either side to move, followed until the next
/// move tells which it was.
#[derive(Debug, Clone)]
struct Ways {
    ways: [Continuation; 2],
    how: Decided,
    /// The way the moves on from them have told, when one has.
    lead: Option<Lead>,
}

/// The way the still frames since the two ways were followed have told:
/// from the first frame it was told clearly, on every frame since that
/// told neither.
#[derive(Debug, Clone, Copy)]
struct Lead {
    way: usize,
    since: f64,
    frames: u32,
}

impl Lead {
    /// One frame more that told this way, or told neither.
    fn again(self) -> Lead {
        Lead {
            frames: self.frames + 1,
            ..self
        }
    }
}

/// What the board shows made on from one of two ways.
enum Next {
    /// Nothing: it reads as the way's own board.
    Nothing,
    /// A move, or run, decided clearly.
    Decided(Continuation),
    /// Something not decided yet, at best this likely (log-likelihood over
    /// the way's board), or nothing that explains the picture.
    Unclear(Option<f32>),
}

impl Next {
    /// How likely the board makes it, over the way's own board.
    fn gain(&self) -> Option<f32> {
        match self {
            Next::Nothing => Some(0.0),
            Next::Decided(c) => Some(c.gain),
            Next::Unclear(gain) => *gain,
        }
    }
}

/// The decoder's verdict followed over the frames of a still board: the
/// same continuation, decided with a clear margin, on [`DECIDE_FRAMES`]
/// frames over [`DECIDE_SECONDS`], is taken.
#[derive(Debug, Clone, Default)]
pub struct StillDecision {
    /// The decision being borne out, when one is.
    standing: Option<Standing>,
    /// A board decided clearly but reached as likely with either side to
    /// move (a piece that took two moves to its square instead of one
    /// while nobody watched): both ways are followed, through the frames'
    /// motion, until the next move tells which it was.
    ways: Option<Ways>,
    /// When the deep search last ran.
    searched_at: Option<f64>,
    /// The ways the still board was seen going since the table.
    glimpses: Glimpses,
    /// Since when the still board has read as a position the table does
    /// not explain, when it has.
    unexplained_since: Option<f64>,
    /// Since when whose turn it is has been unknown: two ways to a board
    /// were followed, either side to move, and let go before a move told
    /// which (until a move is read).
    turn_untold: Option<f64>,
    /// Plies read beside squares newly read otherwise, waiting.
    hold: Hold,
}

impl StillDecision {
    /// The board moved: start again (the ways followed stay).
    pub fn reset(&mut self) {
        self.standing = None;
        self.unexplained_since = None;
        self.searched_at = None;
        self.hold.board_moved();
        self.glimpses.board_moved();
    }

    /// A move was read: start again from it.
    pub fn clear(&mut self) {
        self.reset();
        self.ways = None;
        self.turn_untold = None;
        self.hold.forget();
        self.glimpses.forget();
    }

    /// The empty squares each side's hand stopped over since the last
    /// move read (`set_down.rs`), as evidence of where pieces went.
    pub fn hands_stopped(&mut self, stopped: ByColor<Bitboard>) {
        self.glimpses.hands_stopped(stopped);
    }

    /// Since when whose turn it is has been unknown, when it is: two ways
    /// to a board, either side to move, were let go untold. The moves the
    /// search then reads from the table are the shortest way, which may be
    /// a ply short.
    pub fn turn_untold(&self) -> Option<f64> {
        self.turn_untold
    }

    /// Whether a decision is being borne out, or two ways followed.
    pub fn pending(&self) -> bool {
        self.standing.is_some() || self.ways.is_some()
    }

    /// What the board showed that no move was read from yet, when nobody
    /// watches any more, a guess: the way the still board was last decided
    /// that has not stood long enough to be taken; of two ways followed
    /// where the board last read as one of them, the one told (the shorter
    /// where none was); else the way `last` (the last frame's belief, the
    /// board bare of hands but not still: an arm by its edge, a hand at
    /// the clock) decides clearly from `from`.
    pub fn unconfirmed(
        &self,
        from: &Chess,
        last: Option<&BoardBelief>,
    ) -> Option<(Continuation, Unconfirmed)> {
        let standing = self
            .standing
            .as_ref()
            .map(|standing| (standing.way.clone(), Unconfirmed::Standing));
        let followed = || {
            let ways = self.ways.as_ref().filter(|_| self.explained())?;
            let told = ways.lead.map_or(0, |lead| lead.way);
            Some((ways.ways[told].clone(), Unconfirmed::EitherTurn))
        };
        let last_seen = || {
            let decision = decide(from, last?, Search::READ, &self.glimpses)?;
            let how = match decision.twin {
                None => Unconfirmed::Standing,
                Some(_) => Unconfirmed::EitherTurn,
            };
            Some((decision.best, how))
        };
        let (way, how) = standing.or_else(followed).or_else(last_seen)?;
        Some((
            Continuation {
                guessed: true,
                ..way
            },
            how,
        ))
    }

    /// What the board showed that no way on could be told for, when nobody
    /// watches any more: the squares where the likeliest way's board
    /// differs from `from`'s, when `last` (the last frame's belief, bare of
    /// hands) makes some way on clearly likelier than the table and that
    /// way explains the picture, though none stood out from the others.
    /// Moves are missing from the record there.
    pub fn left_unread(&self, from: &Chess, last: Option<&BoardBelief>) -> Option<Bitboard> {
        let weighed = weigh(from, last?, Search::READ, &self.glimpses)?;
        (weighed.best.gain >= DECIDE_MARGIN && weighed.explains)
            .then(|| differing(from.board(), weighed.best.position.board()))
    }

    /// Whether two ways to the still board are followed (reached as likely
    /// with either side to move), until the next move tells which.
    pub fn two_ways(&self) -> bool {
        self.ways.is_some()
    }

    /// Whether the last still frame read as the table, as well as a
    /// position decided must explain the picture (at most [`MAX_RESIDUE`]
    /// squares read otherwise).
    pub fn explained(&self) -> bool {
        self.unexplained_since.is_none()
    }

    /// One still frame at `t`, the next move made from `from`: the
    /// continuation decided, once it has stood long enough, and how.
    ///
    /// Watched throughout since the table was last seen (no gap in the
    /// frames, no reconnect, frames close together), the shorter way to a
    /// board is taken; otherwise a board reached as likely with either side
    /// to move waits for the next move to tell whose turn it was.
    pub fn observe(
        &mut self,
        from: &Chess,
        belief: &BoardBelief,
        t: f64,
        watch: Watch,
        moved: Bitboard,
    ) -> Option<(Continuation, Decided)> {
        // Every still moment seen: a board reached either way was reached
        // the shorter, or the way between would have been seen.
        let watched = watch == Watch::Throughout;
        // Every frame seen: no plies are known to be missing.
        let followed = matches!(watch, Watch::Throughout | Watch::Sparse);
        // Frames seen, however many were lost between: a square whose
        // occupant changed moved in one of them (its picture differs from
        // the frame before), unless it changed and changed back unseen.
        // Watched again, the moves made meanwhile moved nothing seen.
        let seen = watch != Watch::Resumed;
        self.glimpses.moving(seen.then_some(moved));
        if !belief.is_informed() {
            self.reset();
            return None;
        }
        let unexplained = residue(belief, from.board()) > MAX_RESIDUE;
        if tracing::enabled!(tracing::Level::TRACE) {
            let best = ranked(from, belief, Search::READ);
            tracing::trace!(
                t,
                table_residue = ?belief.against(from.board()),
                best = ?best.as_ref().map(|(c, margin)| (
                    uci(&c.moves),
                    c.gain,
                    *margin,
                    residue(belief, c.position.board()),
                )),
                "still board"
            );
        }
        if self.ways.is_some() {
            return self.follow_ways(belief, t);
        }
        self.unexplained_since = unexplained.then(|| self.unexplained_since.unwrap_or(t));
        // Watched again, any number of plies may be missing: the board is
        // weighed at once by the deep search, where each ply costs less and
        // the shortest way wins. The shallow search, chained through what it
        // glimpsed, reaches the board by a longer way, with the wrong side
        // to move and every later move explained askew.
        let (search, how) = match watch {
            Watch::Resumed => (Search::recover(false), Decided::Recovered),
            Watch::Throughout | Watch::Sparse | Watch::Lapsed => (Search::READ, Decided::Read),
        };
        let weighed = weigh(from, belief, search, &self.glimpses);
        if weighed.is_none() {
            self.hold.table_stood(from, belief);
        }
        // A still board shows a way where its likeliest explains the
        // picture and beats the table clearly, whatever the runner-up.
        let shown = weighed
            .as_ref()
            .filter(|w| w.explains && w.best.gain >= DECIDE_MARGIN)
            .map(|w| (w.best.shape(), belief));
        self.glimpses.still_board(from, shown);
        // A way guessed among others alike tells nothing of the way it went
        // (taken as a glimpse, it would bear itself out on the next frame).
        if let Some(weighed) = weighed.as_ref().filter(|w| !w.best.guessed) {
            self.glimpses
                .see(from, &weighed.best.moves, weighed.glimpse_margin());
        }
        let mut decided = weighed.and_then(Weighed::decision).map(|d| (d, how));
        // The deep search once the board has read unexplained a while,
        // then again each while it still does.
        let recovering = self
            .standing
            .as_ref()
            .is_some_and(|standing| standing.how == Decided::Recovered);
        if decided.is_none()
            && (recovering
                || self.unexplained_since.is_some_and(|since| {
                    t - since >= RECOVER_SECONDS
                        && self.searched_at.is_none_or(|at| t - at >= RECOVER_SECONDS)
                }))
        {
            self.searched_at = Some(t);
            decided = decide(from, belief, Search::recover(followed), &self.glimpses)
                .map(|d| (d, Decided::Recovered));
        }
        let Some((decision, how)) =
            decided.and_then(|(d, how)| self.hold.admit(from, belief, d, how, t))
        else {
            self.standing = None;
            return None;
        };
        let stood = self.stands(&decision.best, how, t);
        let twin = decision
            .twin
            .filter(|_| !watched || how == Decided::Recovered);
        match twin {
            None => stood.then(|| decision.best.with(how)),
            Some(twin) => {
                if stood {
                    tracing::debug!(
                        t,
                        best = ?uci(&decision.best.moves),
                        twin = ?uci(&twin.moves),
                        "a board reached as likely with either side to move: both ways followed"
                    );
                    self.standing = None;
                    self.ways = Some(Ways {
                        ways: [decision.best, twin],
                        how,
                        lead: None,
                    });
                }
                None
            }
        }
    }

    /// Whether the decision of `way` has stood long enough, counting this
    /// frame.
    fn stands(&mut self, way: &Continuation, how: Decided, t: f64) -> bool {
        let (since, frames) = match &self.standing {
            Some(standing) if standing.way.shape() == way.shape() => {
                (standing.since, standing.frames + 1)
            }
            _ => (t, 1),
        };
        self.standing = Some(Standing {
            way: way.clone(),
            since,
            frames,
            how,
        });
        frames >= DECIDE_FRAMES && t - since >= DECIDE_SECONDS
    }

    /// One still frame while two ways are followed: the move the board
    /// shows made on from each. Where one way's explains the picture and is
    /// likelier by [`DECIDE_MARGIN`] than the other's (or the other's does
    /// not explain it), that frame tells that way; a frame that tells neither
    /// leaves the way told before. A way told on [`DECIDE_FRAMES`] frames
    /// over [`DECIDE_SECONDS`] is taken, with the move on from it where the
    /// board shows one decided (not while it shows one undecided: the
    /// way's squares would be accepted showing the next move's pieces). A
    /// board that has read for [`RECOVER_SECONDS`] as neither way's lets
    /// them go: the search from the table, deep enough for their moves and
    /// those made since, takes over.
    fn follow_ways(&mut self, belief: &BoardBelief, t: f64) -> Option<(Continuation, Decided)> {
        let mut followed = self.ways.take()?;
        let neither = followed
            .ways
            .iter()
            .all(|way| residue(belief, way.position.board()) > MAX_RESIDUE);
        self.unexplained_since = neither.then(|| self.unexplained_since.unwrap_or(t));
        if let Some(since) = self
            .unexplained_since
            .filter(|since| t - since >= RECOVER_SECONDS)
        {
            tracing::debug!(t, since, "two ways let go, whose turn it is untold");
            self.unexplained_since = None;
            self.turn_untold = Some(self.turn_untold.unwrap_or(since));
            return None;
        }
        let motion = self.glimpses.motion();
        let next = followed.ways.each_ref().map(|way| {
            let Some(weighed) = weigh(&way.position, belief, Search::READ, &motion) else {
                return Next::Nothing;
            };
            let gain = weighed.explains.then_some(weighed.best.gain);
            match weighed.decision() {
                Some(Decision { best, twin: None }) => Next::Decided(best),
                _ => Next::Unclear(gain),
            }
        });
        let (first, second) = (next[0].gain(), next[1].gain());
        let told = match (first, second) {
            (Some(first), Some(second)) if first >= second + DECIDE_MARGIN => Some(0),
            (Some(first), Some(second)) if second >= first + DECIDE_MARGIN => Some(1),
            (Some(_), None) => Some(0),
            (None, Some(_)) => Some(1),
            _ => None,
        };
        tracing::trace!(t, first, second, ?told, "two ways followed");
        followed.lead = match (told, followed.lead) {
            (None, lead) => lead.map(Lead::again),
            (Some(way), Some(lead)) if lead.way == way => Some(lead.again()),
            (Some(way), _) => Some(Lead {
                way,
                since: t,
                frames: 1,
            }),
        };
        let lead = followed
            .lead
            .filter(|lead| lead.frames >= DECIDE_FRAMES && t - lead.since >= DECIDE_SECONDS);
        let taken = lead.and_then(|lead| {
            let way = &followed.ways[lead.way];
            match next.into_iter().nth(lead.way)? {
                Next::Nothing => Some(way.clone()),
                Next::Decided(next) => Some(way.then(next)),
                Next::Unclear(_) => None,
            }
        });
        let how = followed.how;
        self.ways = Some(followed);
        taken.map(|way| way.with(how))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belief::SquareBelief;
    use crate::tests::after;
    use shakmaty::{Color, Square};

    #[test]
    fn a_move_seen_on_one_still_frame_is_left_unconfirmed_as_a_guess() {
        let start = Chess::default();
        let played = after(&["e2e4"]);
        let belief = BoardBelief::seeing(played.board(), 0.9);
        let mut decision = StillDecision::default();
        let seen = decision.observe(&start, &belief, 0.0, Watch::Throughout, Bitboard::FULL);
        assert!(seen.is_none(), "one frame is too few");
        let (way, how) = decision.unconfirmed(&start, None).expect("standing");
        assert_eq!(how, Unconfirmed::Standing);
        assert!(way.guessed);
        assert_eq!(way.position.board(), played.board());
    }

    #[test]
    fn frames_far_apart_follow_both_ways_to_a_board_a_piece_may_have_reached_in_two_moves() {
        // 4... Bc5 5. Nd5, or 4... Bb4 5. Nd5 Bc5 unseen between two frames.
        let opening = ["c2c4", "g8f6", "b1c3", "e7e5", "g1f3", "b8c6", "g2g3"];
        let from = after(&opening);
        let played = after(&[&opening[..], &["f8c5", "c3d5"]].concat());
        let belief = BoardBelief::seeing(played.board(), 0.9);
        let decided = |watch: Watch| {
            let mut decision = StillDecision::default();
            let taken = [0.0, 0.5]
                .into_iter()
                .find_map(|t| decision.observe(&from, &belief, t, watch, Bitboard::FULL));
            (taken, decision.two_ways())
        };
        let (taken, _) = decided(Watch::Throughout);
        let (shorter, how) = taken.expect("every still moment seen: the shorter way");
        assert_eq!(uci(&shorter.moves), ["f8c5", "c3d5"]);
        assert_eq!(how, Decided::Read);
        let (taken, followed) = decided(Watch::Sparse);
        assert!(
            taken.is_none() && followed,
            "the next move tells whose turn it is"
        );
    }

    #[test]
    fn the_way_the_next_move_told_stands_through_frames_that_tell_neither() {
        let opening = ["c2c4", "g8f6", "b1c3", "e7e5", "g1f3", "b8c6", "g2g3"];
        let from = after(&opening);
        let either = after(&[&opening[..], &["f8c5", "c3d5"]].concat());
        let mut decision = StillDecision::default();
        let mut observe = |belief: &BoardBelief, t: f64| {
            decision.observe(&from, belief, t, Watch::Sparse, Bitboard::FULL)
        };
        let still = BoardBelief::seeing(either.board(), 0.9);
        assert!(observe(&still, 0.0).is_none() && observe(&still, 0.5).is_none());
        // 6. e3: White's move, so the bishop went to c5 in two.
        let on = after(&[&opening[..], &["f8b4", "c3d5", "b4c5", "e2e3"]].concat());
        assert!(observe(&BoardBelief::seeing(on.board(), 0.9), 1.0).is_none());
        // A frame that tells neither (the board as both ways leave it)
        // leaves that way told: taken alone, White to move.
        let (taken, how) = observe(&still, 1.3).expect("the way told");
        assert_eq!(taken.moves.len(), 3);
        assert_eq!(taken.position.turn(), Color::White);
        assert_eq!(how, Decided::Recovered, "by b4, a3, d6 or e7: a guess");
    }

    /// The board decided frame after frame from `from`, until a decision is taken.
    fn taken(
        decision: &mut StillDecision,
        from: &Chess,
        belief: &BoardBelief,
        t: &mut f64,
    ) -> Continuation {
        loop {
            if let Some((found, _)) =
                decision.observe(from, belief, *t, Watch::Throughout, Bitboard::FULL)
            {
                return found;
            }
            *t += 0.05;
            assert!(*t < 10.0, "never decided");
        }
    }

    #[test]
    fn of_two_ways_to_one_board_the_one_glimpsed_is_taken() {
        // 2.Qh5 Nc6 3.Qxf7+ and 2.Qf3 Nc6 3.Qxf7+ leave one board: the
        // queen seen a moment on h5 (or on f3) tells which was played.
        let from = after(&["e2e4", "e7e5"]);
        let end = after(&["e2e4", "e7e5", "d1h5", "b8c6", "h5f7"]);
        for (glimpsed, way) in [("d1h5", Square::H5), ("d1f3", Square::F3)] {
            let glimpse = after(&["e2e4", "e7e5", glimpsed]);
            let mut decision = StillDecision::default();
            let mut t = 0.0;
            // One still frame of the queen there, too short to take…
            assert!(
                decision
                    .observe(
                        &from,
                        &BoardBelief::seeing(glimpse.board(), 0.97),
                        t,
                        Watch::Throughout,
                        Bitboard::FULL,
                    )
                    .is_none()
            );
            // …then the hands move on, and the board stills after Qxf7+.
            decision.reset();
            t += 1.0;
            let seen = BoardBelief::seeing(end.board(), 0.97);
            let found = taken(&mut decision, &from, &seen, &mut t);
            assert_eq!(found.position.board(), end.board());
            assert_eq!(found.moves.len(), 3);
            assert_eq!(found.moves[0].to(), way, "glimpsed {glimpsed}");
        }
    }

    #[test]
    fn moves_missed_beyond_a_run_are_recovered_once_the_next_move_tells_whose_turn_it_was() {
        let missed = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"];
        let pos = after(&missed);
        let belief = BoardBelief::seeing(pos.board(), 0.9);
        let mut decision = StillDecision::default();
        let start = Chess::default();
        assert!(
            decision
                .observe(&start, &belief, 0.0, Watch::Throughout, Bitboard::FULL)
                .is_none()
        );
        assert!(
            decision
                .observe(&start, &belief, 0.5, Watch::Throughout, Bitboard::FULL)
                .is_none(),
            "not before a second"
        );
        // Bb5 in six plies, or Bc4 and then Bb5 in seven: the same board with
        // the other side to move; nothing is decided while it stands.
        let mut t = 1.0;
        while t < 3.0 {
            assert!(
                decision
                    .observe(&start, &belief, t, Watch::Throughout, Bitboard::FULL)
                    .is_none(),
                "at {t} s"
            );
            t += 0.1;
        }
        assert!(decision.pending(), "both ways followed");
        // White moves on: it was White's turn, the six plies stand.
        decision.reset();
        let on = after(&[&missed[..], &["b5a4"]].concat());
        let belief = BoardBelief::seeing(on.board(), 0.9);
        let (found, how) = loop {
            if let Some(found) =
                decision.observe(&start, &belief, t, Watch::Throughout, Bitboard::FULL)
            {
                break found;
            }
            t += 0.1;
            assert!(t < 4.0, "decided once the next move was seen");
        };
        assert_eq!(how, Decided::Recovered);
        assert_eq!(found.position.board(), on.board());
        assert_eq!(found.moves.len(), 7);
        assert_eq!(found.position.turn(), Color::Black);
    }

    #[test]
    fn ways_the_board_no_longer_reads_as_are_let_go() {
        let missed = after(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
        let mut decision = StillDecision::default();
        let start = Chess::default();
        let mut t = 0.0;
        let belief = BoardBelief::seeing(missed.board(), 0.9);
        while t < 3.0 {
            assert!(
                decision
                    .observe(&start, &belief, t, Watch::Throughout, Bitboard::FULL)
                    .is_none()
            );
            t += 0.1;
        }
        assert!(decision.pending(), "both ways followed");
        assert_eq!(decision.turn_untold(), None);
        // The board reads as neither way: the table's own search takes over.
        let d4 = after(&["d2d4"]);
        let belief = BoardBelief::seeing(d4.board(), 0.9);
        let found = loop {
            if let Some((found, _)) =
                decision.observe(&start, &belief, t, Watch::Throughout, Bitboard::FULL)
            {
                break found;
            }
            t += 0.1;
            assert!(t < 6.0, "the ways were never let go");
        };
        assert_eq!(found.position.board(), d4.board());
        assert!(
            decision.turn_untold().is_some(),
            "let go before a move told whose turn it was"
        );
        decision.clear();
        assert_eq!(decision.turn_untold(), None, "a move read");
    }

    #[test]
    fn a_picture_no_position_explains_decides_nothing() {
        // A blank frame: every square read as a black piece.
        let mut belief = BoardBelief::unknown();
        for sq in Square::ALL {
            belief.add(sq, SquareBelief::from_probabilities([0.05, 0.05, 0.9]));
        }
        let mut decision = StillDecision::default();
        for k in 0..30 {
            assert!(
                decision
                    .observe(
                        &Chess::default(),
                        &belief,
                        f64::from(k) * 0.1,
                        Watch::Throughout,
                        Bitboard::FULL,
                    )
                    .is_none()
            );
        }
    }

    /// The board after `moves`, read at 0.9, with a dark shape on d1 (an
    /// arm cut off by the picture's edge, read as a Black piece).
    fn with_an_arm_on_d1(moves: &[&str]) -> BoardBelief {
        let mut belief = BoardBelief::seeing(after(moves).board(), 0.9);
        belief.hide(Bitboard::from_square(Square::D1));
        belief.add(
            Square::D1,
            SquareBelief::from_probabilities([0.05, 0.05, 0.9]),
        );
        belief
    }

    #[test]
    fn a_ply_beside_an_arm_at_the_edge_waits_for_the_next_still_board() {
        let opening = ["d2d4", "d7d5", "c2c4"];
        let seen = with_an_arm_on_d1(&[&opening[..], &["e7e6", "e1d2"]].concat());
        let mut decision = StillDecision::default();
        let observe = |decision: &mut StillDecision, from: &Chess, t: f64| {
            decision.observe(from, &seen, t, Watch::Throughout, Bitboard::FULL)
        };
        let from = after(&opening);
        assert!(observe(&mut decision, &from, 0.0).is_none());
        let (taken, how) =
            observe(&mut decision, &from, 0.2).expect("the reply, away from the arm");
        assert_eq!(uci(&taken.moves), ["e7e6"]);
        assert_eq!(how, Decided::Read);
        // Kd2 beside the arm: not taken while the board stands as it is.
        let from = after(&[&opening[..], &["e7e6"]].concat());
        decision.clear();
        for t in [1.0, 1.2, 1.5, 2.0] {
            assert!(observe(&mut decision, &from, t).is_none(), "held at {t}");
        }
        // The board moved and stood still again, the same: taken, for the
        // arbiter to check.
        decision.reset();
        assert!(observe(&mut decision, &from, 2.5).is_none());
        let (taken, how) = observe(&mut decision, &from, 2.7).expect("taken");
        assert_eq!(uci(&taken.moves), ["e1d2"]);
        assert_eq!(how, Decided::Recovered);
    }
}
