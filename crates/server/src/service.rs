//! The gRPC API (`referee.v1.Referee`) over the games the service holds.
//!
//! Frames are read off each camera stream by an async task and queued
//! (a few a board); the chain runs on blocking threads, as many at once as
//! there are cores. Under load every board is refereed at the same lower
//! rate (the service's [`Pace`]); a frame that still finds its board's
//! queue full is dropped and counted: memory stays bounded whatever the
//! cameras send.

use std::pin::Pin;
use std::sync::{Arc, RwLock};

use referee_proto as pb;
use referee_proto::referee_server::Referee;
use referee_rules::{Action, Event};
use shakmaty::Color;
use tokio::sync::{Semaphore, broadcast, mpsc};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};

use crate::auth::{Access, Holder, Need};
use crate::cluster::{Hold, Taken};
use crate::game::{FrameCounters, GameState, LiveGame};
use crate::pace::Pace;
use crate::store::Store;

/// Frames a board may have waiting for the chain.
pub const QUEUE: usize = 4;

type UpdateStream = Pin<Box<dyn Stream<Item = Result<pb::Update, Status>> + Send>>;

/// The service's state: its store, its games, who may call.
#[derive(Debug)]
pub struct RefereeService {
    games: RwLock<Vec<Arc<LiveGame>>>,
    access: Access,
    chains: Arc<Chains>,
    /// The least time between two frames of a stream, by their capture times.
    min_interval: f64,
    /// What the chain cannot see, for each model it runs without.
    not_seen: Vec<String>,
    /// This instance's name among those sharing the store (its leases').
    instance: String,
}

/// What every board's chain shares: the store, the worker threads, the
/// pace they set, and how long each stage takes.
#[derive(Debug)]
struct Chains {
    store: Arc<dyn Store>,
    workers: Arc<Semaphore>,
    pace: Pace,
    stages: crate::metrics::StageHistograms,
}

/// The longest id an error echoes back; longer ones are cut short.
const SHOWN_ID: usize = 64;

/// An id as an error echoes it: whole when short, cut short otherwise, so
/// that a 10,000-character id is not sent back whole.
fn shown(id: &str) -> String {
    match id.char_indices().nth(SHOWN_ID) {
        Some((cut, _)) => format!("{}… ({} bytes)", &id[..cut], id.len()),
        None => id.to_string(),
    }
}

fn valid_board_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

impl RefereeService {
    /// The service over `store`, with the games it holds rebuilt from their logs.
    pub fn new(
        store: Arc<dyn Store>,
        access: Access,
        workers: usize,
        max_fps: f64,
        instance: &str,
    ) -> Result<Self, String> {
        let mut games = Vec::new();
        for game in store.games().map_err(|e| e.to_string())? {
            let log = store.log(&game.id, 0).map_err(|e| e.to_string())?;
            let waiting = store.waiting(&game.id).map_err(|e| e.to_string())?;
            let state = GameState::rebuild(game, log, waiting)?;
            games.push(Arc::new(LiveGame::new(state)));
        }
        let workers = workers.max(1);
        Ok(Self {
            chains: Arc::new(Chains {
                store,
                workers: Arc::new(Semaphore::new(workers)),
                pace: Pace::new(workers),
                stages: crate::metrics::StageHistograms::default(),
            }),
            games: RwLock::new(games),
            access,
            min_interval: if max_fps > 0.0 { 1.0 / max_fps } else { 0.0 },
            not_seen: Vec::new(),
            instance: instance.to_string(),
        })
    }

    pub(crate) fn store(&self) -> &Arc<dyn Store> {
        &self.chains.store
    }

    /// This instance's name among those sharing the store.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// The game `id`, when this instance holds it.
    pub(crate) fn held_game(&self, id: &str) -> Option<Arc<LiveGame>> {
        self.games().into_iter().find(|g| g.id == id)
    }

    /// Adds a game opened or found in the store; the one already held when
    /// another path added it first.
    pub(crate) fn insert_game(&self, state: GameState) -> Arc<LiveGame> {
        let mut games = self
            .games
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(held) = games.iter().find(|g| g.id == state.game.id) {
            return held.clone();
        }
        let game = Arc::new(LiveGame::new(state));
        games.push(game.clone());
        game
    }

