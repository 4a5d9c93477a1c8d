//! The referee: physical events, one at a time, on the game position.
//!
//! It keeps the record's position (the last legal one), the [`Table`] of
//! what physically stands on the board, and the touches of the turn. A move
//! is made at the release that forms a legal move (art. 4.7) and completed
//! by the clock, or by the opponent's first deliberate action where no clock
//! is seen; then the obligation of the touches is checked against it. Each
//! [`Referee::apply`] returns what became known: moves, incidents, the end.

use std::collections::HashMap;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    Board, CastlingMode, Chess, Color, EnPassantMode, Move, Piece, Position, Role, Square,
};

use crate::error::{ApplyError, EventLogError};
use crate::event::{Action, Event, parse_event_log};
use crate::notation::piece_on;
use crate::obligation::{Contact, Touch, in_law_order, judge};
use crate::pgn::{Tags, write_pgn};
use crate::table::Table;
use crate::verdict::{Claim, Incident, IncidentKind, MoveRecord, Side, TouchRecord, Verdict};

/// Below this confidence a touch is an accidental brush, not a deliberate
/// touch: it creates no obligation (rules.md, art. 7.4).
pub const DELIBERATE_TOUCH: f32 = 0.5;

/// What one event made known.
#[derive(Debug, Clone, PartialEq)]
pub enum Update {
    Move(MoveRecord),
    Incident(Incident),
    /// The game ended: result and how.
    End {
        result: String,
        termination: String,
    },
    /// A draw became claimable.
    Claim(Claim),
}

/// A legal move formed on the table, not yet completed.
#[derive(Debug, Clone, Copy)]
struct Made {
    m: Move,
    t: f64,
}

/// The state of the turn of the side having the move.
#[derive(Debug, Clone, Default)]
struct Turn {
    /// Deliberate touches before the move was made, first touch of each piece.
    touches: Vec<Touch>,
    made: Option<Made>,
    /// Pieces seen released as a legal move or part of one (4.7): origin →
    /// square. A release read from a still board afterwards (recovered) is
    /// none: nobody saw the hand let go there.
    finals: Vec<(Square, Square)>,
    /// Pieces already reported as moved on after release.
    moved_on: Vec<Square>,
    /// "J'adoube" said: touches until the next lift are adjustments.
    adjust_declared: bool,
    /// The first piece added on a promotion square (4.4d).
    promotion: Option<(Square, Role)>,
    /// Some event of this turn's move was recovered, not seen as it happened.
    recovered: bool,
}

/// Referees one game.
#[derive(Debug, Clone)]
pub struct Referee {
    tags: Tags,
    start: Chess,
    pos: Chess,
    table: Table,
    turn: Turn,
    moves: Vec<MoveRecord>,
    incidents: Vec<Incident>,
    claims: Vec<Claim>,
    repetitions: HashMap<u64, u32>,
    ending: Option<(String, String)>,
    last_t: f64,
    events_applied: u64,
    events_ignored: u64,
}

impl Referee {
    /// A game from `start`, with PGN tags.
    pub fn new(start: Chess, tags: Tags) -> Self {
        let mut referee = Self {
            tags,
            table: Table::new(start.board().clone()),
            pos: start.clone(),
            start,
            turn: Turn::default(),
            moves: Vec::new(),
            incidents: Vec::new(),
            claims: Vec::new(),
            repetitions: HashMap::new(),
            ending: None,
            last_t: 0.0,
            events_applied: 0,
            events_ignored: 0,
        };
        referee.count_repetition();
        referee
    }

    /// A game from a FEN (`None`: the standard start).
    pub fn from_fen(fen: Option<&str>, tags: Tags) -> Result<Self, String> {
        let start = match fen {
            None => Chess::default(),
            Some(text) => text
                .parse::<Fen>()
                .map_err(|e| format!("FEN `{text}`: {e}"))?
                .into_position(CastlingMode::Standard)
                .map_err(|e| format!("FEN `{text}`: {e}"))?,
        };
        Ok(Self::new(start, tags))
    }

    /// The record's position: the last legal one.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// What physically stands on the board.
    pub fn board_on_table(&self) -> &Board {
        self.table.board()
    }

    /// The position the game started from.
    pub fn start(&self) -> &Chess {
        &self.start
    }

