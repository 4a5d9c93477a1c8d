//! Physical events (contracts.md §1): one JSON object a line, in time order.
//!
//! Parsing checks every field and names the one that is wrong; unknown
//! fields are ignored so that producers can extend the format. Events
//! serialise back to the same shape.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};
use shakmaty::{Color, Role, Square};

use crate::error::{EventLogError, ParseEventError};
use crate::seconds::to_millisecond;

/// What a hand did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Deliberate contact with the piece on the square; the piece stays.
    Touch(Square),
    /// The piece on the square is picked up (a touch of it).
    Lift(Square),
    /// The held piece is set down on the square and let go.
    Release(Square),
    /// The piece on the square leaves the board for good.
    Capture(Square),
    /// A piece from outside the board (promotion) is put on the square.
    Add(Square, Role),
    /// The piece on the square is shifted within its square.
    Adjust(Square),
    /// The side to move announced an adjustment ("j'adoube").
    Declare,
    /// The side that just moved pressed its clock.
    Clock,
    /// Both hands handled pieces at once.
    TwoHands,
}

impl Action {
    /// The name of the event type in the log.
    pub fn name(self) -> &'static str {
        match self {
            Action::Touch(_) => "touch",
            Action::Lift(_) => "lift",
            Action::Release(_) => "release",
            Action::Capture(_) => "capture",
            Action::Add(..) => "add",
            Action::Adjust(_) => "adjust",
            Action::Declare => "declare",
            Action::Clock => "clock",
            Action::TwoHands => "two_hands",
        }
    }

    /// A piece touched or adjusted in its square, not moved.
    pub fn is_touch(self) -> bool {
        matches!(self, Action::Touch(_) | Action::Adjust(_))
    }

    /// The square the action is about, if any.
    pub fn square(self) -> Option<Square> {
        match self {
            Action::Touch(sq)
            | Action::Lift(sq)
            | Action::Release(sq)
            | Action::Capture(sq)
            | Action::Add(sq, _)
            | Action::Adjust(sq) => Some(sq),
            Action::Declare | Action::Clock | Action::TwoHands => None,
        }
    }
}

/// One physical event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    /// Seconds since the stream started.
    pub t: f64,
    pub action: Action,
    /// Whose hand did it; `None` means the side to move.
    pub side: Option<Color>,
    /// The tracker's belief, 0..1; `None` means certain.
    pub confidence: Option<f32>,
    /// For `clock`: the time left on the presser's clock, in seconds (an
    /// extension of §1, written to PGN as `[%clk]`).
    pub remaining: Option<f64>,
    /// Not seen as it happened: found afterwards by the search for moves
    /// the eyes missed (an extension of §1, `"recovered": true`); the move
    /// it forms is marked for the arbiter to check. On a touch: seen with
    /// frames lost in its turn, so where it came among the turn's touches
    /// is not known.
    pub recovered: bool,
}

impl Event {
    /// An event by the side to move, certain, at `t`.
    pub fn new(t: f64, action: Action) -> Self {
        Self {
            t,
            action,
            side: None,
            confidence: None,
            remaining: None,
            recovered: false,
        }
    }

    /// The same event done by `side`'s hand.
    #[must_use]
    pub fn by(mut self, side: Color) -> Self {
        self.side = Some(side);
        self
    }

