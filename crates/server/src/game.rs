//! One game the service keeps: its chain (the board's watch), its log
//! numbered update by update, and what arbiters added (decisions,
//! corrections). Everything that changes a game goes through here: the
//! update is written to the store first, then told to watchers.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use opencv::core::Mat;
use opencv::prelude::*;
use referee_evidence::{self as evidence, Clip, FrameRing, Sighting, Story};
use referee_proto as pb;
use referee_proto::update::What;
use referee_rules::pgn::{Tags, write_pgn};
use referee_rules::referee::ply_of;
use referee_rules::{Event, Incident, Referee, Update, correction};
use referee_vision::BoardCorners;
use referee_watch::{BoardWatch, Seen};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode};
use tokio::sync::broadcast;

use crate::convert;
use crate::error::{Decision, GameError, GameStatus};
use crate::frames;
use crate::store::Store;

/// How many updates a slow watcher may fall behind before it reads the store.
const BROADCAST: usize = 1024;

/// A game held by the service.
#[derive(Debug)]
pub struct LiveGame {
    pub id: String,
    pub board_id: String,
    /// Every stored update, as it is stored.
    pub updates: broadcast::Sender<pb::Update>,
    /// Held by the board's camera stream: one stream a board at a time.
    pub camera: std::sync::Arc<tokio::sync::Mutex<()>>,
    /// How the board's frames fared since the service started.
    pub frames: FrameCounters,
    pub state: Mutex<GameState>,
    /// How many of this instance's streams and calls hold the board now
    /// (its lease is let go when the last lets go).
    pub holds: Mutex<u32>,
    /// Set when the board's lease was found taken by another instance
    /// while held here: its stream stops.
    pub lost: std::sync::atomic::AtomicBool,
}

/// Frames received, dropped, unreadable, left out by the even rate and
/// refereed, counted without the game's lock (the stream reader counts as
/// frames arrive), and the rate the board is refereed at.
#[derive(Debug, Default)]
pub struct FrameCounters {
    pub received: AtomicU64,
    pub dropped: AtomicU64,
    pub corrupt: AtomicU64,
    pub processed: AtomicU64,
    pub refused: AtomicU64,
    pub paced: AtomicU64,
    /// The stride the board's frames were last taken at (0: none yet, as 1).
    stride: AtomicU32,
    /// The camera's frames a second, by their capture times (f64 bits).
    camera_fps: AtomicU64,
}

