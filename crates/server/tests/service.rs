//! The service on a real socket (127.0.0.1, any free port) with a real
//! SQLite file: a rendered game streamed frame by frame is recorded; a
//! viewer resumes from a sequence number; arbiters decide and correct, and
//! both survive a restart, as does an announcement waiting for its frames;
//! roles are enforced; damaged frames are skipped and counted; oversized
//! ones refused; an incident keeps its clip, and its claim lapses once the
//! claimant touches a piece to move.

mod common;

use std::sync::OnceLock;
use std::time::Duration;

use common::{
    Rendered, Running, connect, jpeg, last_stats, open_stream, render, start, start_with, stream,
};

use referee_proto as pb;
use referee_proto::referee_client::RefereeClient;
use referee_server::{Access, Config};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;
use tonic::transport::Channel;

/// The `release_final` scenario: 1. e4, then a knight released on f6
/// and moved on to h6 (art. 4.7).
fn rendered() -> &'static Rendered {
    static RENDERED: OnceLock<Rendered> = OnceLock::new();
    RENDERED.get_or_init(|| render("release_final"))
}

fn open(board: &str) -> pb::OpenGameRequest {
    pb::OpenGameRequest {
        board_id: board.into(),
        white: "Alice".into(),
        black: "Bob".into(),
        corners: rendered().corners.clone(),
        ..Default::default()
    }
}

/// A service on a fresh store (in the folder returned), a client, and a
/// game opened on `board`.
async fn with_game(board: &str) -> (tempfile::TempDir, Running, RefereeClient<Channel>, pb::Game) {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(&dir.path().join("referee.db"), Access::LoopbackOnly).await;
    let mut client = connect(server.addr).await;
    let game = client
        .open_game(open(board))
        .await
        .expect("opens")
        .into_inner();
    (dir, server, client, game)
}

fn all_frames(board: &str) -> Vec<pb::Frame> {
    rendered()
        .frames
        .iter()
        .map(|(t, bytes)| jpeg(board, *t, bytes.clone()))
        .collect()
}

/// The game's verdict as the service gives it now.
async fn verdict(client: &mut RefereeClient<Channel>, game_id: &str) -> pb::Verdict {
    client
        .get_game(pb::GetGameRequest {
            game_id: game_id.into(),
        })
        .await
        .expect("verdict")
        .into_inner()
}

