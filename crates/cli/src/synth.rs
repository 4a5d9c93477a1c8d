//! `referee synth SCENARIO --out DIR`: renders a scenario file (contracts.md
//! §3) to DIR/video.avi and DIR/truth.json. `referee synth --dataset N
//! --seed S [--looks wide] [--moments whole] --out DIR`: N labelled single frames for training.

use std::path::PathBuf;

use anyhow::Result;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The scenario file.
    #[arg(required_unless_present = "dataset", conflicts_with = "dataset")]
    scenario: Option<PathBuf>,
    /// Where the output goes (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Instead of a scenario: this many labelled single frames for training.
    #[arg(long)]
    dataset: Option<usize>,
    /// The dataset's seed.
    #[arg(long, default_value_t = 0, requires = "dataset")]
    seed: u64,
    /// The dataset's looks: `classic` (the scenarios' palettes), `wide`
    /// (figured wood, printed boards, natural-wood sets, colour casts) or
    /// `tones` (the classic looks with the sets in every tone real sets show).
    #[arg(long, value_enum, default_value_t = Looks::Classic, requires = "dataset")]
    looks: Looks,
    /// When a dataset's touch and hover frames are taken: `key` (at the
    /// touch, halfway through a hover over one square) or `whole` (any
    /// moment of the gesture, hovers over one to three squares at any
    /// height that clears the pieces).
    #[arg(long, value_enum, default_value_t = Moments::Key, requires = "dataset")]
    moments: Moments,
}

/// `--moments`, as the command line names it.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Moments {
    Key,
    Whole,
}

impl From<Moments> for referee_synth::dataset::Moments {
    fn from(moments: Moments) -> Self {
        match moments {
            Moments::Key => Self::Key,
            Moments::Whole => Self::Whole,
        }
    }
}

/// `--looks`, as the command line names it.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Looks {
    Classic,
    Wide,
    Tones,
}

impl From<Looks> for referee_synth::style::Looks {
    fn from(looks: Looks) -> Self {
        match looks {
            Looks::Classic => Self::Classic,
            Looks::Wide => Self::Wide,
            Looks::Tones => Self::Tones,
        }
    }
}

pub fn run(args: &Args) -> Result<()> {
    let Some(scenario) = &args.scenario else {
        let count = referee_synth::dataset::write_dataset(
            args.dataset.unwrap_or(0),
            args.seed,
            args.looks.into(),
            args.moments.into(),
            &args.out,
        )?;
        println!("wrote {count} labelled frames to {}", args.out.display());
        return Ok(());
    };
    let rendered = referee_synth::render_file(scenario, &args.out)?;
    println!(
        "rendered {} frames to {} and {}",
        rendered.frames,
        rendered.video.display(),
        rendered.truth.display()
    );
    Ok(())
}