    /// Parses one event object.
    pub fn from_json(value: &Value) -> Result<Self, ParseEventError> {
        let object = value
            .as_object()
            .ok_or_else(|| ParseEventError::new("(line)", "expected a JSON object"))?;
        let t = number(object, "t")?.ok_or_else(|| ParseEventError::new("t", "missing"))?;
        if !(t.is_finite() && t >= 0.0) {
            return Err(ParseEventError::new(
                "t",
                format!("{t} is not a time in seconds ≥ 0"),
            ));
        }
        let kind = text(object, "type")?.ok_or_else(|| ParseEventError::new("type", "missing"))?;
        let square = || -> Result<Square, ParseEventError> {
            let name = text(object, "square")?.ok_or_else(|| {
                ParseEventError::new("square", format!("missing (needed by `{kind}`)"))
            })?;
            name.parse::<Square>().map_err(|_| {
                ParseEventError::new("square", format!("`{name}` is not a square a1..h8"))
            })
        };
        let action = match kind {
            "touch" => Action::Touch(square()?),
            "lift" => Action::Lift(square()?),
            "release" => Action::Release(square()?),
            "capture" => Action::Capture(square()?),
            "adjust" => Action::Adjust(square()?),
            "add" => Action::Add(square()?, promotion_role(object)?),
            "declare" => match text(object, "what")? {
                None | Some("adjust") => Action::Declare,
                Some(other) => {
                    return Err(ParseEventError::new(
                        "what",
                        format!("`{other}` cannot be declared (only `adjust`)"),
                    ));
                }
            },
            "clock" => Action::Clock,
            "two_hands" => Action::TwoHands,
            other => {
                return Err(ParseEventError::new(
                    "type",
                    format!(
                        "`{other}` is not one of touch, lift, release, capture, add, adjust, declare, clock, two_hands"
                    ),
                ));
            }
        };
        let side = match text(object, "side")? {
            None => None,
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            Some(other) => {
                return Err(ParseEventError::new(
                    "side",
                    format!("`{other}` is not white or black"),
                ));
            }
        };
        let confidence = match number(object, "confidence")? {
            None => None,
            Some(c) if (0.0..=1.0).contains(&c) => Some(c as f32),
            Some(c) => {
                return Err(ParseEventError::new(
                    "confidence",
                    format!("{c} is not in 0..1"),
                ));
            }
        };
        let remaining = match number(object, "remaining")? {
            Some(r) if !(r.is_finite() && r >= 0.0) => {
                return Err(ParseEventError::new(
                    "remaining",
                    format!("{r} is not seconds ≥ 0"),
                ));
            }
            r => r,
        };
        let recovered = match object.get("recovered") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                return Err(ParseEventError::new(
                    "recovered",
                    format!("expected true or false, got {other}"),
                ));
            }
        };
        Ok(Self {
            t,
            action,
            side,
            confidence,
            remaining,
            recovered,
        })
    }

    /// Parses one line of an event log.
    pub fn from_json_str(line: &str) -> Result<Self, ParseEventError> {
        let value: Value = serde_json::from_str(line)
            .map_err(|e| ParseEventError::new("(line)", format!("not JSON: {e}")))?;
        Self::from_json(&value)
    }
}

fn number(
    object: &Map<String, Value>,
    field: &'static str,
) -> Result<Option<f64>, ParseEventError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => Ok(n.as_f64()),
        Some(other) => Err(ParseEventError::new(
            field,
            format!("expected a number, got {other}"),
        )),
    }
}

fn text<'a>(
    object: &'a Map<String, Value>,
    field: &'static str,
) -> Result<Option<&'a str>, ParseEventError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(ParseEventError::new(
            field,
            format!("expected a string, got {other}"),
        )),
    }
}

fn promotion_role(object: &Map<String, Value>) -> Result<Role, ParseEventError> {
    let name = text(object, "piece")?
        .ok_or_else(|| ParseEventError::new("piece", "missing (needed by `add`)"))?;
    match name {
        "Q" | "q" => Ok(Role::Queen),
        "R" | "r" => Ok(Role::Rook),
        "B" | "b" => Ok(Role::Bishop),
        "N" | "n" => Ok(Role::Knight),
        other => Err(ParseEventError::new(
            "piece",
            format!("`{other}` is not Q, R, B or N"),
        )),
    }
}

impl Serialize for Event {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("t", &to_millisecond(self.t))?;
        map.serialize_entry("type", self.action.name())?;
        if let Some(square) = self.action.square() {
            map.serialize_entry("square", &square.to_string())?;
        }
        if let Action::Add(_, role) = self.action {
            map.serialize_entry("piece", &role.upper_char().to_string())?;
        }
        if let Action::Declare = self.action {
            map.serialize_entry("what", "adjust")?;
        }
        if let Some(side) = self.side {
            map.serialize_entry("side", crate::verdict::Side::from(side).name())?;
        }
        if let Some(confidence) = self.confidence {
            map.serialize_entry("confidence", &confidence)?;
        }
        if let Some(remaining) = self.remaining {
            map.serialize_entry("remaining", &to_millisecond(remaining))?;
        }
        if self.recovered {
            map.serialize_entry("recovered", &true)?;
        }
        map.end()
    }
}

