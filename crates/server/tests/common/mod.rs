//! What the service's tests share: a service on a real socket over a
//! store in a folder of the test's own, a client that waits for it, and a
//! camera streaming frames the way `referee ingest --fast` does.

#![allow(dead_code)]

pub mod postgres;

use std::path::Path;
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
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        referee_server::serve(config, listener, None, async {
            let _ = stopped.await;
        })
        .await
        .expect("serves");
    });
    Running {
        addr,
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
