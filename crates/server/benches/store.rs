//! Write latency of the stores: how long one update (a move, with its
//! derived row) takes to be committed, on the SQLite file and on a
//! PostgreSQL server the bench starts; and, on PostgreSQL, how long until
//! another instance's store is told of it (its notice heard).
//!
//! `cargo bench -p referee-server --bench store` appends 2,000 updates to
//! each backend, one at a time, and prints the median and the 99th
//! percentile (`STORE_UPDATES` changes the count). Under `cargo test` it
//! appends 50, as a smoke test.

use std::sync::Arc;
use std::time::{Duration, Instant};

use referee_proto as pb;
use referee_server::{Notice, PgStore, SqliteStore, Store};

#[path = "../tests/common/postgres.rs"]
mod postgres;

fn update(seq: u64) -> pb::Update {
    pb::Update {
        game_id: "bench-1".into(),
        seq,
        what: Some(pb::update::What::Move(pb::Move {
            ply: seq as u32,
            san: "e4".into(),
            uci: "e2e4".into(),
            t: seq as f64,
            ..Default::default()
        })),
    }
}

fn game() -> pb::Game {
    pb::Game {
        id: "bench-1".into(),
        board_id: "bench".into(),
        state: "open".into(),
        result: "*".into(),
        ..Default::default()
    }
}

/// The median and the 99th percentile, in milliseconds.
fn quantiles(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3;
    (at(0.5), at(0.99))
}

/// Appends `count` updates one at a time; each append's time.
fn appends(store: &dyn Store, count: u64) -> Vec<Duration> {
    store.create_game(&game()).expect("game");
    assert_eq!(store.lease("bench", "bench", 60.0).expect("lease"), None);
    (1..=count)
        .map(|seq| {
            let started = Instant::now();
            store.append("bench-1", &[update(seq)]).expect("appends");
            started.elapsed()
        })
        .collect()
}

fn main() {
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let count = std::env::var("STORE_UPDATES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if benchmarking { 2000 } else { 50 });

    let dir = tempfile::tempdir().expect("tempdir");
    let sqlite = SqliteStore::open(&dir.path().join("bench.db")).expect("opens");
    let (median, p99) = quantiles(appends(&sqlite, count));
    println!(
        "store: SQLite, {count} updates one at a time: median {median:.2} ms, 99th percentile {p99:.2} ms a commit"
    );

    let server = postgres::Postgres::start();
    let writer: Arc<dyn Store> = Arc::new(PgStore::open(&server.url, "bench").expect("opens"));
    let follower = PgStore::open(&server.url, "follower").expect("opens");
    let mut heard = follower.notices().expect("told");
    let (told, heard_at) = std::sync::mpsc::channel::<(u64, Instant)>();
    let listener = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            while let Ok(notice) = heard.recv().await {
                if let Notice::Update { seq, .. } = notice {
                    let _ = told.send((seq, Instant::now()));
                    if seq == count {
                        return;
                    }
                }
            }
        });
    });
    writer.create_game(&game()).expect("game");
    assert_eq!(writer.lease("bench", "bench", 60.0).expect("lease"), None);
    let mut commits = Vec::new();
    let mut sent = Vec::new();
    for seq in 1..=count {
        let started = Instant::now();
        writer.append("bench-1", &[update(seq)]).expect("appends");
        commits.push(started.elapsed());
        sent.push(started);
    }
    listener.join().expect("listener");
    let mut notices = Vec::new();
    while let Ok((seq, at)) = heard_at.try_recv() {
        notices.push(at.duration_since(sent[seq as usize - 1]));
    }
    let (median, p99) = quantiles(commits);
    println!(
        "store: PostgreSQL, {count} updates one at a time: median {median:.2} ms, 99th percentile {p99:.2} ms a commit"
    );
    assert_eq!(notices.len() as u64, count, "every update told");
    let (median, p99) = quantiles(notices);
    println!(
        "store: PostgreSQL, another instance told of each update: median {median:.2} ms, 99th percentile {p99:.2} ms after its write began"
    );
}
