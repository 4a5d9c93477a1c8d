//! The rules crate's errors: a malformed event (which field, why), a log
//! line that holds one (which line), and an event the board contradicts.

use shakmaty::Square;

/// One event that is not of the form contracts.md §1 gives.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("field `{field}`: {message}")]
pub struct ParseEventError {
    pub field: &'static str,
    pub message: String,
}

impl ParseEventError {
    pub(crate) fn new(field: &'static str, message: impl Into<String>) -> Self {
        Self {
            field,
            message: message.into(),
        }
    }
}

/// A line of an event log that cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EventLogError {
    #[error("line {line}, byte {byte}: not UTF-8 text (a binary file?)")]
    NotText { line: usize, byte: usize },
    #[error("line {line}: not JSON: {message}")]
    Json { line: usize, message: String },
    #[error("line {line}: {source}")]
    Field {
        line: usize,
        #[source]
        source: ParseEventError,
    },
    #[error("line {line}: {source}")]
    Apply {
        line: usize,
        #[source]
        source: ApplyError,
    },
}

/// An event that the pieces on the board contradict. The referee's state is
/// left as it was before the event.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApplyError {
    #[error("{action} {square}: no piece stands on {square}")]
    EmptySquare {
        action: &'static str,
        square: Square,
    },
    #[error("release {square}: no piece is held")]
    NothingHeld { square: Square },
    #[error("time {t} is earlier than the previous event's {previous}")]
    TimeGoesBack { t: f64, previous: f64 },
}
