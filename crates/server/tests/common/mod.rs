//! What the service's tests share: a service on a real socket over a
//! store in a folder of the test's own, a client that waits for it, and a
//! camera streaming frames the way `referee ingest --fast` does.

#![allow(dead_code)]

pub mod postgres;

use std::path::{Path, PathBuf};
use std::time::Duration;

use referee_proto as pb;
use referee_proto::referee_client::RefereeClient;
use referee_proto::update::What;
use referee_server::{Access, Config};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot};
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;

pub struct Running {
    pub addr: std::net::SocketAddr,
    /// The web pages' address, when served.
    pub http: Option<std::net::SocketAddr>,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Running {
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = self.task.await;
    }
}

pub async fn start(db: &Path, access: Access) -> Running {
    let mut config = Config::new(db.to_path_buf());
    config.access = access;
    start_with(config).await
}

/// The service as `config` says, on any free loopback port.
pub async fn start_with(config: Config) -> Running {
    serving(config, false).await
}

/// The service as `config` says, its web pages too, each on any free
/// loopback port.
pub async fn serving(config: Config, web: bool) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
    let addr = listener.local_addr().expect("addr");
    let http = match web {
        true => Some(TcpListener::bind("127.0.0.1:0").await.expect("binds")),
        false => None,
    };
    let http_addr = http.as_ref().map(|l| l.local_addr().expect("addr"));
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        referee_server::serve(config, listener, http, async {
            let _ = stopped.await;
        })
        .await
        .expect("serves");
    });
    Running {
        addr,
        http: http_addr,
        stop: Some(stop),
        task,
    }
}

pub async fn connect(addr: std::net::SocketAddr) -> RefereeClient<Channel> {
    for _ in 0..50 {
        if let Ok(client) = RefereeClient::connect(format!("http://{addr}")).await {
            return client;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the service at {addr} does not answer");
}

pub fn jpeg(board: &str, t: f64, bytes: Vec<u8>) -> pb::Frame {
    pb::Frame {
        board_id: board.into(),
        t,
        image: Some(pb::frame::Image::Jpeg(bytes)),
    }
}

/// Opens a camera's stream with `first` queued (room for `room` frames);
/// returns the sender of more frames and the service's answers.
pub async fn open_stream(
    client: &mut RefereeClient<Channel>,
    first: Vec<pb::Frame>,
    room: usize,
) -> (mpsc::Sender<pb::Frame>, tonic::Streaming<pb::Update>) {
    let (tx, rx) = mpsc::channel(room.max(first.len()).max(1));
    for frame in first {
        tx.send(frame).await.expect("queued");
    }
    let answers = client
        .stream_frames(ReceiverStream::new(rx))
        .await
        .expect("stream accepted")
        .into_inner();
    (tx, answers)
}

/// Streams frames the way `referee ingest --fast` does (at most two in
/// flight beyond those answered); returns every update answered.
pub async fn stream(
    client: &mut RefereeClient<Channel>,
    frames: Vec<pb::Frame>,
) -> Vec<pb::Update> {
    let mut frames = frames.into_iter();
    let first = frames.next().expect("a frame");
    let (tx, mut answers) = open_stream(client, vec![first], 4).await;
    let mut updates = Vec::new();
    let (mut sent, mut answered) = (1u64, 0u64);
    let mut pending = frames.peekable();
    loop {
        while pending.peek().is_some() && sent < answered + 2 {
            tx.send(pending.next().expect("frame"))
                .await
                .expect("queued");
            sent += 1;
        }
        if pending.peek().is_none() {
            break;
        }
        let update = answers
            .message()
            .await
            .expect("answer")
            .expect("open stream");
        if matches!(update.what, Some(What::Stats(_))) {
            answered += 1;
        }
        updates.push(update);
    }
    drop(tx);
    while let Some(update) = answers.message().await.expect("answer") {
        updates.push(update);
    }
    updates
}

/// The frame counters the service last answered with.
pub fn last_stats(updates: &[pb::Update]) -> pb::FrameStats {
    updates
        .iter()
        .rev()
        .find_map(|u| match &u.what {
            Some(What::Stats(s)) => Some(*s),
            _ => None,
        })
        .expect("stats")
}

/// A scenario's frames (JPEG) and board corners.
pub struct Rendered {
    pub frames: Vec<(f64, Vec<u8>)>,
    pub corners: Vec<pb::Point>,
}

/// The frames (JPEG) and board corners of a scenario of tests/data/scenarios.
pub fn render(name: &str) -> Rendered {
    {
        let scenario = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../../tests/data/scenarios/{name}.scn"));
        let out =
            std::env::temp_dir().join(format!("referee-server-{name}-{}", std::process::id()));
        let done = referee_synth::render_file(&scenario, &out).expect("renders");
        let truth: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&done.truth).expect("truth"))
                .expect("json");
        let corners = truth["frames"][0]["corners"]
            .as_array()
            .expect("corners")
            .iter()
            .map(|p| pb::Point {
                x: p[0].as_f64().expect("x") as f32,
                y: p[1].as_f64().expect("y") as f32,
            })
            .collect();
        let mut reader = referee_vision::VideoReader::open(&done.video).expect("video");
        let mut frames = Vec::new();
        while let Some(image) = reader.next_frame().expect("frame") {
            let t = frames.len() as f64 / reader.fps;
            frames.push((t, referee_server::frames::to_jpeg(&image).expect("jpeg")));
        }
        let _ = std::fs::remove_dir_all(&out);
        Rendered { frames, corners }
    }
}