    /// The service running without some models: what it cannot see for
    /// each, said in `ListGames`, the panel and `/metrics`.
    pub fn not_seeing(mut self, not_seen: Vec<String>) -> Self {
        self.not_seen = not_seen;
        self
    }

    /// What the service cannot see (empty: it sees all).
    pub fn not_seen(&self) -> &[String] {
        &self.not_seen
    }

    pub(crate) fn games(&self) -> Vec<Arc<LiveGame>> {
        self.games
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn game(&self, id: &str) -> Result<Arc<LiveGame>, Status> {
        self.held_game(id)
            .ok_or_else(|| Status::not_found(format!("no game {}", shown(id))))
    }

    /// The game an incident belongs to.
    pub(crate) fn game_of_incident(&self, incident_id: &str) -> Result<Arc<LiveGame>, Status> {
        self.games()
            .into_iter()
            .find(|g| g.lock().has_incident(incident_id))
            .ok_or_else(|| no_incident(incident_id))
    }

    fn open_on(&self, board: &str) -> Option<Arc<LiveGame>> {
        self.games()
            .into_iter()
            .rev()
            .find(|g| g.board_id == board && g.lock().is_open())
    }

    fn check<T>(&self, request: &Request<T>, need: Need) -> Result<Holder, Status> {
        self.access
            .check(request.metadata(), request.remote_addr(), need)
    }

    /// Who calls over HTTP (a bearer header, or `token` in the query for
    /// pages that cannot set headers), if allowed what the call needs.
    pub fn authorize_http(
        &self,
        headers: &http::HeaderMap,
        token: Option<&str>,
        peer: Option<std::net::SocketAddr>,
        need: Need,
    ) -> Result<Holder, Status> {
        let mut metadata = tonic::metadata::MetadataMap::from_headers(headers.clone());
        if let Some(value) = token.and_then(|t| format!("Bearer {t}").parse().ok()) {
            metadata.insert("authorization", value);
        }
        self.access.check(&metadata, peer, need)
    }

    /// Every game, oldest first.
    pub fn game_list(&self) -> Vec<pb::Game> {
        self.games().iter().map(|g| g.lock().game.clone()).collect()
    }

    /// A game's verdict so far.
    pub fn verdict_of(&self, game_id: &str) -> Result<pb::Verdict, Status> {
        Ok(self.game(game_id)?.verdict())
    }

    /// A game's stored updates after `from`, then the live ones.
    pub fn updates(
        &self,
        game_id: &str,
        from: u64,
    ) -> Result<mpsc::Receiver<Result<pb::Update, Status>>, Status> {
        let game = self.game(game_id)?;
        // Subscribe before reading the store, so that nothing falls between.
        let live = game.updates.subscribe();
        let (tx, rx) = mpsc::channel(64);
        tokio::spawn(watch(
            self.chains.store.clone(),
            game_id.into(),
            from,
            live,
            tx,
        ));
        Ok(rx)
    }

    /// An arbiter's decision on an incident, stored and told, on the
    /// instance that holds its board.
    pub async fn decide(
        &self,
        incident_id: &str,
        decision: &str,
        note: &str,
        arbiter: &Holder,
    ) -> Result<pb::Incident, Status> {
        let game = self.game_of_incident(incident_id)?;
        let holding = match self.take(&game)? {
            Taken::Here(_hold) => {
                return Ok(self
                    .decide_here(&game, incident_id, decision, note, &arbiter.name)?
                    .0);
            }
            Taken::There(holding) => holding,
        };
        let call = pb::forwarded::Call::Decide(pb::DecideIncidentRequest {
            incident_id: incident_id.into(),
            decision: decision.into(),
            note: note.into(),
        });
        self.hand_on(&holding, forwarded(call, &arbiter.name))
            .await?;
        self.catch_up(&game)?;
        let incident = game
            .lock()
            .incidents()
            .into_iter()
            .find(|i| i.id == incident_id);
        incident.ok_or_else(|| no_incident(incident_id))
    }

    /// A decision stored and told by this instance, which holds the board;
    /// the incident decided and the update's number.
    pub(crate) fn decide_here(
        &self,
        game: &LiveGame,
        incident_id: &str,
        decision: &str,
        note: &str,
        by: &str,
    ) -> Result<(pb::Incident, u64), Status> {
        let mut state = game.lock();
        let (incident, update) =
            state.decide(self.chains.store.as_ref(), incident_id, decision, note, by)?;
        let seq = update.seq;
        game.tell(&[update]);
        Ok((incident, seq))
    }

    /// An arbiter's correction of a move, stored and told on the instance
    /// that holds its board; the new verdict.
    pub async fn correct(
        &self,
        game_id: &str,
        ply: u32,
        uci: &str,
        note: &str,
        arbiter: &Holder,
    ) -> Result<pb::Verdict, Status> {
        let game = self.game(game_id)?;
        match self.take(&game)? {
            Taken::Here(_hold) => {
                self.correct_here(&game, ply, uci, note, &arbiter.name)?;
            }
            Taken::There(holding) => {
                let call = pb::forwarded::Call::Correct(pb::CorrectMoveRequest {
                    game_id: game_id.into(),
                    ply,
                    uci: uci.into(),
                    note: note.into(),
                });
                self.hand_on(&holding, forwarded(call, &arbiter.name))
                    .await?;
                self.catch_up(&game)?;
            }
        }
        Ok(game.verdict())
    }

    /// A correction stored and told by this instance, which holds the
    /// board; the update's number.
    pub(crate) fn correct_here(
        &self,
        game: &LiveGame,
        ply: u32,
        uci: &str,
        note: &str,
        by: &str,
    ) -> Result<u64, Status> {
        let mut state = game.lock();
        let update = state.correct(self.chains.store.as_ref(), ply, uci, note, by)?;
        let seq = update.seq;
        game.tell(&[update]);
        Ok(seq)
    }

    /// What an incident's report shows: its game's verdict, the incident
    /// with its latest decision, and its clip's manifest once it is kept.
    pub fn incident_report(
        &self,
        incident_id: &str,
    ) -> Result<(pb::Verdict, pb::Incident, Option<serde_json::Value>), Status> {
        let game = self.game_of_incident(incident_id)?;
        let verdict = game.verdict();
        let incident = verdict
            .incidents
            .iter()
            .find(|i| i.id == incident_id)
            .cloned()
            .ok_or_else(|| no_incident(incident_id))?;
        // A clip is cited as its incident is raised and kept a moment
        // later: until then the report goes without it.
        let manifest = match self.chains.store.evidence(&incident.clip) {
            Ok(Some(bytes)) if !incident.clip.is_empty() => {
                Some(serde_json::from_slice(&bytes).map_err(|e| {
                    Status::internal(format!("the clip of {}: {e}", shown(incident_id)))
                })?)
            }
            Ok(_) => None,
            Err(e) => return Err(Status::internal(e.to_string())),
        };
        Ok((verdict, incident, manifest))
    }

    /// An evidence picture the store keeps, by the path an incident cites.
    pub fn evidence(&self, path: &str) -> Result<Vec<u8>, Status> {
        self.chains
            .store
            .evidence(path)
            .map_err(|e| Status::internal(e.to_string()))?
            .ok_or_else(|| Status::not_found(format!("no evidence {}", shown(path))))
    }

    /// The figures of `/metrics`, in Prometheus text.
    pub fn metrics(&self) -> String {
        let games = self.games();
        let boards: Vec<crate::metrics::Board> = games
            .iter()
            .map(|g| crate::metrics::Board {
                board: g.board_id.clone(),
                frames: g.frames.snapshot(),
                streaming: g.camera.try_lock().is_err(),
                evidence_bytes: g.lock().evidence_bytes(),
            })
            .collect();
        let mut incidents = std::collections::BTreeMap::<String, u64>::new();
        for game in &games {
            for incident in game.lock().incidents() {
                *incidents.entry(incident.kind).or_default() += 1;
            }
        }
        crate::metrics::Figures {
            boards,
            incidents,
            stride: self.chains.pace.stride(),
            models_missing: self.not_seen.len(),
            stages: &self.chains.stages,
        }
        .render()
    }
}

/// A call to hand on, with who made it.
fn forwarded(call: pb::forwarded::Call, by: &str) -> pb::Forwarded {
    pb::Forwarded {
        call: Some(call),
        arbiter: by.to_string(),
    }
}

fn no_incident(id: &str) -> Status {
    Status::not_found(format!("no incident {}", shown(id)))
}

#[tonic::async_trait]
impl Referee for RefereeService {
    async fn open_game(
        &self,
        request: Request<pb::OpenGameRequest>,
    ) -> Result<Response<pb::Game>, Status> {
        let board = request.get_ref().board_id.clone();
        if !valid_board_id(&board) {
            return Err(Status::invalid_argument(format!(
                "board_id `{}`: 1 to 64 letters, digits, `-`, `_` or `.`",
                shown(&board)
            )));
        }
        self.check(&request, Need::Camera(&board))?;
        if let Some(game) = self.open_on(&board) {
            return Ok(Response::new(game.lock().game.clone()));
        }
        let asked = request.into_inner();
        let n = self.games().iter().filter(|g| g.board_id == board).count() + 1;
        let game = pb::Game {
            id: format!("{board}-{n}"),
            board_id: board,
            white: asked.white,
            black: asked.black,
            event: asked.event,
            round: asked.round,
            start_fen: asked.fen,
            result: "*".into(),
            state: crate::error::GameStatus::Open.name().into(),
            time_control: asked.time_control,
            corners: asked.corners,
            date: crate::game::today(),
            footage: pb::Footage::Untold.into(),
        };
        let state = GameState::open(game.clone()).map_err(Status::invalid_argument)?;
        if let Err(e) = self.chains.store.create_game(&game) {
            // Another instance sharing the store may have opened it first.
            let _ = self.follow_games();
            return match self.open_on(&game.board_id) {
                Some(opened) => Ok(Response::new(opened.lock().game.clone())),
                None => Err(Status::internal(e.to_string())),
            };
        }
        tracing::info!(game = %game.id, "game opened");
        self.insert_game(state);
        Ok(Response::new(game))
    }

