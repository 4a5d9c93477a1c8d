//! The `referee` command line (contracts.md §4). Each subcommand lives in
//! its own module; this file parses the command and reports errors as one
//! line on standard error with a non-zero exit.

mod arbitrate;
mod replay;
mod report;
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
    /// Render a scenario file to an overhead video and its exact truth.
    Synth(synth::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Arbitrate(args) => arbitrate::run(&args),
        Command::Synth(args) => synth::run(&args),
        Command::Replay(args) => replay::run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("referee: {error:#}");
            ExitCode::FAILURE
        }
    }
}
