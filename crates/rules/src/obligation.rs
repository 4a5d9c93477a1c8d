//! What the touches of a turn oblige the player to do (FIDE art. 4.3-4.5),
//! and whether the move played met it.
//!
//! Input: the position at the start of the turn and the deliberate touches
//! of the player having the move, in order. Touches in the same instant
//! count the player's own piece first (4.3c). Pieces are named by the square
//! they stood on when the turn began. Output: an [`Obligation`], and for a
//! played move a [`Breach`] when it was not met.
//!
//! The obligation is built touch by touch (the older text of `seeds/000`,
//! which agrees with 4.3c): the first touched piece that can be moved (own)
//! or captured (opponent's) binds; a later touch can only narrow that to a
//! capture between a touched own piece and a touched opponent's piece. The
//! king touched first and then a rook means castling (4.4a), or another king
//! move when that castling is illegal (4.4c). A rook touched first forbids
//! castling with it (4.4b). Once pieces of both colours were touched, the
//! obligation is named by 4.3c even where it falls back to moving or
//! capturing the first touched piece.

use shakmaty::{CastlingSide, Chess, Move, Piece, Position, Role, Square};

use crate::notation::{long_move, piece_on};

/// A deliberate touch of a piece by the player having the move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Touch {
    /// Where the piece stood when the turn began.
    pub square: Square,
    pub piece: Piece,
    pub t: f64,
    /// How the hand first met the piece.
    pub contact: Contact,
    /// Seen on frames some of which were lost (the event marked
    /// recovered): where it came among the turn's touches is not known.
    pub recovered: bool,
}

/// How a hand first met a piece in a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contact {
    /// Fingers on the piece where it stands (`touch`, `adjust`).
    Touched,
    /// Taken hold of: lifted, or taken off the board.
    Held,
}

/// What the touches oblige.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Obligation {
    /// Any legal move (nothing touched, or nothing touched could move: 4.5).
    Free,
    /// Move this own piece (4.3a).
    Move { piece: Touch },
    /// Capture this opponent's piece (4.3b).
    Capture { target: Touch },
    /// Capture `target` with `piece` (4.3c).
    CaptureWith { piece: Touch, target: Touch },
    /// Castle on this side (4.4a).
    Castle {
        king: Touch,
        rook: Touch,
        side: CastlingSide,
    },
    /// Castling that side was illegal: another king move (4.4c).
    KingMove { king: Touch, rook: Touch },
    /// King then rook, castling illegal and the king cannot move: any move (4.4c).
    FreedByKing,
}

/// A move that did not meet the obligation.
#[derive(Debug, Clone, PartialEq)]
pub struct Breach {
    /// `4.3a`, `4.3b`, `4.3c`, `4.4a`, `4.4b` or `4.4c`.
    pub article: &'static str,
    /// The touched squares the obligation came from.
    pub squares: Vec<Square>,
    /// When the binding touch happened.
    pub t: f64,
    /// What happened, for the arbiter.
    pub detail: String,
}

/// The obligation of a turn and the castling its touches forbid.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    pub obligation: Obligation,
    /// A rook touched before the king (4.4b): castling with it is not allowed.
    pub rook_first: Option<(Touch, CastlingSide)>,
    /// The touches in the order the Laws count them.
    pub touches: Vec<Touch>,
}

/// Orders touches as the Laws count them: by time, and in the same
/// instant the player's own piece first (4.3c). A castling rook whose touch
/// was seen with frames lost around it is counted after the king, when the
/// king was touched too: the king's touch may have been on a frame lost
/// before it, and a player is not accused of beginning castling with the
/// rook (4.4b) on an order nobody saw.
pub fn in_law_order(pos: &Chess, touches: &[Touch]) -> Vec<Touch> {
    let mut ordered = touches.to_vec();
    let us = pos.turn();
    ordered.sort_by(|a, b| {
        a.t.total_cmp(&b.t)
            .then_with(|| (a.piece.color != us).cmp(&(b.piece.color != us)))
    });
    let unseen_rook = ordered
        .iter()
        .position(|t| t.recovered && castling_side_of_rook(pos, *t).is_some());
    let king = ordered
        .iter()
        .position(|t| t.piece.color == us && t.piece.role == Role::King);
    if let (Some(rook), Some(king)) = (unseen_rook, king)
        && king > rook
    {
        let touch = ordered.remove(king);
        ordered.insert(rook, touch);
    }
    ordered
}