    type StreamFramesStream = UpdateStream;

    async fn stream_frames(
        &self,
        request: Request<Streaming<pb::Frame>>,
    ) -> Result<Response<Self::StreamFramesStream>, Status> {
        let (metadata, extensions, mut inbound) = request.into_parts();
        let first = inbound
            .message()
            .await?
            .ok_or_else(|| Status::invalid_argument("the stream carried no frame"))?;
        if first.board_id.is_empty() {
            return Err(Status::invalid_argument(
                "the first frame must name its board (board_id)",
            ));
        }
        let probe = Request::from_parts(metadata, extensions, ());
        self.check(&probe, Need::Camera(&first.board_id))?;
        let game = self.open_on(&first.board_id).ok_or_else(|| {
            Status::not_found(format!(
                "no game open on board {}: open one first (OpenGame)",
                shown(&first.board_id)
            ))
        })?;
        let camera = game.camera.clone().try_lock_owned().map_err(|_| {
            Status::already_exists(format!(
                "board {} already has a camera streaming",
                first.board_id
            ))
        })?;
        let hold = match self.take(&game)? {
            Taken::Here(hold) => hold,
            Taken::There(other) => {
                return Err(Status::unavailable(format!(
                    "board {} is refereed by the instance {} (its lease runs {:.1} s more unless renewed): stream to it, or here once it lets go",
                    first.board_id,
                    other.holder,
                    other.for_seconds.max(0.0)
                )));
            }
        };
        let (frames_tx, frames_rx) = mpsc::channel::<pb::Frame>(QUEUE);
        let (out_tx, out_rx) = mpsc::channel(64);
        let reader = Reader {
            game: game.clone(),
            queue: frames_tx,
            out: out_tx.clone(),
            min_interval: self.min_interval,
            chains: self.chains.clone(),
        };
        tokio::spawn(reader.read(inbound, first));
        tokio::spawn(run_chain(
            game,
            self.chains.clone(),
            frames_rx,
            out_tx,
            (camera, hold),
        ));
        Ok(Response::new(Box::pin(ReceiverStream::new(out_rx))))
    }

