//! The service's record read by people and tools: `referee games`,
//! `referee game ID`, `referee decide INCIDENT`, and the lines `referee
//! ingest` prints as updates arrive.

use std::fmt::Write as _;

use anyhow::{Result, anyhow};
use referee_proto as pb;
use referee_proto::update::What;
use referee_server::json::{game_json, side_name as side, verdict_json};
use serde_json::Value;

use crate::client::Server;

#[derive(Debug, clap::Args)]
pub struct GamesArgs {
    #[command(flatten)]
    server: Server,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
pub struct GameArgs {
    /// The game's id (see `referee games`).
    id: String,
    #[command(flatten)]
    server: Server,
    /// Print the verdict as JSON (contracts.md §2).
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
pub struct DecideArgs {
    /// The incident's id.
    incident: String,
    #[command(flatten)]
    server: Server,
    /// The arbiter's decision: `upheld` (the violation stands) or
    /// `dismissed` (no violation).
    #[arg(long, value_parser = ["upheld", "dismissed"])]
    decision: String,
    /// The arbiter's note, kept with the decision and printed in the report.
    #[arg(long, default_value = "", hide_default_value = true)]
    note: String,
}

/// `referee announce GAME --type declare|clock --t SECONDS [--side white|black]`.
#[derive(Debug, clap::Args)]
pub struct AnnounceArgs {
    /// The game's id.
    game: String,
    #[command(flatten)]
    server: Server,
    /// `declare` (an announced adjustment) or `clock` (a connected clock's press).
    #[arg(long = "type", value_parser = ["declare", "clock"])]
    kind: String,
    /// When, in seconds on the board's camera stream.
    #[arg(long)]
    t: f64,
    /// Who (default: the side to move).
    #[arg(long, value_parser = ["white", "black"])]
    side: Option<String>,
}

fn status(e: tonic::Status) -> anyhow::Error {
    anyhow!("the service: {} ({:?})", e.message(), e.code())
}

pub fn games(args: &GamesArgs) -> Result<()> {
    let games = crate::client::runtime()?.block_on(async {
        let mut client = args.server.connect().await?;
        let listed = client
            .list_games(pb::ListGamesRequest {})
            .await
            .map_err(status)?;
        anyhow::Ok(listed.into_inner())
    })?;
    let pb::ListGamesResponse { games, not_seen } = games;
    for line in &not_seen {
        // Where the user looks, and not in the JSON a tool parses.
        eprintln!("referee: the service cannot see everything: {line}");
    }
    if args.json {
        let list: Vec<Value> = games.iter().map(game_json).collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
    } else if games.is_empty() {
        println!("No games.");
    } else {
        for game in &games {
            println!(
                "{:<16} board {:<10} {} - {}  {} {}",
                game.id, game.board_id, game.white, game.black, game.state, game.result
            );
        }
    }
    Ok(())
}

pub fn game(args: &GameArgs) -> Result<()> {
    let verdict = crate::client::runtime()?.block_on(async {
        let mut client = args.server.connect().await?;
        let verdict = client
            .get_game(pb::GetGameRequest {
                game_id: args.id.clone(),
            })
            .await
            .map_err(status)?;
        anyhow::Ok(verdict.into_inner())
    })?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&verdict_json(&verdict))?);
    } else {
        print!("{}", for_people(&verdict));
    }
    Ok(())
}

pub fn decide(args: &DecideArgs) -> Result<()> {
    let incident = crate::client::runtime()?.block_on(async {
        let mut client = args.server.connect().await?;
        let decided = client
            .decide_incident(pb::DecideIncidentRequest {
                incident_id: args.incident.clone(),
                decision: args.decision.clone(),
                note: args.note.clone(),
            })
            .await
            .map_err(status)?;
        anyhow::Ok(decided.into_inner())
    })?;
    println!(
        "{}: {} by {}{}",
        incident.id,
        incident.decision,
        incident.decided_by,
        if incident.note.is_empty() {
            String::new()
        } else {
            format!(" ({})", incident.note)
        }
    );
    Ok(())
}