    pub fn moves(&self) -> &[MoveRecord] {
        &self.moves
    }

    pub fn incidents(&self) -> &[Incident] {
        &self.incidents
    }

    /// Draws that became claimable (threefold repetition, fifty moves).
    pub fn claims(&self) -> &[Claim] {
        &self.claims
    }

    /// The ply being played now.
    pub fn ply(&self) -> u32 {
        ply_of(&self.pos)
    }

    /// Applies one event. On error nothing changed.
    pub fn apply(&mut self, event: &Event) -> Result<Vec<Update>, ApplyError> {
        if event.t < self.last_t {
            return Err(ApplyError::TimeGoesBack {
                t: event.t,
                previous: self.last_t,
            });
        }
        if self.ending.is_some() {
            self.events_ignored += 1;
            return Ok(Vec::new());
        }
        self.check(event)?;
        self.last_t = event.t;
        self.events_applied += 1;
        let mut updates = Vec::new();
        let actor = self.actor(event);
        if actor != self.pos.turn() && is_deliberate(event) && self.move_stands() {
            // No clock seen: the opponent's first deliberate action completes the move.
            self.complete(event.t, None, &mut updates);
            if self.ending.is_some() {
                return Ok(updates);
            }
        }
        if actor == self.pos.turn() {
            self.turn.recovered |= event.recovered;
            self.act(event, &mut updates)?;
        } else {
            self.act_out_of_turn(event, actor, &mut updates)?;
        }
        Ok(updates)
    }

    /// Whose hand did it: the event's side; where it is not given, the side
    /// to move, unless its move stands made and the hand takes hold of an
    /// opponent's piece, takes a piece off the board, or brings one in: then
    /// it is the opponent, starting the next turn.
    fn actor(&self, event: &Event) -> Color {
        let us = self.pos.turn();
        if let Some(side) = event.side {
            return side;
        }
        let at = |sq: Square| self.table.piece_at(sq);
        let theirs = match event.action {
            Action::Touch(sq) | Action::Lift(sq) | Action::Adjust(sq) => {
                at(sq).is_some_and(|(piece, _)| piece.color != us)
            }
            // Once a move stands, taking a piece off is the opponent's capture
            // (or promotion), unless it is the piece the mover just brought in.
            Action::Capture(sq) => {
                at(sq).is_some_and(|(piece, origin)| piece.color != us || origin.is_some())
            }
            // The mover has nothing more to bring once a move stands.
            Action::Add(..) => true,
            _ => false,
        };
        if theirs && is_deliberate(event) && self.move_stands() {
            !us
        } else {
            us
        }
    }

    /// A legal move is made and nothing is held: the turn could be completed.
    fn move_stands(&self) -> bool {
        self.turn.made.is_some() && self.table.is_settled()
    }

    /// Ends the log: a move made but never completed counts as played.
    pub fn finish(&mut self) -> Vec<Update> {
        let mut updates = Vec::new();
        if self.ending.is_none() && self.table.is_settled() && self.formed_move().is_some() {
            self.complete(self.last_t, None, &mut updates);
        }
        updates
    }

    /// Rejects an event the table contradicts, before anything changes.
    fn check(&self, event: &Event) -> Result<(), ApplyError> {
        let empty = |action, square| ApplyError::EmptySquare { action, square };
        match event.action {
            Action::Touch(sq) if self.table.piece_at(sq).is_none() => Err(empty("touch", sq)),
            Action::Lift(sq) if self.table.piece_at(sq).is_none() => Err(empty("lift", sq)),
            Action::Adjust(sq) if self.table.piece_at(sq).is_none() => Err(empty("adjust", sq)),
            Action::Capture(sq) if self.table.capture_target(sq).is_none() => {
                Err(empty("capture", sq))
            }
            Action::Release(sq) if self.table.hand().is_empty() => {
                Err(ApplyError::NothingHeld { square: sq })
            }
            _ => Ok(()),
        }
    }

