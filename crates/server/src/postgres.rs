//! The shared store: one PostgreSQL database for any number of instances.
//! The same record as the SQLite store (`migrations/postgres/`), plus the
//! boards' leases, the calls instances hand each other, and the evidence
//! files (in the database, so that every instance serves every incident's
//! pictures without a shared folder).
//!
//! Every commit that changes a game says so on the channel `referee`
//! (`LISTEN/NOTIFY`, delivered at commit): the other instances read the
//! change from the tables. A write to a game's log is refused unless this
//! instance holds its board's lease (checked under a lock in the same
//! transaction): an instance that lost its board cannot write after the
//! one that took it.
//!
//! The driver is async (tokio-postgres, pooled by deadpool-postgres); the
//! store's calls are not, and may come from the service's runtime, so the
//! store runs its connections on a small runtime of its own and waits for
//! each answer.

use std::future::Future;
use std::str::FromStr;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use prost::Message;
use referee_proto as pb;
use tokio::sync::broadcast;
use tokio_postgres::{AsyncMessage, NoTls};

use crate::sqlite::{kind_of, side_name};
use crate::store::{Holding, Notice, Store, StoreError, StoreResult};

/// Connections the pool keeps open at most.
const POOL: usize = 16;
/// The channel every change is told on.
const CHANNEL: &str = "referee";
/// How long the store waits to reach the database at start.
const CONNECT: Duration = Duration::from_secs(10);
/// Notices a slow follower may fall behind by before it reads everything again.
const NOTICES: usize = 4096;
/// The lock instances starting together take to migrate one at a time.
const MIGRATION_LOCK: i64 = 0x0072_6566_6572_6565;
/// The database's clock, in seconds since the epoch.
const NOW: &str = "date_part('epoch', clock_timestamp())";

/// The PostgreSQL store, bound to the instance it writes for.
#[derive(Debug)]
pub struct PgStore {
    /// The URL as errors show it (no password).
    url: String,
    /// This instance's name: the holder its writes are checked against.
    holder: String,
    runtime: Option<tokio::runtime::Runtime>,
    handle: tokio::runtime::Handle,
    pool: Pool,
    notices: broadcast::Sender<Notice>,
}

/// What a step against the database can come to.
enum Fail {
    Db(tokio_postgres::Error),
    Pool(String),
    Store(StoreError),
}

impl From<tokio_postgres::Error> for Fail {
    fn from(e: tokio_postgres::Error) -> Self {
        Self::Db(e)
    }
}

impl From<deadpool_postgres::PoolError> for Fail {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        match e {
            deadpool_postgres::PoolError::Backend(e) => Self::Db(e),
            other => Self::Pool(other.to_string()),
        }
    }
}

