//! `tabula-fuzz`: runs named fuzz targets for a time or a number of inputs and prints, per
//! target, the inputs tried, the time and the unique crashes (each saved to a file).

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use tabula_fuzz::{run_one, run_target, targets, Budget};

/// Fuzz Tabula's parsers of outside input.
#[derive(Parser)]
#[command(name = "tabula-fuzz")]
struct Args {
    /// Targets to run (see --list).
    targets: Vec<String>,
    /// Run every target, one after another.
    #[arg(long)]
    all: bool,
    /// List the targets and exit.
    #[arg(long)]
    list: bool,
    /// Seconds per target.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Inputs per target instead of a time.
    #[arg(long)]
    inputs: Option<u64>,
    /// The ChaCha seed of the mutation engine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where crash inputs are written.
    #[arg(long, default_value = "fuzz-crashes")]
    crashes: PathBuf,
    /// Run one saved input through the target (reproduce a crash) and exit.
    #[arg(long)]
    replay: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let all = targets::all();
    if args.list {
        for t in &all {
            println!("{:<18} {}", t.name, t.about);
        }
        return ExitCode::SUCCESS;
    }
    let chosen: Vec<_> = if args.all {
        all.clone()
    } else {
        let mut chosen = Vec::new();
        for name in &args.targets {
            match all.iter().find(|t| t.name == name) {
                Some(t) => chosen.push(*t),
                None => {
                    eprintln!("unknown target {name:?}; --list shows them");
                    return ExitCode::from(2);
                }
            }
        }
        chosen
    };
    if chosen.is_empty() {
        eprintln!("name a target, or --all; --list shows them");
        return ExitCode::from(2);
    }
    if let Some(file) = &args.replay {
        let input = match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("cannot read {}: {e}", file.display());
                return ExitCode::from(2);
            }
        };
        let mut failed = false;
        for t in &chosen {
            match run_one(t, &input) {
                Ok(accepted) => println!("{}: no panic (accepted: {accepted})", t.name),
                Err(sig) => {
                    println!("{}: PANIC {sig}", t.name);
                    failed = true;
                }
            }
        }
        return if failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        };
    }
    let budget = match args.inputs {
        Some(n) => Budget::Inputs(n),
        None => Budget::Time(Duration::from_secs(args.seconds)),
    };
    let mut crashed = false;
    for t in &chosen {
        println!("== {} ({})", t.name, t.about);
        let report = run_target(t, budget, args.seed, Some(&args.crashes), |r| {
            eprintln!("   .. {}", r.line());
        });
        println!("{}", report.line());
        for (sig, (file, hits)) in &report.crashes {
            crashed = true;
            let file = file
                .as_ref()
                .map(|f| f.display().to_string())
                .unwrap_or_default();
            println!("   CRASH x{hits} {sig}\n         input: {file}");
        }
    }
    if crashed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
