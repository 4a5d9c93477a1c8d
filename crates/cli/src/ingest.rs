//! `referee ingest --server URL --board ID … SOURCE`: streams a camera
//! (device index, RTSP/HTTP URL) or a video file to the service at the
//! source's pace (`--fast`: as fast as the service takes frames, none
//! dropped), printing what the service makes of it as it comes. A dropped
//! connection is retried, on the next instance `--server` lists when it
//! lists several; the board's game carries on where it stood.
//!
//! Motion-JPEG (what IP cameras and the renderer send) is passed on as the
//! camera encoded it: each frame's JPEG goes out untouched, neither decoded
//! nor encoded again here, so a camera costs its sender next to nothing and
//! the service reads the very picture the camera took. Other codecs are
//! decoded and sent as JPEG.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use opencv::core::Mat;
use opencv::prelude::*;
use opencv::videoio::{self, VideoCapture};
use referee_proto as pb;
use referee_proto::update::What;
use tokio::sync::{mpsc, watch};
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;

use crate::client::Server;
use crate::records;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    server: Server,
    /// The board this camera watches.
    #[arg(long)]
    board: String,
    /// White's name, for the game's PGN tags and pages.
    #[arg(long, default_value = "", hide_default_value = true)]
    white: String,
    /// Black's name.
    #[arg(long, default_value = "", hide_default_value = true)]
    black: String,
    /// The event (tournament, match) the game belongs to.
    #[arg(long, default_value = "", hide_default_value = true)]
    event: String,
    /// The round of the event.
    #[arg(long, default_value = "", hide_default_value = true)]
    round: String,
    /// The starting position as FEN (default: the standard one).
    #[arg(long, default_value = "", hide_default_value = true)]
    fen: String,
    /// The playing area's corners in the image, clockwise from top-left:
    /// x1,y1,…,x4,y4. Without them the service finds the board itself;
    /// give them where it cannot (a board cut off by the picture's edge).
    #[arg(long, value_parser = crate::replay::parse_corners)]
    corners: Option<referee_vision::BoardCorners>,
    /// Send as fast as the service takes frames, instead of the source's pace.
    #[arg(long)]
    fast: bool,
    /// Print only the summary, not each event, move and incident.
    #[arg(long)]
    quiet: bool,
    /// A camera's device index, an RTSP/HTTP URL, or a video file.
    source: String,
}

/// Frames in flight beyond those the service has finished, with `--fast`
/// (fewer than the service's queue, so that none is dropped).
const WINDOW: u64 = 2;

/// How often a lost connection is tried again before giving up.
const RETRIES: u32 = 30;

/// How a source's frames become the JPEG sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// Motion-JPEG read as the stream's own packets, each a JPEG sent as is.
    PassedOn,
    /// Decoded pictures, encoded here.
    Encoded,
}

/// Where the frames come from.
struct Source {
    capture: VideoCapture,
    encoding: Encoding,
    /// A file: frames are timed by their index; otherwise by the wall clock.
    file: bool,
    fps: f64,
    index: u64,
    started: Instant,
    /// A frame read but not taken by the service (its stream was refused):
    /// the first sent on the next connection.
    unsent: Option<pb::Frame>,
}

impl Source {
    fn open(name: &str) -> Result<Self> {
        let (mut capture, file) = if let Ok(device) = name.parse::<i32>() {
            (VideoCapture::new(device, videoio::CAP_ANY)?, false)
        } else {
            let file = !name.contains("://");
            if file && !std::path::Path::new(name).is_file() {
                bail!("{name}: no such video file");
            }
            (VideoCapture::from_file(name, videoio::CAP_ANY)?, file)
        };
        if !capture.is_opened()? {
            bail!("{name}: cannot open it as a camera or a video");
        }
        let fps = capture.get(videoio::CAP_PROP_FPS)?;
        let encoding = encoding_of(&mut capture)?;
        Ok(Self {
            capture,
            encoding,
            file,
            fps: if fps > 0.0 && fps.is_finite() {
                fps
            } else {
                25.0
            },
            index: 0,
            started: Instant::now(),
            unsent: None,
        })
    }

    /// The next frame as JPEG with its capture time; `None` at the end.
    fn next(&mut self, board: &str) -> Result<Option<pb::Frame>> {
        if let Some(frame) = self.unsent.take() {
            return Ok(Some(frame));
        }
        let mut image = Mat::default();
        if !self.capture.read(&mut image)? || image.empty() {
            return Ok(None);
        }
        let t = if self.file {
            self.index as f64 / self.fps
        } else {
            self.started.elapsed().as_secs_f64()
        };
        self.index += 1;
        let jpeg = match self.encoding {
            Encoding::PassedOn => {
                let packet = image.data_bytes()?.to_vec();
                if !packet.starts_with(&JPEG_START) {
                    bail!(
                        "frame {} of the Motion-JPEG stream is not a JPEG picture ({} bytes)",
                        self.index,
                        packet.len()
                    );
                }
                packet
            }
            Encoding::Encoded => referee_server::frames::to_jpeg(&image).map_err(|e| anyhow!(e))?,
        };
        Ok(Some(pb::Frame {
            board_id: board.into(),
            t,
            image: Some(pb::frame::Image::Jpeg(jpeg)),
        }))
    }
}

