//! A scenario played out in time: what each hand does and when, the
//! physical events that makes (contracts.md §1) and the moves played.
//!
//! Timing is like people's (0.3 to 2 s an action, pauses), drawn from a
//! generator seeded by the camera's `seed`: the same scenario gives the same
//! times. Every command is checked as it is played: a `move` must be legal
//! in the position of the record, a `lift` needs a piece, and so on. The
//! true moves are the rules engine's reading of the exact events (the
//! engine is tested on its own against cases written from the Laws).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use referee_rules::pgn::Tags;
use referee_rules::{Action, Event, MoveRecord, Referee, Verdict};
use shakmaty::{Color, Move, Position, Square};

use crate::ScenarioError;
use crate::pieces;
use crate::scenario::{Command, HOVER_CLEARANCE, Hover, Scenario};

/// What one hand does over a span of time (for the renderer).
#[derive(Debug, Clone, PartialEq)]
pub struct Gesture {
    pub start: f64,
    pub end: f64,
    pub side: Color,
    /// The scenario command it plays, e.g. `move`, `touch`, `hover`.
    pub kind: &'static str,
    /// The squares the hand visits, in order.
    pub squares: Vec<Square>,
    /// A hover's height over the board, in squares (`None`: the usual).
    pub height: Option<f64>,
}

/// A hover over several squares takes this much longer for each square
/// after the first (seconds).
const HOVER_STEP_SECONDS: f64 = 0.4;

/// A scenario played out.
#[derive(Debug, Clone)]
pub struct Choreography {
    pub events: Vec<Event>,
    pub gestures: Vec<Gesture>,
    /// Seconds from the first frame to the last.
    pub duration: f64,
    /// The rules engine's verdict on the exact events: the true moves.
    pub verdict: Verdict,
}

impl Choreography {
    pub fn moves(&self) -> &[MoveRecord] {
        &self.verdict.moves
    }
}

/// Plays a scenario out.
pub fn choreograph(scenario: &Scenario) -> Result<Choreography, ScenarioError> {
    let tags = Tags(scenario.tags.clone());
    let referee = Referee::from_fen(scenario.start_fen.as_deref(), tags)
        .map_err(|e| ScenarioError::new(scenario.start_line, e))?;
    let mut stage = Stage {
        rng: ChaCha8Rng::seed_from_u64(scenario.camera.seed),
        referee,
        t: 0.5,
        events: Vec::new(),
        gestures: Vec::new(),
    };
    for step in &scenario.steps {
        let side = step.by.unwrap_or_else(|| stage.referee.position().turn());
        stage
            .play(&step.command, step.by, side)
            .map_err(|message| ScenarioError::new(step.line, message))?;
    }
    stage.referee.finish();
    let duration = stage.t + 0.5;
    Ok(Choreography {
        events: stage.events,
        gestures: stage.gestures,
        duration,
        verdict: stage.referee.verdict(),
    })
}

/// The state while a scenario is played.
struct Stage {
    rng: ChaCha8Rng,
    referee: Referee,
    t: f64,
    events: Vec<Event>,
    gestures: Vec<Gesture>,
}

impl Stage {
    /// Time passes: a human pause between `lo` and `hi` seconds.
    fn pause(&mut self, lo: f64, hi: f64) {
        self.t += self.rng.random_range(lo..hi);
    }

    fn emit(&mut self, action: Action, by: Option<Color>) -> Result<(), String> {
        let mut event = Event::new(round_ms(self.t), action);
        event.side = by;
        if let Action::Add(..) = action {
            // Say whose piece comes in, so that the renderer knows its colour.
            event.side = Some(by.unwrap_or_else(|| self.referee.position().turn()));
        }
        self.referee.apply(&event).map_err(|e| e.to_string())?;
        self.events.push(event);
        Ok(())
    }

