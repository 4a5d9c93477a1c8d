//! The `referee` command line (contracts.md §4). Each subcommand lives in
//! its own module; this file parses the command and reports errors as one
//! line on standard error with a non-zero exit.

mod arbitrate;
mod client;
mod clips;
mod detect;
mod hands;
mod ingest;
mod records;
mod replay;
mod report;
mod serve;
mod synth;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Referees over-the-board chess games from overhead cameras.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the rules engine alone on a physical event log (JSON Lines).
    Arbitrate(arbitrate::Args),
    /// Referee a recorded video offline through the whole chain.
    Replay(replay::Args),
    /// Read one still picture: the board's corners and every square.
    Detect(detect::Args),
    /// Follow the players' hands through a video (the real-hand models).
    Hands(hands::Args),
    /// Render a scenario file to an overhead video and its exact truth.
    Synth(synth::Args),
    /// The service: gRPC API and the record of every board's game.
    Serve(serve::Args),
    /// Stream a camera or a video file to the service.
    Ingest(ingest::Args),
    /// The games the service holds.
    Games(records::GamesArgs),
    /// One game's verdict from the service.
    Game(records::GameArgs),
    /// Record an arbiter's decision on an incident.
    Decide(records::DecideArgs),
    /// Tell a game what no camera sees: an announced adjustment, a clock press.
    Announce(records::AnnounceArgs),
}

/// The environment variable that chooses what the referee logs to stderr,
/// as `tracing-subscriber`'s filters read it (`REFEREE_LOG=referee_tracker=trace`
/// prints every frame the tracker takes). Warnings only by default.
const LOG_FILTER_VARIABLE: &str = "REFEREE_LOG";

fn main() -> ExitCode {
    let filter = tracing_subscriber::EnvFilter::try_from_env(LOG_FILTER_VARIABLE)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    quiet_opencv();
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Arbitrate(args) => arbitrate::run(&args),
        Command::Detect(args) => detect::run(&args),
        Command::Hands(args) => hands::run(&args),
        Command::Synth(args) => synth::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Ingest(args) => ingest::run(&args),
        Command::Games(args) => records::games(&args),
        Command::Game(args) => records::game(&args),
        Command::Decide(args) => records::decide(&args),
        Command::Announce(args) => records::announce(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("referee: {}", said_once(&error));
            ExitCode::FAILURE
        }
    }
}

/// OpenCV's own log (a backend that declined a file, a GStreamer
/// warning) kept out of the user's terminal: the referee says what went
/// wrong in its own words. `OPENCV_LOG_LEVEL` set by the user keeps
/// OpenCV's choice.
fn quiet_opencv() {
    if std::env::var_os("OPENCV_LOG_LEVEL").is_none() {
        let _ = opencv::core::set_log_level(opencv::core::LogLevel::LOG_LEVEL_SILENT);
    }
}

/// An error and its causes on one line, each thing said once: libraries
/// often repeat their cause in their own message (`tcp connect error: tcp
/// connect error: …`), so a run of parts that repeats the run just before
/// it is left out.
pub(crate) fn said_once(error: &anyhow::Error) -> String {
    let line = format!("{error:#}");
    let mut parts: Vec<&str> = line.split(": ").collect();
    let mut i = 1;
    while i < parts.len() {
        let repeated =
            (1..=i.min(parts.len() - i)).find(|&run| parts[i..i + run] == parts[i - run..i]);
        match repeated {
            Some(run) => drop(parts.drain(i..i + run)),
            None => i += 1,
        }
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::{Cli, said_once};

    #[test]
    fn errors_say_each_thing_once() {
        let error = anyhow::anyhow!("tcp connect error: Connection refused")
            .context("tcp connect error")
            .context("transport error")
            .context("cannot reach the service at http://127.0.0.1:1");
        assert_eq!(
            said_once(&error),
            "cannot reach the service at http://127.0.0.1:1: transport error: tcp connect error: Connection refused"
        );
        let error = anyhow::anyhow!("unable to open database file: /x.db")
            .context("unable to open database file: /x.db");
        assert_eq!(said_once(&error), "unable to open database file: /x.db");
        let error = anyhow::anyhow!("line 2: not JSON").context("a.jsonl");
        assert_eq!(said_once(&error), "a.jsonl: line 2: not JSON");
    }

    #[test]
    fn the_top_line_names_every_command() {
        let cli = Cli::command();
        let about = cli.get_about().expect("an about line").to_string();
        for command in cli.get_subcommands() {
            assert!(
                about.contains(command.get_name()),
                "{about:?} does not name `{}`",
                command.get_name()
            );
        }
    }

    #[test]
    fn every_option_says_what_it_is_for() {
        let cli = Cli::command();
        cli.clone().debug_assert();
        let mut silent = Vec::new();
        for command in cli.get_subcommands() {
            assert!(command.get_about().is_some(), "`{}`", command.get_name());
            for arg in command.get_arguments() {
                let builtin = matches!(arg.get_id().as_str(), "help" | "version");
                if !builtin && arg.get_help().is_none() {
                    silent.push(format!("{} {}", command.get_name(), arg.get_id()));
                }
            }
        }
        assert!(
            silent.is_empty(),
            "options without a description: {silent:?}"
        );
    }
}
