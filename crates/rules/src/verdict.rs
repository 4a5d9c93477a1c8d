//! What the referee reports (contracts.md §2): moves, incidents with their
//! articles, claims, the result, the position and the PGN.

use serde::Serialize;
use shakmaty::Color;

use crate::event::Event;

/// A side, written `white` or `black`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl From<Color> for Side {
    fn from(color: Color) -> Self {
        match color {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

/// One move of the record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveRecord {
    /// 1 for White's first move from the standard start.
    pub ply: u32,
    pub side: Side,
    pub san: String,
    pub uci: String,
    /// When the move was made (the release that formed it, art. 4.7).
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub t: f64,
    /// Time left on the mover's clock after the press, seconds, when known.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::seconds::serialize_option"
    )]
    pub clock: Option<f64>,
    /// Found afterwards by the search for moves the eyes missed, not seen
    /// as it was made: for the arbiter to check (`{recovered}` in PGN).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub recovered: bool,
}

/// The fixed vocabulary of incidents (contracts.md §2; extend, never rename).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IncidentKind {
    TouchMove,
    ReleaseFinal,
    PromotionChanged,
    TwoHands,
    AdjustUndeclared,
    TouchOnOpponentTurn,
    IllegalMove,
    /// Not the players': the record no longer explains the board (moves
    /// missing from it, or one misread), for the arbiter to restore from
    /// the scoresheets.
    RecordGap,
}

impl IncidentKind {
    pub const ALL: [IncidentKind; 8] = [
        IncidentKind::TouchMove,
        IncidentKind::ReleaseFinal,
        IncidentKind::PromotionChanged,
        IncidentKind::TwoHands,
        IncidentKind::AdjustUndeclared,
        IncidentKind::TouchOnOpponentTurn,
        IncidentKind::IllegalMove,
        IncidentKind::RecordGap,
    ];

    /// Whether a player did it (a claim the opponent may make), rather
    /// than the record failing ([`IncidentKind::RecordGap`]).
    pub fn is_players(self) -> bool {
        self != IncidentKind::RecordGap
    }

    /// The kind a stored name stands for.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            IncidentKind::TouchMove => "touch_move",
            IncidentKind::ReleaseFinal => "release_final",
            IncidentKind::PromotionChanged => "promotion_changed",
            IncidentKind::TwoHands => "two_hands",
            IncidentKind::AdjustUndeclared => "adjust_undeclared",
            IncidentKind::TouchOnOpponentTurn => "touch_on_opponent_turn",
            IncidentKind::IllegalMove => "illegal_move",
            IncidentKind::RecordGap => "record_gap",
        }
    }
}

/// The article of the Laws an incident falls under, e.g. `4.3a`.
pub type Article = &'static str;

/// Every article an incident can cite (contracts.md §2).
pub const ARTICLES: [Article; 13] = [
    "4.0", "4.1", "4.2", "4.3a", "4.3b", "4.3c", "4.4a", "4.4b", "4.4c", "4.4d", "4.7", "7.5",
    "8.1",
];

/// What an article asks of the players, in a sentence (rules.md), for
/// the arbiter's panel and the incident report.
pub fn law(article: &str) -> &'static str {
    match article {
        "4.0" => "Touching pieces while the opponent has the move is forbidden.",
        "4.1" => "Each move is played with one hand only.",
        "4.2" => {
            "Only the player having the move may adjust pieces, after first announcing it (\"j'adoube\")."
        }
        "4.3a" => {
            "A player who deliberately touches own pieces must move the first touched piece that can be moved."
        }
        "4.3b" => {
            "Touching opponent's pieces obliges capturing the first touched piece that can be captured."
        }
        "4.3c" => {
            "Touching a piece of each colour obliges capturing the opponent's piece with the own piece."
        }
        "4.4a" => "Touching the king and then a rook obliges castling on that side if legal.",
        "4.4b" => {
            "Touching a rook first and then the king: castling on that side is not allowed on this move."
        }
        "4.4c" => {
            "Castling intended but illegal on that side: another legal king move must be made."
        }
        "4.4d" => "The promotion piece is final once it has touched the promotion square.",
        "4.7" => {
            "A piece released on a square as a legal move cannot then be moved to another square on this move."
        }
        "7.5" => "An illegal move completed (clock pressed) is penalised by the arbiter.",
        "8.1" => {
            "The record no longer explains the board: moves are missing or misread; restore them from the scoresheets (a correction)."
        }
        _ => "",
    }
}

/// The article a stored name stands for.
pub fn article(name: &str) -> Option<Article> {
    ARTICLES.into_iter().find(|a| *a == name)
}

/// A touch as evidence: which piece, where it stood, when.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TouchRecord {
    pub square: String,
    /// FEN letter of the piece (upper case white).
    pub piece: String,
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub t: f64,
}

/// Something the Laws forbid, with its evidence, for the arbiter to decide.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Incident {
    pub id: String,
    /// The ply of the move being played when it happened.
    pub ply: u32,
    /// Who did it.
    pub side: Side,
    pub kind: IncidentKind,
    pub article: Article,
    pub squares: Vec<String>,
    #[serde(serialize_with = "crate::seconds::serialize")]
    pub t: f64,
    /// Whether the opponent may still claim it (art. 4.8).
    pub claimable: bool,
    pub detail: String,
    /// The touches of the turn in the order the Laws count them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub touches: Vec<TouchRecord>,
    /// The move played on that turn, in SAN, when one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played: Option<String>,
    /// Where its clip is kept (the clip's manifest), when one was cut:
    /// `referee replay --evidence DIR`, the service.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clip: Option<String>,
}

/// A draw a player may claim (threefold repetition, fifty moves).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Claim {
    /// The ply after which the claim became possible.
    pub ply: u32,
    /// `threefold_repetition` or `fifty_moves`.
    pub kind: &'static str,
    pub detail: String,
}

/// The referee's verdict on a game so far.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    pub moves: Vec<MoveRecord>,
    pub incidents: Vec<Incident>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// How the game ended, when it did: `checkmate`, `stalemate`, …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub termination: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Claim>,
    /// The position of the record (the last legal one).
    pub fen: String,
    pub pgn: String,
    /// The physical events refereed (from the log, or those the chain saw).
    pub events: Vec<Event>,
    pub stats: serde_json::Map<String, serde_json::Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_article_says_what_it_asks() {
        for article in ARTICLES {
            assert!(law(article).ends_with('.'), "{article}");
        }
        assert_eq!(law("9.9"), "");
    }
}