    type WatchGameStream = UpdateStream;

    async fn watch_game(
        &self,
        request: Request<pb::WatchGameRequest>,
    ) -> Result<Response<Self::WatchGameStream>, Status> {
        self.check(&request, Need::Viewer)?;
        let asked = request.into_inner();
        let updates = self.updates(&asked.game_id, asked.from_seq)?;
        Ok(Response::new(Box::pin(ReceiverStream::new(updates))))
    }

    async fn get_game(
        &self,
        request: Request<pb::GetGameRequest>,
    ) -> Result<Response<pb::Verdict>, Status> {
        self.check(&request, Need::Viewer)?;
        Ok(Response::new(self.verdict_of(&request.get_ref().game_id)?))
    }

    async fn list_games(
        &self,
        request: Request<pb::ListGamesRequest>,
    ) -> Result<Response<pb::ListGamesResponse>, Status> {
        self.check(&request, Need::Viewer)?;
        Ok(Response::new(pb::ListGamesResponse {
            games: self.game_list(),
            not_seen: self.not_seen.clone(),
        }))
    }

    async fn list_incidents(
        &self,
        request: Request<pb::ListIncidentsRequest>,
    ) -> Result<Response<pb::ListIncidentsResponse>, Status> {
        self.check(&request, Need::Viewer)?;
        let asked = request.into_inner();
        let games = if asked.game_id.is_empty() {
            self.games()
        } else {
            vec![self.game(&asked.game_id)?]
        };
        let incidents = games
            .iter()
            .flat_map(|g| g.lock().incidents())
            .filter(|i| !asked.open_only || i.decision.is_empty())
            .collect();
        Ok(Response::new(pb::ListIncidentsResponse { incidents }))
    }

