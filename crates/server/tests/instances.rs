//! Several instances on one PostgreSQL database (a server of the test's
//! own): two cameras on two instances, and a third instance whose watchers
//! and panel see both games live and whole; a decision, a correction and
//! an announcement taken on one instance for a board another referees are
//! carried out there and seen everywhere; a camera refused by an instance
//! while another holds its board.

mod common;

use std::io::{Read, Write};
use std::sync::OnceLock;
use std::time::Duration;

use common::postgres::Postgres;
use common::{Rendered, Running, connect, jpeg, open_stream, render, serving};
use referee_proto as pb;
use referee_proto::referee_client::RefereeClient;
use referee_proto::update::What;
use referee_server::{Config, Database};
use tonic::Code;
use tonic::transport::Channel;

/// `release_final`: 1. e4, then a knight released on f6 and moved on to
/// h6 (art. 4.7).
fn rendered() -> &'static Rendered {
    static RENDERED: OnceLock<Rendered> = OnceLock::new();
    RENDERED.get_or_init(|| render("release_final"))
}

async fn instance(db: &Postgres, name: &str) -> Running {
    let mut config = Config::new(Database::Postgres(db.url.clone()));
    config.instance = name.into();
    config.workers = 1;
    serving(config, true).await
}

fn open(board: &str) -> pb::OpenGameRequest {
    pb::OpenGameRequest {
        board_id: board.into(),
        corners: rendered().corners.clone(),
        ..Default::default()
    }
}

/// Streams the scenario's frames to `board` two at a time beyond those
/// answered, and keeps the stream open (the board held) once all are
/// answered: the sender and the answers so far.
async fn feed(
    mut client: RefereeClient<Channel>,
    board: &str,
) -> (
    tokio::sync::mpsc::Sender<pb::Frame>,
    tonic::Streaming<pb::Update>,
) {
    let frames: Vec<pb::Frame> = rendered()
        .frames
        .iter()
        .map(|(t, bytes)| jpeg(board, *t, bytes.clone()))
        .collect();
    let count = frames.len() as u64;
    let mut frames = frames.into_iter();
    let (tx, mut answers) =
        open_stream(&mut client, vec![frames.next().expect("a frame")], 4).await;
    let (mut sent, mut answered) = (1u64, 0u64);
    while answered < count {
        while sent < count && sent < answered + 2 {
            tx.send(frames.next().expect("frame"))
                .await
                .expect("queued");
            sent += 1;
        }
        let update = answers.message().await.expect("answer").expect("open");
        if matches!(update.what, Some(What::Stats(_))) {
            answered += 1;
        }
    }
    (tx, answers)
}

/// Watches `game` on `client` from its start, once that instance knows
/// the game (it learns of games opened elsewhere as they are stored).
async fn watch(client: &mut RefereeClient<Channel>, game: &str) -> tonic::Streaming<pb::Update> {
    for _ in 0..100 {
        match client
            .watch_game(pb::WatchGameRequest {
                game_id: game.into(),
                from_seq: 0,
            })
            .await
        {
            Ok(stream) => return stream.into_inner(),
            Err(status) if status.code() == Code::NotFound => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(status) => panic!("watching {game}: {status}"),
        }
    }
    panic!("the instance never learns of {game}");
}

/// The updates a watcher is sent until it has been quiet for a second.
async fn until_quiet(watcher: &mut tonic::Streaming<pb::Update>) -> Vec<pb::Update> {
    let mut seen = Vec::new();
    while let Ok(Ok(Some(update))) =
        tokio::time::timeout(Duration::from_secs(1), watcher.message()).await
    {
        seen.push(update);
    }
    seen
}

async fn verdict(client: &mut RefereeClient<Channel>, game: &str) -> pb::Verdict {
    client
        .get_game(pb::GetGameRequest {
            game_id: game.into(),
        })
        .await
        .expect("verdict")
        .into_inner()
}