impl FrameCounters {
    pub fn count(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// The board's camera sends `fps` frames a second, taken 1 in `stride`.
    pub fn pace(&self, fps: f64, stride: u32) {
        self.camera_fps.store(fps.to_bits(), Ordering::Relaxed);
        self.stride.store(stride, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> pb::FrameStats {
        let read = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        let stride = self.stride.load(Ordering::Relaxed).max(1);
        pb::FrameStats {
            frames_received: read(&self.received),
            frames_dropped: read(&self.dropped),
            frames_corrupt: read(&self.corrupt),
            frames_processed: read(&self.processed),
            frames_refused: read(&self.refused),
            frames_paced: read(&self.paced),
            stride,
            refereed_fps: f64::from_bits(read(&self.camera_fps)) / f64::from(stride),
        }
    }
}

impl LiveGame {
    pub fn new(state: GameState) -> Self {
        Self {
            id: state.game.id.clone(),
            board_id: state.game.board_id.clone(),
            updates: broadcast::channel(BROADCAST).0,
            camera: std::sync::Arc::new(tokio::sync::Mutex::new(())),
            frames: FrameCounters::default(),
            state: Mutex::new(state),
            holds: Mutex::new(0),
            lost: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The verdict so far, with the frames' counters.
    pub fn verdict(&self) -> pb::Verdict {
        let mut verdict = self.lock().verdict();
        verdict.stats = Some(self.frames.snapshot());
        verdict
    }

    /// The counters as an update for the camera's stream (not stored).
    pub fn stats_update(&self) -> pb::Update {
        pb::Update {
            game_id: self.id.clone(),
            seq: 0,
            what: Some(What::Stats(self.frames.snapshot())),
        }
    }

    pub fn lock(&self) -> std::sync::MutexGuard<'_, GameState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Tells watchers what was stored.
    pub fn tell(&self, updates: &[pb::Update]) {
        for update in updates {
            // No watcher is not an error.
            let _ = self.updates.send(update.clone());
        }
    }
}

/// A game's state behind its lock.
#[derive(Debug)]
pub struct GameState {
    pub game: pb::Game,
    start: Chess,
    tags: Tags,
    watch: BoardWatch,
    seq: u64,
    events: Vec<pb::PhysicalEvent>,
    incidents: Vec<pb::Incident>,
    decisions: HashMap<String, pb::Incident>,
    corrections: Vec<pb::Correction>,
    termination: String,
    /// The width and height of the board's frames, from the first one.
    frame_size: Option<(i32, i32)>,
    /// The board's recent frames, for the evidence of its incidents.
    recent: FrameRing,
    /// The clips of its incidents being cut, each on a thread of its own.
    cutting: ClipsCut,
    /// How many announced events waiting for their place the store keeps.
    waiting_kept: u32,
    /// Updates another instance wrote were applied since this one last
    /// refereed the board: its eyes start again from the stored position.
    followed: bool,
}

/// The threads cutting a game's clips. Each is waited for when the game is
/// let go (the service stopping), so that no clip is cut off half written
/// and no thread is still drawing with OpenCV as the process exits.
#[derive(Debug, Default)]
struct ClipsCut(Vec<std::thread::JoinHandle<()>>);

impl ClipsCut {
    /// One more clip being cut; those done are let go.
    fn push(&mut self, thread: std::thread::JoinHandle<()>) {
        self.0.retain(|t| !t.is_finished());
        self.0.push(thread);
    }
}

impl Drop for ClipsCut {
    fn drop(&mut self) {
        for thread in self.0.drain(..) {
            if thread.join().is_err() {
                tracing::warn!("a clip's thread panicked");
            }
        }
    }
}

fn corners_of(game: &pb::Game) -> Result<Option<BoardCorners>, String> {
    match game.corners.as_slice() {
        [] => Ok(None),
        [a, b, c, d] => {
            let corners = BoardCorners([[a.x, a.y], [b.x, b.y], [c.x, c.y], [d.x, d.y]]);
            corners.validate().map_err(|e| e.to_string())?;
            Ok(Some(corners))
        }
        other => Err(format!("corners: expected 4 points, got {}", other.len())),
    }
}

fn tags_of(game: &pb::Game) -> Tags {
    let mut tags = Vec::new();
    for (name, value) in [
        ("Event", &game.event),
        ("Site", &game.board_id),
        ("Date", &game.date),
        ("Round", &game.round),
        ("White", &game.white),
        ("Black", &game.black),
        ("TimeControl", &game.time_control),
    ] {
        if !value.is_empty() {
            let value = if name == "Site" {
                format!("board {value}")
            } else {
                value.clone()
            };
            tags.push((name.to_string(), value));
        }
    }
    Tags(tags)
}

/// Today's date (UTC) as PGN writes it, YYYY.MM.DD.
pub fn today() -> String {
    pgn_date(now())
}

/// The day of `seconds` since the epoch (UTC), as PGN writes it.
fn pgn_date(seconds: f64) -> String {
    let format = time::macros::format_description!("[year].[month].[day]");
    utc(seconds).format(&format).unwrap_or_default()
}

/// A moment as people read it, to the minute, in UTC.
pub fn moment(seconds: f64) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    utc(seconds).format(&format).unwrap_or_default()
}

fn utc(seconds: f64) -> time::OffsetDateTime {
    time::OffsetDateTime::from_unix_timestamp(seconds.floor() as i64)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
}

/// Seconds since the epoch.
pub fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Announced events a game keeps waiting for the camera's frames to reach
/// their time: a clock's presses and "j'adoube"s of a few minutes ahead,
/// not a flood (each is stored with the others, so more would slow every
/// announcement).
pub const MAX_WAITING: usize = 256;

/// What one frame from the camera came to.
#[derive(Debug)]
pub struct Looked {
    /// What it made known, stored.
    pub updates: Vec<pb::Update>,
    /// Whether the frame could be read (otherwise it was skipped).
    pub readable: bool,
    /// Milliseconds in each stage: decode, locate, detect, track, rules.
    pub times: [f64; 5],
}

impl GameState {
    /// A game just opened (its record already checked).
    pub fn open(game: pb::Game) -> Result<Self, String> {
        let fen = (!game.start_fen.is_empty()).then_some(game.start_fen.as_str());
        let tags = tags_of(&game);
        let referee = Referee::from_fen(fen, tags.clone()).map_err(|e| format!("fen: {e}"))?;
        let start = referee.position().clone();
        let mut watch = BoardWatch::new(referee, corners_of(&game)?);
        watch.tell_hands(convert::footage_back(game.footage()));
        Ok(Self {
            game,
            start,
            tags,
            watch,
            seq: 0,
            events: Vec::new(),
            incidents: Vec::new(),
            decisions: HashMap::new(),
            corrections: Vec::new(),
            termination: String::new(),
            frame_size: None,
            recent: FrameRing::default(),
            cutting: ClipsCut::default(),
            waiting_kept: 0,
            followed: false,
        })
    }

    /// A game rebuilt from its stored log, as it stood before the restart,
    /// with the announced events that were waiting for their place (those
    /// the log already holds, placed just before the restart, left out).
    pub fn rebuild(
        game: pb::Game,
        log: Vec<pb::Update>,
        waiting: Vec<pb::PhysicalEvent>,
    ) -> Result<Self, String> {
        let mut state = Self::open(game)?;
        for update in log {
            state.apply_stored(&update)?;
        }
        state.resume(waiting)?;
        Ok(state)
    }

    /// One stored update applied to the game as it stands: how a game is
    /// rebuilt, and how an instance follows a game another referees.
    fn apply_stored(&mut self, update: &pb::Update) -> Result<(), String> {
        let at = |e: String| format!("game {}, update {}: {e}", self.game.id, update.seq);
        match &update.what {
            Some(What::Event(e)) => {
                let event = convert::event_back(e).map_err(at)?;
                self.watch.apply(&event).map_err(|e| at(e.to_string()))?;
                self.events.push(e.clone());
            }
            Some(What::Move(m)) => {
                // A move completed by the end of a stream, not by an event.
                if !self.watch.referee().moves().iter().any(|r| r.ply == m.ply) {
                    self.watch.complete_move();
                }
            }
            Some(What::Incident(i)) if i.decision.is_empty() => self.incidents.push(i.clone()),
            Some(What::Incident(i)) => {
                self.decisions.insert(i.id.clone(), i.clone());
            }
            Some(What::Correction(c)) => {
                let (referee, _) = self.corrected(c.ply, &c.uci).map_err(at)?;
                self.watch.replace_referee(referee);
                self.corrections.push(c.clone());
            }
            Some(What::Result(result)) => {
                self.game.result = result.clone();
                self.game.state = GameStatus::Finished.name().into();
                if let Some(how) = self.watch.referee().verdict().termination {
                    self.termination = how;
                }
            }
            Some(What::Stats(_)) | None => {}
        }
        self.seq = update.seq;
        Ok(())
    }

    /// The updates another instance stored after this game's last, applied.
    pub fn follow(&mut self, log: &[pb::Update]) -> Result<(), String> {
        for update in log {
            if update.seq > self.seq {
                self.apply_stored(update)?;
                self.followed = true;
            }
        }
        Ok(())
    }

    /// The game's last stored update.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Whether another instance's updates were applied since this one
    /// last refereed the board.
    pub fn followed(&self) -> bool {
        self.followed
    }

    /// The board refereed here again, after a restart or after another
    /// instance refereed it: the announced events that were waiting for
    /// their place (those the log already holds left out), and eyes that
    /// start from the stored position (moves made meanwhile recovered).
    pub fn resume(&mut self, waiting: Vec<pb::PhysicalEvent>) -> Result<(), String> {
        let state = self;
        state.watch.forget_outside();
        for announced in waiting {
            if state.events.contains(&announced) {
                continue;
            }
            let event = convert::event_back(&announced)
                .map_err(|e| format!("game {}, a waiting announcement: {e}", state.game.id))?;
            state.watch.add_outside(event);
        }
        state.waiting_kept = state.watch.outside_waiting();
        // Nobody watched here meanwhile: the eyes start from the stored
        // position, and moves made meanwhile are recovered.
        state.watch.recalibrate();
        state.recent.clear();
        state.followed = false;
        Ok(())
    }

    pub fn is_open(&self) -> bool {
        GameStatus::of(&self.game.state) == GameStatus::Open
    }

    fn number(&mut self, what: What) -> pb::Update {
        self.seq += 1;
        pb::Update {
            game_id: self.game.id.clone(),
            seq: self.seq,
            what: Some(what),
        }
    }

    /// One frame from the camera: decoded, watched, and what it made known
    /// stored. A frame that cannot be read is skipped.
    pub fn look(&mut self, store: &Arc<dyn Store>, frame: &pb::Frame) -> Result<Looked, GameError> {
        let clock = std::time::Instant::now();
        let decoded = frames::decode(frame, self.frame_size);
        let decode = clock.elapsed().as_secs_f64() * 1e3;
        let image = match decoded {
            Ok(image) => image,
            Err(reason) => {
                tracing::warn!(game = %self.game.id, t = frame.t, "frame skipped: {reason}");
                return Ok(Looked {
                    updates: Vec::new(),
                    readable: false,
                    times: [decode, 0.0, 0.0, 0.0, 0.0],
                });
            }
        };
        self.frame_size = Some((image.cols(), image.rows()));
        let seen = self.watch_frame(&image, frame.t)?;
        self.keep_footage(store.as_ref())?;
        let stages = self.watch.times;
        self.keep_frame(frame, &image);
        let moved = seen.updates.iter().any(|u| matches!(u, Update::Move(_)));
        let updates = self.record(store, seen)?;
        self.recent.follow_turn(self.watch.first_contact(), moved);
        Ok(Looked {
            updates,
            readable: true,
            times: [
                decode,
                stages.locate,
                stages.detect,
                stages.track,
                stages.rules,
            ],
        })
    }

    /// Keeps the frame for evidence (the sender's JPEG as it came, other
    /// pictures encoded), with what the chain saw on it.
    fn keep_frame(&mut self, frame: &pb::Frame, image: &Mat) {
        if !self.recent.wants(frame.t) {
            return;
        }
        // The sender's JPEG copied once into the ring, as it came.
        let jpeg: Arc<[u8]> = match &frame.image {
            Some(pb::frame::Image::Jpeg(bytes)) => Arc::from(bytes.as_slice()),
            _ => match frames::to_jpeg(image) {
                Ok(jpeg) => Arc::from(jpeg),
                Err(_) => return,
            },
        };
        self.recent.keep(Sighting {
            t: frame.t,
            jpeg,
            glance: self.watch.glance(),
            board: self.watch.view(),
        });
    }

    fn watch_frame(&mut self, image: &Mat, t: f64) -> Result<Seen, GameError> {
        if !self.is_open() {
            return Ok(Seen::default());
        }
        let board = || self.game.board_id.clone();
        self.watch.look(image, t).map_err(|e| match e {
            referee_vision::Error::Calibration(reason) => GameError::Calibration {
                board: board(),
                reason,
            },
            source => GameError::Chain {
                board: board(),
                source,
            },
        })
    }

    /// What the footage was found to show, kept with the game once told.
    fn keep_footage(&mut self, store: &dyn Store) -> Result<(), GameError> {
        let found = convert::footage(self.watch.hand_source());
        if found == pb::Footage::Untold || found == self.game.footage() {
            return Ok(());
        }
        self.game.set_footage(found);
        store.update_game(&self.game)?;
        Ok(())
    }

    /// What another instance found the footage to show, told to this
    /// one's eyes before it referees the board.
    pub fn footage_found(&mut self, footage: pb::Footage) {
        self.game.set_footage(footage);
        self.watch.tell_hands(convert::footage_back(footage));
    }

    /// An event no camera sees, waiting for its place among the frames'
    /// events, kept in the store before it is acknowledged; how many wait.
    pub fn announce(&mut self, store: &dyn Store, event: Event) -> Result<u32, GameError> {
        if !self.is_open() {
            return Err(GameError::Over(self.game.id.clone()));
        }
        if self.watch.outside_waiting() as usize >= MAX_WAITING {
            return Err(GameError::TooManyWaiting {
                game: self.game.id.clone(),
                waiting: MAX_WAITING,
            });
        }
        let mut waiting: Vec<Event> = self.watch.outside().copied().collect();
        waiting.push(event);
        waiting.sort_by(|a, b| a.t.total_cmp(&b.t));
        store.keep_waiting(
            &self.game.id,
            &waiting.iter().map(convert::event).collect::<Vec<_>>(),
        )?;
        self.watch.add_outside(event);
        self.waiting_kept = self.watch.outside_waiting();
        Ok(self.waiting_kept)
    }

    /// Keeps in the store the announced events still waiting, when some
    /// found their place in the log since they were last kept.
    fn keep_waiting(&mut self, store: &dyn Store) -> Result<(), GameError> {
        if self.watch.outside_waiting() == self.waiting_kept {
            return Ok(());
        }
        let waiting: Vec<pb::PhysicalEvent> = self.watch.outside().map(convert::event).collect();
        store.keep_waiting(&self.game.id, &waiting)?;
        self.waiting_kept = self.watch.outside_waiting();
        Ok(())
    }

    /// The stream ended: a move made and left stands as played, and the
    /// chain lets go of its models and recent frames until a camera streams
    /// again (an event's memory stays that of the boards streaming).
    pub fn end_of_stream(&mut self, store: &Arc<dyn Store>) -> Result<Vec<pb::Update>, GameError> {
        let seen = self.watch.finish();
        let stored = self.record(store, seen)?;
        self.watch.release();
        self.recent.clear();
        self.frame_size = None;
        Ok(stored)
    }

    /// Numbers, stores and keeps what the chain made known.
    fn record(&mut self, store: &Arc<dyn Store>, seen: Seen) -> Result<Vec<pb::Update>, GameError> {
        let mut out = Vec::new();
        let mut ended = false;
        // Incidents raised by this frame before the one being raised: each
        // gets its own number (they join `incidents` once all are stored).
        let mut raised_now = 0;
        for event in &seen.events {
            out.push(self.number(What::Event(convert::event(event))));
        }
        for update in &seen.updates {
            let what = match update {
                Update::Move(m) => What::Move(convert::move_record(m)),
                Update::Incident(incident) => {
                    let raised = self.raise(store, incident, raised_now)?;
                    raised_now += 1;
                    What::Incident(raised)
                }
                Update::End {
                    result,
                    termination,
                } => {
                    self.game.result = result.clone();
                    self.game.state = GameStatus::Finished.name().into();
                    self.termination = termination.clone();
                    ended = true;
                    What::Result(result.clone())
                }
                Update::Claim(_) => continue,
            };
            out.push(self.number(what));
        }
        store.append(&self.game.id, &out)?;
        self.keep_waiting(store.as_ref())?;
        if ended {
            store.update_game(&self.game)?;
            // Nothing more is read: the models are let go.
            self.watch.release();
        }
        for update in &out {
            match &update.what {
                Some(What::Event(e)) => self.events.push(e.clone()),
                Some(What::Incident(i)) => self.incidents.push(i.clone()),
                _ => {}
            }
        }
        Ok(out)
    }

    /// An incident with its service-wide id and its evidence kept.
    fn raise(
        &mut self,
        store: &Arc<dyn Store>,
        incident: &Incident,
        raised_now: usize,
    ) -> Result<pb::Incident, GameError> {
        let id = format!("{}-{}", self.game.id, self.incidents.len() + raised_now + 1);
        let mut raised = convert::incident(&self.game.id, id.clone(), incident);
        for (k, jpeg) in self.recent.around(incident.t).into_iter().enumerate() {
            let path = store.keep_evidence(&format!("{id}-{}.jpg", k + 1), jpeg)?;
            raised.evidence.push(path);
        }
        raised.clip = self.keep_clip(store, incident, &id);
        Ok(raised)
    }

    /// The path of the incident's clip (its manifest), cut and kept on a
    /// thread of its own so that the board's frames do not wait for it
    /// (a few hundred milliseconds): its frames first, its manifest last,
    /// so that a manifest found has its frames. Nothing when no frame is
    /// kept; a clip that cannot be drawn is told in the log and left out
    /// (the incident and its stills are kept all the same).
    fn keep_clip(&mut self, store: &Arc<dyn Store>, incident: &Incident, id: &str) -> String {
        if self.recent.frames().next().is_none() {
            return String::new();
        }
        let story = Story::of(incident, id, self.watch.referee());
        let prefix = format!("{id}-clip");
        let manifest = Clip::manifest_name(&prefix);
        let path = store.evidence_path(&manifest);
        let (ring, store, incident) = (self.recent.clone(), Arc::clone(store), id.to_string());
        let cutting = std::thread::Builder::new()
            .name(format!("clip {id}"))
            .spawn(move || {
                let id = incident;
                let clock = std::time::Instant::now();
                let kept = evidence::cut(&ring, &story, &prefix)
                    .map_err(|e| e.to_string())
                    .and_then(|clip| {
                        let clip = clip.ok_or("no frame of it kept")?;
                        for (name, jpeg) in clip.files() {
                            store.keep_evidence(name, jpeg).map_err(|e| e.to_string())?;
                        }
                        store
                            .keep_evidence(&manifest, &clip.manifest_json())
                            .map_err(|e| e.to_string())?;
                        Ok(clip)
                    });
                match kept {
                    Ok(clip) => tracing::info!(
                        incident = id,
                        frames = clip.manifest.frames.len(),
                        bytes = clip.manifest.bytes,
                        ms = clock.elapsed().as_secs_f64() * 1e3,
                        "clip kept"
                    ),
                    Err(reason) => tracing::warn!(incident = id, "no clip: {reason}"),
                }
            });
        match cutting {
            Ok(thread) => {
                self.cutting.push(thread);
                path
            }
            Err(e) => {
                tracing::warn!(incident = id, "no clip: cannot start its thread: {e}");
                String::new()
            }
        }
    }

    /// Incidents with their latest decision, and whether the opponent may
    /// still claim each (art. 4.8: the right lapses once the claimant
    /// touches a piece to move it, after the incident was raised).
    pub fn incidents(&self) -> Vec<pb::Incident> {
        self.incidents
            .iter()
            .map(|i| {
                let claimable = self.still_claimable(i);
                match self.decisions.get(&i.id) {
                    Some(d) => pb::Incident {
                        decision: d.decision.clone(),
                        decided_by: d.decided_by.clone(),
                        note: d.note.clone(),
                        decided_at: d.decided_at,
                        claimable,
                        ..i.clone()
                    },
                    None => pb::Incident {
                        claimable,
                        ..i.clone()
                    },
                }
            })
            .collect()
    }

    /// Whether the referee still holds `incident` claimable (as raised
    /// when the referee no longer knows it, after a correction).
    fn still_claimable(&self, incident: &pb::Incident) -> bool {
        self.watch
            .referee()
            .incidents()
            .iter()
            .find(|r| {
                r.ply == incident.ply
                    && r.kind.name() == incident.kind
                    && (r.t - incident.t).abs() < 1e-6
            })
            .map_or(incident.claimable, |r| r.claimable)
    }

    /// Bytes of recent frames kept for evidence.
    pub fn evidence_bytes(&self) -> usize {
        self.recent.bytes()
    }

    pub fn has_incident(&self, id: &str) -> bool {
        self.incidents.iter().any(|i| i.id == id)
    }

    /// An arbiter's decision, stored.
    pub fn decide(
        &mut self,
        store: &dyn Store,
        id: &str,
        decision: &str,
        note: &str,
        by: &str,
    ) -> Result<(pb::Incident, pb::Update), GameError> {
        let decision: Decision = decision.parse()?;
        let incident = self
            .incidents
            .iter()
            .find(|i| i.id == id)
            .ok_or_else(|| GameError::NoIncident(id.to_string()))?;
        let decided = pb::Incident {
            decision: decision.name().into(),
            note: note.into(),
            decided_by: by.into(),
            decided_at: now(),
            ..incident.clone()
        };
        let update = self.number(What::Incident(decided.clone()));
        store.append(&self.game.id, std::slice::from_ref(&update))?;
        self.decisions.insert(id.into(), decided.clone());
        Ok((decided, update))
    }

    /// The game's record with the move at `ply` replaced by `uci`, the
    /// later moves played again where they still can be; and the moves from
    /// `ply` on.
    fn corrected(&self, ply: u32, uci: &str) -> Result<(Referee, Vec<pb::Move>), String> {
        let moves = self.watch.referee().moves();
        let (referee, from) = correction::corrected(&self.start, &self.tags, moves, ply, uci)?;
        let derived = referee.moves()[from..]
            .iter()
            .map(convert::move_record)
            .collect();
        Ok((referee, derived))
    }

    /// An arbiter's correction of a misread move, stored.
    pub fn correct(
        &mut self,
        store: &dyn Store,
        ply: u32,
        uci: &str,
        note: &str,
        by: &str,
    ) -> Result<pb::Update, GameError> {
        let (referee, moves) = self.corrected(ply, uci).map_err(GameError::Correction)?;
        let san = moves.first().map(|m| m.san.clone()).unwrap_or_default();
        let correction = pb::Correction {
            ply,
            uci: uci.into(),
            san,
            note: note.into(),
            by: by.into(),
            at: now(),
            moves,
        };
        let update = self.number(What::Correction(correction.clone()));
        store.append(&self.game.id, std::slice::from_ref(&update))?;
        self.watch.replace_referee(referee);
        self.corrections.push(correction);
        Ok(update)
    }

    /// The verdict so far (contracts.md §2 in the API's terms).
    pub fn verdict(&self) -> pb::Verdict {
        let referee = self.watch.referee();
        let moves = referee.moves();
        let incidents = self.incidents();
        let for_pgn: Vec<Incident> = incidents
            .iter()
            .filter_map(convert::incident_back)
            .collect();
        let start_fen = (self.start != Chess::default()).then(|| self.game.start_fen.clone());
        let termination = (!self.termination.is_empty()).then_some(self.termination.as_str());
        let pgn = write_pgn(
            &self.tags,
            start_fen.as_deref(),
            ply_of(&self.start),
            moves,
            &for_pgn,
            referee.claims(),
            &self.game.result,
            termination,
        );
        pb::Verdict {
            game: Some(self.game.clone()),
            moves: moves.iter().map(convert::move_record).collect(),
            incidents,
            result: self.game.result.clone(),
            fen: Fen::from_position(referee.position(), EnPassantMode::Legal).to_string(),
            pgn,
            termination: self.termination.clone(),
            events: self.events.clone(),
            stats: None,
            corrections: self.corrections.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_dated_as_the_calendar_says() {
        assert_eq!(pgn_date(0.0), "1970.01.01");
        assert_eq!(pgn_date(11_016.0 * 86_400.0), "2000.02.29");
        assert_eq!(pgn_date(20_787.0 * 86_400.0 + 86_399.5), "2026.11.30");
        assert_eq!(
            moment(20_787.0 * 86_400.0 + 3_725.0),
            "2026-11-30 01:02 UTC"
        );
    }
}
