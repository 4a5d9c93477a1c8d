//! The verdict written for people: the moves, each incident in a sentence,
//! the result, the PGN.

use std::fmt::Write as _;

use referee_rules::Verdict;

/// Whether the opponent may still claim an incident (art. 4.8), in words.
pub fn claim_state(claimable: bool) -> &'static str {
    if claimable {
        "claimable"
    } else {
        "claim window closed"
    }
}

pub fn for_people(verdict: &Verdict) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Moves ({}):", verdict.moves.len());
    let mut line = String::new();
    for record in &verdict.moves {
        if record.ply % 2 == 1 {
            let _ = write!(line, "{}. ", record.ply.div_ceil(2));
        } else if line.is_empty() {
            let _ = write!(line, "{}... ", record.ply / 2);
        }
        let _ = write!(line, "{} ", record.san);
    }
    let _ = writeln!(out, "  {}", line.trim_end());
    let _ = writeln!(out, "Incidents ({}):", verdict.incidents.len());
    for incident in &verdict.incidents {
        let claim = claim_state(incident.claimable);
        // No arbiter decides offline: the same words as the service's record.
        let _ = writeln!(
            out,
            "  [{}] ply {}, {}, {} (art. {}) at {:.1} s: {} ({claim}, undecided)",
            incident.id,
            incident.ply,
            incident.side.name(),
            incident.kind.name(),
            incident.article,
            incident.t,
            incident.detail
        );
    }
    for claim in &verdict.claims {
        let _ = writeln!(out, "  after ply {}: {}", claim.ply, claim.detail);
    }
    match &verdict.termination {
        Some(how) => {
            let _ = writeln!(out, "Result: {} ({how})", verdict.result);
        }
        None => {
            let _ = writeln!(out, "Result: {}", verdict.result);
        }
    }
    let _ = writeln!(out, "Position: {}", verdict.fen);
    let _ = writeln!(out, "\n{}", verdict.pgn);
    out
}
