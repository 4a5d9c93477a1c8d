//! Moves decided by likelihood over legal continuations: on a still board,
//! the table and every position legal moves reach from it (the mover going
//! on, the reply, runs of a few plies) are scored against the eyes' belief,
//! and the likeliest is taken only when it beats the table and every other
//! position clearly.
//!
//! Input: the position the next move is made from (its board is the
//! table), a [`BoardBelief`], how many plies to look ahead, and the ways
//! the still board was glimpsed going since the table (which tell apart
//! ways to one board, [`Glimpses`]). Output: the continuations ranked,
//! each with its gain over the table; which promotion a pawn made is left
//! to the caller (the eyes' colours cannot tell a queen from a knight).

use std::collections::{HashMap, HashSet};

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role};

use crate::belief::BoardBelief;
use crate::glimpse::Glimpses;
use crate::illegal;

/// How far a search looks and what each ply costs in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Search {
    /// Plies looked ahead.
    pub plies: usize,
    /// Positions kept at each depth.
    pub beam: usize,
    /// Log-likelihood each ply costs: the prior against one more ply, so
    /// that where the eyes cannot tell, the shorter explanation (and the
    /// table itself) wins.
    pub ply_cost: f32,
}

impl Search {
    /// On a still board: the mover going on, the reply, runs of moves made
    /// without a pause. Most still moments follow no ply or one, so a ply
    /// must be seen on about two squares' worth of evidence (a lifted
    /// piece's shadow, a queen's head over the next square, are one).
    pub const READ: Search = Search {
        plies: DECIDE_PLIES,
        beam: 24,
        ply_cost: 2.0,
    };
    /// Once the board has read for [`RECOVER_SECONDS`] as a position no
    /// ordinary continuation reaches, after a time nobody watched (frames
    /// lost, a camera reconnected, the picture blank): plies are known to
    /// be missing, so each costs less, the prior only preferring the
    /// shorter of two ways.
    pub const RECOVER: Search = Search {
        plies: RECOVER_PLIES,
        beam: 64,
        ply_cost: 1.0,
    };

    /// The search for moves the eyes missed: [`Search::RECOVER`] after a
    /// time nobody watched; as deep while the board was watched (a hand
    /// over the board at each still moment), but each ply costing what it
    /// does on a still board: nothing says plies are missing, and a hand
    /// resting by the board, read as pieces, is no cheap run of moves.
    pub fn recover(watched: bool) -> Search {
        if watched {
            Search {
                ply_cost: Search::READ.ply_cost,
                ..Search::RECOVER
            }
        } else {
            Search::RECOVER
        }
    }
}

/// One way the game may have gone on from the table.
#[derive(Debug, Clone)]
pub struct Continuation {
    pub moves: Vec<Move>,
    pub position: Chess,
    /// How much likelier than the table the eyes find it, less the search's cost a ply.
    pub gain: f32,
    /// Another way to the same squares' occupants, as many plies, was as
    /// likely and no glimpse told them apart (a bishop to c5 by b4 or by
    /// a3, unseen between): which was played is a guess, for the arbiter
    /// to check.
    pub guessed: bool,
}

/// What tells continuations apart: the squares' occupants (empty, White,
/// Black: all the eyes can see) and the side to move (which they cannot).
type Shape = (Bitboard, Bitboard, Color);

impl Continuation {
    fn shape(&self) -> Shape {
        let board = self.position.board();
        (board.white(), board.black(), self.position.turn())
    }

    /// The same squares' occupants as `other`, the other side to move.
    fn other_turn_of(&self, other: &Continuation) -> bool {
        let (white, black, turn) = self.shape();
        let (other_white, other_black, other_turn) = other.shape();
        (white, black) == (other_white, other_black) && turn != other_turn
    }

    /// This continuation decided `how`, or recovered where it is a guess:
    /// the arbiter checks what the eyes could not tell.
    fn with(self, how: Decided) -> (Continuation, Decided) {
        let how = if self.guessed {
            Decided::Recovered
        } else {
            how
        };
        (self, how)
    }

