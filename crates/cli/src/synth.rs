//! `referee synth SCENARIO --out DIR`: renders a scenario file (contracts.md
//! §3) to DIR/video.avi and DIR/truth.json.

use std::path::PathBuf;

use anyhow::Result;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The scenario file.
    scenario: PathBuf,
    /// Where video.avi and truth.json go (created if missing).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: &Args) -> Result<()> {
    let rendered = referee_synth::render_file(&args.scenario, &args.out)?;
    println!(
        "rendered {} frames to {} and {}",
        rendered.frames,
        rendered.video.display(),
        rendered.truth.display()
    );
    Ok(())
}
