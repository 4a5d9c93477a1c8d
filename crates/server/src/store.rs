//! Where the service keeps its record: the trait every store implements
//! (the embedded SQLite file, one instance; PostgreSQL, shared by many)
//! and its error.
//!
//! A game's record is its ordered log of updates (physical events, moves,
//! incidents, decisions, corrections, the result), each with its sequence
//! number. The log is the truth a restarted service replays; the store may
//! also keep tables derived from it for people and tools. Beside the log it
//! keeps the announced events still waiting for their place in it.
//!
//! Instances sharing a store share its boards out by leases: the board's
//! holder alone writes its game. The others follow its updates through
//! the store's [`Notice`]s, and hand it the calls they take for its board
//! ([`Store::ask`]).

use std::path::PathBuf;

use referee_proto as pb;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("store {path}: {source}")]
    Sqlite {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error("store {url}: {source}")]
    Postgres {
        url: String,
        #[source]
        source: tokio_postgres::Error,
    },
    #[error("store {url}: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("store {url}: migration {version} ({name}): {reason}")]
    Migration {
        url: String,
        version: u32,
        name: &'static str,
        reason: String,
    },
    #[error(
        "store: board {board} is held by {holder} now, not by this instance: its update was not written"
    )]
    NotHolder { board: String, holder: String },
    #[error("store: {0}")]
    Unsupported(&'static str),
    #[error("store: game {game}, update {seq}: cannot decode ({reason})")]
    Corrupt {
        game: String,
        seq: u64,
        reason: String,
    },
    #[error("store: evidence {path}: {source}")]
    Evidence {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

pub type StoreResult<T> = Result<T, StoreError>;

/// What another instance wrote, as the store tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// A game's log grew to `seq`.
    Update { game: String, seq: u64 },
    /// A game was opened, or its record (state, result) changed.
    Game { id: String },
    /// A call was handed to `holder` (an instance's name), to carry out.
    Asked { id: i64, holder: String },
    /// The call `id` was answered.
    Answered { id: i64 },
    /// Notices may have been missed (the store's connection was lost and
    /// found again): read everything again.
    Resync,
}

/// Who holds a board's lease, when it is not the asking instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Holding {
    pub holder: String,
    /// Seconds until the lease runs out unless renewed.
    pub for_seconds: f64,
}

/// A durable record of games. Every write returns only once it is durable:
/// what a client was told survives a crash of the service.
pub trait Store: Send + Sync + std::fmt::Debug + 'static {
    /// Records a game newly opened.
    fn create_game(&self, game: &pb::Game) -> StoreResult<()>;
    /// Records a game's new state or result.
    fn update_game(&self, game: &pb::Game) -> StoreResult<()>;
    /// Every game, oldest first.
    fn games(&self) -> StoreResult<Vec<pb::Game>>;
    /// Appends updates (numbered already) to a game's log, all or none.
    fn append(&self, game_id: &str, updates: &[pb::Update]) -> StoreResult<()>;
    /// A game's updates with a sequence number above `after`, in order.
    fn log(&self, game_id: &str, after: u64) -> StoreResult<Vec<pb::Update>>;
    /// Keeps the events announced for a game (no camera sees them) that
    /// wait for their place among its frames' events: all of them, in
    /// place of those kept before.
    fn keep_waiting(&self, game_id: &str, waiting: &[pb::PhysicalEvent]) -> StoreResult<()>;
    /// The announced events that were waiting when last kept, in order.
    fn waiting(&self, game_id: &str) -> StoreResult<Vec<pb::PhysicalEvent>>;
    /// Keeps an evidence file (a picture, a clip's manifest); returns the
    /// path to cite, relative to the store: [`Store::evidence_path`].
    fn keep_evidence(&self, name: &str, bytes: &[u8]) -> StoreResult<String>;
    /// The path [`Store::keep_evidence`] gives the file `name`, before it
    /// is kept (a clip is cited as its incident is stored, and kept after).
    fn evidence_path(&self, name: &str) -> String;
    /// An evidence picture by the path [`Store::keep_evidence`] gave;
    /// `None` for a path it never gave.
    fn evidence(&self, path: &str) -> StoreResult<Option<Vec<u8>>>;

    /// Takes or renews `board`'s lease for `holder` for `seconds`; `None`
    /// when `holder` holds it now, else who holds it.
    fn lease(&self, board: &str, holder: &str, seconds: f64) -> StoreResult<Option<Holding>>;
    /// Lets `board`'s lease go, when `holder` holds it.
    fn release(&self, board: &str, holder: &str) -> StoreResult<()>;
    /// What other instances write, as it commits; `None` for a store that
    /// one instance has to itself.
    fn notices(&self) -> Option<tokio::sync::broadcast::Receiver<Notice>> {
        None
    }
    /// Hands `call` to the instance `holder`; the call's number.
    fn ask(&self, _holder: &str, _call: &pb::Forwarded) -> StoreResult<i64> {
        Err(StoreError::Unsupported(
            "this store has one instance: no call is handed on",
        ))
    }
    /// The call handed on as `id`.
    fn asked(&self, _id: i64) -> StoreResult<Option<pb::Forwarded>> {
        Ok(None)
    }
    /// Answers the call `id`.
    fn answer(&self, _id: i64, _answer: &pb::ForwardedAnswer) -> StoreResult<()> {
        Err(StoreError::Unsupported(
            "this store has one instance: no call is handed on",
        ))
    }
    /// The answer to the call `id`, once given.
    fn answer_of(&self, _id: i64) -> StoreResult<Option<pb::ForwardedAnswer>> {
        Ok(None)
    }
}
