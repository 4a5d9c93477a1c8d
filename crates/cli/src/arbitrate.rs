//! `referee arbitrate EVENTS.jsonl [--json] [--fen FEN]`: the rules engine
//! alone on a physical event log. Bad input is refused with the file, the
//! line and the field.

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow};
use referee_rules::pgn::Tags;
use referee_rules::{ArbitrateError, arbitrate_log, event_log_text};

use crate::report;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The physical events, one JSON object a line (contracts.md §1).
    events: PathBuf,
    /// Print the verdict as JSON (contracts.md §2).
    #[arg(long)]
    json: bool,
    /// The starting position (default: the standard one).
    #[arg(long)]
    fen: Option<String>,
    /// A PGN tag, `Name=Value` (repeatable), e.g. `--tag White=Smith`.
    #[arg(long = "tag", value_parser = parse_tag)]
    tags: Vec<(String, String)>,
}

pub fn parse_tag(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not Name=Value"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("`{name}` is not a PGN tag name"));
    }
    Ok((name.to_string(), value.to_string()))
}

pub fn run(args: &Args) -> Result<()> {
    let path = args.events.display();
    let bytes = std::fs::read(&args.events).with_context(|| format!("cannot read {path}"))?;
    let text = event_log_text(&bytes).map_err(|e| anyhow!("{path}: {e}"))?;
    let verdict =
        arbitrate_log(text, args.fen.as_deref(), Tags(args.tags.clone())).map_err(|e| match e {
            ArbitrateError::Log(e) => anyhow!("{path}: {e}"),
            fen => anyhow!(fen),
        })?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&verdict)?);
    } else {
        print!("{}", report::for_people(&verdict));
    }
    Ok(())
}