/// Parses a whole JSON Lines log: blank lines are skipped, times must not
/// go back. Errors name the 1-based line.
/// An event log file's bytes as text: UTF-8, a byte-order mark at its
/// start (as some editors write) left out; bytes that are not text are
/// refused with the line and byte (from 1, within the line) they start on.
pub fn event_log_text(bytes: &[u8]) -> Result<&str, EventLogError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|error| {
        let valid = &bytes[..error.valid_up_to()];
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        EventLogError::NotText {
            line: valid.iter().filter(|&&b| b == b'\n').count() + 1,
            byte: valid.len() - line_start + 1,
        }
    })
}

/// Parses an event log's text, one event a line; a byte-order mark at its
/// start is left out.
pub fn parse_event_log(text: &str) -> Result<Vec<(usize, Event)>, EventLogError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut events = Vec::new();
    let mut previous = 0.0;
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| EventLogError::Json {
            line: line_no,
            message: e.to_string(),
        })?;
        let event = Event::from_json(&value).map_err(|source| EventLogError::Field {
            line: line_no,
            source,
        })?;
        if event.t < previous {
            return Err(EventLogError::Field {
                line: line_no,
                source: ParseEventError::new(
                    "t",
                    format!(
                        "{} is earlier than the previous event's {previous}",
                        event.t
                    ),
                ),
            });
        }
        previous = event.t;
        events.push((line_no, event));
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_no_event_and_binary_is_refused_with_its_line() {
        let text = event_log_text(b"\xEF\xBB\xBF{\"t\":1,\"type\":\"clock\"}\n").expect("text");
        assert_eq!(parse_event_log(text).expect("one event").len(), 1);
        let marked = "\u{feff}{\"t\":1,\"type\":\"clock\"}\n";
        assert_eq!(parse_event_log(marked).expect("one event").len(), 1);
        let binary = b"{\"t\":1,\"type\":\"clock\"}\nab\xFF\xFE\n";
        assert_eq!(
            event_log_text(binary).expect_err("binary"),
            EventLogError::NotText { line: 2, byte: 3 }
        );
    }

    #[test]
    fn parses_and_writes_back_every_type() {
        let lines = [
            r#"{"t":1.0,"type":"touch","square":"e2"}"#,
            r#"{"t":1.2,"type":"lift","square":"e2","side":"white","confidence":0.5}"#,
            r#"{"t":2.0,"type":"add","square":"e8","piece":"N"}"#,
            r#"{"t":2.5,"type":"declare","what":"adjust"}"#,
            r#"{"t":3.0,"type":"clock","remaining":581.0}"#,
            r#"{"t":3.5,"type":"two_hands"}"#,
        ];
        for line in lines {
            let event = Event::from_json_str(line).expect(line);
            let back = serde_json::to_string(&event).expect("serialises");
            assert_eq!(
                Event::from_json_str(&back).expect("reparses"),
                event,
                "{line}"
            );
        }
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            (r#"{"type":"touch","square":"e2"}"#, "t"),
            (r#"{"t":1,"type":"poke","square":"e2"}"#, "type"),
            (r#"{"t":1,"type":"touch","square":"e9"}"#, "square"),
            (r#"{"t":1,"type":"touch"}"#, "square"),
            (r#"{"t":1,"type":"add","square":"e8","piece":"K"}"#, "piece"),
            (
                r#"{"t":1,"type":"touch","square":"e2","side":"red"}"#,
                "side",
            ),
            (
                r#"{"t":1,"type":"touch","square":"e2","confidence":2}"#,
                "confidence",
            ),
            (r#"{"t":-1,"type":"clock"}"#, "t"),
            (r#"{"t":"1","type":"clock"}"#, "t"),
        ];
        for (line, field) in cases {
            let err = Event::from_json_str(line).expect_err(line);
            assert_eq!(err.field, field, "{line}: {err}");
        }
    }

    #[test]
    fn a_log_names_the_bad_line() {
        let log = "{\"t\":1,\"type\":\"clock\"}\n\n{\"t\":0.5,\"type\":\"clock\"}\n";
        let err = parse_event_log(log).expect_err("time goes back");
        assert!(err.to_string().starts_with("line 3: field `t`"), "{err}");
        let err = parse_event_log("{\"t\":1,").expect_err("truncated");
        assert!(err.to_string().starts_with("line 1: not JSON"), "{err}");
    }
}
