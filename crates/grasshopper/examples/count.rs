//! The size of the Grasshopper state space for N checkers each:
//!
//! ```text
//! cargo run --release -p tabula-grasshopper --example count -- 6 [--max-gib G] [--minutes M] [--no-reach]
//! ```
//!
//! Prints the exact count of well-formed states (by dynamic programming), the states
//! reachable from the start (layer-by-layer enumeration on one thread, stopped at G GiB of
//! hash sets or M minutes with lower bounds; defaults 8 GiB and 20 minutes), both per layer,
//! and the memory a layered retrograde computation at 2 bits a state would need. The method
//! and the definitions are in the docs of `tabula_grasshopper::count`.

use std::process::ExitCode;
use std::time::{Duration, Instant};
use tabula_grasshopper::count::{max_layer, reachable, well_formed, Limits, Stop};
use tabula_grasshopper::Checkers;

const GIB: f64 = (1u64 << 30) as f64;

struct Args {
    checkers: Checkers,
    limits: Limits,
    reach: bool,
}

fn parse() -> Result<Args, String> {
    let mut checkers = Checkers::new(6).map_err(|e| e.to_string())?;
    let mut limits = Limits::default();
    let mut reach = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v > 0.0)
                .ok_or(format!("{name} needs a positive number"))
        };
        match a.as_str() {
            "--max-gib" => limits.max_bytes = (value("--max-gib")? * GIB) as usize,
            "--minutes" => limits.max_time = Duration::from_secs_f64(value("--minutes")? * 60.0),
            "--no-reach" => reach = false,
            n => {
                let n: u32 = n.parse().map_err(|_| format!("unknown argument {n:?}"))?;
                checkers = Checkers::new(n).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(Args {
        checkers,
        limits,
        reach,
    })
}

/// 2 bits a state, in GiB.
fn gib_2bits(states: u128) -> f64 {
    states as f64 / 4.0 / GIB
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("count: {e}");
            eprintln!("usage: count [N] [--max-gib G] [--minutes M] [--no-reach]");
            return ExitCode::FAILURE;
        }
    };
    let n = args.checkers;
    println!("Grasshopper state space, N = {n} checkers each");
    let t = Instant::now();
    let wf = well_formed(n);
    let dp_time = t.elapsed();
    println!(
        "well-formed (exact, dynamic programming, {:.2} s):",
        dp_time.as_secs_f64()
    );
    println!("  boards                         {:>26}", wf.boards);
    println!("  positions (score included)     {:>26}", wf.positions);
    println!("  game states                    {:>26}", wf.states);
    println!("  solver states (mover's view)   {:>26}", wf.solver_states);
    println!("  game states in tempo           {:>26}", wf.in_tempo);
    let (first, window) = wf.largest_window(3);
    println!(
        "  retrograde at 2 bits a solver state: all layers {:.3} GiB; largest 3 consecutive \
         layers ({}-{}) {:.3} GiB",
        gib_2bits(wf.solver_states),
        first,
        first + 2,
        gib_2bits(window)
    );
    let (mover, other, cells) = wf.largest_cell_with_children();
    let biggest = wf.by_progress.iter().flatten().max().copied().unwrap_or(0);
    println!(
        "  by (mover's, other's) stage sum: largest cell {} states ({:.3} GiB); largest cell \
         with the two it plays into ({mover}, {other}) {} states ({:.3} GiB)",
        biggest,
        gib_2bits(biggest),
        cells,
        gib_2bits(cells)
    );
    let reach = args.reach.then(|| {
        eprintln!(
            "enumerating reachable states (limit {:.1} GiB, {:.0} min) ...",
            args.limits.max_bytes as f64 / GIB,
            args.limits.max_time.as_secs_f64() / 60.0
        );
        reachable(n, args.limits, |l, c, t| {
            eprintln!(
                "  layer {l:>3} done at {:>8.1} s: {} solver states",
                t.as_secs_f64(),
                c.solver_states
            );
        })
    });
    println!();
    println!(
        "per layer (layer = sum of the checkers' stages: hand 0, A..D 1..4, removed 5): \
         well-formed solver states, well-formed game states in tempo, reachable solver \
         states, their ratio to well-formed, reachable game states, of which off tempo, \
         positions right after a pass"
    );
    if reach.is_some() {
        println!(
            "{:>5} {:>20} {:>20} {:>14} {:>7} {:>14} {:>10} {:>10}",
            "layer",
            "well-formed",
            "wf in tempo",
            "reachable",
            "ratio",
            "reach. games",
            "off tempo",
            "after pass"
        );
    } else {
        println!("{:>5} {:>20} {:>20}", "layer", "well-formed", "wf in tempo");
    }
    for l in 0..=max_layer(n) as usize {
        match &reach {
            Some(r) => {
                let c = r.layers[l];
                let mark = if c.complete { "" } else { " (lower bound)" };
                let ratio = if wf.layers[l] == 0 {
                    0.0
                } else {
                    c.solver_states as f64 / wf.layers[l] as f64
                };
                println!(
                    "{:>5} {:>20} {:>20} {:>14} {:>7.4} {:>14} {:>10} {:>10}{}",
                    l,
                    wf.layers[l],
                    wf.in_tempo_layers[l],
                    c.solver_states,
                    ratio,
                    c.states,
                    c.off_tempo,
                    c.after_pass,
                    mark
                );
            }
            None => println!(
                "{:>5} {:>20} {:>20}",
                l, wf.layers[l], wf.in_tempo_layers[l]
            ),
        }
    }
    if let Some(r) = reach {
        println!();
        let kind = match r.stopped {
            None => "exact".to_string(),
            Some(Stop::Memory) => format!(
                "lower bound: stopped at the memory limit; layers 0..{} complete",
                r.complete_layers()
            ),
            Some(Stop::Time) => format!(
                "lower bound: stopped at the time limit; layers 0..{} complete",
                r.complete_layers()
            ),
        };
        println!("reachable ({kind}):");
        println!("  game states                    {:>26}", r.states());
        println!("  solver states (mover's view)   {:>26}", r.solver_states());
        println!("  positions right after a pass   {:>26}", r.after_pass());
        println!("  game states off tempo          {:>26}", r.off_tempo());
        println!(
            "  reachable / well-formed        {:>26.4}",
            r.solver_states() as f64 / wf.solver_states as f64
        );
        println!(
            "  expanded {} states, {} edges ({} into a win), {:.1} s, peak hash sets {:.3} GiB",
            r.expanded,
            r.edges,
            r.winning_edges,
            r.elapsed.as_secs_f64(),
            r.peak_bytes as f64 / GIB
        );
    }
    ExitCode::SUCCESS
}
