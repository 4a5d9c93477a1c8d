//! Random legal games and the clean physical event logs a careful player's
//! hands would produce for them: captures in both orders, castling king
//! first, every promotion order, sometimes no clock. Shared by the
//! property test and the benchmark.

#![allow(dead_code)]

use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use shakmaty::san::SanPlus;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position, Role, Square};

use referee_rules::obligation::capture_square;
use referee_rules::{Action, Event};

/// Longest random game, in plies (keeps clear of the 75-move rule).
pub const MAX_PLIES: usize = 120;

/// A random legal game: the moves and their SAN, ending where the Laws end
/// it (mate, stalemate, dead position, fivefold repetition) or at `MAX_PLIES`.
pub fn random_game(rng: &mut ChaCha8Rng) -> Vec<(Move, String)> {
    let mut pos = Chess::default();
    let mut seen = std::collections::HashMap::<u64, u32>::new();
    let mut game = Vec::new();
    *seen.entry(key(&pos)).or_default() += 1;
    while game.len() < MAX_PLIES && !pos.is_game_over() {
        let legal = pos.legal_moves();
        let m = *legal.choose(rng).expect("a legal move");
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        game.push((m, san));
        let count = seen.entry(key(&pos)).or_default();
        *count += 1;
        if *count >= 5 {
            break;
        }
    }
    game
}

fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Appends events to a log, each `step` seconds after the last.
#[derive(Debug)]
pub struct Script {
    pub events: Vec<Event>,
    t: f64,
}

impl Default for Script {
    fn default() -> Self {
        Self::new()
    }
}

impl Script {
    pub fn new() -> Self {
        Self {
            events: Vec::new(),
            t: 0.0,
        }
    }

    pub fn push(&mut self, action: Action) -> &mut Event {
        self.t += 0.4;
        self.events.push(Event::new(self.t, action));
        self.events.last_mut().expect("just pushed")
    }

    /// The events of `m` played from `pos` the ordinary way, in an order
    /// chosen by `rng` where the Laws allow several. No clock.
    pub fn play(&mut self, rng: &mut ChaCha8Rng, pos: &Chess, m: Move) {
        let us = pos.turn();
        match m {
            Move::Castle { king, rook } => {
                let side = m.castling_side().expect("castling side");
                self.push(Action::Lift(king));
                self.push(Action::Release(side.king_to(us)));
                self.push(Action::Lift(rook));
                self.push(Action::Release(side.rook_to(us)));
            }
            Move::EnPassant { from, to } => {
                let victim = Square::from_coords(to.file(), from.rank());
                if rng.random_bool(0.5) {
                    self.push(Action::Capture(victim));
                    self.push(Action::Lift(from));
                    self.push(Action::Release(to));
                } else {
                    self.push(Action::Lift(from));
                    self.push(Action::Release(to));
                    self.push(Action::Capture(victim));
                }
            }
            Move::Normal {
                from,
                to,
                capture,
                promotion: Some(role),
                ..
            } => {
                if capture.is_some() {
                    self.push(Action::Capture(to));
                }
                match rng.random_range(0..3) {
                    0 => {
                        self.push(Action::Lift(from));
                        self.push(Action::Release(to));
                        self.push(Action::Capture(to));
                        self.push(Action::Add(to, role));
                        self.push(Action::Release(to));
                    }
                    1 => {
                        self.push(Action::Capture(from));
                        self.push(Action::Add(to, role));
                        self.push(Action::Release(to));
                    }
                    _ => {
                        self.push(Action::Add(to, role));
                        self.push(Action::Release(to));
                        self.push(Action::Capture(from));
                    }
                }
            }
            Move::Normal {
                from,
                to,
                capture: Some(_),
                ..
            } => match rng.random_range(0..3) {
                0 => {
                    self.push(Action::Capture(to));
                    self.push(Action::Lift(from));
                    self.push(Action::Release(to));
                }
                1 => {
                    self.push(Action::Lift(from));
                    self.push(Action::Capture(to));
                    self.push(Action::Release(to));
                }
                _ => {
                    self.push(Action::Lift(from));
                    self.push(Action::Release(to));
                    self.push(Action::Capture(to));
                }
            },
            Move::Normal { from, to, .. } => {
                self.push(Action::Lift(from));
                self.push(Action::Release(to));
            }
            Move::Put { .. } => unreachable!("no drops in standard chess"),
        }
    }
}

/// A clean event log of a whole game: clocks pressed after most moves.
pub fn clean_log(rng: &mut ChaCha8Rng, game: &[(Move, String)]) -> Vec<Event> {
    let mut pos = Chess::default();
    let mut script = Script::new();
    for (m, _) in game {
        script.play(rng, &pos, *m);
        if rng.random_bool(0.8) {
            script.push(Action::Clock);
        }
        pos.play_unchecked(*m);
    }
    script.events
}

/// The side whose move `ply` (1-based) is.
pub fn side_of_ply(ply: usize) -> Color {
    if ply % 2 == 1 {
        Color::White
    } else {
        Color::Black
    }
}

/// Own pieces of the side to move, other than kings and rooks and the
/// piece that moves, that have a legal move and cannot capture `victim`:
/// touching one first obliges moving it (4.3a) and nothing else.
pub fn decoy_pieces(pos: &Chess, m: &Move) -> Vec<Square> {
    let legal = pos.legal_moves();
    let victim = capture_square(m);
    let mut squares: Vec<Square> = legal
        .iter()
        .filter_map(|c| c.from())
        .filter(|&sq| Some(sq) != m.from())
        .filter(|&sq| {
            let role = pos.board().role_at(sq);
            role != Some(Role::King) && role != Some(Role::Rook)
        })
        .filter(|&sq| {
            victim.is_none_or(|v| {
                !legal
                    .iter()
                    .any(|c| c.from() == Some(sq) && capture_square(c) == Some(v))
            })
        })
        .collect();
    squares.sort();
    squares.dedup();
    squares
}
