//! The referee's service: cameras stream each board's frames in over gRPC;
//! the service referees every board at once, keeps the record in a store
//! that survives a crash, and serves it to arbiters and streamers.
//!
//! - [`service`]: the gRPC API (`proto/referee/v1`), frames queued a board
//!   at a time and refereed on a worker pool.
//! - [`game`]: one game held: its chain, log, decisions and corrections.
//! - [`store`]: the store trait; [`sqlite`]: the embedded SQLite store;
//!   [`postgres`]: the store many instances share; [`migrations`]: their
//!   schemas; [`cluster`]: boards shared out between instances.
//! - [`frames`]: frames decoded and checked (each incident's stills and
//!   clip are cut by `referee-evidence`).
//! - [`http`]: the arbiter's panel, the overlay, PGN feeds, `/metrics`;
//!   [`report`]: an incident's printable report.
//! - [`auth`]: tokens and roles (`--auth FILE`).
//! - [`convert`]: the rules engine's records in the API's terms; [`json`]:
//!   the records as JSON (contracts.md §2).

pub mod auth;
pub mod cluster;
pub mod convert;
pub mod error;
pub mod frames;
pub mod game;
pub mod http;
pub mod json;
pub mod metrics;
pub mod migrations;
pub mod pace;
pub mod postgres;
pub mod report;
pub mod service;
pub mod sqlite;
pub mod store;

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use referee_proto::referee_server::RefereeServer;
use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::transport::{Identity, Server, ServerTlsConfig};

pub use auth::Access;
pub use cluster::LEASE_SECONDS;
pub use postgres::PgStore;
pub use service::RefereeService;

pub use sqlite::SqliteStore;
pub use store::{Notice, Store, StoreError};

/// The largest message the service accepts (a frame), in bytes.
pub const MAX_MESSAGE: usize = 16 << 20;

/// Where the service keeps its record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, for one instance.
    Sqlite(PathBuf),
    /// A PostgreSQL database (a libpq URL), shared by any number of instances.
    Postgres(String),
}

impl Database {
    /// `--db` as given: a postgres:// or postgresql:// URL, else a SQLite file.
    pub fn parse(given: &str) -> Self {
        if given.starts_with("postgres://") || given.starts_with("postgresql://") {
            Self::Postgres(given.to_string())
        } else {
            Self::Sqlite(PathBuf::from(given))
        }
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Self {
        Self::Sqlite(path)
    }
}

/// How the service runs.
#[derive(Debug, Clone)]
pub struct Config {
    pub db: Database,
    /// This instance's name among those sharing a PostgreSQL store (unique
    /// to each running instance: its boards' leases are held in it).
    pub instance: String,
    pub access: Access,
    /// PEM certificate and key: serve over TLS.
    pub tls: Option<(PathBuf, PathBuf)>,
    /// Threads the chain runs on at once.
    pub workers: usize,
    /// Frames a second a stream may send, by capture time; faster ones are dropped.
    pub max_fps: f64,
    /// What the chain cannot see, for each model it runs without (told to
    /// every client; empty when all models loaded).
    pub not_seen: Vec<String>,
}

impl Config {
    pub fn new(db: impl Into<Database>) -> Self {
        Self {
            db: db.into(),
            instance: "local".into(),
            access: Access::LoopbackOnly,
            tls: None,
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            max_fps: 120.0,
            not_seen: Vec::new(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot rebuild the stored games: {0}")]
    Rebuild(String),
    #[error("TLS: {path}: {source}")]
    Tls {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Transport(#[from] tonic::transport::Error),
    #[error("the web pages: {0}")]
    Http(std::io::Error),
}

/// Serves gRPC on `listener` (and the web pages on `http`, when given)
/// until `shutdown` completes.
pub async fn serve(
    config: Config,
    listener: TcpListener,
    http: Option<TcpListener>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    Prepared::open(config)?
        .serve(listener, http, shutdown)
        .await
}

/// The service with its store open (a write tried) and its games rebuilt,
/// ready to serve: what a caller checks before it says it serves.
#[derive(Debug)]
pub struct Prepared {
    config: Config,
    service: Arc<RefereeService>,
}

impl Prepared {
    /// Opens the store `config` names and rebuilds the games it holds.
    pub fn open(config: Config) -> Result<Self, ServeError> {
        let store: Arc<dyn Store> = match &config.db {
            Database::Sqlite(path) => Arc::new(SqliteStore::open(path)?),
            Database::Postgres(url) => Arc::new(PgStore::open(url, &config.instance)?),
        };
        let service = Arc::new(
            RefereeService::new(
                store,
                config.access.clone(),
                config.workers,
                config.max_fps,
                &config.instance,
            )
            .map_err(ServeError::Rebuild)?
            .not_seeing(config.not_seen.clone()),
        );
        Ok(Self { config, service })
    }

    /// Serves until `shutdown` completes.
    pub async fn serve(
        self,
        listener: TcpListener,
        http: Option<TcpListener>,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        serve_prepared(self, listener, http, shutdown).await
    }
}

async fn serve_prepared(
    prepared: Prepared,
    listener: TcpListener,
    http: Option<TcpListener>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let Prepared { config, service } = prepared;
    // Beside other instances on one store: follow theirs, renew ours.
    let follower = tokio::spawn(cluster::follow(service.clone()));
    let renewer = tokio::spawn(cluster::renew(service.clone()));
    // One stop for both servers.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop.send(true);
    });
    let until_stopped = |mut stopped: tokio::sync::watch::Receiver<bool>| async move {
        let _ = stopped.wait_for(|&s| s).await;
    };
    let web = http.map(|listener| {
        let app = http::router(service.clone())
            .into_make_service_with_connect_info::<std::net::SocketAddr>();
        let stopping = until_stopped(stopped.clone());
        tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(stopping)
                .await
        })
    });
    let (health, health_service) = tonic_health::server::health_reporter();
    health.set_serving::<RefereeServer<RefereeService>>().await;
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(referee_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()
        .map_err(|e| ServeError::Rebuild(format!("reflection: {e}")))?;
    let mut server = Server::builder();
    if let Some((cert, key)) = &config.tls {
        let read = |path: &PathBuf| {
            std::fs::read(path).map_err(|source| ServeError::Tls {
                path: path.clone(),
                source,
            })
        };
        let identity = Identity::from_pem(read(cert)?, read(key)?);
        server = server.tls_config(ServerTlsConfig::new().identity(identity))?;
    }
    server
        .add_service(health_service)
        .add_service(reflection)
        .add_service(
            RefereeServer::from_arc(service)
                .max_decoding_message_size(MAX_MESSAGE)
                .max_encoding_message_size(MAX_MESSAGE),
        )
        .serve_with_incoming_shutdown(TcpListenerStream::new(listener), until_stopped(stopped))
        .await?;
    if let Some(web) = web {
        web.await
            .map_err(|e| ServeError::Http(std::io::Error::other(e)))?
            .map_err(ServeError::Http)?;
    }
    follower.abort();
    renewer.abort();
    Ok(())
}