impl From<StoreError> for Fail {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

type Step<T> = Result<T, Fail>;

/// `url` without its password, for errors and logs.
fn shown_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:…{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

impl PgStore {
    /// Connects to the database at `url` (a libpq URL, postgres://…) for
    /// the instance `holder`, migrates its schema, and listens for what
    /// other instances write, before it returns.
    pub fn open(url: &str, holder: &str) -> StoreResult<Self> {
        let shown = shown_url(url);
        let unreachable = |reason: String| StoreError::Unreachable {
            url: shown.clone(),
            reason,
        };
        let config = tokio_postgres::Config::from_str(url).map_err(|e| StoreError::Postgres {
            url: shown.clone(),
            source: e,
        })?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("referee-store")
            .enable_all()
            .build()
            .map_err(|e| unreachable(format!("its runtime: {e}")))?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(CONNECT))
            .create_timeout(Some(CONNECT))
            .build()
            .map_err(|e| unreachable(e.to_string()))?;
        let (notices, _) = broadcast::channel(NOTICES);
        let store = Self {
            url: shown_url(url),
            holder: holder.to_string(),
            handle: runtime.handle().clone(),
            runtime: Some(runtime),
            pool,
            notices,
        };
        let (pool, url) = (store.pool.clone(), store.url.clone());
        store.run(async move { migrate(&pool, &url).await })?;
        let (listening, listened) = std::sync::mpsc::sync_channel(1);
        store
            .handle
            .spawn(listen(config, store.notices.clone(), listening));
        match listened.recv_timeout(CONNECT) {
            Ok(Ok(())) => Ok(store),
            Ok(Err(reason)) => Err(unreachable(format!("LISTEN: {reason}"))),
            Err(_) => Err(unreachable("LISTEN: no answer".into())),
        }
    }

    /// Runs `step` on the store's runtime and waits for it.
    fn run<T: Send + 'static>(
        &self,
        step: impl Future<Output = Step<T>> + Send + 'static,
    ) -> StoreResult<T> {
        let (done, answer) = std::sync::mpsc::sync_channel(1);
        self.handle.spawn(async move {
            let _ = done.send(step.await);
        });
        let url = self.url.clone();
        match answer.recv() {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(Fail::Db(source))) => Err(StoreError::Postgres { url, source }),
            Ok(Err(Fail::Pool(reason))) => Err(StoreError::Unreachable { url, reason }),
            Ok(Err(Fail::Store(e))) => Err(e),
            Err(_) => Err(StoreError::Unreachable {
                url,
                reason: "the store's runtime stopped".into(),
            }),
        }
    }

    /// What the store's calls need, owned, to move onto its runtime.
    fn parts(&self) -> (Pool, String) {
        (self.pool.clone(), self.holder.clone())
    }
}

