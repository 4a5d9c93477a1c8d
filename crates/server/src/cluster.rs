//! What an instance does beside others on one shared store.
//!
//! - It takes a board's lease before it referees or writes the board's
//!   game ([`Hold`]), renews it while it holds it ([`renew`]), and lets it
//!   go when done: a board is refereed by one instance at a time, and a
//!   board whose instance died is taken by another once its lease runs out.
//! - It follows the games others referee ([`follow`]): each update they
//!   commit is read from the store, applied to the game held here, and
//!   told to this instance's watchers, panels and overlays.
//! - It hands a call it takes for a board another instance holds (a
//!   decision, a correction, an announcement) to that instance through the
//!   store, and waits for its answer.
//!
//! With a store one instance has to itself (SQLite) the leases are all
//! its own, and nothing is followed or handed on.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use referee_proto as pb;
use referee_proto::forwarded::Call;
use tokio::sync::broadcast::error::RecvError;
use tonic::{Code, Status};

use crate::game::{GameState, LiveGame};
use crate::service::RefereeService;
use crate::store::{Holding, Notice, Store};

/// How long a board's lease runs unless renewed: how long a board whose
/// instance died waits before another instance may take it.
pub const LEASE_SECONDS: f64 = 5.0;
/// How often the leases of the boards held here are renewed.
const RENEW: Duration = Duration::from_secs(1);
/// How long a call handed to another instance waits for its answer.
const ANSWER_WAIT: Duration = Duration::from_secs(10);
/// How often a call handed on looks for its answer between notices.
const ANSWER_POLL: Duration = Duration::from_millis(100);

/// A board held by this instance while the value lives: the last one let
/// go lets the lease go.
#[derive(Debug)]
pub struct Hold {
    game: Arc<LiveGame>,
    store: Arc<dyn Store>,
    instance: String,
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut holds = self
            .game
            .holds
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *holds = holds.saturating_sub(1);
        if *holds == 0
            && let Err(e) = self.store.release(&self.game.board_id, &self.instance)
        {
            tracing::warn!(board = %self.game.board_id, "lease not let go (it runs out): {e}");
        }
    }
}

/// Where a board's game is written from now.
#[derive(Debug)]
pub enum Taken {
    /// Here: this instance holds the board.
    Here(Hold),
    /// By another instance, which holds the board's lease.
    There(Holding),
}

fn internal(e: impl std::fmt::Display) -> Status {
    Status::internal(e.to_string())
}

impl RefereeService {
    /// Takes `game`'s board for this instance, unless another holds it:
    /// the game brought up to date with the store first, and, where
    /// another instance refereed it meanwhile, its eyes started again from
    /// the stored position.
    pub(crate) fn take(&self, game: &Arc<LiveGame>) -> Result<Taken, Status> {
        let store = self.store();
        let mut holds = game
            .holds
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(other) = store
            .lease(&game.board_id, self.instance(), LEASE_SECONDS)
            .map_err(internal)?
        {
            return Ok(Taken::There(other));
        }
        if *holds == 0 {
            self.catch_up(game)?;
            let mut state = game.lock();
            if state.followed() {
                let stored = store.games().map_err(internal)?;
                if let Some(found) = stored.iter().find(|g| g.id == game.id) {
                    state.footage_found(found.footage());
                }
                let waiting = store.waiting(&game.id).map_err(internal)?;
                state.resume(waiting).map_err(Status::data_loss)?;
            }
        }
        *holds += 1;
        game.lost.store(false, Ordering::Relaxed);
        Ok(Taken::Here(Hold {
            game: game.clone(),
            store: store.clone(),
            instance: self.instance().to_string(),
        }))
    }

    /// Applies to `game` the updates the store holds beyond its last, and
    /// tells them to watchers (under the game's lock, so in order).
    pub(crate) fn catch_up(&self, game: &LiveGame) -> Result<(), Status> {
        let mut state = game.lock();
        let log = self.store().log(&game.id, state.seq()).map_err(internal)?;
        if log.is_empty() {
            return Ok(());
        }
        state.follow(&log).map_err(Status::data_loss)?;
        game.tell(&log);
        Ok(())
    }

