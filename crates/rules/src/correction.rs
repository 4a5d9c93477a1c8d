//! An arbiter's correction of a misread move: the game's record played
//! again from its start with the move at one ply replaced, each move the
//! ordinary way at the time it was made, and the later moves kept where
//! they still follow (where one no longer does, the record stops there for
//! the arbiter to enter the rest).

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Position};

use crate::ordinary::ordinary_events;
use crate::pgn::Tags;
use crate::{MoveRecord, Referee};

/// The record from `start` with the move at `ply` of `moves` replaced by
/// `uci`; the moves from that ply on, as played again, are the referee's
/// from the index returned.
pub fn corrected(
    start: &Chess,
    tags: &Tags,
    moves: &[MoveRecord],
    ply: u32,
    uci: &str,
) -> Result<(Referee, usize), String> {
    let Some(first) = moves.first().map(|m| m.ply) else {
        return Err(format!(
            "ply {ply} has not been played: no move has been yet"
        ));
    };
    let index = ply
        .checked_sub(first)
        .map(|i| i as usize)
        .filter(|&i| i < moves.len())
        .ok_or_else(|| {
            format!(
                "ply {ply} has not been played (plies {first} to {})",
                first + moves.len() as u32 - 1
            )
        })?;
    let mut referee = Referee::new(start.clone(), tags.clone());
    for (i, record) in moves.iter().enumerate() {
        let wanted = if i == index { uci } else { record.uci.as_str() };
        let position = referee.position().clone();
        let played = wanted
            .parse::<UciMove>()
            .map_err(|e| e.to_string())
            .and_then(|u| u.to_move(&position).map_err(|e| e.to_string()));
        let m = match played {
            Ok(m) => m,
            Err(e) if i == index => {
                let fen = Fen::from_position(&position, EnPassantMode::Legal);
                return Err(format!("{wanted} is not legal at ply {ply} ({fen}): {e}"));
            }
            // The later moves no longer follow: the arbiter enters them.
            Err(_) => break,
        };
        for event in ordinary_events(&m, position.turn(), record.t) {
            referee.apply(&event).map_err(|e| e.to_string())?;
        }
    }
    let from = index.min(referee.moves().len());
    Ok((referee, from))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Action;
    use crate::Event;

    fn played(sans: &[&str]) -> Vec<MoveRecord> {
        let mut referee = Referee::new(Chess::default(), Tags::default());
        for (k, san) in sans.iter().enumerate() {
            let position = referee.position().clone();
            let m = san
                .parse::<shakmaty::san::San>()
                .expect("san")
                .to_move(&position)
                .expect("legal");
            for event in ordinary_events(&m, position.turn(), k as f64) {
                referee.apply(&event).expect("applies");
            }
            referee
                .apply(&Event::new(k as f64 + 0.5, Action::Clock))
                .expect("clock");
        }
        referee.moves().to_vec()
    }

    #[test]
    fn a_move_replaced_keeps_the_later_ones_that_still_follow() {
        let moves = played(&["e4", "e5", "Nf3", "Nc6"]);
        let (referee, from) =
            corrected(&Chess::default(), &Tags::default(), &moves, 2, "c7c5").expect("legal");
        let sans: Vec<&str> = referee.moves().iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "c5", "Nf3", "Nc6"]);
        assert_eq!(from, 1);
        // A move that cannot be played there is refused, with the position.
        let refused = corrected(&Chess::default(), &Tags::default(), &moves, 1, "e2e5");
        assert!(refused.expect_err("illegal").contains("not legal at ply 1"));
        let unplayed = corrected(&Chess::default(), &Tags::default(), &moves, 9, "e2e4");
        assert!(unplayed.expect_err("unplayed").contains("plies 1 to 4"));
    }
}