/// Builds the obligation from the touches of a turn.
pub fn judge(pos: &Chess, touches: &[Touch]) -> Judgement {
    let legal = pos.legal_moves();
    let us = pos.turn();
    let mut obligation = Obligation::Free;
    let mut rook_first = None;
    let mut own_touched: Vec<Touch> = Vec::new();
    let ordered = in_law_order(pos, touches);
    for &touch in &ordered {
        if touch.piece.color == us {
            let castling_rook = castling_side_of_rook(pos, touch);
            match (own_touched.as_slice(), castling_rook) {
                ([], Some(side)) => rook_first = Some((touch, side)),
                ([king], Some(side))
                    if king.piece.role == Role::King && settled_on_king(obligation) =>
                {
                    obligation = castling_obligation(&legal, *king, touch, side);
                }
                _ => {}
            }
            own_touched.push(touch);
            obligation = match obligation {
                Obligation::Free if legal.iter().any(|m| m.from() == Some(touch.square)) => {
                    Obligation::Move { piece: touch }
                }
                Obligation::Capture { target } if captures(&legal, touch.square, target.square) => {
                    Obligation::CaptureWith {
                        piece: touch,
                        target,
                    }
                }
                other => other,
            };
        } else {
            obligation = match obligation {
                Obligation::Free
                    if legal
                        .iter()
                        .any(|m| capture_square(m) == Some(touch.square)) =>
                {
                    Obligation::Capture { target: touch }
                }
                Obligation::Move { piece } if captures(&legal, piece.square, touch.square) => {
                    Obligation::CaptureWith {
                        piece,
                        target: touch,
                    }
                }
                other => other,
            };
        }
    }
    Judgement {
        obligation,
        rook_first,
        touches: ordered,
    }
}

/// Whether the obligation so far leaves room for the king-then-rook rule:
/// nothing bound yet, or the king itself.
fn settled_on_king(obligation: Obligation) -> bool {
    match obligation {
        Obligation::Free => true,
        Obligation::Move { piece } => piece.piece.role == Role::King,
        _ => false,
    }
}

fn castling_obligation(legal: &[Move], king: Touch, rook: Touch, side: CastlingSide) -> Obligation {
    let castles = |m: &Move| matches!(m, Move::Castle { rook: r, .. } if *r == rook.square);
    if legal.iter().any(castles) {
        Obligation::Castle { king, rook, side }
    } else if legal.iter().any(|m| m.role() == Role::King) {
        Obligation::KingMove { king, rook }
    } else {
        Obligation::FreedByKing
    }
}

/// The castling side a touched own rook stands for, if it still may castle.
fn castling_side_of_rook(pos: &Chess, touch: Touch) -> Option<CastlingSide> {
    if touch.piece.role != Role::Rook {
        return None;
    }
    CastlingSide::ALL
        .into_iter()
        .find(|&side| pos.castles().rook(touch.piece.color, side) == Some(touch.square))
}

/// The square of the piece a move captures (the victim's own square for en passant).
pub fn capture_square(m: &Move) -> Option<Square> {
    match *m {
        Move::EnPassant { from, to } => Some(Square::from_coords(to.file(), from.rank())),
        Move::Normal {
            capture: Some(_),
            to,
            ..
        } => Some(to),
        _ => None,
    }
}

fn captures(legal: &[Move], from: Square, target: Square) -> bool {
    legal
        .iter()
        .any(|m| m.from() == Some(from) && capture_square(m) == Some(target))
}

impl Judgement {
    /// Checks the move played against the obligation; `None` when it was met.
    pub fn breach(&self, played: &Move) -> Option<Breach> {
        let played_text = long_move(played);
        if let (Some((rook, side)), Move::Castle { .. }) = (self.rook_first, played)
            && played.castling_side() == Some(side)
        {
            return Some(Breach {
                article: "4.4b",
                squares: vec![rook.square],
                t: rook.t,
                detail: format!(
                    "touched the rook on {} before the king: castling on that side was not allowed; played {played_text}",
                    rook.square
                ),
            });
        }
        let met = match self.obligation {
            Obligation::Free | Obligation::FreedByKing => true,
            Obligation::Move { piece } => played.from() == Some(piece.square),
            Obligation::Capture { target } => capture_square(played) == Some(target.square),
            Obligation::CaptureWith { piece, target } => {
                played.from() == Some(piece.square) && capture_square(played) == Some(target.square)
            }
            Obligation::Castle { side, .. } => {
                played.is_castle() && played.castling_side() == Some(side)
            }
            Obligation::KingMove { .. } => played.role() == Role::King,
        };
        if met {
            return None;
        }
        Some(self.describe_breach(played, &played_text))
    }

    /// The first touch of a piece of the other colour than `binding`'s, the
    /// pieces of the move played aside (taking hold of them is the move, not
    /// a touch before it; a victim touched where it stood before being taken
    /// still counts): with one of each colour touched, 4.3c names the
    /// obligation.
    fn other_colour_touched(&self, binding: Touch, played: &Move) -> Option<Touch> {
        let of_the_move = |t: &Touch| {
            played.from() == Some(t.square)
                || (capture_square(played) == Some(t.square) && t.contact == Contact::Held)
        };
        self.touches
            .iter()
            .copied()
            .find(|t| t.piece.color != binding.piece.color && !of_the_move(t))
    }