    async fn decide_incident(
        &self,
        request: Request<pb::DecideIncidentRequest>,
    ) -> Result<Response<pb::Incident>, Status> {
        let arbiter = self.check(&request, Need::Arbiter)?;
        let asked = request.into_inner();
        let incident = self
            .decide(&asked.incident_id, &asked.decision, &asked.note, &arbiter)
            .await?;
        Ok(Response::new(incident))
    }

    async fn correct_move(
        &self,
        request: Request<pb::CorrectMoveRequest>,
    ) -> Result<Response<pb::Verdict>, Status> {
        let arbiter = self.check(&request, Need::Arbiter)?;
        let asked = request.into_inner();
        let verdict = self
            .correct(&asked.game_id, asked.ply, &asked.uci, &asked.note, &arbiter)
            .await?;
        Ok(Response::new(verdict))
    }

    async fn announce(
        &self,
        request: Request<pb::AnnounceRequest>,
    ) -> Result<Response<pb::AnnounceResponse>, Status> {
        // The board's own devices (its camera's token) or an arbiter.
        let board = self.game(&request.get_ref().game_id)?.board_id.clone();
        self.check(&request, Need::Camera(&board))?;
        Ok(Response::new(self.announce_event(request.get_ref()).await?))
    }
}

impl RefereeService {
    /// An event no camera sees, for `game_id`'s watch to place in time.
    async fn announce_event(
        &self,
        asked: &pb::AnnounceRequest,
    ) -> Result<pb::AnnounceResponse, Status> {
        let (game, event) = self.announced(asked)?;
        let waiting = match self.take(&game)? {
            Taken::Here(_hold) => self.announce_here(&game, event)?,
            Taken::There(holding) => {
                let call = pb::forwarded::Call::Announce(asked.clone());
                self.hand_on(&holding, forwarded(call, "")).await?.waiting
            }
        };
        Ok(pb::AnnounceResponse { waiting })
    }

    /// The game an announcement is for, and its event.
    pub(crate) fn announced(
        &self,
        asked: &pb::AnnounceRequest,
    ) -> Result<(Arc<LiveGame>, Event), Status> {
        let action = match asked.r#type.as_str() {
            "declare" => Action::Declare,
            "clock" => Action::Clock,
            other => {
                return Err(Status::invalid_argument(format!(
                    "type `{other}`: only events no camera sees can be announced (declare, clock)"
                )));
            }
        };
        if !(asked.t.is_finite() && asked.t >= 0.0) {
            return Err(Status::invalid_argument(format!(
                "t {} is not a time in seconds ≥ 0 on the camera stream",
                asked.t
            )));
        }
        let mut event = Event::new(asked.t, action);
        match pb::Side::try_from(asked.side) {
            Ok(pb::Side::White) => event = event.by(Color::White),
            Ok(pb::Side::Black) => event = event.by(Color::Black),
            Ok(pb::Side::Unspecified) => {}
            Err(_) => {
                return Err(Status::invalid_argument(format!(
                    "side {} is not a side",
                    asked.side
                )));
            }
        }
        Ok((self.game(&asked.game_id)?, event))
    }