    /// An event by the side having the move.
    fn act(&mut self, event: &Event, updates: &mut Vec<Update>) -> Result<(), ApplyError> {
        let t = event.t;
        let us = self.pos.turn();
        match event.action {
            Action::Touch(sq) => {
                if is_deliberate(event) && !self.turn.adjust_declared {
                    self.touch(sq, t, Contact::Touched, event.recovered);
                }
            }
            Action::Adjust(sq) => {
                if !self.turn.adjust_declared {
                    self.touch(sq, t, Contact::Touched, event.recovered);
                    let detail = format!(
                        "adjusted {} without announcing it",
                        self.describe_on_table(sq)
                    );
                    self.incident(
                        IncidentKind::AdjustUndeclared,
                        "4.2",
                        us,
                        vec![sq],
                        t,
                        detail,
                        updates,
                    );
                }
            }
            Action::Declare => self.turn.adjust_declared = true,
            Action::Lift(sq) => {
                self.turn.adjust_declared = false;
                self.touch(sq, t, Contact::Held, event.recovered);
                self.table.lift(sq)?;
            }
            Action::Release(sq) => {
                let held = self.table.release(sq)?;
                self.check_release_final(held.origin, sq, t, updates);
                self.after_table_change(t, !event.recovered, updates);
            }
            Action::Capture(sq) => {
                self.touch(sq, t, Contact::Held, event.recovered);
                self.table.capture(sq)?;
                self.after_table_change(t, !event.recovered, updates);
            }
            Action::Add(sq, role) => {
                match self.turn.promotion {
                    Some((first_sq, first_role)) if first_sq == sq && first_role != role => {
                        let detail = format!(
                            "put a {} on {sq} and then changed it for a {}",
                            role_name(first_role),
                            role_name(role)
                        );
                        self.incident(
                            IncidentKind::PromotionChanged,
                            "4.4d",
                            us,
                            vec![sq],
                            t,
                            detail,
                            updates,
                        );
                    }
                    Some(_) => {}
                    None => self.turn.promotion = Some((sq, role)),
                }
                self.table.add(Piece { color: us, role }, sq);
            }
            Action::Clock => self.complete(t, event.remaining, updates),
            Action::TwoHands => {
                let detail = "handled pieces with both hands".to_string();
                self.incident(
                    IncidentKind::TwoHands,
                    "4.1",
                    us,
                    Vec::new(),
                    t,
                    detail,
                    updates,
                );
            }
        }
        Ok(())
    }

    /// An event by the side not having the move.
    fn act_out_of_turn(
        &mut self,
        event: &Event,
        actor: Color,
        updates: &mut Vec<Update>,
    ) -> Result<(), ApplyError> {
        let t = event.t;
        let handles_piece = matches!(
            event.action,
            Action::Touch(_) | Action::Lift(_) | Action::Adjust(_)
        );
        if let (true, Some(sq)) = (handles_piece && is_deliberate(event), event.action.square()) {
            let detail = format!(
                "{} handled {} while {} had the move",
                side_name(actor),
                self.describe_on_table(sq),
                side_name(!actor)
            );
            self.incident(
                IncidentKind::TouchOnOpponentTurn,
                "4.0",
                actor,
                vec![sq],
                t,
                detail,
                updates,
            );
        }
        match event.action {
            Action::Lift(sq) => drop(self.table.lift(sq)?),
            Action::Release(sq) => drop(self.table.release(sq)?),
            Action::Capture(sq) => drop(self.table.capture(sq)?),
            Action::Add(sq, role) => self.table.add(Piece { color: actor, role }, sq),
            Action::TwoHands => {
                let detail = "handled pieces with both hands".to_string();
                self.incident(
                    IncidentKind::TwoHands,
                    "4.1",
                    actor,
                    Vec::new(),
                    t,
                    detail,
                    updates,
                );
            }
            Action::Touch(_) | Action::Adjust(_) | Action::Declare | Action::Clock => {
                self.events_ignored += 1
            }
        }
        Ok(())
    }

    /// A deliberate touch by the side having the move.
    fn touch(&mut self, square: Square, t: f64, contact: Contact, recovered: bool) {
        let Some((piece, origin)) = self.table.capture_target(square) else {
            return;
        };
        // 4.8: touching a piece to move it ends the right to claim the opponent's violations.
        let us = self.pos.turn();
        for incident in &mut self.incidents {
            if incident.side == Side::from(!us) && incident.t <= t {
                incident.claimable = false;
            }
        }
        let Some(origin) = origin else { return };
        if self.turn.made.is_some() || self.turn.touches.iter().any(|touch| touch.square == origin)
        {
            return;
        }
        self.turn.touches.push(Touch {
            square: origin,
            piece,
            t,
            contact,
            recovered,
        });
    }