fn http_get(at: std::net::SocketAddr, path: &str) -> String {
    let mut stream = std::net::TcpStream::connect(at).expect("connects");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {at}\r\nConnection: close\r\n\r\n"
    )
    .expect("asks");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("reads");
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_referee_a_board_each_and_every_instance_sees_both() {
    let db = Postgres::start();
    let (a, b, c) = (
        instance(&db, "a").await,
        instance(&db, "b").await,
        instance(&db, "c").await,
    );
    let (mut on_a, mut on_b, mut on_c) = (
        connect(a.addr).await,
        connect(b.addr).await,
        connect(c.addr).await,
    );
    let one = on_a
        .open_game(open("b1"))
        .await
        .expect("opens")
        .into_inner();
    let two = on_b
        .open_game(open("b2"))
        .await
        .expect("opens")
        .into_inner();
    let (mut watch_one, mut watch_two) = (
        watch(&mut on_c, &one.id).await,
        watch(&mut on_c, &two.id).await,
    );

    let ((tx_one, answers_one), (tx_two, answers_two)) = tokio::join!(
        feed(connect(a.addr).await, "b1"),
        feed(connect(b.addr).await, "b2")
    );

    // A camera for b1 on b while a referees it is refused, and told where.
    let frame = jpeg("b1", 0.0, rendered().frames[0].1.clone());
    let status = on_b
        .stream_frames(tokio_stream::iter([frame]))
        .await
        .expect_err("b1 is a's while its camera streams there");
    assert_eq!(status.code(), Code::Unavailable, "{status}");
    assert!(status.message().contains("instance a"), "{status}");

    // Decided on b while a still referees b1: carried out on a.
    let incidents = on_b
        .list_incidents(pb::ListIncidentsRequest {
            game_id: one.id.clone(),
            open_only: true,
        })
        .await
        .expect("listed")
        .into_inner()
        .incidents;
    assert_eq!(incidents.len(), 1, "b sees a's incident: {incidents:?}");
    let decided = on_b
        .decide_incident(pb::DecideIncidentRequest {
            incident_id: incidents[0].id.clone(),
            decision: "upheld".into(),
            note: "decided on b".into(),
        })
        .await
        .expect("decided")
        .into_inner();
    assert_eq!(
        (decided.decision.as_str(), decided.decided_by.as_str()),
        ("upheld", "local")
    );
    // Corrected on c while b referees b2, and announced on c for b1 while
    // a referees it: carried out where each board is refereed.
    let corrected = on_c
        .correct_move(pb::CorrectMoveRequest {
            game_id: two.id.clone(),
            ply: 1,
            uci: "d2d4".into(),
            note: "corrected on c".into(),
        })
        .await
        .expect("corrected")
        .into_inner();
    let sans: Vec<&str> = corrected.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["d4", "Nh6"]);
    let announced = on_c
        .announce(pb::AnnounceRequest {
            game_id: one.id.clone(),
            r#type: "clock".into(),
            t: 1000.0,
            side: pb::Side::Black as i32,
        })
        .await
        .expect("announced")
        .into_inner();
    assert_eq!(announced.waiting, 1, "kept by a, which waits for its time");
    drop((tx_one, tx_two));
    for mut answers in [answers_one, answers_two] {
        while let Some(update) = answers.message().await.expect("answer") {
            drop(update);
        }
    }

    // Every instance gives each game the same record, and c's watchers
    // were told every update, in order, none missed.
    for (game, watcher) in [(&one, &mut watch_one), (&two, &mut watch_two)] {
        let told = until_quiet(watcher).await;
        let whole = until_quiet(&mut watch(&mut on_a, &game.id).await).await;
        assert!(!whole.is_empty());
        let seqs: Vec<u64> = told.iter().map(|u| u.seq).collect();
        assert_eq!(
            seqs,
            (1..=whole.len() as u64).collect::<Vec<_>>(),
            "{}",
            game.id
        );
        assert_eq!(told, whole, "{}: c was told the log as stored", game.id);
        let (va, vb, vc) = (
            verdict(&mut on_a, &game.id).await,
            verdict(&mut on_b, &game.id).await,
            verdict(&mut on_c, &game.id).await,
        );
        let sans: Vec<&str> = va.moves.iter().map(|m| m.san.as_str()).collect();
        let first = if game.id == two.id { "d4" } else { "e4" };
        assert_eq!(sans, [first, "Nh6"], "{}", game.id);
        for other in [&vb, &vc] {
            assert_eq!(other.moves, va.moves);
            assert_eq!(other.incidents, va.incidents);
            assert_eq!(other.result, va.result);
        }
    }
    let on_c_one = verdict(&mut on_c, &one.id).await;
    assert_eq!(on_c_one.incidents[0].decision, "upheld");
    assert_eq!(on_c_one.incidents[0].note, "decided on b");

    // c's panel lists both games, and serves b1's evidence kept by a.
    let listed = http_get(c.http.expect("web"), "/api/games");
    assert!(
        listed.contains("\"b1-1\"") && listed.contains("\"b2-1\""),
        "{listed}"
    );
    let still = &on_c_one.incidents[0].evidence[0];
    let picture = http_get(c.http.expect("web"), &format!("/evidence/{still}"));
    assert!(
        picture.starts_with("HTTP/1.1 200"),
        "{}",
        &picture[..picture.len().min(200)]
    );
    // Live watchers hold a graceful stop: they go first.
    drop((watch_one, watch_two, on_a, on_b, on_c));
    for running in [a, b, c] {
        running.stop().await;
    }
}
