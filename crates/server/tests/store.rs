//! The store's own suite, one suite run on both backends: the SQLite file
//! and a PostgreSQL server of the test's own. What one writes reads back
//! after reopening; a sequence number is written once; waiting
//! announcements are kept and replaced; evidence files read back by the
//! path given and never by another; a board's lease is one holder's at a
//! time and passes on once it runs out or is let go.

mod common;

use std::sync::Arc;

use common::postgres::Postgres;
use referee_proto as pb;
use referee_server::{PgStore, SqliteStore, Store};

/// A backend under test: how to open (and reopen) its store.
trait Backend {
    fn open(&self, holder: &str) -> Arc<dyn Store>;
}

struct Sqlite(tempfile::TempDir);

impl Backend for Sqlite {
    fn open(&self, _holder: &str) -> Arc<dyn Store> {
        Arc::new(SqliteStore::open(&self.0.path().join("referee.db")).expect("opens"))
    }
}

impl Backend for Postgres {
    fn open(&self, holder: &str) -> Arc<dyn Store> {
        Arc::new(PgStore::open(&self.url, holder).expect("opens"))
    }
}

fn sqlite() -> Sqlite {
    Sqlite(tempfile::tempdir().expect("tempdir"))
}

fn game(id: &str, board: &str) -> pb::Game {
    pb::Game {
        id: id.into(),
        board_id: board.into(),
        state: "open".into(),
        result: "*".into(),
        ..Default::default()
    }
}

fn moves(game: &str, seqs: std::ops::RangeInclusive<u64>) -> Vec<pb::Update> {
    seqs.map(|seq| pb::Update {
        game_id: game.into(),
        seq,
        what: Some(pb::update::What::Move(pb::Move {
            ply: seq as u32,
            san: format!("m{seq}"),
            ..Default::default()
        })),
    })
    .collect()
}

fn a_log_reads_back_in_order_after_reopening(backend: &dyn Backend) {
    let game = game("b1-1", "b1");
    {
        let store = backend.open("one");
        assert_eq!(store.lease("b1", "one", 5.0).expect("lease"), None);
        store.create_game(&game).expect("game");
        store
            .append(&game.id, &moves(&game.id, 1..=3))
            .expect("appends");
        let mut finished = game.clone();
        finished.state = "finished".into();
        finished.result = "1-0".into();
        store.update_game(&finished).expect("updated");
    }
    let store = backend.open("one");
    let games = store.games().expect("games");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].result, "1-0");
    let seqs: Vec<u64> = store
        .log(&game.id, 1)
        .expect("log")
        .iter()
        .map(|u| u.seq)
        .collect();
    assert_eq!(seqs, vec![2, 3]);
    assert!(
        store.append(&game.id, &moves(&game.id, 3..=3)).is_err(),
        "a sequence number is written once"
    );
    assert!(
        store
            .append(
                &game.id,
                &moves(&game.id, 4..=5)
                    .into_iter()
                    .chain(moves(&game.id, 5..=5))
                    .collect::<Vec<_>>()
            )
            .is_err(),
        "all or none"
    );
    assert_eq!(
        store.log(&game.id, 0).expect("log").len(),
        3,
        "none of a refused batch"
    );
}

fn waiting_announcements_are_kept_replaced_and_read_back(backend: &dyn Backend) {
    let announced = |t: f64, kind: &str| pb::PhysicalEvent {
        t,
        r#type: kind.into(),
        confidence: 1.0,
        ..Default::default()
    };
    {
        let store = backend.open("one");
        for (id, board) in [("b1-1", "b1"), ("b2-1", "b2")] {
            store.create_game(&game(id, board)).expect("game");
            assert_eq!(store.lease(board, "one", 5.0).expect("lease"), None);
        }
        store
            .keep_waiting(
                "b1-1",
                &[announced(3.5, "declare"), announced(4.0, "clock")],
            )
            .expect("kept");
        store
            .keep_waiting("b2-1", &[announced(1.0, "clock")])
            .expect("kept");
        // The declaration found its place: only the press waits now.
        store
            .keep_waiting("b1-1", &[announced(4.0, "clock")])
            .expect("kept");
    }
    let store = backend.open("one");
    assert_eq!(
        store.waiting("b1-1").expect("read"),
        [announced(4.0, "clock")]
    );
    assert_eq!(
        store.waiting("b2-1").expect("read"),
        [announced(1.0, "clock")]
    );
    store.keep_waiting("b1-1", &[]).expect("emptied");
    assert_eq!(store.waiting("b1-1").expect("read"), []);
}

fn evidence_reads_back_by_the_path_given_only(backend: &dyn Backend) {
    let store = backend.open("one");
    let path = store
        .keep_evidence("b1-1-1-1.jpg", b"\xff\xd8picture")
        .expect("kept");
    assert_eq!(path, store.evidence_path("b1-1-1-1.jpg"));
    assert_eq!(
        store.evidence(&path).expect("read"),
        Some(b"\xff\xd8picture".to_vec())
    );
    store
        .keep_evidence("b1-1-1-1.jpg", b"again")
        .expect("kept again");
    let reopened = backend.open("two");
    assert_eq!(
        reopened.evidence(&path).expect("read"),
        Some(b"again".to_vec())
    );
    for never_given in ["b1-1-1-1.jpg", "../referee.db", "elsewhere/b1-1-1-1.jpg"] {
        assert_eq!(
            reopened.evidence(never_given).expect("read"),
            None,
            "{never_given}"
        );
    }
}