    /// 4.7: a piece released as a legal move (or part of one) and then set down elsewhere.
    fn check_release_final(
        &mut self,
        origin: Option<Square>,
        square: Square,
        t: f64,
        updates: &mut Vec<Update>,
    ) {
        let Some(origin) = origin else { return };
        let Some(&(_, first)) = self.turn.finals.iter().find(|(o, _)| *o == origin) else {
            return;
        };
        if first == square || self.turn.moved_on.contains(&origin) {
            return;
        }
        self.turn.moved_on.push(origin);
        let piece = self
            .pos
            .board()
            .piece_at(origin)
            .map(|p| piece_on(p, origin))
            .unwrap_or_default();
        let detail =
            format!("released {piece} on {first}, a legal move, then moved it on to {square}");
        let us = self.pos.turn();
        self.incident(
            IncidentKind::ReleaseFinal,
            "4.7",
            us,
            vec![first, square],
            t,
            detail,
            updates,
        );
    }

    /// After a release, capture or add (`seen` made, not recovered): is a
    /// legal move (or castling's first half) formed?
    fn after_table_change(&mut self, t: f64, seen: bool, updates: &mut Vec<Update>) {
        let formed = self.formed_move();
        self.turn.made = formed.map(|m| match self.turn.made {
            Some(made) if made.m == m => made,
            _ => Made { m, t },
        });
        if let Some(m) = formed {
            if seen {
                self.record_finals(&m);
            }
            let mut after = self.pos.clone();
            after.play_unchecked(m);
            if after.is_checkmate() || after.is_stalemate() {
                // A move that ends the game needs no clock.
                self.complete(t, None, updates);
            }
        } else if let Some(king) = self.castling_king_released().filter(|_| seen) {
            self.record_final(king.0, king.1);
        }
    }

    fn record_finals(&mut self, m: &Move) {
        match *m {
            Move::Castle { king, rook } => {
                let side = m.castling_side().expect("castling has a side");
                let us = self.pos.turn();
                self.record_final(king, side.king_to(us));
                self.record_final(rook, side.rook_to(us));
            }
            _ => {
                if let Some(from) = m.from() {
                    self.record_final(from, m.to());
                }
            }
        }
    }

    fn record_final(&mut self, origin: Square, square: Square) {
        if !self.turn.finals.iter().any(|(o, _)| *o == origin) {
            self.turn.finals.push((origin, square));
        }
    }

    /// The king released on its castling square with castling legal: the
    /// first half of castling (4.7), as (origin, square).
    fn castling_king_released(&self) -> Option<(Square, Square)> {
        if !self.table.is_settled() {
            return None;
        }
        let us = self.pos.turn();
        let king = self.pos.board().king_of(us)?;
        self.pos.legal_moves().into_iter().find_map(|m| {
            let side = m.castling_side().filter(|_| m.is_castle())?;
            let mut board = self.pos.board().clone();
            let piece = board.remove_piece_at(king)?;
            board.set_piece_at(side.king_to(us), piece);
            (side.king_to(us) != king && &board == self.table.board())
                .then_some((king, side.king_to(us)))
        })
    }

    /// The legal move whose position stands on the table, if any.
    fn formed_move(&self) -> Option<Move> {
        if !self.table.is_settled() {
            return None;
        }
        let table = self.table.board();
        self.pos.legal_moves().into_iter().find(|m| {
            let mut after = self.pos.clone();
            after.play_unchecked(*m);
            after.board() == table
        })
    }

    /// Completes the turn: the move on the table is played, or an illegal move is reported.
    fn complete(&mut self, t: f64, remaining: Option<f64>, updates: &mut Vec<Update>) {
        match self.formed_move() {
            Some(m) => {
                let made_t = match self.turn.made {
                    Some(made) if made.m == m => made.t,
                    _ => t,
                };
                self.play(m, made_t, remaining, updates);
            }
            None => self.report_illegal(t, updates),
        }
    }

