//! A legal move as a player makes it on the table, told as physical
//! events: the record an arbiter's correction is replayed from.
//!
//! Castling king first; en passant with the captured pawn taken off after
//! the release; promotion with the pawn taken off and the new piece brought
//! in; every move completed by a press of the clock.

use shakmaty::{Color, Move, Square};

use crate::event::{Action, Event};

/// The actions that play `m` the ordinary way for `us`, clock press included.
pub fn ordinary_actions(m: &Move, us: Color) -> Vec<Action> {
    let mut actions = match *m {
        Move::Castle { king, rook } => {
            let side = m.castling_side().expect("castling has a side");
            vec![
                Action::Lift(king),
                Action::Release(side.king_to(us)),
                Action::Lift(rook),
                Action::Release(side.rook_to(us)),
            ]
        }
        Move::EnPassant { from, to } => vec![
            Action::Lift(from),
            Action::Release(to),
            Action::Capture(Square::from_coords(to.file(), from.rank())),
        ],
        Move::Normal {
            from,
            to,
            capture,
            promotion,
            ..
        } => {
            let mut actions = vec![Action::Lift(from)];
            if capture.is_some() {
                actions.push(Action::Capture(to));
            }
            if let Some(role) = promotion {
                actions.push(Action::Capture(from));
                actions.push(Action::Add(to, role));
            }
            actions.push(Action::Release(to));
            actions
        }
        Move::Put { .. } => Vec::new(),
    };
    actions.push(Action::Clock);
    actions
}

/// The events of [`ordinary_actions`], all at `t`, by `us`.
pub fn ordinary_events(m: &Move, us: Color, t: f64) -> Vec<Event> {
    ordinary_actions(m, us)
        .into_iter()
        .map(|action| Event::new(t, action).by(us))
        .collect()
}

#[cfg(test)]
mod tests {
    use shakmaty::uci::UciMove;
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::pgn::Tags;
    use crate::referee::Referee;

    #[test]
    fn the_ordinary_events_of_a_game_give_back_its_moves() {
        // Castling both ways, en passant and a promotion with capture.
        let line = "e2e4 d7d5 e4e5 f7f5 e5f6 g8h6 f6g7 b8c6 g7h8q c8e6 g1f3 d8d7 f1e2 e8c8 e1g1";
        let mut position = Chess::default();
        let mut referee = Referee::new(Chess::default(), Tags::default());
        let mut t = 0.0;
        for uci in line.split(' ') {
            let m = uci
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&position)
                .expect("legal");
            t += 1.0;
            for event in ordinary_events(&m, position.turn(), t) {
                referee.apply(&event).expect("applies");
            }
            position.play_unchecked(m);
        }
        let played: Vec<&str> = referee.moves().iter().map(|m| m.uci.as_str()).collect();
        assert_eq!(played.join(" "), line);
        assert!(referee.incidents().is_empty(), "{:?}", referee.incidents());
        assert_eq!(referee.position(), &position);
    }
}
