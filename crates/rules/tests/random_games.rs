//! Property test: 1,000 random legal games (seeded), turned into clean
//! event logs, are reconstructed exactly with no incident; the same games
//! with one violation injected give exactly that incident.

mod support;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use referee_rules::pgn::Tags;
use referee_rules::{Action, Event, Referee, Side, Verdict};
use shakmaty::{Chess, Position};

use support::{Script, clean_log, decoy_pieces, random_game, side_of_ply};

const GAMES: u64 = 1_000;

fn referee_all(events: &[Event]) -> Verdict {
    let mut referee = Referee::new(Chess::default(), Tags::default());
    for (index, event) in events.iter().enumerate() {
        referee
            .apply(event)
            .unwrap_or_else(|e| panic!("event {index} {event:?}: {e}"));
    }
    referee.finish();
    referee.verdict()
}

fn sans(verdict: &Verdict) -> Vec<String> {
    verdict.moves.iter().map(|m| m.san.clone()).collect()
}

#[test]
fn clean_random_games_are_reconstructed_exactly() {
    let mut total_plies = 0;
    for seed in 0..GAMES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let game = random_game(&mut rng);
        let verdict = referee_all(&clean_log(&mut rng, &game));
        let expected: Vec<String> = game.iter().map(|(_, san)| san.clone()).collect();
        assert_eq!(
            sans(&verdict),
            expected,
            "game {seed}: {} {:?} {:#?}",
            verdict.result,
            verdict.termination,
            verdict.incidents
        );
        assert!(
            verdict.incidents.is_empty(),
            "game {seed}: {:#?}",
            verdict.incidents
        );
        total_plies += game.len();
    }
    assert!(total_plies > 50_000, "only {total_plies} plies");
}

/// The violations injected, one a game.
#[derive(Debug, Clone, Copy)]
enum Violation {
    /// Touch another movable piece first, then move (4.3a).
    TouchOther,
    /// Both hands (4.1).
    TwoHands,
    /// Adjust the piece about to move without a word (4.2).
    Adjust,
    /// The opponent touches one of its pieces during this turn (4.0).
    OpponentTouch,
}

#[test]
fn one_injected_violation_gives_exactly_that_incident() {
    let kinds = [
        Violation::TouchOther,
        Violation::TwoHands,
        Violation::Adjust,
        Violation::OpponentTouch,
    ];
    for seed in 0..GAMES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let game = random_game(&mut rng);
        let violation = kinds[(seed % 4) as usize];
        let mut pos = Chess::default();
        let mut script = Script::new();
        let target_ply = rng.random_range(1..=game.len());
        let mut expected = None;
        for (index, (m, _)) in game.iter().enumerate() {
            let ply = index + 1;
            if ply == target_ply {
                expected = inject(violation, &mut script, &pos, m, ply);
            }
            script.play(&mut rng, &pos, *m);
            // Clocks always here, so that the opponent's touch is out of turn.
            script.push(Action::Clock);
            pos.play_unchecked(*m);
        }
        let verdict = referee_all(&script.events);
        let expected_sans: Vec<String> = game.iter().map(|(_, san)| san.clone()).collect();
        assert_eq!(sans(&verdict), expected_sans, "game {seed}");
        let got: Vec<(String, &str, u32, Side, Vec<String>)> = verdict
            .incidents
            .iter()
            .map(|i| {
                (
                    i.kind.name().to_string(),
                    i.article,
                    i.ply,
                    i.side,
                    i.squares.clone(),
                )
            })
            .collect();
        let want: Vec<_> = expected.into_iter().collect();
        assert_eq!(got, want, "game {seed}, {violation:?} at ply {target_ply}");
    }
}

/// Adds the violation's events before the move; returns the incident it must give.
fn inject(
    violation: Violation,
    script: &mut Script,
    pos: &Chess,
    m: &shakmaty::Move,
    ply: usize,
) -> Option<(String, &'static str, u32, Side, Vec<String>)> {
    let mover = Side::from(side_of_ply(ply));
    let from = m.from().expect("a board move");
    match violation {
        Violation::TouchOther => {
            let decoy = *decoy_pieces(pos, m).first()?;
            script.push(Action::Touch(decoy));
            Some((
                "touch_move".into(),
                "4.3a",
                ply as u32,
                mover,
                vec![decoy.to_string()],
            ))
        }
        Violation::TwoHands => {
            script.push(Action::TwoHands);
            Some(("two_hands".into(), "4.1", ply as u32, mover, vec![]))
        }
        Violation::Adjust => {
            script.push(Action::Adjust(from));
            Some((
                "adjust_undeclared".into(),
                "4.2",
                ply as u32,
                mover,
                vec![from.to_string()],
            ))
        }
        Violation::OpponentTouch => {
            let them = !pos.turn();
            let square = pos.board().by_color(them).into_iter().next()?;
            script.push(Action::Touch(square)).side = Some(them);
            Some((
                "touch_on_opponent_turn".into(),
                "4.0",
                ply as u32,
                Side::from(them),
                vec![square.to_string()],
            ))
        }
    }
}