    fn play(&mut self, m: Move, t: f64, remaining: Option<f64>, updates: &mut Vec<Update>) {
        let us = self.pos.turn();
        let ply = self.ply();
        let judgement = judge(&self.pos, &self.turn.touches);
        let breach = judgement.breach(&m);
        let touches = self.touch_records();
        let mut after = self.pos.clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut after, m).to_string();
        let record = MoveRecord {
            ply,
            side: us.into(),
            san: san.clone(),
            uci: m.to_uci(CastlingMode::Standard).to_string(),
            t,
            clock: remaining,
            recovered: self.turn.recovered,
        };
        if let Some(breach) = breach {
            let incident = Incident {
                id: self.next_incident_id(),
                ply,
                side: us.into(),
                kind: IncidentKind::TouchMove,
                article: breach.article,
                squares: breach.squares.iter().map(ToString::to_string).collect(),
                t: breach.t,
                claimable: true,
                detail: breach.detail,
                touches,
                played: Some(san.clone()),
                clip: None,
            };
            self.incidents.push(incident.clone());
            updates.push(Update::Incident(incident));
        }
        for incident in self
            .incidents
            .iter_mut()
            .filter(|i| i.ply == ply && i.played.is_none())
        {
            incident.played = Some(san.clone());
        }
        self.moves.push(record.clone());
        updates.push(Update::Move(record));
        self.pos = after;
        self.table = Table::new(self.pos.board().clone());
        self.turn = Turn::default();
        self.count_repetition();
        self.check_end(updates);
    }

    /// The eyes have read the board, from `since` to `t`, as a position
    /// the record does not explain, on `squares`: moves are missing from
    /// the record (or one read is wrong). Raised for the arbiter, who
    /// restores the record from the scoresheets (art. 8.1) with a correction.
    pub fn record_gap(&mut self, since: f64, t: f64, squares: Vec<Square>) -> Vec<Update> {
        let last = self.moves.last().map_or("the start".to_string(), |m| {
            format!("{}{}", move_number_prefix(m.ply), m.san)
        });
        let named: Vec<String> = squares.iter().map(ToString::to_string).collect();
        let detail = format!(
            "for {:.0} s the board has read otherwise than the record on {}, and no legal moves from it explain that: moves may be missing after {last}, or one read wrongly; the arbiter restores the record from the scoresheets",
            t - since,
            named.join(", ")
        );
        let mut updates = Vec::new();
        self.incident(
            IncidentKind::RecordGap,
            "8.1",
            self.pos.turn(),
            squares,
            since,
            detail,
            &mut updates,
        );
        updates
    }

    fn report_illegal(&mut self, t: f64, updates: &mut Vec<Update>) {
        let us = self.pos.turn();
        let (squares, seen) = describe_difference(
            self.pos.board(),
            self.table.board(),
            self.table.hand().len(),
        );
        let last = self.moves.last().map_or("the start".to_string(), |m| {
            format!("{}{}", move_number_prefix(m.ply), m.san)
        });
        let detail = if squares.is_empty() && self.table.hand().is_empty() {
            format!("pressed the clock without making a move; the record stays after {last}")
        } else {
            format!("no legal move explains what was seen ({seen}); the record stays after {last}")
        };
        self.incident(
            IncidentKind::IllegalMove,
            "7.5",
            us,
            squares,
            t,
            detail,
            updates,
        );
        self.turn.made = None;
    }

    #[allow(clippy::too_many_arguments)]
    fn incident(
        &mut self,
        kind: IncidentKind,
        article: &'static str,
        side: Color,
        squares: Vec<Square>,
        t: f64,
        detail: String,
        updates: &mut Vec<Update>,
    ) {
        let touches = if side == self.pos.turn() {
            self.touch_records()
        } else {
            Vec::new()
        };
        let incident = Incident {
            id: self.next_incident_id(),
            ply: self.ply(),
            side: side.into(),
            kind,
            article,
            squares: squares.iter().map(ToString::to_string).collect(),
            t,
            claimable: kind.is_players(),
            detail,
            touches,
            played: None,
            clip: None,
        };
        self.incidents.push(incident.clone());
        updates.push(Update::Incident(incident));
    }

    fn next_incident_id(&self) -> String {
        format!("i{}", self.incidents.len() + 1)
    }

    fn touch_records(&self) -> Vec<TouchRecord> {
        in_law_order(&self.pos, &self.turn.touches)
            .iter()
            .map(|touch| TouchRecord {
                square: touch.square.to_string(),
                piece: touch.piece.char().to_string(),
                t: touch.t,
            })
            .collect()
    }

    fn describe_on_table(&self, square: Square) -> String {
        self.table
            .piece_at(square)
            .map_or_else(|| square.to_string(), |(piece, _)| piece_on(piece, square))
    }

    fn count_repetition(&mut self) {
        let key: Zobrist64 = self.pos.zobrist_hash(EnPassantMode::Legal);
        *self.repetitions.entry(key.0).or_insert(0) += 1;
    }

    fn repetition_count(&self) -> u32 {
        let key: Zobrist64 = self.pos.zobrist_hash(EnPassantMode::Legal);
        self.repetitions.get(&key.0).copied().unwrap_or(0)
    }

    /// Art. 5 and 9: the end of the game, or a draw that may be claimed.
    fn check_end(&mut self, updates: &mut Vec<Update>) {
        let ply = self.ply() - 1;
        let winner = |color: Color| if color == Color::White { "1-0" } else { "0-1" };
        let ending = if self.pos.is_checkmate() {
            Some((winner(!self.pos.turn()), "checkmate"))
        } else if self.pos.is_stalemate() {
            Some(("1/2-1/2", "stalemate"))
        } else if self.pos.is_insufficient_material() {
            Some(("1/2-1/2", "dead position"))
        } else if self.repetition_count() >= 5 {
            Some(("1/2-1/2", "fivefold repetition"))
        } else if self.pos.halfmoves() >= 150 {
            Some(("1/2-1/2", "seventy-five-move rule"))
        } else {
            None
        };
        if let Some((result, termination)) = ending {
            self.ending = Some((result.to_string(), termination.to_string()));
            updates.push(Update::End {
                result: result.to_string(),
                termination: termination.to_string(),
            });
            return;
        }
        let repetitions = self.repetition_count();
        let mut claim = |kind: &'static str, detail: String| {
            if !self.claims.iter().any(|c| c.kind == kind && c.ply == ply) {
                let claim = Claim { ply, kind, detail };
                self.claims.push(claim.clone());
                updates.push(Update::Claim(claim));
            }
        };
        if repetitions >= 3 {
            claim(
                "threefold_repetition",
                format!("the position has occurred {repetitions} times: a draw may be claimed"),
            );
        }
        if self.pos.halfmoves() >= 100 {
            claim(
                "fifty_moves",
                "50 moves by each side without a pawn move or capture: a draw may be claimed"
                    .into(),
            );
        }
    }

    /// The verdict so far (contracts.md §2).
    pub fn verdict(&self) -> Verdict {
        let (result, termination) = match &self.ending {
            Some((result, termination)) => (result.clone(), Some(termination.clone())),
            None => ("*".to_string(), None),
        };
        let start_fen = (self.start != Chess::default())
            .then(|| Fen::from_position(&self.start, EnPassantMode::Legal).to_string());
        let pgn = write_pgn(
            &self.tags,
            start_fen.as_deref(),
            ply_of(&self.start),
            &self.moves,
            &self.incidents,
            &self.claims,
            &result,
            termination.as_deref(),
        );
        let mut stats = serde_json::Map::new();
        stats.insert("events_applied".into(), self.events_applied.into());
        stats.insert("events_ignored".into(), self.events_ignored.into());
        Verdict {
            moves: self.moves.clone(),
            incidents: self.incidents.clone(),
            result,
            termination,
            claims: self.claims.clone(),
            fen: Fen::from_position(&self.pos, EnPassantMode::Legal).to_string(),
            pgn,
            events: Vec::new(),
            stats,
        }
    }
}