    fn play(&mut self, command: &Command, by: Option<Color>, side: Color) -> Result<(), String> {
        let start = self.t;
        let mut squares = Vec::new();
        let mut height = None;
        let kind = match command {
            Command::Move(uci) | Command::TwoHands(uci) => {
                let m = uci.to_move(self.referee.position()).map_err(|_| {
                    format!("move {uci} is not legal here (after {})", self.last_move())
                })?;
                if matches!(command, Command::TwoHands(_)) {
                    self.emit(Action::TwoHands, by)?;
                }
                squares = self.play_move(m, by)?;
                if matches!(command, Command::TwoHands(_)) {
                    "two-hands"
                } else {
                    "move"
                }
            }
            Command::Clock => {
                self.pause(0.3, 0.8);
                self.emit(Action::Clock, by)?;
                "clock"
            }
            Command::Touch(sq) => self.single(Action::Touch(*sq), by, &mut squares, "touch")?,
            Command::Adjust(sq) => self.single(Action::Adjust(*sq), by, &mut squares, "adjust")?,
            Command::Lift(sq) => self.single(Action::Lift(*sq), by, &mut squares, "lift")?,
            Command::Release(sq) => {
                self.single(Action::Release(*sq), by, &mut squares, "release")?
            }
            Command::Capture(sq) => {
                self.single(Action::Capture(*sq), by, &mut squares, "capture")?
            }
            Command::Add(sq, role) => {
                self.single(Action::Add(*sq, *role), by, &mut squares, "add")?;
                self.emit(Action::Release(*sq), by)?;
                "add"
            }
            Command::Hover(hover) => {
                // The hand passes over without contact: time passes, no event.
                self.clears(hover)?;
                match hover.seconds {
                    Some(seconds) => self.t += seconds,
                    None => {
                        self.pause(0.5, 1.5);
                        self.t += HOVER_STEP_SECONDS * (hover.squares.len() - 1) as f64;
                    }
                }
                squares.extend(&hover.squares);
                height = hover.height;
                "hover"
            }
            Command::DeclareAdjust => {
                self.emit(Action::Declare, by)?;
                "declare"
            }
            Command::Wait(seconds) => {
                self.t += seconds;
                "wait"
            }
        };
        self.gestures.push(Gesture {
            start,
            end: self.t,
            side,
            kind,
            squares,
            height,
        });
        Ok(())
    }

    /// A hover passes over the head of every piece on its squares.
    fn clears(&self, hover: &Hover) -> Result<(), String> {
        let Some(height) = hover.height else {
            return Ok(());
        };
        let board = self.referee.position().board();
        for &sq in &hover.squares {
            if let Some(piece) = board.piece_at(sq) {
                let head = pieces::height(piece.role);
                if height < head + HOVER_CLEARANCE {
                    return Err(format!(
                        "hover at height {height} would touch the piece on {sq} (its head at {head}; pass at least {HOVER_CLEARANCE} over it)"
                    ));
                }
            }
        }
        Ok(())
    }

    fn single(
        &mut self,
        action: Action,
        by: Option<Color>,
        squares: &mut Vec<Square>,
        kind: &'static str,
    ) -> Result<&'static str, String> {
        self.pause(0.3, 1.0);
        self.emit(action, by)?;
        squares.extend(action.square());
        self.pause(0.2, 0.6);
        Ok(kind)
    }

    /// The ordinary way: reach, lift, carry, (victim removed), release,
    /// withdraw; castling king first; promotion with the pawn removed and
    /// the new piece added. Returns the squares the hand visits.
    fn play_move(&mut self, m: Move, by: Option<Color>) -> Result<Vec<Square>, String> {
        let us = self.referee.position().turn();
        let mut path = Vec::new();
        let mut step =
            |stage: &mut Stage, action: Action, lo: f64, hi: f64| -> Result<(), String> {
                stage.pause(lo, hi);
                path.extend(action.square());
                stage.emit(action, by)
            };
        match m {
            Move::Castle { king, rook } => {
                let side = m.castling_side().expect("castling has a side");
                step(self, Action::Lift(king), 0.3, 1.0)?;
                step(self, Action::Release(side.king_to(us)), 0.3, 0.8)?;
                step(self, Action::Lift(rook), 0.2, 0.6)?;
                step(self, Action::Release(side.rook_to(us)), 0.3, 0.8)?;
            }
            Move::EnPassant { from, to } => {
                step(self, Action::Lift(from), 0.3, 1.0)?;
                step(self, Action::Release(to), 0.4, 1.2)?;
                step(
                    self,
                    Action::Capture(Square::from_coords(to.file(), from.rank())),
                    0.3,
                    0.8,
                )?;
            }
            Move::Normal {
                from,
                to,
                capture,
                promotion,
                ..
            } => {
                step(self, Action::Lift(from), 0.3, 1.0)?;
                if capture.is_some() {
                    step(self, Action::Capture(to), 0.4, 1.0)?;
                }
                if let Some(role) = promotion {
                    step(self, Action::Capture(from), 0.3, 0.8)?;
                    step(self, Action::Add(to, role), 0.4, 1.0)?;
                }
                step(self, Action::Release(to), 0.3, 1.0)?;
            }
            Move::Put { .. } => return Err("drops are not chess moves".into()),
        }
        self.pause(0.3, 0.8);
        Ok(path)
    }

    fn last_move(&self) -> String {
        self.referee
            .moves()
            .last()
            .map_or_else(|| "the start".to_string(), |m| m.san.clone())
    }
}