    /// An announcement kept by this instance, which holds the board; how
    /// many wait for their place.
    pub(crate) fn announce_here(&self, game: &LiveGame, event: Event) -> Result<u32, Status> {
        Ok(game.lock().announce(self.chains.store.as_ref(), event)?)
    }
}

/// What reads one camera's stream into its board's queue.
struct Reader {
    game: Arc<LiveGame>,
    queue: mpsc::Sender<pb::Frame>,
    out: mpsc::Sender<Result<pb::Update, Status>>,
    min_interval: f64,
    chains: Arc<Chains>,
}

impl Reader {
    /// Reads the camera's frames into the queue: 1 in the pace's stride,
    /// the others left out and counted, and what does not fit dropped.
    /// Every frame is answered with the counters once done with, one left
    /// out at once: a sender can pace itself on the answers.
    async fn read(self, mut inbound: Streaming<pb::Frame>, first: pb::Frame) {
        let game = &self.game;
        let mut next = Some(first);
        let mut last_t = f64::NEG_INFINITY;
        let mut taken = 0u64;
        let mut rate = CameraRate::default();
        loop {
            let frame = match next.take() {
                Some(frame) => frame,
                None => match inbound.message().await {
                    Ok(Some(frame)) => frame,
                    Ok(None) => break,
                    Err(status) => {
                        tracing::warn!(game = %game.id, "camera stream broke: {status}");
                        break;
                    }
                },
            };
            FrameCounters::count(&game.frames.received);
            if let Some(why) = refused_time(frame.t, last_t) {
                FrameCounters::count(&game.frames.refused);
                tracing::warn!(game = %game.id, "camera stream refused: {why}");
                let _ = self.out.send(Err(Status::invalid_argument(why))).await;
                break;
            }
            let misdirected = !frame.board_id.is_empty() && frame.board_id != game.board_id;
            // Too soon after the last one: over the rate limit.
            if misdirected || frame.t - last_t < self.min_interval {
                self.left_out(&game.frames.dropped).await;
                continue;
            }
            let pace = &self.chains.pace;
            let fps = rate.seen(frame.t);
            let stride = pace.stride_for(fps);
            game.frames.pace(fps, stride);
            last_t = frame.t;
            taken += 1;
            if !(taken - 1).is_multiple_of(u64::from(stride)) {
                self.left_out(&game.frames.paced).await;
                continue;
            }
            match self.queue.try_send(frame) {
                Ok(()) => {}
                Err(mpsc::error::TrySendError::Full(_)) => {
                    pace.overflowed();
                    self.left_out(&game.frames.dropped).await;
                }
                Err(mpsc::error::TrySendError::Closed(_)) => break,
            }
        }
    }

    /// A frame not refereed, counted by `why` and answered.
    async fn left_out(&self, why: &std::sync::atomic::AtomicU64) {
        FrameCounters::count(why);
        let _ = self.out.send(Ok(self.game.stats_update())).await;
    }
}

/// A camera's frames a second, from its frames' capture times (a moving
/// average of the intervals).
#[derive(Debug, Default)]
struct CameraRate {
    last: Option<f64>,
    interval: Option<f64>,
}

impl CameraRate {
    /// A frame taken at `t`; the rate so far (0 until two frames).
    fn seen(&mut self, t: f64) -> f64 {
        if let Some(dt) = self.last.map(|last| t - last).filter(|&dt| dt > 0.0) {
            self.interval = Some(self.interval.map_or(dt, |i| 0.9 * i + 0.1 * dt));
        }
        self.last = Some(t);
        self.interval.map_or(0.0, |i| 1.0 / i)
    }
}

/// Why a frame's capture time `t` cannot be taken after `last` (the
/// stream's previous frame): not a finite number of seconds, or earlier.
fn refused_time(t: f64, last: f64) -> Option<String> {
    if !t.is_finite() {
        Some(format!("frame time {t}: not a finite number of seconds"))
    } else if t < last {
        Some(format!(
            "frame time {t} s is earlier than the stream's previous frame at {last} s"
        ))
    } else {
        None
    }
}