    /// This way on from `from`, then `next` on from its position.
    fn then(&self, next: Continuation) -> Continuation {
        let mut moves = self.moves.clone();
        moves.extend(next.moves);
        Continuation {
            moves,
            position: next.position,
            gain: next.gain,
            guessed: self.guessed || next.guessed,
        }
    }
}

/// The continuations of `from` up to `plies` plies (`beam` positions kept
/// at each depth), likeliest first, one for each arrangement of the
/// squares' occupants and side to move (a promotion is searched as a
/// queen; the caller names the piece). The table itself (no ply, gain 0)
/// is among them. A position the board was glimpsed in counts as the
/// table does: up to `plies` more are searched from it. Of two ways to one
/// arrangement, equally likely, the one the `glimpses` bear out most is
/// kept.
pub fn continuations(
    from: &Chess,
    belief: &BoardBelief,
    search: Search,
    glimpses: &Glimpses,
) -> Vec<Continuation> {
    let table = from.board().clone();
    let root = Continuation {
        moves: Vec::new(),
        position: from.clone(),
        gain: 0.0,
        guessed: false,
    };
    let mut seen: HashSet<Shape> = HashSet::from([root.shape()]);
    let mut found = vec![root.clone()];
    let mut level = vec![root];
    for depth in 1..=search.plies + glimpses.longest(from) {
        let mut next: Vec<Continuation> = level
            .iter()
            .filter(|c| glimpses.beyond(from, &c.moves) < search.plies)
            .flat_map(|c| {
                c.position
                    .legal_moves()
                    .into_iter()
                    .filter(|m| m.promotion().is_none_or(|r| r == Role::Queen))
                    .map(|m| {
                        let mut position = c.position.clone();
                        position.play_unchecked(m);
                        let gain =
                            belief.gain(&table, position.board()) - search.ply_cost * depth as f32;
                        let mut moves = c.moves.clone();
                        moves.push(m);
                        Continuation {
                            moves,
                            position,
                            gain,
                            guessed: c.guessed,
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        next.sort_by(|a, b| {
            b.gain.total_cmp(&a.gain).then_with(|| {
                glimpses
                    .support(from, &b.moves)
                    .total_cmp(&glimpses.support(from, &a.moves))
            })
        });
        let next = distinct(next, &mut seen, |a, b| {
            let evidence = |c: &Continuation| {
                (
                    glimpses.support(from, &c.moves),
                    glimpses.moved_for(from, &c.moves),
                )
            };
            let ((a_seen, a_moved), (b_seen, b_moved)) = (evidence(a), evidence(b));
            if (a_seen - b_seen).abs() >= TIED {
                a_seen.total_cmp(&b_seen)
            } else {
                a_moved.cmp(&b_moved)
            }
        });
        // The beam, and every position the board was glimpsed in on the
        // way (unlike the board now, it may be the way to it).
        let next: Vec<Continuation> = next
            .into_iter()
            .enumerate()
            .filter(|(rank, c)| *rank < search.beam || glimpses.saw(from, &c.moves))
            .map(|(_, c)| c)
            .collect();
        found.extend(next.iter().cloned());
        level = next;
    }
    found.sort_by(|a, b| b.gain.total_cmp(&a.gain));
    found
}

/// Gains this close are the same: two ways to one board score alike.
const TIED: f32 = 1e-4;

/// The continuations of one depth, best first, one for each shape not
/// `seen` before. Of two ways to one shape as likely, the one the frames
/// between bear out more (`evidence`: glimpses, then motion) is kept; where
/// they tell them apart neither, the one kept is marked
/// [`Continuation::guessed`].
fn distinct(
    ranked: Vec<Continuation>,
    seen: &mut HashSet<Shape>,
    evidence: impl Fn(&Continuation, &Continuation) -> std::cmp::Ordering,
) -> Vec<Continuation> {
    let mut kept: Vec<Continuation> = Vec::new();
    let mut at: HashMap<Shape, usize> = HashMap::new();
    for c in ranked {
        let shape = c.shape();
        if seen.insert(shape) {
            at.insert(shape, kept.len());
            kept.push(c);
        } else if let Some(&index) = at.get(&shape) {
            let first = &mut kept[index];
            if (first.gain - c.gain).abs() >= TIED {
                continue;
            }
            match evidence(first, &c) {
                std::cmp::Ordering::Greater => {}
                std::cmp::Ordering::Less => *first = c,
                std::cmp::Ordering::Equal => first.guessed = true,
            }
        }
    }
    kept
}

/// How much likelier (log-likelihood) the position decided must be than the
/// table and than any other continuation: about one square read clearly.
pub const DECIDE_MARGIN: f32 = 1.0;
/// Plies looked ahead on a still board ([`Search::READ`]).
pub const DECIDE_PLIES: usize = 4;
/// Frames, and seconds from the first, that a decision must stand on a
/// still board before it is taken.
pub const DECIDE_FRAMES: u32 = 2;
pub const DECIDE_SECONDS: f64 = 0.15;

/// Plies searched for moves the eyes missed ([`Search::RECOVER`]).
pub const RECOVER_PLIES: usize = 8;
pub const RECOVER_SECONDS: f64 = 1.0;
/// Squares the belief may read otherwise (each by at least
/// [`RESIDUE_MARGIN`]) than the position decided: more, and the picture
/// is not explained by it (a blank frame, the camera moved, a hand the
/// eyes took for pieces).
pub const MAX_RESIDUE: usize = 4;
pub const RESIDUE_MARGIN: f32 = 2.0;

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

/// How a still board was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// The ordinary way: the mover going on, the reply, a run of moves.
    Read,
    /// By the search for moves the eyes missed: the arbiter should check them.
    Recovered,
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
}

impl StillDecision {
    /// The board moved: start again (the ways followed stay).
    pub fn reset(&mut self) {
        self.standing = None;
        self.unexplained_since = None;
        self.searched_at = None;
    }

    /// A move was read: start again from it.
    pub fn clear(&mut self) {
        self.reset();
        self.ways = None;
        self.glimpses.forget();
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
        self.glimpses.moving(followed.then_some(moved));
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
        let Some((decision, how)) = decided else {
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
        let Ways { ways, how, lead } = self.ways.clone()?;
        let neither = ways
            .iter()
            .all(|way| residue(belief, way.position.board()) > MAX_RESIDUE);
        self.unexplained_since = neither.then(|| self.unexplained_since.unwrap_or(t));
        if self
            .unexplained_since
            .is_some_and(|since| t - since >= RECOVER_SECONDS)
        {
            self.ways = None;
            self.unexplained_since = None;
            return None;
        }
        let motion = self.glimpses.motion();
        let next = ways.each_ref().map(|way| {
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
        let lead = match (told, lead) {
            (Some(way), Some(lead)) if lead.way == way => Some(Lead {
                frames: lead.frames + 1,
                ..lead
            }),
            (Some(way), _) => Some(Lead {
                way,
                since: t,
                frames: 1,
            }),
            (None, Some(lead)) => Some(Lead {
                frames: lead.frames + 1,
                ..lead
            }),
            (None, None) => None,
        };
        self.ways = Some(Ways {
            ways: ways.clone(),
            how,
            lead,
        });
        let lead =
            lead.filter(|lead| lead.frames >= DECIDE_FRAMES && t - lead.since >= DECIDE_SECONDS)?;
        let [first, second] = next;
        let (way, next) = if lead.way == 0 {
            (ways[0].clone(), first)
        } else {
            (ways[1].clone(), second)
        };
        match next {
            Next::Nothing => Some(way.with(how)),
            Next::Decided(next) => Some(way.then(next).with(how)),
            Next::Unclear(_) => None,
        }
    }
}

/// Moves as the arbiter's log writes them.
fn uci(moves: &[Move]) -> Vec<String> {
    moves
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect()
}

/// How many squares the belief reads otherwise than `board`, each by at
/// least [`RESIDUE_MARGIN`].
fn residue(belief: &BoardBelief, board: &Board) -> usize {
    read_otherwise(belief, board).count()
}

/// Whether `board` explains the picture: at most [`MAX_RESIDUE`] squares
/// read otherwise.
pub fn explains(belief: &BoardBelief, board: &Board) -> bool {
    residue(belief, board) <= MAX_RESIDUE
}

/// The squares the belief reads otherwise than `board` by at least
/// [`RESIDUE_MARGIN`].
pub fn read_otherwise(belief: &BoardBelief, board: &Board) -> Bitboard {
    belief.read_otherwise(board, RESIDUE_MARGIN)
}

/// A still board decided: the likeliest way on, and the same board with
/// the other side to move when that is as likely as the eyes can tell.
#[derive(Debug, Clone)]
pub struct Decision {
    pub best: Continuation,
    pub twin: Option<Continuation>,
}

/// The likeliest continuation the `search` finds, when it is not the table,
/// beats the table, every other board and the likeliest illegal move
/// ([`illegal::likeliest_gain`]) by [`DECIDE_MARGIN`], and explains the
/// picture (at most [`MAX_RESIDUE`] squares read otherwise); with its twin,
/// the same board with the other side to move, when the twin is not a ply
/// and [`DECIDE_MARGIN`] less likely (a tempo lost is no rarer than the ply
/// it costs).
pub fn decide(
    from: &Chess,
    belief: &BoardBelief,
    search: Search,
    glimpses: &Glimpses,
) -> Option<Decision> {
    weigh(from, belief, search, glimpses)?.decision()
}

/// A still board weighed: the likeliest continuation, when it is not the
/// table, by how much it beats the next board, and whether it may be
/// decided.
#[derive(Debug, Clone)]
pub struct Weighed {
    pub best: Continuation,
    pub margin: f32,
    twin: Option<Continuation>,
    /// It explains the picture (at most [`MAX_RESIDUE`] squares read otherwise).
    explains: bool,
    /// It may be decided ([`decide`]).
    clear: bool,
}

impl Weighed {
    /// The decision, when the board is clear enough to decide.
    pub fn decision(self) -> Option<Decision> {
        self.clear.then_some(Decision {
            best: self.best,
            twin: self.twin,
        })
    }

    /// What it tells of the way the game went, however briefly the board
    /// stands: its margin, when it explains the picture.
    pub fn glimpse_margin(&self) -> f32 {
        if self.explains { self.margin } else { 0.0 }
    }
}

/// The still board weighed by the `search` ([`decide`] when clear).
pub fn weigh(
    from: &Chess,
    belief: &BoardBelief,
    search: Search,
    glimpses: &Glimpses,
) -> Option<Weighed> {
    // No continuation gains more than the squares read otherwise than the
    // table, by all their margins, less a ply: a still board read as the
    // table costs no search.
    let bound: f32 = belief.against(from.board()).iter().map(|(_, m)| m).sum();
    if bound - search.ply_cost < DECIDE_MARGIN {
        return None;
    }
    let (best, margin, twin) = ranked_with_twin(from, belief, search, glimpses)?;
    let explains = residue(belief, best.position.board()) <= MAX_RESIDUE;
    // A piece moved where it may not go is no legal move misread: looked
    // for only when the legal move would otherwise be decided.
    let clear = best.gain >= DECIDE_MARGIN
        && margin >= DECIDE_MARGIN
        && explains
        && illegal::likeliest_gain(from, belief).is_none_or(|g| best.gain - g >= DECIDE_MARGIN);
    let twin = twin.filter(|twin| best.gain - twin.gain < search.ply_cost + DECIDE_MARGIN);
    Some(Weighed {
        best,
        margin,
        twin,
        explains,
        clear,
    })
}

/// The likeliest continuation and by how much it beats the next likeliest
/// board (the table included), when it is not the table.
pub fn ranked(from: &Chess, belief: &BoardBelief, search: Search) -> Option<(Continuation, f32)> {
    ranked_with_twin(from, belief, search, &Glimpses::default())
        .map(|(best, margin, _)| (best, margin))
}

/// [`ranked`], and the likeliest continuation to the same board as the
/// best with the other side to move.
fn ranked_with_twin(
    from: &Chess,
    belief: &BoardBelief,
    search: Search,
    glimpses: &Glimpses,
) -> Option<(Continuation, f32, Option<Continuation>)> {
    let mut ranked = continuations(from, belief, search, glimpses).into_iter();
    let best = ranked.next()?;
    if best.moves.is_empty() {
        return None;
    }
    let (twins, others): (Vec<Continuation>, Vec<Continuation>) =
        ranked.partition(|c| c.other_turn_of(&best));
    let runner_up = others.first().map_or(f32::NEG_INFINITY, |c| c.gain);
    let margin = best.gain - runner_up;
    // A twin whose squares never moved, every frame seen, is no way the
    // game went.
    let twin = twins
        .into_iter()
        .find(|twin| glimpses.moved_for(from, &twin.moves));
    Some((best, margin, twin))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belief::SquareBelief;
    use shakmaty::{Color, Square};

    fn after(moves: &[&str]) -> Chess {
        let mut pos = Chess::default();
        for uci in moves {
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .expect("uci")
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(m);
        }
        pos
    }

    #[test]
    fn the_still_table_is_kept_and_a_move_read_is_decided() {
        let start = Chess::default();
        assert!(
            ranked(
                &start,
                &BoardBelief::seeing(start.board(), 0.9),
                Search::READ
            )
            .is_none()
        );
        let played = after(&["e2e4"]);
        let (best, margin) = ranked(
            &start,
            &BoardBelief::seeing(played.board(), 0.9),
            Search::READ,
        )
        .expect("a move");
        assert_eq!(best.position.board(), played.board());
        assert_eq!(best.moves.len(), 1);
        assert!(margin > 3.0, "margin {margin}");
    }

    #[test]
    fn a_run_of_plies_made_unseen_is_found_whole() {
        let start = Chess::default();
        let played = after(&["d2d4", "d7d5", "c2c4", "e7e6"]);
        let best = decide(
            &start,
            &BoardBelief::seeing(played.board(), 0.9),
            Search::READ,
            &Glimpses::default(),
        )
        .expect("moves")
        .best;
        assert_eq!(best.position.board(), played.board());
        assert_eq!(best.moves.len(), 4);
    }

    #[test]
    fn of_ways_alike_the_motion_tells_which_else_the_one_kept_is_a_guess() {
        // Bc4 by e2, by d3 or by b5, Nc6 between: alike to the eyes.
        let from = after(&["e2e4", "e7e5"]);
        let played = after(&["e2e4", "e7e5", "f1e2", "b8c6", "e2c4"]);
        let belief = BoardBelief::seeing(played.board(), 0.9);
        let way = |glimpses: &Glimpses| {
            continuations(&from, &belief, Search::READ, glimpses)
                .into_iter()
                .find(|c| c.position.board() == played.board() && c.moves.len() == 3)
                .expect("found")
        };
        let unwatched = way(&Glimpses::default());
        assert!(unwatched.guessed, "{:?}", uci(&unwatched.moves));
        let mut glimpses = Glimpses::default();
        let moved = [Square::F1, Square::E2, Square::C4, Square::B8, Square::C6];
        glimpses.moving(Some(moved.into_iter().collect()));
        let watched = way(&glimpses);
        assert!(!watched.guessed);
        assert_eq!(uci(&watched.moves), ["f1e2", "b8c6", "e2c4"]);
    }

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
    fn a_move_whose_arrival_a_hand_hides_is_not_guessed() {
        let start = Chess::default();
        let played = after(&["g1f3"]);
        let mut belief = BoardBelief::seeing(played.board(), 0.9);
        belief.hide(Bitboard::from_square(Square::F3) | Bitboard::from_square(Square::H3));
        let (_, margin) = ranked(
            &start,
            &belief,
            Search {
                plies: 2,
                ..Search::READ
            },
        )
        .expect("the knight left");
        assert!(margin < 0.5, "Nf3 and Nh3 are alike to the eyes: {margin}");
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
}
