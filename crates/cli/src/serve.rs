//! `referee serve [--db PATH|URL] [--grpc ADDR] [--http ADDR] [--auth FILE]`: the
//! service, until Ctrl-C (or SIGTERM), which stops it cleanly. With a
//! PostgreSQL URL any number of instances share one record and its boards.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use referee_server::{Access, Config, Database};
use referee_watch::HandSource;
use tokio::net::TcpListener;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The record: a SQLite file (created if missing), or a PostgreSQL
    /// database shared by several instances (postgres://USER@HOST:PORT/DB).
    #[arg(long, default_value = "referee.db")]
    db: String,
    /// This instance's name among those sharing a PostgreSQL record
    /// (default: the host, the gRPC port and the process id).
    #[arg(long)]
    instance: Option<String>,
    /// Where the gRPC API listens (port 0: any free port, printed).
    #[arg(long, default_value = "127.0.0.1:50051")]
    grpc: SocketAddr,
    /// Where the arbiter's panel, the overlay, PGN feeds and /metrics are served.
    #[arg(long)]
    http: Option<SocketAddr>,
    /// Tokens and their roles; without it only loopback callers are answered.
    #[arg(long)]
    auth: Option<PathBuf>,
    /// PEM certificate to serve TLS with (needs --tls-key).
    #[arg(long, requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// PEM private key of --tls-cert.
    #[arg(long, requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Boards refereed at once (default: the number of cores).
    #[arg(long)]
    workers: Option<usize>,
    /// The most frames a second a camera may send; faster ones are dropped and counted.
    #[arg(long, default_value_t = 120.0)]
    max_fps: f64,
    /// Serve even when the detector or the real-hand models do not load:
    /// moves are read from the colours, touches on that footage are not
    /// seen, and every client is told so.
    #[arg(long)]
    allow_no_models: bool,
}

pub fn run(args: &Args) -> Result<()> {
    let mut config = Config::new(Database::parse(&args.db));
    config.not_seen = referee_watch::missing_models(HandSource::Auto)
        .iter()
        .map(ToString::to_string)
        .collect();
    if !config.not_seen.is_empty() && !args.allow_no_models {
        bail!(
            "{}; run scripts/setup, or serve without them with --allow-no-models",
            config.not_seen.join("; ")
        );
    }
    if let Some(path) = &args.auth {
        config.access = Access::from_file(path).map_err(|e| anyhow!("--auth {e}"))?;
    }
    config.tls = args.tls_cert.clone().zip(args.tls_key.clone());
    if let Some(workers) = args.workers {
        config.workers = workers;
    }
    config.max_fps = args.max_fps;
    crate::client::runtime()?.block_on(async {
        let listener = TcpListener::bind(args.grpc)
            .await
            .with_context(|| format!("--grpc {}: cannot listen", args.grpc))?;
        let addr = listener.local_addr()?;
        if let Database::Postgres(_) = config.db {
            config.instance = match &args.instance {
                Some(name) => name.clone(),
                None => format!("{}:{} pid {}", host(), addr.port(), std::process::id()),
            };
        }
        let shown_db = match &config.db {
            Database::Sqlite(path) => path.display().to_string(),
            Database::Postgres(_) => format!("PostgreSQL, as instance {}", config.instance),
        };
        let web = match args.http {
            Some(at) => Some(
                TcpListener::bind(at)
                    .await
                    .with_context(|| format!("--http {at}: cannot listen"))?,
            ),
            None => None,
        };
        let tls = config.tls.is_some();
        let not_seen = config.not_seen.clone();
        let loopback_only = matches!(config.access, Access::LoopbackOnly);
        // The store opened and a write tried before anyone is told it serves.
        let prepared = referee_server::Prepared::open(config)?;
        let scheme = if tls { "https" } else { "http" };
        say(&format!(
            "referee: serving gRPC on {scheme}://{addr} (record in {shown_db})"
        ));
        if let Some(web) = &web {
            say(&format!(
                "referee: arbiter's panel on http://{0}/, overlay on http://{0}/overlay?game=ID",
                web.local_addr()?
            ));
        }
        if loopback_only {
            say("referee: no --auth given: answering loopback addresses only");
        }
        for not_seen in &not_seen {
            say(&format!("referee: WARNING: {not_seen}"));
        }
        prepared.serve(listener, web, stop_signal()).await?;
        say("referee: stopped");
        Ok(())
    })
}

/// This machine's name, as the kernel has it.
fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_string())
        .ok()
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "host".into())
}

/// A line on standard output, flushed; a closed output does not stop the service.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Ctrl-C or SIGTERM.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