fn a_lease_is_one_holders_until_it_runs_out_or_is_let_go(backend: &dyn Backend) {
    let store = backend.open("one");
    assert_eq!(store.lease("b1", "one", 0.4).expect("taken"), None);
    assert_eq!(store.lease("b1", "one", 0.4).expect("renewed"), None);
    let other = store
        .lease("b1", "two", 5.0)
        .expect("asked")
        .expect("held by one");
    assert_eq!(other.holder, "one");
    assert!(
        other.for_seconds > 0.0 && other.for_seconds <= 0.4,
        "{other:?}"
    );
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(
        store.lease("b1", "two", 5.0).expect("taken once run out"),
        None
    );
    assert_eq!(
        store
            .lease("b1", "one", 5.0)
            .expect("asked")
            .map(|h| h.holder)
            .as_deref(),
        Some("two")
    );
    store
        .release("b1", "one")
        .expect("not one's to let go: nothing");
    assert!(store.lease("b1", "one", 5.0).expect("asked").is_some());
    store.release("b1", "two").expect("let go");
    assert_eq!(
        store.lease("b1", "one", 5.0).expect("taken once let go"),
        None
    );
}

#[test]
fn the_sqlite_store_keeps_the_record() {
    // Each part on a fresh file (they share game ids).
    a_log_reads_back_in_order_after_reopening(&sqlite());
    waiting_announcements_are_kept_replaced_and_read_back(&sqlite());
    evidence_reads_back_by_the_path_given_only(&sqlite());
    a_lease_is_one_holders_until_it_runs_out_or_is_let_go(&sqlite());
}

#[test]
fn the_postgres_store_keeps_the_record() {
    // Each part on a fresh server (they share game ids).
    for part in [
        a_log_reads_back_in_order_after_reopening as fn(&dyn Backend),
        waiting_announcements_are_kept_replaced_and_read_back,
        evidence_reads_back_by_the_path_given_only,
        a_lease_is_one_holders_until_it_runs_out_or_is_let_go,
    ] {
        part(&Postgres::start());
    }
}

#[test]
fn a_postgres_instance_writes_a_game_only_while_it_holds_the_board() {
    let server = Postgres::start();
    let one = server.open("one");
    let two = server.open("two");
    one.create_game(&game("b1-1", "b1")).expect("game");
    assert!(
        one.append("b1-1", &moves("b1-1", 1..=1)).is_err(),
        "no lease yet"
    );
    assert_eq!(one.lease("b1", "one", 0.3).expect("taken"), None);
    one.append("b1-1", &moves("b1-1", 1..=2)).expect("held");
    let refused = two
        .append("b1-1", &moves("b1-1", 3..=3))
        .expect_err("one holds it");
    assert!(refused.to_string().contains("held by one"), "{refused}");
    std::thread::sleep(std::time::Duration::from_millis(400));
    assert_eq!(
        two.lease("b1", "two", 5.0).expect("taken once run out"),
        None
    );
    let late = one
        .append("b1-1", &moves("b1-1", 3..=3))
        .expect_err("one lost it");
    assert!(late.to_string().contains("held by two"), "{late}");
    two.append("b1-1", &moves("b1-1", 3..=3))
        .expect("two holds it");
    assert_eq!(one.log("b1-1", 0).expect("log").len(), 3);
}

#[test]
fn a_postgres_store_tells_what_other_instances_write_and_hands_calls_on() {
    use referee_server::Notice;
    let server = Postgres::start();
    let one = server.open("one");
    let two = server.open("two");
    let mut heard = two.notices().expect("a shared store tells");
    one.create_game(&game("b1-1", "b1")).expect("game");
    one.lease("b1", "one", 5.0).expect("taken");
    one.append("b1-1", &moves("b1-1", 1..=2)).expect("appended");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut next = || {
        runtime
            .block_on(async {
                tokio::time::timeout(std::time::Duration::from_secs(5), heard.recv()).await
            })
            .expect("told in time")
            .expect("a notice")
    };
    assert_eq!(next(), Notice::Game { id: "b1-1".into() });
    assert_eq!(
        next(),
        Notice::Update {
            game: "b1-1".into(),
            seq: 2
        }
    );
    let call = pb::Forwarded {
        call: Some(pb::forwarded::Call::Decide(pb::DecideIncidentRequest {
            incident_id: "b1-1-1".into(),
            decision: "upheld".into(),
            note: String::new(),
        })),
        arbiter: "Anna".into(),
    };
    let id = one.ask("two", &call).expect("handed on");
    assert_eq!(
        next(),
        Notice::Asked {
            id,
            holder: "two".into()
        }
    );
    assert_eq!(two.asked(id).expect("read"), Some(call));
    assert_eq!(one.answer_of(id).expect("read"), None);
    let answer = pb::ForwardedAnswer {
        seq: 3,
        ..Default::default()
    };
    two.answer(id, &answer).expect("answered");
    assert_eq!(next(), Notice::Answered { id });
    assert_eq!(one.answer_of(id).expect("read"), Some(answer));
}