pub fn announce(args: &AnnounceArgs) -> Result<()> {
    let side = match args.side.as_deref() {
        Some("white") => pb::Side::White,
        Some("black") => pb::Side::Black,
        _ => pb::Side::Unspecified,
    };
    let answer = crate::client::runtime()?.block_on(async {
        let mut client = args.server.connect().await?;
        let answered = client
            .announce(pb::AnnounceRequest {
                game_id: args.game.clone(),
                r#type: args.kind.clone(),
                t: args.t,
                side: side as i32,
            })
            .await
            .map_err(status)?;
        anyhow::Ok(answered.into_inner())
    })?;
    println!(
        "{} at {} s announced to {} ({} waiting for the camera's frames)",
        args.kind, args.t, args.game, answer.waiting
    );
    Ok(())
}

fn for_people(v: &pb::Verdict) -> String {
    let mut out = String::new();
    if let Some(game) = &v.game {
        let _ = writeln!(
            out,
            "Game {} on board {}: {} - {} ({})",
            game.id, game.board_id, game.white, game.black, game.state
        );
    }
    let mut line = String::new();
    for m in &v.moves {
        if m.ply % 2 == 1 {
            let _ = write!(line, "{}. ", m.ply.div_ceil(2));
        } else if line.is_empty() {
            let _ = write!(line, "{}... ", m.ply / 2);
        }
        let _ = write!(line, "{} ", m.san);
    }
    let _ = writeln!(out, "Moves ({}):\n  {}", v.moves.len(), line.trim_end());
    let _ = writeln!(out, "Incidents ({}):", v.incidents.len());
    for i in &v.incidents {
        let decided = if i.decision.is_empty() {
            "undecided".to_string()
        } else {
            format!("{} by {}", i.decision, i.decided_by)
        };
        let claim = crate::report::claim_state(i.claimable);
        let _ = writeln!(
            out,
            "  [{}] ply {}, {}, {} (art. {}) at {:.1} s: {} ({claim}, {decided})",
            i.id,
            i.ply,
            side(i.side),
            i.kind,
            i.article,
            i.t,
            i.detail
        );
    }
    for c in &v.corrections {
        let _ = writeln!(
            out,
            "Corrected by {}: ply {} is {} ({})",
            c.by, c.ply, c.san, c.note
        );
    }
    let _ = writeln!(out, "Result: {}", v.result);
    let _ = writeln!(out, "Position: {}\n\n{}", v.fen, v.pgn);
    out
}

/// One line for an update as it arrives. Events lead with the time they
/// happened; a move arrives once completed (after the clock press that ends
/// it), so it says when it was made instead of leading with a time that
/// would run backwards.
pub fn describe(update: &pb::Update) -> Option<String> {
    Some(match update.what.as_ref()? {
        What::Event(e) => {
            let what = [e.r#type.as_str(), &e.square, &e.piece]
                .into_iter()
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            format!("  {:>7.2} s  {what}", e.t)
        }
        What::Move(m) => format!(
            "  {:>9}  move {} {} ({}), made at {:.2} s{}",
            "",
            m.ply,
            m.san,
            side(m.side),
            m.t,
            if m.recovered { ", recovered" } else { "" }
        ),
        What::Incident(i) if i.decision.is_empty() => format!(
            "  {:>9}  INCIDENT {}: {} (art. {}) at {:.2} s, {}: {}",
            "",
            i.id,
            i.kind,
            i.article,
            i.t,
            side(i.side),
            i.detail
        ),
        What::Incident(i) => format!("  decision on {}: {} by {}", i.id, i.decision, i.decided_by),
        What::Result(result) => format!("  result {result}"),
        What::Correction(c) => format!("  correction: ply {} is {} ({})", c.ply, c.san, c.by),
        What::Stats(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(what: What) -> pb::Update {
        pb::Update {
            what: Some(what),
            ..Default::default()
        }
    }

    #[test]
    fn lines_as_updates_arrive_never_run_backwards_nor_trail_spaces() {
        let clock = update(What::Event(pb::PhysicalEvent {
            t: 2.15,
            r#type: "clock".into(),
            ..Default::default()
        }));
        assert_eq!(describe(&clock).expect("a line"), "     2.15 s  clock");
        let made = update(What::Move(pb::Move {
            ply: 1,
            san: "e4".into(),
            side: pb::Side::White as i32,
            t: 1.75,
            ..Default::default()
        }));
        assert_eq!(
            describe(&made).expect("a line"),
            "             move 1 e4 (white), made at 1.75 s"
        );
    }
}
