//! Where the service keeps its record: the trait every store implements
//! (the embedded SQLite file today; a PostgreSQL one can follow for many
//! machines) and its error.
//!
//! A game's record is its ordered log of updates (physical events, moves,
//! incidents, decisions, corrections, the result), each with its sequence
//! number. The log is the truth a restarted service replays; the store may
//! also keep tables derived from it for people and tools. Beside the log it
//! keeps the announced events still waiting for their place in it.

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
}