/// Referees a whole event log (JSON Lines) from `fen` (`None`: the
/// standard start); the verdict carries the events it applied. Errors name
/// the line.
pub fn arbitrate_log(text: &str, fen: Option<&str>, tags: Tags) -> Result<Verdict, ArbitrateError> {
    let events = parse_event_log(text)?;
    let mut referee = Referee::from_fen(fen, tags).map_err(ArbitrateError::Fen)?;
    for (line, event) in &events {
        referee
            .apply(event)
            .map_err(|source| EventLogError::Apply {
                line: *line,
                source,
            })?;
    }
    referee.finish();
    let mut verdict = referee.verdict();
    verdict.events = events.into_iter().map(|(_, event)| event).collect();
    Ok(verdict)
}

/// Why a log could not be refereed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ArbitrateError {
    #[error("{0}")]
    Log(#[from] EventLogError),
    #[error("--fen: {0}")]
    Fen(String),
}

/// Whether an event is a deliberate action of a hand (it can complete the
/// opponent's move, and it binds): a touch, lift or adjustment, not a brush.
fn is_deliberate(event: &Event) -> bool {
    let sure = event.confidence.is_none_or(|c| c >= DELIBERATE_TOUCH);
    sure && matches!(
        event.action,
        Action::Touch(_)
            | Action::Lift(_)
            | Action::Adjust(_)
            | Action::Capture(_)
            | Action::Add(..)
    )
}

