//! Throughput of the rules engine: events per second over clean logs of
//! random legal games (the property test's generator).
//!
//! `cargo bench -p referee-rules --bench arbitrate` prints the figure;
//! under `cargo test` (no `--bench` argument) it runs one short round as a
//! smoke test.

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use referee_rules::pgn::Tags;
use referee_rules::{Event, Referee};
use shakmaty::Chess;

fn logs(games: u64) -> Vec<Vec<Event>> {
    (0..games)
        .map(|seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let game = support::random_game(&mut rng);
            support::clean_log(&mut rng, &game)
        })
        .collect()
}

/// Referees every log once; returns the number of moves recorded.
fn referee_all(logs: &[Vec<Event>]) -> usize {
    logs.iter()
        .map(|log| {
            let mut referee = Referee::new(Chess::default(), Tags::default());
            for event in log {
                referee.apply(event).expect("clean logs are consistent");
            }
            referee.finish();
            referee.moves().len()
        })
        .sum()
}

fn main() {
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let (games, rounds) = if benchmarking { (200, 5) } else { (5, 1) };
    let logs = logs(games);
    let events: usize = logs.iter().map(Vec::len).sum();
    let mut best = f64::INFINITY;
    let mut moves = 0;
    for _ in 0..rounds {
        let start = Instant::now();
        moves = referee_all(&logs);
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "arbitrate: {games} games, {moves} moves, {events} events in {:.1} ms (best of {rounds}): {:.0} events/s, {:.1} µs/event",
        best * 1e3,
        events as f64 / best,
        best * 1e6 / events as f64
    );
}