fn round_ms(t: f64) -> f64 {
    (t * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str =
        "tag White Smith\ncamera seed=7\nmove e2e4\nclock\ntouch g8\nmove b8c6\nclock\n";

    #[test]
    fn the_contract_example_plays_out_with_its_violation() {
        let played = choreograph(&Scenario::parse(EXAMPLE).expect("parses")).expect("plays");
        let sans: Vec<&str> = played.moves().iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "Nc6"]);
        let incident = &played.verdict.incidents[0];
        assert_eq!(
            (incident.kind.name(), incident.article, incident.ply),
            ("touch_move", "4.3a", 2)
        );
        assert!(
            played.events.windows(2).all(|w| w[0].t < w[1].t),
            "times increase"
        );
        assert_eq!(played.gestures.len(), 5);
        assert!(played.duration > played.events.last().expect("events").t);
    }

    #[test]
    fn the_same_seed_gives_the_same_times() {
        let scenario = Scenario::parse(EXAMPLE).expect("parses");
        let a = choreograph(&scenario).expect("plays");
        let b = choreograph(&scenario).expect("plays");
        assert_eq!(a.events, b.events);
        let other = Scenario::parse(&EXAMPLE.replace("seed=7", "seed=8")).expect("parses");
        assert_ne!(choreograph(&other).expect("plays").events, a.events);
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_line() {
        let err = choreograph(&Scenario::parse("move e2e4\nclock\nmove e2e4\n").expect("parses"))
            .expect_err("illegal");
        assert_eq!(err.line, 3);
        assert!(err.message.contains("not legal"), "{err}");
        let err =
            choreograph(&Scenario::parse("lift e4\n").expect("parses")).expect_err("empty square");
        assert_eq!(
            (err.line, err.message.as_str()),
            (1, "lift e4: no piece stands on e4")
        );
        let err = choreograph(
            &Scenario::parse(
                "# a bad start
start fen xyz
",
            )
            .expect("parses"),
        )
        .expect_err("no position");
        assert_eq!(err.line, 2, "{err}");
    }

    #[test]
    fn a_hover_passes_its_squares_in_turn_and_never_lower_than_a_head() {
        let played = choreograph(
            &Scenario::parse("hover e2 d2 c2 height=1.2 seconds=1.5\nmove e2e4\n").expect("parses"),
        )
        .expect("plays");
        let hover = &played.gestures[0];
        assert_eq!(
            (hover.kind, hover.squares.as_slice(), hover.height),
            (
                "hover",
                &[Square::E2, Square::D2, Square::C2][..],
                Some(1.2)
            )
        );
        assert!((hover.end - hover.start - 1.5).abs() < 1e-9);
        assert!(
            played.events.iter().all(|e| e.t >= hover.end),
            "a hover makes no event"
        );
        let err = choreograph(&Scenario::parse("hover d2 d1 height=1.2\n").expect("parses"))
            .expect_err("the queen's head is at 1.45");
        assert!(err.message.contains("would touch the piece on d1"), "{err}");
    }

    #[test]
    fn every_kind_of_move_is_read_back() {
        let text = "move e2e4\nclock\nmove d7d5\nclock\nmove e4d5\nclock\nmove c7c5\nclock\nmove d5c6\nclock\n\
                    move g8f6\nclock\nmove c6b7\nclock\nmove e7e6\nclock\nmove b7a8q\nclock\nmove f8e7\nclock\n\
                    move g1f3\nclock\nmove e8g8\nclock\n";
        let played = choreograph(&Scenario::parse(text).expect("parses")).expect("plays");
        let sans: Vec<&str> = played.moves().iter().map(|m| m.san.as_str()).collect();
        assert_eq!(
            sans,
            [
                "e4", "d5", "exd5", "c5", "dxc6", "Nf6", "cxb7", "e6", "bxa8=Q", "Be7", "Nf3",
                "O-O"
            ]
        );
        assert!(
            played.verdict.incidents.is_empty(),
            "{:#?}",
            played.verdict.incidents
        );
    }
}