fn sans(verdict: &pb::Verdict) -> Vec<&str> {
    verdict.moves.iter().map(|m| m.san.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_lapses_once_the_claimant_touches_a_piece_to_move() {
    // castling_rook_first: White touches the rook first and castles (4.4b);
    // Black then touches a piece to move, and White's incident can no
    // longer be claimed (art. 4.8); Black's own later ones still can.
    let scene = render("castling_rook_first");
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(&dir.path().join("referee.db"), Access::LoopbackOnly).await;
    let mut client = connect(server.addr).await;
    let game = client
        .open_game(pb::OpenGameRequest {
            corners: scene.corners.clone(),
            ..open("c1")
        })
        .await
        .expect("opens")
        .into_inner();
    let frames = scene
        .frames
        .iter()
        .map(|(t, bytes)| jpeg("c1", *t, bytes.clone()))
        .collect();
    stream(&mut client, frames).await;
    let verdict = verdict(&mut client, &game.id).await;
    let claims: Vec<(&str, bool)> = verdict
        .incidents
        .iter()
        .map(|i| (i.article.as_str(), i.claimable))
        .collect();
    assert_eq!(claims, [("4.4b", false), ("4.2", true), ("4.3a", true)]);
    // The last two were raised by one frame: each has its own id.
    let ids: Vec<&str> = verdict.incidents.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["c1-1-1", "c1-1-2", "c1-1-3"]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_game_is_recorded_and_a_viewer_resumes_where_it_left() {
    let (dir, server, mut client, game) = with_game("b1").await;
    assert_eq!(game.id, "b1-1");
    let again = client
        .open_game(open("b1"))
        .await
        .expect("opens")
        .into_inner();
    assert_eq!(
        again.id, game.id,
        "the board's open game is returned, not a second one"
    );

    let updates = stream(&mut client, all_frames("b1")).await;
    let stats = last_stats(&updates);
    assert_eq!(stats.frames_received as usize, rendered().frames.len());
    assert_eq!(stats.frames_dropped, 0);

    let verdict = verdict(&mut client, &game.id).await;
    assert_eq!(sans(&verdict), ["e4", "Nh6"]);
    let kinds: Vec<(&str, &str)> = verdict
        .incidents
        .iter()
        .map(|i| (i.kind.as_str(), i.article.as_str()))
        .collect();
    assert_eq!(kinds, [("release_final", "4.7")]);
    let incident = &verdict.incidents[0];
    assert!(!incident.evidence.is_empty(), "evidence kept");
    for path in &incident.evidence {
        let bytes = std::fs::read(dir.path().join(path)).expect("evidence file");
        assert!(bytes.starts_with(&[0xff, 0xd8]), "{path} is a JPEG");
    }
    // Its clip, kept in the store beside the stills a moment after the
    // incident is told: the touch of g8 marked.
    let kept = dir.path().join(&incident.clip);
    let started = std::time::Instant::now();
    while !kept.exists() && started.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(&kept).expect("clip"))
        .expect("the clip's manifest is JSON");
    let frames = manifest["frames"].as_array().expect("frames");
    assert!(frames.len() >= 10, "{manifest}");
    let folder = dir.path().join(&incident.clip);
    let folder = folder.parent().expect("folder");
    for frame in frames {
        let jpeg = std::fs::read(folder.join(frame["file"].as_str().expect("file")))
            .expect("a clip's frame kept");
        assert!(jpeg.starts_with(&[0xff, 0xd8]));
    }
    assert_eq!(manifest["touches"][0]["square"], "g8", "{manifest}");
    assert!(verdict.pgn.contains("release_final"), "{}", verdict.pgn);

    // Everything stored, from the start, in order; then from seq 5 on.
    let last = updates.iter().map(|u| u.seq).max().expect("numbered");
    let watched = watch(&mut client, &game.id, 0, last).await;
    let seqs: Vec<u64> = watched.iter().map(|u| u.seq).collect();
    assert_eq!(seqs, (1..=last).collect::<Vec<_>>());
    let resumed = watch(&mut client, &game.id, 5, last).await;
    assert_eq!(resumed.first().map(|u| u.seq), Some(6));
    assert_eq!(resumed, watched[5..].to_vec());
    server.stop().await;
}

/// A game's updates after `from`, up to `last`.
async fn watch(
    client: &mut RefereeClient<Channel>,
    game_id: &str,
    from: u64,
    last: u64,
) -> Vec<pb::Update> {
    let mut stream = client
        .watch_game(pb::WatchGameRequest {
            game_id: game_id.into(),
            from_seq: from,
        })
        .await
        .expect("watch")
        .into_inner();
    let mut out = Vec::new();
    while out.last().is_none_or(|u: &pb::Update| u.seq < last) {
        let next = tokio::time::timeout(Duration::from_secs(10), stream.message())
            .await
            .expect("in time")
            .expect("no error")
            .expect("open");
        out.push(next);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decisions_and_corrections_are_kept_across_a_restart() {
    let (dir, server, mut client, game) = with_game("b2").await;
    let db = dir.path().join("referee.db");
    stream(&mut client, all_frames("b2")).await;
    let incidents = client
        .list_incidents(pb::ListIncidentsRequest {
            game_id: game.id.clone(),
            open_only: true,
        })
        .await
        .expect("listed")
        .into_inner()
        .incidents;
    assert_eq!(incidents.len(), 1);
    let id = incidents[0].id.clone();

    let wrong = client
        .decide_incident(pb::DecideIncidentRequest {
            incident_id: id.clone(),
            decision: "maybe".into(),
            note: String::new(),
        })
        .await;
    assert_eq!(wrong.expect_err("refused").code(), Code::InvalidArgument);
    let decided = client
        .decide_incident(pb::DecideIncidentRequest {
            incident_id: id.clone(),
            decision: "upheld".into(),
            note: "seen on the evidence".into(),
        })
        .await
        .expect("decided")
        .into_inner();
    assert_eq!(
        (decided.decision.as_str(), decided.decided_by.as_str()),
        ("upheld", "local")
    );

    let illegal = client
        .correct_move(pb::CorrectMoveRequest {
            game_id: game.id.clone(),
            ply: 2,
            uci: "e7e4".into(),
            note: String::new(),
        })
        .await;
    assert_eq!(illegal.expect_err("refused").code(), Code::InvalidArgument);
    let corrected = client
        .correct_move(pb::CorrectMoveRequest {
            game_id: game.id.clone(),
            ply: 1,
            uci: "d2d4".into(),
            note: "the camera saw e4".into(),
        })
        .await
        .expect("corrected")
        .into_inner();
    assert_eq!(
        sans(&corrected),
        ["d4", "Nh6"],
        "the later move derived again"
    );
    server.stop().await;

    let server = start(&db, Access::LoopbackOnly).await;
    let mut client = connect(server.addr).await;
    let verdict = verdict(&mut client, &game.id).await;
    assert_eq!(sans(&verdict), ["d4", "Nh6"]);
    assert_eq!(verdict.corrections.len(), 1);
    assert_eq!(verdict.incidents[0].decision, "upheld");
    assert_eq!(verdict.incidents[0].note, "seen on the evidence");
    let open = client
        .list_incidents(pb::ListIncidentsRequest {
            game_id: game.id.clone(),
            open_only: true,
        })
        .await
        .expect("listed")
        .into_inner();
    assert!(open.incidents.is_empty());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn announcements_waiting_for_their_frames_are_bounded() {
    let (_dir, server, mut client, game) = with_game("b9").await;
    let announce = |t: f64| pb::AnnounceRequest {
        game_id: game.id.clone(),
        r#type: "clock".into(),
        t,
        side: pb::Side::Unspecified as i32,
    };
    for k in 0..referee_server::game::MAX_WAITING {
        client
            .announce(announce(100.0 + k as f64))
            .await
            .expect("announced");
    }
    let refused = client
        .announce(announce(1000.0))
        .await
        .expect_err("one too many");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_announcement_waiting_for_its_frames_survives_a_restart() {
    let (dir, server, mut client, game) = with_game("b8").await;
    let db = dir.path().join("referee.db");
    // White's app says "I adjust" before the first frame has come.
    let answer = client
        .announce(pb::AnnounceRequest {
            game_id: game.id.clone(),
            r#type: "declare".into(),
            t: 0.05,
            side: pb::Side::White as i32,
        })
        .await
        .expect("announced")
        .into_inner();
    assert_eq!(answer.waiting, 1);
    // The service stops before any frame: the announcement was only waiting.
    server.stop().await;

    let server = start(&db, Access::LoopbackOnly).await;
    let mut client = connect(server.addr).await;
    stream(&mut client, all_frames("b8")).await;
    let placed = verdict(&mut client, &game.id).await;
    let first = placed.events.first().expect("events");
    assert_eq!(
        (first.r#type.as_str(), first.t, first.side),
        ("declare", 0.05, pb::Side::White as i32),
        "the announcement first, in its place"
    );
    assert_eq!(
        placed
            .events
            .iter()
            .filter(|e| e.r#type == "declare")
            .count(),
        1,
        "placed once"
    );
    assert_eq!(sans(&placed), ["e4", "Nh6"]);
    server.stop().await;

    // Placed in the log, it no longer waits: a second restart adds nothing.
    let server = start(&db, Access::LoopbackOnly).await;
    let mut client = connect(server.addr).await;
    let again = verdict(&mut client, &game.id).await;
    assert_eq!(again.events, placed.events);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn damaged_frames_are_skipped_and_counted_and_the_stream_goes_on() {
    let (_dir, server, mut client, game) = with_game("b3").await;
    let mut frames = all_frames("b3");
    let whole = rendered().frames[3].1.clone();
    // Between two frames, far enough from both to pass the rate limit.
    let t = |k: usize| frames[k].t + 0.02;
    let truncated = jpeg("b3", t(3), whole[..whole.len() / 2].to_vec());
    let noise = jpeg(
        "b3",
        t(4),
        (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect(),
    );
    let small = pb::Frame {
        board_id: "b3".into(),
        t: t(5),
        image: Some(pb::frame::Image::Raw(pb::RawImage {
            width: 8,
            height: 8,
            bgr: vec![0; 8 * 8 * 3],
        })),
    };
    frames.insert(6, small);
    frames.insert(5, noise);
    frames.insert(4, truncated);
    let updates = stream(&mut client, frames).await;
    let stats = last_stats(&updates);
    assert_eq!(stats.frames_corrupt, 3);
    let verdict = client
        .get_game(pb::GetGameRequest { game_id: game.id })
        .await
        .expect("verdict")
        .into_inner();
    assert_eq!(
        sans(&verdict),
        ["e4", "Nh6"],
        "the damaged frames cost nothing"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_frames_and_boards_without_a_game_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(&dir.path().join("referee.db"), Access::LoopbackOnly).await;
    let mut client = connect(server.addr)
        .await
        .max_encoding_message_size(64 << 20);
    client.open_game(open("b4")).await.expect("opens");
    let huge = jpeg("b4", 0.0, vec![0xff; referee_server::MAX_MESSAGE + 1024]);
    let (tx, rx) = mpsc::channel(1);
    tx.send(huge).await.expect("queued");
    let refused = client.stream_frames(ReceiverStream::new(rx)).await;
    let status = refused.expect_err("refused");
    assert!(
        matches!(status.code(), Code::OutOfRange | Code::ResourceExhausted),
        "{status:?}"
    );
    let (tx, rx) = mpsc::channel(1);
    tx.send(jpeg("nowhere", 0.0, rendered().frames[0].1.clone()))
        .await
        .expect("queued");
    let refused = client.stream_frames(ReceiverStream::new(rx)).await;
    assert_eq!(refused.expect_err("no game").code(), Code::NotFound);
    // A board id of 10,000 characters: refused, and not echoed back whole.
    let refused = client
        .open_game(pb::OpenGameRequest {
            board_id: "b".repeat(10_000),
            ..Default::default()
        })
        .await
        .expect_err("too long");
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(refused.message().len() < 200, "{}", refused.message());
    server.stop().await;
}

/// Streams `times` (each with the same picture) to a game on `board`;
/// returns how the stream ended.
async fn stream_times(
    client: &mut RefereeClient<Channel>,
    board: &str,
    times: &[f64],
) -> tonic::Status {
    client.open_game(open(board)).await.expect("opens");
    let frames = times
        .iter()
        .map(|&t| jpeg(board, t, rendered().frames[0].1.clone()))
        .collect();
    let (tx, mut answers) = open_stream(client, frames, 0).await;
    let ended = loop {
        match answers.message().await {
            Ok(Some(_)) => {}
            Ok(None) => panic!("the stream ended without refusing {times:?}"),
            Err(status) => break status,
        }
    };
    drop(tx);
    ended
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_time_not_finite_or_going_back_is_refused_and_counted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(&dir.path().join("referee.db"), Access::LoopbackOnly).await;
    let mut client = connect(server.addr).await;
    let ended = stream_times(&mut client, "nan", &[0.0, 0.1, f64::NAN, 0.3]).await;
    assert_eq!(ended.code(), Code::InvalidArgument, "{ended:?}");
    assert!(ended.message().contains("not a finite number"), "{ended:?}");
    let ended = stream_times(&mut client, "back", &[0.0, 0.5, 0.2]).await;
    assert_eq!(ended.code(), Code::InvalidArgument, "{ended:?}");
    assert!(ended.message().contains("earlier than"), "{ended:?}");
    assert_eq!(
        frames_refused(&mut client).await,
        2,
        "both refusals counted"
    );
    server.stop().await;
}

/// The frames refused over every game, as the games' verdicts count them.
async fn frames_refused(client: &mut RefereeClient<Channel>) -> u64 {
    let games = client
        .list_games(pb::ListGamesRequest {})
        .await
        .expect("games")
        .into_inner()
        .games;
    let mut refused = 0;
    for game in games {
        let verdict = verdict(client, &game.id).await;
        refused += verdict.stats.map_or(0, |s| s.frames_refused);
    }
    refused
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_allow_each_role_its_own_calls_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tokens = dir.path().join("tokens");
    std::fs::write(
        &tokens,
        "camera-b5-secret role=camera boards=b5\nviewer-secret role=viewer\narbiter-secret role=arbiter name=Anna\n",
    )
    .expect("tokens");
    let access = Access::from_file(&tokens).expect("parses");
    let server = start(&dir.path().join("referee.db"), access).await;
    let channel = Channel::from_shared(format!("http://{}", server.addr))
        .expect("url")
        .connect()
        .await
        .expect("connects");
    let as_ = |token: &'static str| {
        RefereeClient::with_interceptor(channel.clone(), move |mut request: tonic::Request<()>| {
            if !token.is_empty() {
                request.metadata_mut().insert(
                    "authorization",
                    format!("Bearer {token}").parse().expect("ascii"),
                );
            }
            Ok(request)
        })
    };
    let nobody = as_("").list_games(pb::ListGamesRequest {}).await;
    assert_eq!(nobody.expect_err("refused").code(), Code::Unauthenticated);
    let camera = as_("camera-b5-secret");
    assert!(camera.clone().open_game(open("b5")).await.is_ok());
    let elsewhere = camera.clone().open_game(open("b6")).await;
    assert_eq!(
        elsewhere.expect_err("refused").code(),
        Code::PermissionDenied
    );
    let reading = camera.clone().list_games(pb::ListGamesRequest {}).await;
    assert_eq!(reading.expect_err("refused").code(), Code::PermissionDenied);
    let viewer = as_("viewer-secret");
    assert_eq!(
        viewer
            .clone()
            .list_games(pb::ListGamesRequest {})
            .await
            .expect("lists")
            .into_inner()
            .games
            .len(),
        1
    );
    let first_move_is_e4 = || pb::CorrectMoveRequest {
        game_id: "b5-1".into(),
        ply: 1,
        uci: "e2e4".into(),
        note: String::new(),
    };
    let viewing = viewer.clone().correct_move(first_move_is_e4()).await;
    assert_eq!(viewing.expect_err("refused").code(), Code::PermissionDenied);
    // An arbiter may correct: refused only because no move was played yet.
    let arbiter = as_("arbiter-secret");
    let not_played = arbiter.clone().correct_move(first_move_is_e4()).await;
    assert_eq!(
        not_played.expect_err("no move yet").code(),
        Code::InvalidArgument
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_answers_serving_and_reflection_lists_the_api() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(&dir.path().join("referee.db"), Access::LoopbackOnly).await;
    connect(server.addr).await;
    let channel = Channel::from_shared(format!("http://{}", server.addr))
        .expect("url")
        .connect()
        .await
        .expect("connects");
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel.clone());
    let answer = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: "referee.v1.Referee".into(),
        })
        .await
        .expect("answers")
        .into_inner();
    assert_eq!(
        answer.status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    );

    use tonic_reflection::pb::v1 as reflection;
    let mut reflect = reflection::server_reflection_client::ServerReflectionClient::new(channel);
    let ask = reflection::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(
            reflection::server_reflection_request::MessageRequest::ListServices(String::new()),
        ),
    };
    let mut answers = reflect
        .server_reflection_info(tokio_stream::iter([ask]))
        .await
        .expect("reflection")
        .into_inner();
    let answer = answers.message().await.expect("answer").expect("one");
    let Some(reflection::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        answer.message_response
    else {
        panic!("not a list of services: {answer:?}");
    };
    let names: Vec<&str> = list.service.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"referee.v1.Referee"), "{names:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_certificate_the_service_speaks_tls_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".into()]).expect("cert");
    let (cert, key) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    std::fs::write(&cert, certified.cert.pem()).expect("cert");
    std::fs::write(&key, certified.signing_key.serialize_pem()).expect("key");
    let mut config = Config::new(dir.path().join("referee.db"));
    config.tls = Some((cert, key));
    let server = start_with(config).await;
    let addr = server.addr;
    let tls = tonic::transport::ClientTlsConfig::new()
        .ca_certificate(tonic::transport::Certificate::from_pem(
            certified.cert.pem(),
        ))
        .domain_name("localhost");
    let channel = Channel::from_shared(format!("https://{addr}"))
        .expect("url")
        .tls_config(tls)
        .expect("tls")
        .connect()
        .await
        .expect("a TLS handshake");
    let games = RefereeClient::new(channel)
        .list_games(pb::ListGamesRequest {})
        .await
        .expect("answers over TLS");
    assert!(games.into_inner().games.is_empty());
    let plain = RefereeClient::connect(format!("http://{addr}")).await;
    let refused = match plain {
        Ok(mut client) => client.list_games(pb::ListGamesRequest {}).await.is_err(),
        Err(_) => true,
    };
    assert!(refused, "plain text is not answered");
    server.stop().await;
}