/// A JPEG picture's first bytes (its start-of-image marker).
const JPEG_START: [u8; 2] = [0xFF, 0xD8];

/// Passes Motion-JPEG on where FFmpeg reads the source (files and network
/// streams): the capture is switched to the stream's own packets. Devices
/// and other codecs are decoded.
fn encoding_of(capture: &mut VideoCapture) -> Result<Encoding> {
    let fourcc = capture.get(videoio::CAP_PROP_FOURCC)? as i32;
    let mjpeg = [
        videoio::VideoWriter::fourcc('M', 'J', 'P', 'G')?,
        videoio::VideoWriter::fourcc('m', 'j', 'p', 'g')?,
    ];
    let ffmpeg = capture
        .get_backend_name()
        .is_ok_and(|name| name == "FFMPEG");
    if ffmpeg && mjpeg.contains(&fourcc) && capture.set(videoio::CAP_PROP_FORMAT, -1.0)? {
        Ok(Encoding::PassedOn)
    } else {
        Ok(Encoding::Encoded)
    }
}

/// What one connection's stream came to.
enum Outcome {
    /// The source ended and the service answered everything.
    Done(pb::FrameStats),
    /// The connection broke: try again.
    Broken(String),
}

fn worth_retrying(code: Code) -> bool {
    matches!(
        code,
        Code::Unavailable | Code::Unknown | Code::Cancelled | Code::Aborted | Code::Internal
    )
}

pub fn run(args: &Args) -> Result<()> {
    let mut source = Source::open(&args.source)?;
    crate::client::runtime()?.block_on(async {
        let mut tries = 0;
        let mut sent_total = 0u64;
        // The instance tried now, among those listed.
        let mut at = 0;
        let mut broken_since = None;
        loop {
            let sent_before = sent_total;
            match stream_once(args, at, broken_since, &mut source, &mut sent_total).await {
                Ok(Outcome::Done(stats)) => {
                    println!(
                        "referee ingest: sent {sent_total} frames; the service received {}, refereed {}, left out {} by its even rate under load (1 in {} refereed last), dropped {}, skipped {} it could not read",
                        stats.frames_received,
                        stats.frames_processed,
                        stats.frames_paced,
                        stats.stride.max(1),
                        stats.frames_dropped,
                        stats.frames_corrupt
                    );
                    return Ok(());
                }
                Ok(Outcome::Broken(why)) if tries < RETRIES => {
                    // A connection that carried frames counts the tries afresh.
                    if sent_total > sent_before + 1 {
                        tries = 0;
                        broken_since = None;
                    }
                    tries += 1;
                    at += 1;
                    broken_since.get_or_insert_with(Instant::now);
                    eprintln!("referee ingest: {why}; connecting again ({tries}/{RETRIES})");
                    // Waits longer each time, up to 3 s; up to 1 s where
                    // other instances are listed (the next may take it now).
                    let most = if args.server.urls().len() > 1 { 2 } else { 6 };
                    tokio::time::sleep(Duration::from_millis(500 * u64::from(tries.min(most)))).await;
                }
                Ok(Outcome::Broken(why)) => bail!("{why}; gave up after {RETRIES} tries"),
                Err(e) => return Err(e),
            }
        }
    })
}