    /// The games the store holds that this instance does not yet, rebuilt
    /// from their logs.
    pub(crate) fn follow_games(&self) -> Result<(), String> {
        let store = self.store();
        for game in store.games().map_err(|e| e.to_string())? {
            if self.held_game(&game.id).is_some() {
                continue;
            }
            let log = store.log(&game.id, 0).map_err(|e| e.to_string())?;
            let waiting = store.waiting(&game.id).map_err(|e| e.to_string())?;
            let state = GameState::rebuild(game, log, waiting)?;
            self.insert_game(state);
        }
        Ok(())
    }

    /// One notice from the store, followed.
    fn follow_notice(&self, notice: &Notice) -> Result<(), String> {
        match notice {
            Notice::Update { game, seq } => match self.held_game(game) {
                // Refereed here: this instance wrote it (no other may).
                Some(held)
                    if *held
                        .holds
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        > 0 =>
                {
                    Ok(())
                }
                Some(held) if held.lock().seq() >= *seq => Ok(()),
                Some(held) => self.catch_up(&held).map_err(|s| s.message().to_string()),
                None => self.follow_games(),
            },
            Notice::Game { id } if self.held_game(id).is_none() => self.follow_games(),
            Notice::Resync => {
                self.follow_games()?;
                for game in self.games() {
                    self.catch_up(&game).map_err(|s| s.message().to_string())?;
                }
                Ok(())
            }
            Notice::Game { .. } | Notice::Asked { .. } | Notice::Answered { .. } => Ok(()),
        }
    }

    /// Hands `call` to the instance `holder` and waits for its answer.
    pub(crate) async fn hand_on(
        &self,
        holder: &Holding,
        call: pb::Forwarded,
    ) -> Result<pb::ForwardedAnswer, Status> {
        let store = self.store().clone();
        let mut notices = store.notices();
        let id = store.ask(&holder.holder, &call).map_err(internal)?;
        let deadline = tokio::time::Instant::now() + ANSWER_WAIT;
        loop {
            if let Some(answer) = store.answer_of(id).map_err(internal)? {
                if answer.code != 0 {
                    return Err(Status::new(Code::from(answer.code), answer.message));
                }
                return Ok(answer);
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(Status::unavailable(format!(
                    "the instance refereeing this board ({}) did not answer within {} s",
                    holder.holder,
                    ANSWER_WAIT.as_secs()
                )));
            }
            let answered = async {
                match notices.as_mut() {
                    Some(notices) => loop {
                        match notices.recv().await {
                            Ok(Notice::Answered { id: n }) if n == id => return,
                            Ok(_) => {}
                            Err(RecvError::Lagged(_)) => return,
                            Err(RecvError::Closed) => std::future::pending::<()>().await,
                        }
                    },
                    None => std::future::pending().await,
                }
            };
            let _ = tokio::time::timeout(ANSWER_POLL, answered).await;
        }
    }

    /// Carries out the call another instance handed this one, and answers.
    async fn carry_out(self: Arc<Self>, id: i64) {
        let store = self.store().clone();
        let answer = match store.asked(id) {
            Ok(Some(call)) => match self.answer_call(call) {
                Ok(answer) => answer,
                Err(status) => pb::ForwardedAnswer {
                    code: status.code() as i32,
                    message: status.message().to_string(),
                    ..Default::default()
                },
            },
            Ok(None) => return,
            Err(e) => pb::ForwardedAnswer {
                code: Code::Internal as i32,
                message: e.to_string(),
                ..Default::default()
            },
        };
        if let Err(e) = store.answer(id, &answer) {
            tracing::warn!(call = id, "a call handed on here is not answered: {e}");
        }
    }

