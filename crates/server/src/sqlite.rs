//! The embedded store: one SQLite file (write-ahead log, synchronous
//! commits) and a folder of evidence pictures beside it, for one instance.
//!
//! Tables (`migrations/sqlite/`): `games`; `updates` (the log, each update
//! as its protobuf bytes); and, derived from the log in the same
//! transaction for people and tools, `events`, `moves`, `incidents`,
//! `decisions`, `corrections`; `waiting`; `leases`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use prost::Message;
use referee_proto as pb;
use rusqlite::{Connection, params};

use crate::store::{Holding, Store, StoreError, StoreResult};

/// The SQLite store.
#[derive(Debug)]
pub struct SqliteStore {
    path: PathBuf,
    evidence: PathBuf,
    connection: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (or creates) the store at `path`; evidence goes to
    /// `PATH.evidence/` beside it.
    pub fn open(path: &Path) -> StoreResult<Self> {
        let sqlite = |source| StoreError::Sqlite {
            path: path.to_path_buf(),
            source,
        };
        let mut connection = Connection::open(path).map_err(sqlite)?;
        connection
            .execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
            .map_err(sqlite)?;
        migrate(&mut connection).map_err(sqlite)?;
        // A store that cannot be written says so now, not at the first move.
        connection
            .execute_batch("BEGIN IMMEDIATE; ROLLBACK;")
            .map_err(sqlite)?;
        let mut evidence = path.as_os_str().to_owned();
        evidence.push(".evidence");
        Ok(Self {
            path: path.to_path_buf(),
            evidence: PathBuf::from(evidence),
            connection: Mutex::new(connection),
        })
    }

    fn sqlite(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sqlite {
            path: self.path.clone(),
            source,
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> StoreResult<T> {
        let mut connection = self
            .connection
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut connection).map_err(|e| self.sqlite(e))
    }
}

/// Applies the migrations the file lacks, each in its own transaction.
fn migrate(connection: &mut Connection) -> rusqlite::Result<()> {
    let version: u32 = connection.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    for migration in crate::migrations::pending(crate::migrations::SQLITE, version) {
        let tx = connection.transaction()?;
        tx.execute_batch(migration.sql)?;
        tx.pragma_update(None, "user_version", migration.version)?;
        tx.commit()?;
    }
    Ok(())
}

/// Seconds since the epoch, by this machine's clock.
fn epoch() -> f64 {
    crate::game::now()
}

pub(crate) fn side_name(side: i32) -> &'static str {
    match pb::Side::try_from(side) {
        Ok(pb::Side::White) => "white",
        Ok(pb::Side::Black) => "black",
        _ => "",
    }
}

pub(crate) fn kind_of(update: &pb::Update) -> &'static str {
    use pb::update::What;
    match &update.what {
        Some(What::Event(_)) => "event",
        Some(What::Move(_)) => "move",
        Some(What::Incident(i)) if i.decision.is_empty() => "incident",
        Some(What::Incident(_)) => "decision",
        Some(What::Result(_)) => "result",
        Some(What::Stats(_)) => "stats",
        Some(What::Correction(_)) => "correction",
        None => "none",
    }
}

/// Fills the derived tables for one update.
fn derive(tx: &rusqlite::Transaction, game_id: &str, update: &pb::Update) -> rusqlite::Result<()> {
    use pb::update::What;
    let seq = update.seq as i64;
    match &update.what {
        Some(What::Event(e)) => {
            tx.execute(
                "INSERT INTO events VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    game_id,
                    seq,
                    e.t,
                    e.r#type,
                    e.square,
                    e.piece,
                    side_name(e.side),
                    e.confidence
                ],
            )?;
        }
        Some(What::Move(m)) => {
            tx.execute(
                "INSERT OR REPLACE INTO moves VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![game_id, m.ply, side_name(m.side), m.san, m.uci, m.t],
            )?;
        }
        Some(What::Incident(i)) if i.decision.is_empty() => {
            tx.execute(
                "INSERT OR REPLACE INTO incidents VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    i.id,
                    game_id,
                    i.ply,
                    side_name(i.side),
                    i.kind,
                    i.article,
                    i.squares.join(" "),
                    i.t,
                    i.claimable,
                    i.detail,
                    i.evidence.join(" ")
                ],
            )?;
        }
        Some(What::Incident(i)) => {
            tx.execute(
                "INSERT INTO decisions VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![i.id, seq, i.decision, i.note, i.decided_by, i.decided_at],
            )?;
        }
        Some(What::Correction(c)) => {
            tx.execute(
                "INSERT INTO corrections VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![game_id, seq, c.ply, c.uci, c.san, c.note, c.by, c.at],
            )?;
            tx.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                params![game_id, c.ply],
            )?;
            for m in &c.moves {
                tx.execute(
                    "INSERT OR REPLACE INTO moves VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![game_id, m.ply, side_name(m.side), m.san, m.uci, m.t],
                )?;
            }
        }
        Some(What::Result(_) | What::Stats(_)) | None => {}
    }
    Ok(())
}

impl Store for SqliteStore {
    fn create_game(&self, game: &pb::Game) -> StoreResult<()> {
        self.with(|c| {
            c.execute(
                "INSERT INTO games VALUES (?1, ?2, ?3, ?4, unixepoch(), ?5)",
                params![
                    game.id,
                    game.board_id,
                    game.state,
                    game.result,
                    game.encode_to_vec()
                ],
            )
            .map(drop)
        })
    }

    fn update_game(&self, game: &pb::Game) -> StoreResult<()> {
        self.with(|c| {
            c.execute(
                "UPDATE games SET state = ?2, result = ?3, game = ?4 WHERE id = ?1",
                params![game.id, game.state, game.result, game.encode_to_vec()],
            )
            .map(drop)
        })
    }

