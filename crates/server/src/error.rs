//! What can go wrong with a game the service keeps, each with its context,
//! and how each is told to a caller: one `From<GameError> for Status`, so
//! the game's logic knows nothing of gRPC (the web pages answer the same
//! statuses in `http.rs`).

use tonic::Status;

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("board {board}: cannot calibrate: {reason}")]
    Calibration { board: String, reason: String },
    #[error("board {board}: {source}")]
    Chain {
        board: String,
        #[source]
        source: referee_vision::Error,
    },
    #[error("game {0} is over: nothing more can be announced")]
    Over(String),
    #[error(
        "game {game}: {waiting} announced events already wait for the camera's frames to reach their time"
    )]
    TooManyWaiting { game: String, waiting: usize },
    #[error("decision `{0}`: expected upheld or dismissed")]
    NotADecision(String),
    #[error("no incident {0}")]
    NoIncident(String),
    /// A correction that cannot be made (the ply not played, the move not
    /// legal there), said in words.
    #[error("{0}")]
    Correction(String),
}

impl From<GameError> for Status {
    fn from(error: GameError) -> Self {
        let message = error.to_string();
        match error {
            GameError::Store(_) | GameError::Chain { .. } => Status::internal(message),
            GameError::Calibration { .. } | GameError::Over(_) => {
                Status::failed_precondition(message)
            }
            GameError::TooManyWaiting { .. } => Status::resource_exhausted(message),
            GameError::NotADecision(_) | GameError::Correction(_) => {
                Status::invalid_argument(message)
            }
            GameError::NoIncident(_) => Status::not_found(message),
        }
    }
}

/// Whether a game is still being played, as the API writes it (`Game.state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameStatus {
    Open,
    Finished,
}

impl GameStatus {
    pub fn name(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Finished => "finished",
        }
    }

    /// The status a stored name stands for (anything but `finished` is
    /// open: a game is never closed by a name it does not know).
    pub fn of(name: &str) -> Self {
        if name == GameStatus::Finished.name() {
            GameStatus::Finished
        } else {
            GameStatus::Open
        }
    }
}

/// An arbiter's decision on an incident, as the API writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Upheld,
    Dismissed,
}

impl Decision {
    pub fn name(self) -> &'static str {
        match self {
            Decision::Upheld => "upheld",
            Decision::Dismissed => "dismissed",
        }
    }
}

impl std::str::FromStr for Decision {
    type Err = GameError;

    fn from_str(name: &str) -> Result<Self, GameError> {
        [Decision::Upheld, Decision::Dismissed]
            .into_iter()
            .find(|d| d.name() == name)
            .ok_or_else(|| GameError::NotADecision(name.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_is_told_with_its_own_code() {
        let over = Status::from(GameError::Over("b-1".into()));
        assert_eq!(over.code(), tonic::Code::FailedPrecondition);
        assert_eq!(
            over.message(),
            "game b-1 is over: nothing more can be announced"
        );
        let waiting = GameError::TooManyWaiting {
            game: "b-1".into(),
            waiting: 256,
        };
        assert_eq!(Status::from(waiting).code(), tonic::Code::ResourceExhausted);
        let decision = "kept".parse::<Decision>().expect_err("not a decision");
        assert_eq!(
            Status::from(decision).message(),
            "decision `kept`: expected upheld or dismissed"
        );
        assert_eq!("upheld".parse::<Decision>().ok(), Some(Decision::Upheld));
        assert_eq!(GameStatus::of("finished"), GameStatus::Finished);
        assert_eq!(GameStatus::of("open").name(), "open");
    }
}