    fn answer_call(&self, call: pb::Forwarded) -> Result<pb::ForwardedAnswer, Status> {
        let moved = |holding: Holding| {
            Status::unavailable(format!(
                "the board moved to {} meanwhile: try again",
                holding.holder
            ))
        };
        match call.call {
            Some(Call::Decide(asked)) => {
                let game = self.game_of_incident(&asked.incident_id)?;
                let _hold = match self.take(&game)? {
                    Taken::Here(hold) => hold,
                    Taken::There(holding) => return Err(moved(holding)),
                };
                let (_, seq) = self.decide_here(
                    &game,
                    &asked.incident_id,
                    &asked.decision,
                    &asked.note,
                    &call.arbiter,
                )?;
                Ok(pb::ForwardedAnswer {
                    seq,
                    ..Default::default()
                })
            }
            Some(Call::Correct(asked)) => {
                let game = self.game(&asked.game_id)?;
                let _hold = match self.take(&game)? {
                    Taken::Here(hold) => hold,
                    Taken::There(holding) => return Err(moved(holding)),
                };
                let seq =
                    self.correct_here(&game, asked.ply, &asked.uci, &asked.note, &call.arbiter)?;
                Ok(pb::ForwardedAnswer {
                    seq,
                    ..Default::default()
                })
            }
            Some(Call::Announce(asked)) => {
                let (game, event) = self.announced(&asked)?;
                let _hold = match self.take(&game)? {
                    Taken::Here(hold) => hold,
                    Taken::There(holding) => return Err(moved(holding)),
                };
                let waiting = self.announce_here(&game, event)?;
                Ok(pb::ForwardedAnswer {
                    waiting,
                    ..Default::default()
                })
            }
            None => Err(Status::invalid_argument(
                "a call handed on without its call",
            )),
        }
    }
}

/// Follows what other instances write, for as long as the service runs
/// (nothing with a store the instance has to itself).
pub async fn follow(service: Arc<RefereeService>) {
    let Some(mut notices) = service.store().notices() else {
        return;
    };
    loop {
        let notice = match notices.recv().await {
            Ok(notice) => notice,
            // Fell behind: everything is read again.
            Err(RecvError::Lagged(_)) => Notice::Resync,
            Err(RecvError::Closed) => return,
        };
        match notice {
            Notice::Asked { id, holder } if holder == service.instance() => {
                tokio::spawn(service.clone().carry_out(id));
            }
            Notice::Asked { .. } | Notice::Answered { .. } => {}
            notice => {
                // One at a time, in the order told.
                let follower = service.clone();
                let followed =
                    tokio::task::spawn_blocking(move || follower.follow_notice(&notice)).await;
                match followed {
                    Ok(Ok(())) => {}
                    Ok(Err(reason)) => tracing::warn!("following the store: {reason}"),
                    Err(e) => tracing::warn!("following the store: {e}"),
                }
            }
        }
    }
}

/// Renews, every second, the lease of each board held here; a board whose
/// lease another instance took meanwhile is marked lost (its stream stops).
pub async fn renew(service: Arc<RefereeService>) {
    if service.store().notices().is_none() {
        // The store's one instance: no other can take a board.
        return;
    }
    let mut tick = tokio::time::interval(RENEW);
    loop {
        tick.tick().await;
        let renewer = service.clone();
        let _ = tokio::task::spawn_blocking(move || {
            for game in renewer.games() {
                let held = *game
                    .holds
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if held == 0 {
                    continue;
                }
                match renewer
                    .store()
                    .lease(&game.board_id, renewer.instance(), LEASE_SECONDS)
                {
                    Ok(None) => {}
                    Ok(Some(other)) => {
                        tracing::warn!(board = %game.board_id, holder = %other.holder, "board taken by another instance");
                        game.lost.store(true, Ordering::Relaxed);
                    }
                    Err(e) => tracing::warn!(board = %game.board_id, "lease not renewed: {e}"),
                }
            }
        })
        .await;
    }
}
