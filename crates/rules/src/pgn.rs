//! The PGN writer: Seven Tag Roster, SAN with check and mate marks, each
//! incident as a `{ }` comment after the move it belongs to, `[%clk]` when
//! the clock time is known, lines of at most 80 characters.

use std::fmt::Write as _;

use crate::verdict::{Claim, Incident, MoveRecord};

/// PGN tags given by the caller, in order (`Event`, `White`, …).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tags(pub Vec<(String, String)>);

impl Tags {
    /// The value of a tag, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The Seven Tag Roster and what it defaults to when not given.
const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// Longest movetext line.
const LINE_WIDTH: usize = 80;

/// Writes a game's PGN.
#[allow(clippy::too_many_arguments)]
pub fn write_pgn(
    tags: &Tags,
    start_fen: Option<&str>,
    start_ply: u32,
    moves: &[MoveRecord],
    incidents: &[Incident],
    claims: &[Claim],
    result: &str,
    termination: Option<&str>,
) -> String {
    let mut out = String::new();
    for (name, default) in ROSTER {
        write_tag(&mut out, name, tags.get(name).unwrap_or(default));
    }
    write_tag(&mut out, "Result", result);
    if let Some(fen) = start_fen {
        write_tag(&mut out, "SetUp", "1");
        write_tag(&mut out, "FEN", fen);
    }
    if let Some(termination) = termination {
        write_tag(&mut out, "Termination", termination);
    }
    let reserved = |name: &str| {
        ROSTER.iter().any(|(n, _)| *n == name)
            || matches!(name, "Result" | "SetUp" | "FEN" | "Termination")
    };
    for (name, value) in tags.0.iter().filter(|(name, _)| !reserved(name)) {
        write_tag(&mut out, name, value);
    }
    out.push('\n');

    let mut tokens = Vec::new();
    let mut need_number = true;
    for record in moves {
        let number = record.ply.div_ceil(2);
        if record.ply % 2 == 1 {
            tokens.push(format!("{number}."));
        } else if need_number || record.ply == start_ply {
            tokens.push(format!("{number}..."));
        }
        tokens.push(record.san.clone());
        let mut comments: Vec<String> = Vec::new();
        if let Some(seconds) = record.clock {
            comments.push(format!("[%clk {}]", clock_text(seconds)));
        }
        if record.recovered {
            comments.push("recovered".into());
        }
        comments.extend(
            incidents
                .iter()
                .filter(|i| i.ply == record.ply)
                .map(incident_text),
        );
        comments.extend(
            claims
                .iter()
                .filter(|c| c.ply == record.ply)
                .map(|c| c.detail.clone()),
        );
        need_number = !comments.is_empty();
        if need_number {
            tokens.push(format!("{{{}}}", sanitize(&comments.join(" "))));
        }
    }
    // Incidents of a ply no move completed (an illegal move, say) close the movetext.
    let last_ply = moves.last().map_or(0, |m| m.ply);
    let trailing: Vec<String> = incidents
        .iter()
        .filter(|i| i.ply > last_ply)
        .map(incident_text)
        .collect();
    if !trailing.is_empty() {
        tokens.push(format!("{{{}}}", sanitize(&trailing.join(" "))));
    }
    tokens.push(result.to_string());
    wrap(&mut out, &tokens);
    out
}

fn write_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

fn incident_text(incident: &Incident) -> String {
    format!(
        "{} ({}) {}: {}",
        incident.kind.name(),
        incident.article,
        incident.side.name(),
        incident.detail
    )
}

/// `h:mm:ss` for a number of seconds.
fn clock_text(seconds: f64) -> String {
    let total = seconds.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", total / 3600, total / 60 % 60, total % 60)
}

/// Comments cannot hold a closing brace.
fn sanitize(text: &str) -> String {
    text.replace('}', ")")
}

/// Joins tokens into lines of at most [`LINE_WIDTH`] characters (a longer
/// single token stands on its own line).
fn wrap(out: &mut String, tokens: &[String]) {
    let mut line = String::new();
    for token in tokens.iter().flat_map(|t| split_comment(t)) {
        if !line.is_empty() && line.len() + 1 + token.len() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push('\n');
}

/// A comment is split into words so that it wraps like prose, wherever
/// it falls on the line (an embedded command such as `[%clk 0:09:58]` kept
/// whole).
fn split_comment(token: &str) -> Vec<String> {
    if !token.starts_with('{') {
        return vec![token.to_string()];
    }
    let mut words: Vec<String> = Vec::new();
    // Brackets open: inside a command.
    let mut open = 0usize;
    for word in token.split(' ') {
        match words.last_mut() {
            Some(last) if open > 0 => {
                last.push(' ');
                last.push_str(word);
            }
            _ => words.push(word.to_string()),
        }
        open += word.matches('[').count();
        open = open.saturating_sub(word.matches(']').count());
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Side;

    #[test]
    fn clock_times_read_as_hours_minutes_seconds() {
        assert_eq!(clock_text(3599.6), "1:00:00");
        assert_eq!(clock_text(61.0), "0:01:01");
    }

    #[test]
    fn black_moves_after_a_comment_carry_their_number() {
        let record = |ply: u32, san: &str, clock: Option<f64>| MoveRecord {
            ply,
            side: if ply % 2 == 1 {
                Side::White
            } else {
                Side::Black
            },
            san: san.into(),
            uci: String::new(),
            t: 0.0,
            clock,
            recovered: false,
        };
        let moves = [
            record(1, "e4", Some(598.0)),
            record(2, "e5", None),
            record(3, "Nf3", None),
        ];
        let pgn = write_pgn(&Tags::default(), None, 1, &moves, &[], &[], "*", None);
        assert!(
            pgn.contains("1. e4 {[%clk 0:09:58]} 1... e5 2. Nf3 *"),
            "{pgn}"
        );
        assert!(
            pgn.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]"),
            "{pgn}"
        );
    }

    #[test]
    fn comments_flow_like_prose_with_their_commands_whole() {
        assert_eq!(
            split_comment("{[%clk 0:09:58] touched Ng8 first}"),
            ["{[%clk 0:09:58]", "touched", "Ng8", "first}"]
        );
        let mut out = String::new();
        let tokens: Vec<String> = [
            "1.",
            "e4",
            "Nc6",
            &format!("{{{}}}", "word ".repeat(20).trim_end()),
            "*",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        wrap(&mut out, &tokens);
        assert!(out.starts_with("1. e4 Nc6 {word word"), "{out}");
        assert!(out.lines().all(|line| line.len() <= LINE_WIDTH), "{out}");
    }
}