/// The ply being played in `pos`: 1 for White's first move.
pub fn ply_of(pos: &Chess) -> u32 {
    2 * (pos.fullmoves().get() - 1) + if pos.turn() == Color::White { 1 } else { 2 }
}

fn move_number_prefix(ply: u32) -> String {
    let number = ply.div_ceil(2);
    if ply % 2 == 1 {
        format!("{number}. ")
    } else {
        format!("{number}... ")
    }
}

fn side_name(color: Color) -> &'static str {
    Side::from(color).name()
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The squares where the table differs from the record, and a phrase
/// saying what changed there.
fn describe_difference(record: &Board, table: &Board, held: usize) -> (Vec<Square>, String) {
    let mut squares = Vec::new();
    let mut parts = Vec::new();
    for square in Square::ALL {
        let (before, now) = (record.piece_at(square), table.piece_at(square));
        if before == now {
            continue;
        }
        squares.push(square);
        parts.push(match (before, now) {
            (Some(p), None) => format!("{} gone", piece_on(p, square)),
            (None, Some(p)) => format!("{} appeared", piece_on(p, square)),
            (Some(p), Some(q)) => format!(
                "{} replaced by {}",
                piece_on(p, square),
                piece_on(q, square)
            ),
            (None, None) => unreachable!("the squares differ"),
        });
    }
    if held > 0 {
        parts.push(format!("{held} piece(s) still in hand"));
    }
    if parts.is_empty() {
        parts.push("nothing moved".into());
    }
    (squares, parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(t: f64, action: Action) -> Event {
        Event::new(t, action)
    }

    #[test]
    fn the_contract_example_gives_the_contract_verdict() {
        let mut referee = Referee::new(Chess::default(), Tags::default());
        let log = [
            ev(1.0, Action::Touch(Square::E2)),
            ev(1.2, Action::Lift(Square::E2)),
            ev(1.8, Action::Release(Square::E4)),
            ev(2.0, Action::Clock),
            ev(3.0, Action::Touch(Square::G8)),
            ev(3.5, Action::Lift(Square::B8)),
            ev(4.0, Action::Release(Square::C6)),
            ev(4.2, Action::Clock),
        ];
        for event in &log {
            referee.apply(event).expect("consistent");
        }
        let verdict = referee.verdict();
        let sans: Vec<_> = verdict.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "Nc6"]);
        assert_eq!(verdict.moves[0].t, 1.8);
        assert_eq!(verdict.incidents.len(), 1);
        let incident = &verdict.incidents[0];
        assert_eq!(
            (incident.kind, incident.article, incident.ply),
            (IncidentKind::TouchMove, "4.3a", 2)
        );
        assert_eq!(incident.squares, ["g8"]);
        assert_eq!(incident.t, 3.0);
        assert_eq!(
            incident.detail,
            "touched Ng8 first, and it could move: Ng8 had to be moved; Nb8-c6 was played"
        );
        assert_eq!(
            verdict.fen,
            "r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
        );
    }

    #[test]
    fn a_contradicted_event_changes_nothing() {
        let mut referee = Referee::new(Chess::default(), Tags::default());
        let err = referee
            .apply(&ev(1.0, Action::Lift(Square::E4)))
            .expect_err("e4 is empty");
        assert_eq!(err.to_string(), "lift e4: no piece stands on e4");
        assert_eq!(referee.verdict().stats["events_applied"], 0);
    }
}