/// Runs the chain over a board's queued frames, on the worker pool, and
/// answers the camera with what happened and how its frames fared.
async fn run_chain(
    game: Arc<LiveGame>,
    chains: Arc<Chains>,
    mut frames: mpsc::Receiver<pb::Frame>,
    out: mpsc::Sender<Result<pb::Update, Status>>,
    // The board's camera and lease, held until the chain is done.
    held: (tokio::sync::OwnedMutexGuard<()>, Hold),
) {
    while let Some(frame) = frames.recv().await {
        if game.lost.load(std::sync::atomic::Ordering::Relaxed) {
            let _ = out
                .send(Err(Status::aborted(format!(
                    "board {} was taken by another instance: stream to the instance that referees it",
                    game.board_id
                ))))
                .await;
            return;
        }
        let Ok(permit) = chains.workers.clone().acquire_owned().await else {
            return;
        };
        let (chain, shared) = (game.clone(), chains.clone());
        // What the chain logs of this frame names its board and time.
        let span = tracing::info_span!("board", id = %game.board_id, t = frame.t);
        let done = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _board = span.enter();
            let started = std::time::Instant::now();
            let looked = chain.lock().look(&shared.store, &frame);
            shared.pace.worked(started.elapsed());
            looked
        })
        .await;
        match done {
            Ok(Ok(looked)) => {
                chains.stages.observe(&looked.times);
                let counter = if looked.readable {
                    &game.frames.processed
                } else {
                    &game.frames.corrupt
                };
                FrameCounters::count(counter);
                game.tell(&looked.updates);
                for update in looked.updates {
                    // A camera that stopped reading still has its frames refereed.
                    let _ = out.send(Ok(update)).await;
                }
                let _ = out.send(Ok(game.stats_update())).await;
            }
            Ok(Err(error)) => {
                let _ = out.send(Err(error.into())).await;
                break;
            }
            Err(e) => {
                let _ = out.send(Err(Status::internal(e.to_string()))).await;
                break;
            }
        }
    }
    let (chain, store) = (game.clone(), chains.store.clone());
    let ended = tokio::task::spawn_blocking(move || chain.lock().end_of_stream(&store)).await;
    if let Ok(Ok(updates)) = ended {
        game.tell(&updates);
        for update in updates {
            let _ = out.send(Ok(update)).await;
        }
    }
    let _ = out.send(Ok(game.stats_update())).await;
    drop(held);
}

/// Sends a watcher the stored updates after `from`, then the live ones.
async fn watch(
    store: Arc<dyn Store>,
    game_id: String,
    from: u64,
    mut live: broadcast::Receiver<pb::Update>,
    out: mpsc::Sender<Result<pb::Update, Status>>,
) {
    let mut last = from;
    let catch_up = |last: u64| {
        let (store, game_id) = (store.clone(), game_id.clone());
        async move {
            tokio::task::spawn_blocking(move || store.log(&game_id, last))
                .await
                .map_err(|e| Status::internal(e.to_string()))?
                .map_err(|e| Status::internal(e.to_string()))
        }
    };
    loop {
        match catch_up(last).await {
            Ok(backlog) => {
                for update in backlog {
                    last = update.seq;
                    if out.send(Ok(update)).await.is_err() {
                        return;
                    }
                }
            }
            Err(status) => {
                let _ = out.send(Err(status)).await;
                return;
            }
        }
        loop {
            match live.recv().await {
                Ok(update) if update.seq == last + 1 => {
                    last = update.seq;
                    if out.send(Ok(update)).await.is_err() {
                        return;
                    }
                }
                // One told out of order: the store has those between.
                Ok(update) if update.seq > last => break,
                Ok(_) => {}
                // Fell behind: read the store again from the last one sent.
                Err(broadcast::error::RecvError::Lagged(_)) => break,
                Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_id_is_echoed_cut_short() {
        assert_eq!(shown("b1"), "b1");
        let long = "x".repeat(10_000);
        let echoed = shown(&long);
        assert!(echoed.len() < 100, "{echoed}");
        assert!(echoed.ends_with("… (10000 bytes)"), "{echoed}");
    }
}