    /// The breach under 4.3c where a piece of each colour was touched and
    /// neither could capture the other: `binding`, the first touched that
    /// could be, had to be `duty` (moved, captured).
    fn both_colours(
        &self,
        binding: Touch,
        duty: &str,
        played_move: &Move,
        played: &str,
    ) -> Option<(&'static str, Vec<Touch>, String)> {
        let other = self.other_colour_touched(binding, played_move)?;
        let detail = format!(
            "touched {} and {}, one of each colour with no capture between them: {} had to be {duty}; moved {played}",
            piece_on(binding.piece, binding.square),
            piece_on(other.piece, other.square),
            piece_on(binding.piece, binding.square)
        );
        Some(("4.3c", vec![binding, other], detail))
    }

    fn describe_breach(&self, played_move: &Move, played: &str) -> Breach {
        let (article, touches, detail) = match self.obligation {
            Obligation::Move { piece } => self
                .both_colours(piece, "moved", played_move, played)
                .unwrap_or_else(|| {
                    (
                        "4.3a",
                        vec![piece],
                        format!(
                            "touched {0} first, and it could move: {0} had to be moved; {played} was played",
                            piece_on(piece.piece, piece.square)
                        ),
                    )
                }),
            Obligation::Capture { target } => self
                .both_colours(target, "captured", played_move, played)
                .unwrap_or_else(|| {
                    (
                        "4.3b",
                        vec![target],
                        format!(
                            "touched the opponent's {0} first, and it could be captured: {0} had to be taken; {played} was played",
                            piece_on(target.piece, target.square)
                        ),
                    )
                }),
            Obligation::CaptureWith { piece, target } => (
                "4.3c",
                vec![piece, target],
                format!(
                    "touched {} and the opponent's {}, which it could capture; moved {played}",
                    piece_on(piece.piece, piece.square),
                    piece_on(target.piece, target.square)
                ),
            ),
            Obligation::Castle { king, rook, side } => (
                "4.4a",
                vec![king, rook],
                format!(
                    "touched the king and then the rook on {}: castling {} was legal and obliged; played {played}",
                    rook.square,
                    castle_name(side)
                ),
            ),
            Obligation::KingMove { king, rook } => (
                "4.4c",
                vec![king, rook],
                format!(
                    "touched the king and then the rook on {}, castling that side was illegal, so another king move was obliged; played {played}",
                    rook.square
                ),
            ),
            Obligation::Free | Obligation::FreedByKing => unreachable!("a free move has no breach"),
        };
        Breach {
            article,
            squares: touches.iter().map(|t| t.square).collect(),
            t: touches[0].t,
            detail,
        }
    }
}

fn castle_name(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "O-O",
        CastlingSide::QueenSide => "O-O-O",
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Color};

    use super::*;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    fn touch(pos: &Chess, square: Square, t: f64) -> Touch {
        Touch {
            square,
            piece: pos.board().piece_at(square).expect("a piece"),
            t,
            contact: Contact::Touched,
            recovered: false,
        }
    }

    #[test]
    fn a_rook_touched_first_forbids_castling_unless_frames_were_lost_around_it() {
        let pos = position("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let king = Touch {
            contact: Contact::Held,
            ..touch(&pos, Square::E1, 2.0)
        };
        let castle = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.is_castle())
            .expect("O-O legal");
        let rook = touch(&pos, Square::H1, 1.0);
        let seen = judge(&pos, &[rook, king]).breach(&castle);
        assert_eq!(seen.map(|b| b.article), Some("4.4b"));
        // The king's touch may have been on a frame lost before it.
        let recovered = Touch {
            recovered: true,
            ..rook
        };
        assert_eq!(judge(&pos, &[recovered, king]).breach(&castle), None);
        // Alone, a rook is a rook: touched, it must be moved (4.3a).
        let rook_move = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(Square::E1) && !m.is_castle())
            .expect("a king move");
        let alone = judge(&pos, &[recovered]).breach(&rook_move);
        assert_eq!(alone.map(|b| b.article), Some("4.3a"));
    }

    #[test]
    fn the_first_movable_own_piece_binds() {
        let pos = Chess::default();
        // The rook on a1 cannot move, the knight on b1 can.
        let j = judge(
            &pos,
            &[touch(&pos, Square::A1, 1.0), touch(&pos, Square::B1, 2.0)],
        );
        assert!(matches!(j.obligation, Obligation::Move { piece } if piece.square == Square::B1));
    }

    #[test]
    fn same_instant_counts_own_piece_first() {
        // White knight e5 can capture the black pawn on d7... and f7.
        let pos = position("4k3/3p1p2/8/4N3/8/8/8/4K3 w - - 0 1");
        let opp = touch(&pos, Square::D7, 1.0);
        let own = touch(&pos, Square::E5, 1.0);
        let j = judge(&pos, &[opp, own]);
        assert!(
            matches!(j.obligation, Obligation::CaptureWith { piece, target }
            if piece.square == Square::E5 && target.square == Square::D7)
        );
        assert_eq!(in_law_order(&pos, &[opp, own])[0].piece.color, Color::White);
    }
}
