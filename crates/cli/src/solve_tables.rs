//! `tabula solve grasshopper --tables K`: builds the Grasshopper endgame table for `k = K`
//! ([`tabula_grasshopper::endgame`]) on a pool of `--threads` workers, shows a progress bar
//! over the states on stderr, and writes the table where the bots find it
//! ([`tabula_ai::grasshopper::tables::cache_path`]) or to `--out`. The summary names the
//! states, the time, the rate, the size on disk and the path.

use crate::error::bad_input;
use crate::thousands::thousands;
use crate::SolveArgs;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::time::Instant;
use tabula_ai::grasshopper::tables::cache_path;
use tabula_grasshopper::endgame::{EndgameTable, MAX_K};

/// Runs the command.
pub fn run(out: &mut dyn Write, k: u8, args: &SolveArgs) -> Result<()> {
    if !(1..=MAX_K).contains(&k) {
        return Err(bad_input(format!(
            "bad --tables {k}: give the checkers a side may have left, 1 to {MAX_K}"
        )));
    }
    if args.threads == Some(0) {
        return Err(bad_input("--threads must be at least 1"));
    }
    let path = match &args.out {
        Some(p) => p.clone(),
        None => cache_path(k).ok_or_else(|| {
            bad_input("no cache directory: set TABULA_CACHE_DIR or HOME, or give --out PATH")
        })?,
    };
    let states = EndgameTable::states_for(k)?;
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t);
    }
    let pool = builder.build().context("cannot start the worker threads")?;
    let threads = pool.current_num_threads();
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(states);
        let style = ProgressStyle::with_template(
            "[{elapsed_precise}] {bar:40} {percent:>3}% layer {msg} (eta {eta})",
        )
        .expect("a valid template");
        bar.set_style(style);
        bar
    } else {
        ProgressBar::hidden()
    };
    let started = Instant::now();
    let table = pool.install(|| {
        EndgameTable::build(k, |layer| {
            bar.set_message(format!("{}/{}", layer.potential + 1, layer.layers));
            bar.set_position(layer.done);
        })
    })?;
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let bytes = table.to_bytes();
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    // Written beside the target and renamed, so a reader never sees half a table.
    let partial = path.with_extension("partial");
    std::fs::write(&partial, &bytes)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, &path)
        .with_context(|| format!("cannot move the table to {}", path.display()))?;
    writeln!(
        out,
        "Grasshopper endgame table, at most {k} checkers a side: {} states.",
        thousands(states)
    )?;
    writeln!(
        out,
        "Built in {seconds:.1} s on {threads} thread{} ({:.2} M states/s).",
        if threads == 1 { "" } else { "s" },
        states as f64 / seconds.max(1e-9) / 1e6
    )?;
    writeln!(
        out,
        "Written to {} ({:.1} MB).",
        path.display(),
        bytes.len() as f64 / 1e6
    )?;
    Ok(())
}