async fn stream_once(
    args: &Args,
    at: usize,
    broken_since: Option<Instant>,
    source: &mut Source,
    sent_total: &mut u64,
) -> Result<Outcome> {
    let mut client = match args.server.connect_to(at).await {
        Ok(client) => client,
        Err(e) => return Ok(Outcome::Broken(crate::said_once(&e))),
    };
    let corners = args
        .corners
        .map(|c| c.0.iter().map(|&[x, y]| pb::Point { x, y }).collect())
        .unwrap_or_default();
    let game = match client
        .open_game(pb::OpenGameRequest {
            board_id: args.board.clone(),
            white: args.white.clone(),
            black: args.black.clone(),
            event: args.event.clone(),
            round: args.round.clone(),
            fen: args.fen.clone(),
            time_control: String::new(),
            corners,
        })
        .await
    {
        Ok(game) => game.into_inner(),
        Err(status) if worth_retrying(status.code()) => {
            return Ok(Outcome::Broken(status.message().to_string()));
        }
        Err(status) => bail!(
            "opening a game on board {}: {}",
            args.board,
            status.message()
        ),
    };
    if !args.quiet {
        println!(
            "referee ingest: streaming {} to game {} on board {}",
            args.source, game.id, game.board_id
        );
    }
    let Some(first) = source.next(&args.board)? else {
        bail!("{}: no frames", args.source);
    };
    let first_t = first.t;
    let (tx, rx) = mpsc::channel::<pb::Frame>(4);
    tx.send(first.clone()).await.ok();
    let mut sent = 1u64;
    *sent_total += 1;
    let paced_from = Instant::now();
    let mut responses = match client.stream_frames(ReceiverStream::new(rx)).await {
        Ok(response) => {
            if let Some(broke) = broken_since {
                eprintln!(
                    "referee ingest: streaming again on {}, {:.1} s after the connection broke",
                    args.server.urls()[at % args.server.urls().len()],
                    broke.elapsed().as_secs_f64()
                );
            }
            response.into_inner()
        }
        Err(status) if worth_retrying(status.code()) => {
            // Refused before it was refereed: it goes first next time.
            source.unsent = Some(first);
            *sent_total -= 1;
            return Ok(Outcome::Broken(status.message().to_string()));
        }
        Err(status) => bail!("streaming to board {}: {}", args.board, status.message()),
    };
    // Frames the service has finished with on this connection.
    let (answered_tx, mut answered) = watch::channel(0u64);
    let quiet = args.quiet;
    let reader = tokio::spawn(async move {
        let mut last = pb::FrameStats::default();
        let mut finished = 0u64;
        loop {
            match responses.message().await {
                Ok(Some(update)) => match &update.what {
                    Some(What::Stats(stats)) => {
                        last = *stats;
                        finished += 1;
                        let _ = answered_tx.send(finished);
                    }
                    _ if !quiet => {
                        if let Some(line) = records::describe(&update) {
                            println!("{line}");
                        }
                    }
                    _ => {}
                },
                Ok(None) => return Ok(last),
                Err(status) => return Err(status),
            }
        }
    });
    let mut broken = None;
    while let Some(frame) = source.next(&args.board)? {
        if args.fast {
            let wanted = sent.saturating_sub(WINDOW);
            if answered.wait_for(|&n| n >= wanted).await.is_err() {
                broken = Some("the service stopped answering".to_string());
                break;
            }
        } else if source.file {
            let due = Duration::from_secs_f64((frame.t - first_t).max(0.0));
            tokio::time::sleep_until((paced_from + due).into()).await;
        }
        if tx.send(frame).await.is_err() {
            broken = Some("the stream was cut".to_string());
            break;
        }
        sent += 1;
        *sent_total += 1;
    }
    drop(tx);
    match reader.await.context("the answer reader")? {
        Ok(stats) if broken.is_none() => Ok(Outcome::Done(stats)),
        Ok(_) => Ok(Outcome::Broken(broken.unwrap_or_default())),
        Err(status) if worth_retrying(status.code()) => Ok(Outcome::Broken(format!(
            "the service: {}",
            status.message()
        ))),
        Err(status) => bail!("the service refused the stream: {}", status.message()),
    }
}

#[cfg(test)]
mod tests {
    use opencv::core::{CV_8UC3, Scalar, Size, Vector};
    use opencv::imgcodecs;
    use opencv::videoio::VideoWriter;

    use super::*;

    /// A Motion-JPEG file of `frames` plain pictures, 64x48.
    fn motion_jpeg(dir: &std::path::Path, frames: usize) -> String {
        let path = dir.join("camera.avi").to_string_lossy().into_owned();
        let fourcc = VideoWriter::fourcc('M', 'J', 'P', 'G').expect("fourcc");
        let mut writer =
            VideoWriter::new(&path, fourcc, 10.0, Size::new(64, 48), true).expect("writer");
        for k in 0..frames {
            let shade = 40.0 * k as f64;
            let picture =
                Mat::new_rows_cols_with_default(48, 64, CV_8UC3, Scalar::all(shade)).expect("mat");
            writer.write(&picture).expect("frame written");
        }
        writer.release().expect("file closed");
        path
    }

    #[test]
    fn a_motion_jpeg_file_is_sent_as_its_own_pictures() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let path = motion_jpeg(dir.path(), 3);
        let mut source = Source::open(&path).expect("opens");
        assert_eq!(source.encoding, Encoding::PassedOn);
        let mut shades = Vec::new();
        while let Some(frame) = source.next("1").expect("reads") {
            let Some(pb::frame::Image::Jpeg(jpeg)) = frame.image else {
                panic!("a frame without its JPEG");
            };
            let picture = imgcodecs::imdecode(&Vector::from_slice(&jpeg), imgcodecs::IMREAD_COLOR)
                .expect("the packet decodes as a JPEG");
            assert_eq!((picture.cols(), picture.rows()), (64, 48));
            shades.push(*picture.at_2d::<opencv::core::Vec3b>(24, 32).expect("pixel"));
            assert!((frame.t - 0.1 * (shades.len() - 1) as f64).abs() < 1e-9);
        }
        assert_eq!(shades.len(), 3, "every frame sent");
        assert!(
            shades.windows(2).all(|pair| pair[0][0] + 30 < pair[1][0]),
            "each frame is its own picture, in order: {shades:?}"
        );
    }
}