impl Drop for PgStore {
    fn drop(&mut self) {
        // Dropped from inside the service's runtime: stopped, not awaited.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Applies the migrations the database lacks, one instance at a time.
async fn migrate(pool: &Pool, url: &str) -> Step<()> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    )
    .await?;
    let version: i32 = tx
        .query_one(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            &[],
        )
        .await?
        .get(0);
    for migration in crate::migrations::pending(crate::migrations::POSTGRES, version as u32) {
        tx.batch_execute(migration.sql).await.map_err(|e| {
            Fail::Store(StoreError::Migration {
                url: url.to_string(),
                version: migration.version,
                name: migration.name,
                reason: e.to_string(),
            })
        })?;
        tx.execute(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
            &[&(migration.version as i32), &migration.name],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Listens on [`CHANNEL`] and passes what it hears on, for as long as the
/// store lives; a lost connection is found again and said as a resync.
async fn listen(
    config: tokio_postgres::Config,
    notices: broadcast::Sender<Notice>,
    listening: std::sync::mpsc::SyncSender<Result<(), String>>,
) {
    let mut first = Some(listening);
    loop {
        match config.connect(NoTls).await {
            Ok((client, mut connection)) => {
                let (heard, mut hearing) = tokio::sync::mpsc::unbounded_channel();
                let reading = tokio::spawn(async move {
                    let mut messages =
                        futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
                    while let Some(Ok(message)) = messages.next().await {
                        if let AsyncMessage::Notification(n) = message {
                            let _ = heard.send(n.payload().to_string());
                        }
                    }
                });
                match client.batch_execute(&format!("LISTEN {CHANNEL}")).await {
                    Ok(()) => {
                        match first.take() {
                            Some(listening) => {
                                let _ = listening.send(Ok(()));
                            }
                            None => {
                                tracing::info!("store: listening again");
                                let _ = notices.send(Notice::Resync);
                            }
                        }
                        while let Some(payload) = hearing.recv().await {
                            match Notice::parse(&payload) {
                                Some(notice) => {
                                    let _ = notices.send(notice);
                                }
                                None => tracing::warn!("store: a notice not understood: {payload}"),
                            }
                        }
                        tracing::warn!("store: the listening connection was lost");
                    }
                    Err(e) => {
                        if let Some(listening) = first.take() {
                            let _ = listening.send(Err(e.to_string()));
                            return;
                        }
                    }
                }
                reading.abort();
            }
            Err(e) => {
                if let Some(listening) = first.take() {
                    let _ = listening.send(Err(e.to_string()));
                    return;
                }
                tracing::warn!("store: cannot listen: {e}");
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

impl Notice {
    /// The payload told on the channel.
    fn payload(&self) -> String {
        match self {
            Self::Update { game, seq } => format!("u {game} {seq}"),
            Self::Game { id } => format!("g {id}"),
            Self::Asked { id, holder } => format!("a {id} {holder}"),
            Self::Answered { id } => format!("r {id}"),
            Self::Resync => "s".into(),
        }
    }

    fn parse(payload: &str) -> Option<Self> {
        let (kind, rest) = payload.split_once(' ').unwrap_or((payload, ""));
        match kind {
            "u" => {
                let (game, seq) = rest.rsplit_once(' ')?;
                Some(Self::Update {
                    game: game.into(),
                    seq: seq.parse().ok()?,
                })
            }
            "g" => Some(Self::Game { id: rest.into() }),
            "a" => {
                let (id, holder) = rest.split_once(' ')?;
                Some(Self::Asked {
                    id: id.parse().ok()?,
                    holder: holder.into(),
                })
            }
            "r" => Some(Self::Answered {
                id: rest.parse().ok()?,
            }),
            "s" => Some(Self::Resync),
            _ => None,
        }
    }
}

async fn notify(tx: &deadpool_postgres::Transaction<'_>, notice: &Notice) -> Step<()> {
    tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &notice.payload()])
        .await?;
    Ok(())
}

fn corrupt(game: &str, seq: u64, e: &prost::DecodeError) -> Fail {
    Fail::Store(StoreError::Corrupt {
        game: game.into(),
        seq,
        reason: e.to_string(),
    })
}

/// A move of the record in the `moves` table, in place of any at its ply.
async fn put_move(
    tx: &deadpool_postgres::Transaction<'_>,
    game_id: &str,
    m: &pb::Move,
) -> Step<()> {
    let statement = tx
        .prepare_cached(
            "INSERT INTO moves VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (game_id, ply) DO UPDATE SET side = excluded.side, san = excluded.san,
             uci = excluded.uci, t = excluded.t",
        )
        .await?;
    tx.execute(
        &statement,
        &[
            &game_id,
            &i64::from(m.ply),
            &side_name(m.side),
            &m.san,
            &m.uci,
            &m.t,
        ],
    )
    .await?;
    Ok(())
}

/// Fills the derived tables for one update.
async fn derive(
    tx: &deadpool_postgres::Transaction<'_>,
    game_id: &str,
    update: &pb::Update,
) -> Step<()> {
    use pb::update::What;
    let seq = update.seq as i64;
    match &update.what {
        Some(What::Event(e)) => {
            let statement = tx
                .prepare_cached("INSERT INTO events VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
                .await?;
            tx.execute(
                &statement,
                &[
                    &game_id,
                    &seq,
                    &e.t,
                    &e.r#type,
                    &e.square,
                    &e.piece,
                    &side_name(e.side),
                    &e.confidence,
                ],
            )
            .await?;
        }
        Some(What::Move(m)) => put_move(tx, game_id, m).await?,
        Some(What::Incident(i)) if i.decision.is_empty() => {
            tx.execute(
                "INSERT INTO incidents VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 ON CONFLICT (id) DO NOTHING",
                &[
                    &i.id,
                    &game_id,
                    &i64::from(i.ply),
                    &side_name(i.side),
                    &i.kind,
                    &i.article,
                    &i.squares.join(" "),
                    &i.t,
                    &i.claimable,
                    &i.detail,
                    &i.evidence.join(" "),
                ],
            )
            .await?;
        }
        Some(What::Incident(i)) => {
            tx.execute(
                "INSERT INTO decisions VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    &i.id,
                    &seq,
                    &i.decision,
                    &i.note,
                    &i.decided_by,
                    &i.decided_at,
                ],
            )
            .await?;
        }
        Some(What::Correction(c)) => {
            tx.execute(
                "INSERT INTO corrections VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                &[
                    &game_id,
                    &seq,
                    &i64::from(c.ply),
                    &c.uci,
                    &c.san,
                    &c.note,
                    &c.by,
                    &c.at,
                ],
            )
            .await?;
            tx.execute(
                "DELETE FROM moves WHERE game_id = $1 AND ply >= $2",
                &[&game_id, &i64::from(c.ply)],
            )
            .await?;
            for m in &c.moves {
                put_move(tx, game_id, m).await?;
            }
        }
        Some(What::Result(_) | What::Stats(_)) | None => {}
    }
    Ok(())
}

/// Refuses the transaction's writes to `game_id` unless `holder` holds its
/// board's lease; the lease row stays locked (shared) until it commits, so
/// that no other instance takes the board meanwhile.
async fn fence(tx: &deadpool_postgres::Transaction<'_>, game_id: &str, holder: &str) -> Step<()> {
    let statement = tx
        .prepare_cached(
            "SELECT l.holder FROM leases l JOIN games g ON g.board_id = l.board_id
             WHERE g.id = $1 FOR SHARE OF l",
        )
        .await?;
    let held_by: Option<String> = tx
        .query_opt(&statement, &[&game_id])
        .await?
        .map(|row| row.get(0));
    if held_by.as_deref() == Some(holder) {
        return Ok(());
    }
    let board: Option<String> = tx
        .query_opt("SELECT board_id FROM games WHERE id = $1", &[&game_id])
        .await?
        .map(|row| row.get(0));
    Err(Fail::Store(StoreError::NotHolder {
        board: board.unwrap_or_else(|| format!("of game {game_id}")),
        holder: held_by.unwrap_or_else(|| "nobody".into()),
    }))
}

/// The evidence folder's name in the paths the store gives.
const EVIDENCE: &str = "db";

impl Store for PgStore {
    fn create_game(&self, game: &pb::Game) -> StoreResult<()> {
        let (pool, _) = self.parts();
        let game = game.clone();
        self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            tx.execute(
                &format!("INSERT INTO games (id, board_id, state, result, opened, game) VALUES ($1, $2, $3, $4, {NOW}, $5)"),
                &[&game.id, &game.board_id, &game.state, &game.result, &game.encode_to_vec()],
            )
            .await?;
            notify(&tx, &Notice::Game { id: game.id.clone() }).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn update_game(&self, game: &pb::Game) -> StoreResult<()> {
        let (pool, _) = self.parts();
        let game = game.clone();
        self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            tx.execute(
                "UPDATE games SET state = $2, result = $3, game = $4 WHERE id = $1",
                &[&game.id, &game.state, &game.result, &game.encode_to_vec()],
            )
            .await?;
            notify(
                &tx,
                &Notice::Game {
                    id: game.id.clone(),
                },
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn games(&self) -> StoreResult<Vec<pb::Game>> {
        let (pool, _) = self.parts();
        self.run(async move {
            let client = pool.get().await?;
            let rows = client
                .query("SELECT id, game FROM games ORDER BY position", &[])
                .await?;
            rows.iter()
                .map(|row| {
                    let (id, blob): (String, Vec<u8>) = (row.get(0), row.get(1));
                    pb::Game::decode(blob.as_slice()).map_err(|e| corrupt(&id, 0, &e))
                })
                .collect()
        })
    }

    fn append(&self, game_id: &str, updates: &[pb::Update]) -> StoreResult<()> {
        let Some(last) = updates.last().map(|u| u.seq) else {
            return Ok(());
        };
        let (pool, holder) = self.parts();
        let (game, updates) = (game_id.to_string(), updates.to_vec());
        self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            fence(&tx, &game, &holder).await?;
            let statement = tx
                .prepare_cached("INSERT INTO updates VALUES ($1, $2, $3, $4)")
                .await?;
            for update in &updates {
                tx.execute(
                    &statement,
                    &[
                        &game,
                        &(update.seq as i64),
                        &kind_of(update),
                        &update.encode_to_vec(),
                    ],
                )
                .await?;
                derive(&tx, &game, update).await?;
            }
            notify(&tx, &Notice::Update { game, seq: last }).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn log(&self, game_id: &str, after: u64) -> StoreResult<Vec<pb::Update>> {
        let (pool, _) = self.parts();
        let game = game_id.to_string();
        self.run(async move {
            let client = pool.get().await?;
            let statement = client
                .prepare_cached(
                    "SELECT seq, body FROM updates WHERE game_id = $1 AND seq > $2 ORDER BY seq",
                )
                .await?;
            let rows = client.query(&statement, &[&game, &(after as i64)]).await?;
            rows.iter()
                .map(|row| {
                    let (seq, body): (i64, Vec<u8>) = (row.get(0), row.get(1));
                    pb::Update::decode(body.as_slice()).map_err(|e| corrupt(&game, seq as u64, &e))
                })
                .collect()
        })
    }

    fn keep_waiting(&self, game_id: &str, waiting: &[pb::PhysicalEvent]) -> StoreResult<()> {
        let (pool, holder) = self.parts();
        let (game, waiting) = (game_id.to_string(), waiting.to_vec());
        self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            fence(&tx, &game, &holder).await?;
            tx.execute("DELETE FROM waiting WHERE game_id = $1", &[&game])
                .await?;
            for (position, event) in waiting.iter().enumerate() {
                tx.execute(
                    "INSERT INTO waiting VALUES ($1, $2, $3)",
                    &[&game, &(position as i64), &event.encode_to_vec()],
                )
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn waiting(&self, game_id: &str) -> StoreResult<Vec<pb::PhysicalEvent>> {
        let (pool, _) = self.parts();
        let game = game_id.to_string();
        self.run(async move {
            let client = pool.get().await?;
            let rows = client
                .query(
                    "SELECT event FROM waiting WHERE game_id = $1 ORDER BY position",
                    &[&game],
                )
                .await?;
            rows.iter()
                .enumerate()
                .map(|(position, row)| {
                    let body: Vec<u8> = row.get(0);
                    pb::PhysicalEvent::decode(body.as_slice()).map_err(|e| {
                        Fail::Store(StoreError::Corrupt {
                            game: game.clone(),
                            seq: position as u64,
                            reason: format!("waiting event {position}: {e}"),
                        })
                    })
                })
                .collect()
        })
    }

    fn keep_evidence(&self, name: &str, bytes: &[u8]) -> StoreResult<String> {
        let (pool, _) = self.parts();
        let (file, bytes) = (name.to_string(), bytes.to_vec());
        self.run(async move {
            let client = pool.get().await?;
            client
                .execute(
                    "INSERT INTO evidence VALUES ($1, $2)
                     ON CONFLICT (name) DO UPDATE SET bytes = excluded.bytes",
                    &[&file, &bytes],
                )
                .await?;
            Ok(())
        })?;
        Ok(self.evidence_path(name))
    }

    fn evidence_path(&self, name: &str) -> String {
        format!("{EVIDENCE}/{name}")
    }

    fn evidence(&self, path: &str) -> StoreResult<Option<Vec<u8>>> {
        let Some(name) = path.strip_prefix(&format!("{EVIDENCE}/")) else {
            return Ok(None);
        };
        let (pool, _) = self.parts();
        let name = name.to_string();
        self.run(async move {
            let client = pool.get().await?;
            let row = client
                .query_opt("SELECT bytes FROM evidence WHERE name = $1", &[&name])
                .await?;
            Ok(row.map(|row| row.get(0)))
        })
    }

    fn lease(&self, board: &str, holder: &str, seconds: f64) -> StoreResult<Option<Holding>> {
        let (pool, _) = self.parts();
        let (board, holder) = (board.to_string(), holder.to_string());
        self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            tx.execute(
                &format!(
                    "INSERT INTO leases VALUES ($1, $2, {NOW} + $3) ON CONFLICT (board_id) DO UPDATE
                     SET holder = excluded.holder, expires = excluded.expires
                     WHERE leases.holder = excluded.holder OR leases.expires < {NOW}"
                ),
                &[&board, &holder, &seconds],
            )
            .await?;
            let row = tx
                .query_one(
                    &format!("SELECT holder, expires - {NOW} FROM leases WHERE board_id = $1"),
                    &[&board],
                )
                .await?;
            tx.commit().await?;
            let held_by: String = row.get(0);
            Ok((held_by != holder).then(|| Holding {
                holder: held_by,
                for_seconds: row.get(1),
            }))
        })
    }

    fn release(&self, board: &str, holder: &str) -> StoreResult<()> {
        let (pool, _) = self.parts();
        let (board, holder) = (board.to_string(), holder.to_string());
        self.run(async move {
            let client = pool.get().await?;
            client
                .execute(
                    "DELETE FROM leases WHERE board_id = $1 AND holder = $2",
                    &[&board, &holder],
                )
                .await?;
            Ok(())
        })
    }

    fn notices(&self) -> Option<broadcast::Receiver<Notice>> {
        Some(self.notices.subscribe())
    }

    fn ask(&self, holder: &str, call: &pb::Forwarded) -> StoreResult<i64> {
        let (pool, _) = self.parts();
        let (holder, call) = (holder.to_string(), call.encode_to_vec());
        self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let id: i64 = tx
                .query_one(
                    &format!("INSERT INTO calls (holder, call, asked) VALUES ($1, $2, {NOW}) RETURNING id"),
                    &[&holder, &call],
                )
                .await?
                .get(0);
            notify(&tx, &Notice::Asked { id, holder }).await?;
            tx.commit().await?;
            Ok(id)
        })
    }

    fn asked(&self, id: i64) -> StoreResult<Option<pb::Forwarded>> {
        let (pool, _) = self.parts();
        self.run(async move {
            let client = pool.get().await?;
            let row = client
                .query_opt("SELECT call FROM calls WHERE id = $1", &[&id])
                .await?;
            row.map(|row| {
                let body: Vec<u8> = row.get(0);
                pb::Forwarded::decode(body.as_slice())
                    .map_err(|e| corrupt("(a call)", id as u64, &e))
            })
            .transpose()
        })
    }

    fn answer(&self, id: i64, answer: &pb::ForwardedAnswer) -> StoreResult<()> {
        let (pool, _) = self.parts();
        let answer = answer.encode_to_vec();
        self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            tx.execute(
                "UPDATE calls SET answer = $2 WHERE id = $1",
                &[&id, &answer],
            )
            .await?;
            notify(&tx, &Notice::Answered { id }).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn answer_of(&self, id: i64) -> StoreResult<Option<pb::ForwardedAnswer>> {
        let (pool, _) = self.parts();
        self.run(async move {
            let client = pool.get().await?;
            let row = client
                .query_opt("SELECT answer FROM calls WHERE id = $1", &[&id])
                .await?;
            let body: Option<Vec<u8>> = row.and_then(|row| row.get(0));
            body.map(|body| {
                pb::ForwardedAnswer::decode(body.as_slice())
                    .map_err(|e| corrupt("(an answer)", id as u64, &e))
            })
            .transpose()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_read_back_as_told() {
        for notice in [
            Notice::Update {
                game: "b-1.x_2-3".into(),
                seq: 42,
            },
            Notice::Game { id: "b1-1".into() },
            Notice::Asked {
                id: 7,
                holder: "127.0.0.1:50051 pid 12".into(),
            },
            Notice::Answered { id: 7 },
            Notice::Resync,
        ] {
            assert_eq!(Notice::parse(&notice.payload()), Some(notice));
        }
        assert_eq!(Notice::parse("x 1"), None);
    }

    #[test]
    fn a_password_is_never_shown() {
        assert_eq!(
            shown_url("postgres://referee:secret@db:5432/games"),
            "postgres://referee:…@db:5432/games"
        );
        assert_eq!(
            shown_url("postgres://referee@db/games"),
            "postgres://referee@db/games"
        );
    }
}
