//! The synth crate's errors: a scenario line that cannot be played, by number.

/// A scenario line that is malformed or cannot be played.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ScenarioError {
    pub line: usize,
    pub message: String,
}

impl ScenarioError {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            message: message.into(),
        }
    }
}