    fn games(&self) -> StoreResult<Vec<pb::Game>> {
        let blobs: Vec<(String, Vec<u8>)> = self.with(|c| {
            let mut query = c.prepare("SELECT id, game FROM games ORDER BY rowid")?;
            let rows = query.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
            rows.collect()
        })?;
        blobs
            .into_iter()
            .map(|(id, blob)| {
                pb::Game::decode(blob.as_slice()).map_err(|e| StoreError::Corrupt {
                    game: id,
                    seq: 0,
                    reason: e.to_string(),
                })
            })
            .collect()
    }

    fn append(&self, game_id: &str, updates: &[pb::Update]) -> StoreResult<()> {
        if updates.is_empty() {
            return Ok(());
        }
        self.with(|c| {
            let tx = c.transaction()?;
            for update in updates {
                tx.execute(
                    "INSERT INTO updates VALUES (?1, ?2, ?3, ?4)",
                    params![
                        game_id,
                        update.seq as i64,
                        kind_of(update),
                        update.encode_to_vec()
                    ],
                )?;
                derive(&tx, game_id, update)?;
            }
            tx.commit()
        })
    }

    fn log(&self, game_id: &str, after: u64) -> StoreResult<Vec<pb::Update>> {
        let rows: Vec<(i64, Vec<u8>)> = self.with(|c| {
            let mut query = c.prepare(
                "SELECT seq, body FROM updates WHERE game_id = ?1 AND seq > ?2 ORDER BY seq",
            )?;
            let rows = query.query_map(params![game_id, after as i64], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })?;
            rows.collect()
        })?;
        rows.into_iter()
            .map(|(seq, body)| {
                pb::Update::decode(body.as_slice()).map_err(|e| StoreError::Corrupt {
                    game: game_id.into(),
                    seq: seq as u64,
                    reason: e.to_string(),
                })
            })
            .collect()
    }

    fn keep_waiting(&self, game_id: &str, waiting: &[pb::PhysicalEvent]) -> StoreResult<()> {
        self.with(|c| {
            let tx = c.transaction()?;
            tx.execute("DELETE FROM waiting WHERE game_id = ?1", params![game_id])?;
            for (position, event) in waiting.iter().enumerate() {
                tx.execute(
                    "INSERT INTO waiting VALUES (?1, ?2, ?3)",
                    params![game_id, position as i64, event.encode_to_vec()],
                )?;
            }
            tx.commit()
        })
    }

    fn waiting(&self, game_id: &str) -> StoreResult<Vec<pb::PhysicalEvent>> {
        let rows: Vec<Vec<u8>> = self.with(|c| {
            let mut query =
                c.prepare("SELECT event FROM waiting WHERE game_id = ?1 ORDER BY position")?;
            let rows = query.query_map(params![game_id], |row| row.get(0))?;
            rows.collect()
        })?;
        rows.into_iter()
            .enumerate()
            .map(|(position, body)| {
                pb::PhysicalEvent::decode(body.as_slice()).map_err(|e| StoreError::Corrupt {
                    game: game_id.into(),
                    seq: position as u64,
                    reason: format!("waiting event {position}: {e}"),
                })
            })
            .collect()
    }

    fn evidence_path(&self, name: &str) -> String {
        let folder = self
            .evidence
            .file_name()
            .unwrap_or_default()
            .to_string_lossy();
        format!("{folder}/{name}")
    }

    fn keep_evidence(&self, name: &str, jpeg: &[u8]) -> StoreResult<String> {
        let path = self.evidence.join(name);
        let io = |source| StoreError::Evidence {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(&self.evidence).map_err(io)?;
        let mut file = std::fs::File::create(&path).map_err(io)?;
        file.write_all(jpeg).map_err(io)?;
        file.sync_all().map_err(io)?;
        Ok(self.evidence_path(name))
    }

    fn evidence(&self, path: &str) -> StoreResult<Option<Vec<u8>>> {
        let folder = self
            .evidence
            .file_name()
            .unwrap_or_default()
            .to_string_lossy();
        let Some(name) = path.strip_prefix(&format!("{folder}/")) else {
            return Ok(None);
        };
        // Only names this store gives: no folders, no way out of it.
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
        if name.is_empty() || name.starts_with('.') || !name.chars().all(plain) {
            return Ok(None);
        }
        let file = self.evidence.join(name);
        match std::fs::read(&file) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(StoreError::Evidence { path: file, source }),
        }
    }

    fn lease(&self, board: &str, holder: &str, seconds: f64) -> StoreResult<Option<Holding>> {
        let now = epoch();
        self.with(|c| {
            c.execute(
                "INSERT INTO leases VALUES (?1, ?2, ?3) ON CONFLICT (board_id) DO UPDATE
                 SET holder = excluded.holder, expires = excluded.expires
                 WHERE leases.holder = excluded.holder OR leases.expires < ?4",
                params![board, holder, now + seconds, now],
            )?;
            let (held_by, expires): (String, f64) = c.query_row(
                "SELECT holder, expires FROM leases WHERE board_id = ?1",
                params![board],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )?;
            Ok((held_by != holder).then_some(Holding {
                holder: held_by,
                for_seconds: expires - now,
            }))
        })
    }

    fn release(&self, board: &str, holder: &str) -> StoreResult<()> {
        self.with(|c| {
            c.execute(
                "DELETE FROM leases WHERE board_id = ?1 AND holder = ?2",
                params![board, holder],
            )
            .map(drop)
        })
    }
}
