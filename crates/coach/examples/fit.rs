//! Fits backgammon nets to labelled positions (expert iteration's training step): reads the
//! chunks `label` wrote, holds out every twentieth chunk, and runs passes of SGD on the
//! cross-entropy from a starting weights file, the step shrinking pass by pass; after each
//! pass it reports the held-out equity error (all folders together, and each folder apart)
//! and keeps the best pass's weights; `--every-pass` also writes each pass's.
//!
//! ```text
//! cargo run --release -p tabula-coach --example fit -- --labels labels/gen1 \
//!     --from crates/ai/weights/backgammon.tnn --out gen1.tnn --epochs 8 --alpha 0.003
//! ```
//!
//! `--contact-hidden` larger than the starting net's widens it first: the new hidden units
//! get small random input weights and zero output weights, so the widened net starts as the
//! same function.
//!
//! `--crashed-net` gives the nets a crashed net of their own (a copy of the contact net, so
//! they start as the same function) where the starting file has none: from then on the
//! crashed positions train it and the contact net learns from the rest.
//!
//! `--class contact|crashed|race` keeps only the examples of that class
//! (`tabula_ai::backgammon::efficiency::PositionClass`, the races together), in training and
//! held out: `--epochs 0` then reports a net's held-out error on that class alone, and a fit
//! measures what a net of that class's own would gain (docs/training.md, "A crashed net").
//!
//! `--thin-early PIPS --early-one-in K --keep-early DIR` keeps only one in K of the training
//! examples with PIPS or more of both sides together, except in the folders named by
//! `--keep-early` (the early game taught by rollouts rather than by the 2-ply labels).
//!
//! `--sets DIR` (repeatable) adds sibling sets (`label --sets`: a roll's close plays labelled
//! together) with a ranking loss of weight `--rank-weight` (`supervised::Adam::pass_with_sets`;
//! Adam only); every twentieth set file is held out, and each pass also reports how much
//! equity the nets' 0-ply pick in the held-out sets gives up against the labels' best.

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::path::PathBuf;
use tabula_ai::backgammon::efficiency::PositionClass;
use tabula_ai::backgammon::nn::encode::Encoding;
use tabula_ai::backgammon::nn::file;
use tabula_ai::backgammon::nn::net::{Net, OUTPUTS};
use tabula_ai::backgammon::nn::{NeuralEvaluator, Phase};
use tabula_coach::label;
use tabula_coach::siblings::{self, SiblingSet};
use tabula_coach::supervised::{self, Example, SetLoss};

#[derive(Parser)]
struct Args {
    /// Folders of label chunks (repeatable).
    #[arg(long, required = true)]
    labels: Vec<PathBuf>,
    /// The weights to start from.
    #[arg(long)]
    from: PathBuf,
    /// The fitted weights (the best pass by held-out equity error).
    #[arg(long)]
    out: PathBuf,
    /// Passes over the training examples.
    #[arg(long, default_value_t = 8)]
    epochs: usize,
    /// The first pass's SGD step per example.
    #[arg(long, default_value_t = 0.003)]
    alpha: f32,
    /// The step's factor from one pass to the next.
    #[arg(long, default_value_t = 0.8)]
    decay: f32,
    /// Widen the contact net to this many hidden units first (0: keep).
    #[arg(long, default_value_t = 0)]
    contact_hidden: usize,
    /// Mini-batch Adam with this many examples a step instead of per-example SGD (0: SGD);
    /// `--alpha` is then Adam's step.
    #[arg(long, default_value_t = 0)]
    adam_batch: usize,
    /// Add the hand-crafted feature inputs (docs/training.md) to nets that lack them, their
    /// first-layer rows zero (the nets start as the same function).
    #[arg(long)]
    features: bool,
    /// Add the further hand-crafted inputs too (the extended encoding: docs/training.md),
    /// their rows zero.
    #[arg(long)]
    extended: bool,
    /// The run's seed (shuffling, widening).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Split a crashed net off the contact net (a copy of it) if the nets have none.
    #[arg(long)]
    crashed_net: bool,
    /// Keep only the examples of this class.
    #[arg(long, value_enum)]
    class: Option<Class>,
    /// Also write every pass's weights (`OUT` with `-passN` before the extension), to be
    /// measured by what matters (the gnubg-judged error) rather than the held-out error alone.
    #[arg(long)]
    every_pass: bool,
    /// Folders of sibling sets (repeatable).
    #[arg(long)]
    sets: Vec<PathBuf>,
    /// The ranking loss's weight beside the set members' cross-entropy.
    #[arg(long, default_value_t = 4.0)]
    rank_weight: f32,
    /// Sibling sets per Adam step.
    #[arg(long, default_value_t = 8)]
    sets_per_step: usize,
    /// Thin the training examples whose two sides have this many pips or more together
    /// (0: none) in every labels folder but those of `--keep-early`, keeping one in
    /// `--early-one-in` of them (0: none), so that the early game is taught by the folders
    /// kept (rollouts) more than by the others (2-ply labels). Held-out examples stay.
    #[arg(long, default_value_t = 0)]
    thin_early: u32,
    /// One in this many of the thinned examples kept (0: none).
    #[arg(long, default_value_t = 0)]
    early_one_in: usize,
    /// Labels folders `--thin-early` leaves whole (repeatable).
    #[arg(long)]
    keep_early: Vec<PathBuf>,
}

/// `--thin-early`'s rule: the early examples of the folders it thins, one in `one_in` kept.
struct Thinning<'a> {
    pips: u32,
    one_in: usize,
    keep: &'a [PathBuf],
}

impl Thinning<'_> {
    /// The thinning as the weights' info records it (nothing when there is none).
    fn info(&self) -> String {
        if self.pips == 0 {
            return String::new();
        }
        let keep: Vec<String> = self.keep.iter().map(|p| p.display().to_string()).collect();
        format!(
            " thin_early={} early_one_in={} keep_early={}",
            self.pips,
            self.one_in,
            keep.join(",")
        )
    }

    /// The folder's training examples thinned (in read order, so the same on every run).
    fn apply(&self, dir: &PathBuf, examples: Vec<Example>) -> Vec<Example> {
        if self.pips == 0 || self.keep.contains(dir) {
            return examples;
        }
        let mut seen = 0usize;
        examples
            .into_iter()
            .filter(|e| {
                let p = &e.position;
                if p.mover_pips() + p.opponent_pips() < self.pips {
                    return true;
                }
                seen += 1;
                self.one_in > 0 && seen.is_multiple_of(self.one_in)
            })
            .collect()
    }
}

/// The classes `--class` keeps: [`PositionClass`]'s, the races together.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
enum Class {
    Contact,
    Crashed,
    Race,
}

impl Class {
    fn of(e: &Example) -> Class {
        match PositionClass::of(&e.position) {
            PositionClass::Contact => Class::Contact,
            PositionClass::Crashed => Class::Crashed,
            _ => Class::Race,
        }
    }
}

/// The examples held out of one labels folder (every twentieth chunk), and how many times
/// the folder was named (its examples weigh that many times, in training and in the pooled
/// held-out error).
struct HeldSet {
    name: String,
    examples: Vec<Example>,
    times: usize,
}

/// The net widened to `hidden` units with the same outputs as before.
fn widen(net: &Net, hidden: usize, seed: u64) -> Net {
    let old = net.hidden;
    let inputs = net.inputs();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut w1 = vec![0.0f32; inputs * hidden];
    for i in 0..inputs {
        for j in 0..hidden {
            w1[i * hidden + j] = if j < old {
                net.w1[i * old + j]
            } else {
                (rng.gen::<f32>() * 2.0 - 1.0) * 0.1
            };
        }
    }
    let mut b1 = net.b1.clone();
    b1.resize(hidden, 0.0);
    let mut w2 = vec![0.0f32; OUTPUTS * hidden];
    for k in 0..OUTPUTS {
        w2[k * hidden..k * hidden + old].copy_from_slice(&net.w2[k * old..(k + 1) * old]);
    }
    Net::with_inputs(inputs, hidden, w1, b1, w2, net.b2).expect("a widened net keeps its shape")
}

/// The net with zero first-layer rows appended up to `inputs` inputs.
fn with_feature_rows(net: &Net, inputs: usize) -> Net {
    let mut w1 = net.w1.clone();
    w1.resize(inputs * net.hidden, 0.0);
    Net::with_inputs(
        inputs,
        net.hidden,
        w1,
        net.b1.clone(),
        net.w2.clone(),
        net.b2,
    )
    .expect("the same net with more rows")
}

/// Each folder of `dirs` once, with the times it was named (its files weigh that many times
/// in training), and its files ending in `.ext`, sorted; every twentieth of them
/// ([`held_out`]) is held out.
fn folders(dirs: &[PathBuf], ext: &str) -> std::io::Result<Vec<(PathBuf, usize, Vec<PathBuf>)>> {
    let mut out = Vec::new();
    for (i, dir) in dirs.iter().enumerate() {
        if dirs[..i].contains(dir) {
            continue;
        }
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        paths.sort();
        let times = dirs.iter().filter(|d| *d == dir).count();
        out.push((dir.clone(), times, paths));
    }
    Ok(out)
}

/// Whether a folder's `k`th file (in name order) is held out: every twentieth.
fn held_out(k: usize) -> bool {
    k % 20 == 19
}

/// The training examples (a folder named `n` times read once and counted `n` times) and each
/// folder's held-out examples.
fn load(
    dirs: &[PathBuf],
    thinning: &Thinning,
) -> Result<(Vec<Example>, Vec<HeldSet>), Box<dyn std::error::Error>> {
    let mut train = Vec::new();
    let mut sets: Vec<HeldSet> = Vec::new();
    for (dir, times, paths) in folders(dirs, "tlb")? {
        let (mut mine, mut held) = (Vec::new(), Vec::new());
        for (k, p) in paths.iter().enumerate() {
            let records = label::read_chunk(&std::fs::read(p)?)
                .map_err(|e| format!("{}: {e}", p.display()))?;
            let into = if held_out(k) { &mut held } else { &mut mine };
            into.extend(records.into_iter().map(|r| Example {
                position: r.position,
                target: r.target,
            }));
        }
        let mine = thinning.apply(&dir, mine);
        for _ in 0..times {
            train.extend_from_slice(&mine);
        }
        sets.push(HeldSet {
            name: dir.display().to_string(),
            examples: held,
            times,
        });
    }
    Ok((train, sets))
}

/// The sibling sets of `dirs` for training (a folder named `n` times counted `n` times) and
/// held out (every twentieth file of each folder, each once).
fn load_sets(
    dirs: &[PathBuf],
) -> Result<(Vec<SiblingSet>, Vec<SiblingSet>), Box<dyn std::error::Error>> {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (_, times, paths) in folders(dirs, "tsb")? {
        let mut mine = Vec::new();
        for (k, p) in paths.iter().enumerate() {
            let sets = siblings::read_sets(&std::fs::read(p)?)
                .map_err(|e| format!("{}: {e}", p.display()))?;
            if held_out(k) { &mut held } else { &mut mine }.extend(sets);
        }
        for _ in 0..times {
            train.extend_from_slice(&mine);
        }
    }
    Ok((train, held))
}

/// The held-out sets' figures as a phrase: the 0-ply pick's loss against the labels' best
/// (mEMG a set) and the ranking loss.
fn set_figures(nets: &NeuralEvaluator, held: &[SiblingSet]) -> String {
    if held.is_empty() {
        return String::new();
    }
    let (pick, rank) = supervised::set_errors(nets, held);
    format!(
        "; held-out sets: pick loss {:.2} mEMG, ranking loss {:.3e}",
        pick * 1000.0,
        rank
    )
}

/// The pooled held-out equity error (each folder weighed by its examples and the times it
/// was named) and each folder's, as `name error` pairs: each example is evaluated once.
fn held_out_errors(nets: &NeuralEvaluator, sets: &[HeldSet]) -> (f64, String) {
    let errors: Vec<f64> = sets
        .iter()
        .map(|s| supervised::equity_error(nets, &s.examples))
        .collect();
    let weight = |s: &HeldSet| (s.times * s.examples.len()) as f64;
    let total: f64 = sets.iter().map(weight).sum();
    let pooled = sets
        .iter()
        .zip(&errors)
        .map(|(s, e)| weight(s) * e)
        .sum::<f64>()
        / total.max(1.0);
    let parts: Vec<String> = sets
        .iter()
        .zip(&errors)
        .map(|(s, e)| format!("{} {e:.4}", s.name))
        .collect();
    (pooled, parts.join(", "))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let start_bytes = std::fs::read(&args.from)?;
    let mut nets = NeuralEvaluator::from_bytes(&start_bytes)?;
    let start_info = file::read(&start_bytes)?.info;
    let wanted = if args.extended {
        Encoding::Extended
    } else if args.features {
        Encoding::Features
    } else {
        nets.encoding
    };
    if wanted.inputs() > nets.encoding.inputs() {
        for net in nets.nets_mut() {
            *net = with_feature_rows(net, wanted.inputs());
        }
        nets.encoding = wanted;
    }
    if args.contact_hidden > nets.contact.hidden {
        nets.contact = widen(&nets.contact, args.contact_hidden, args.seed);
    }
    if args.crashed_net && nets.crashed.is_none() {
        nets = nets.with_crashed_net();
    }
    let thinning = Thinning {
        pips: args.thin_early,
        one_in: args.early_one_in,
        keep: &args.keep_early,
    };
    let (mut train, mut sets) = load(&args.labels, &thinning)?;
    let (train_sets, held_sets) = load_sets(&args.sets)?;
    if !args.sets.is_empty() && args.adam_batch == 0 {
        return Err("--sets needs --adam-batch: the ranking loss is fitted by Adam".into());
    }
    let set_loss = SetLoss {
        weight: args.rank_weight,
        per_step: args.sets_per_step,
    };
    if let Some(class) = args.class {
        let keep = |e: &Example| Class::of(e) == class;
        train.retain(keep);
        for set in &mut sets {
            set.examples.retain(keep);
        }
    }
    let count = |phase: Phase| {
        train
            .iter()
            .filter(|e| Phase::of(&e.position) == phase)
            .count()
    };
    let (contact, crashed) = (count(Phase::Contact), count(Phase::Crashed));
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(args.out.with_extension("log"))?;
    let mut say = |line: String| -> std::io::Result<()> {
        println!("{line}");
        writeln!(log, "{line}")
    };
    say(format!(
        "fit {} training examples ({contact} contact, {crashed} crashed), {} held out, from {}{}",
        train.len(),
        sets.iter()
            .map(|s| s.times * s.examples.len())
            .sum::<usize>(),
        args.from.display(),
        if nets.crashed.is_some() {
            " (with a crashed net)"
        } else {
            ""
        }
    ))?;
    if !args.sets.is_empty() {
        say(format!(
            "sibling sets: {} training ({} members), {} held out, ranking weight {}, {} a step",
            train_sets.len(),
            train_sets.iter().map(|s| s.members.len()).sum::<usize>(),
            held_sets.len(),
            args.rank_weight,
            args.sets_per_step
        ))?;
    }
    let (mut best, apart) = held_out_errors(&nets, &sets);
    say(format!(
        "start: held-out equity error {best:.4} ({apart}){}",
        set_figures(&nets, &held_sets)
    ))?;
    let mut alpha = args.alpha;
    // One Adam state for the whole fit (its moments carry from pass to pass).
    let mut adam = supervised::Adam::new(&nets);
    for epoch in 1..=args.epochs {
        let started = std::time::Instant::now();
        let seed = args.seed + epoch as u64;
        let report = if args.adam_batch > 0 {
            adam.pass_with_sets(
                &mut nets,
                &train,
                &train_sets,
                &set_loss,
                alpha,
                args.adam_batch,
                seed,
            )
        } else {
            supervised::fit(&mut nets, &train, 1, alpha, seed)
        };
        let (err, apart) = held_out_errors(&nets, &sets);
        say(format!(
            "pass {epoch}: alpha {alpha:.5} training loss {:.4} (floor {:.4}, sets' ranking \
             {:.3e}) held-out equity error {err:.4} ({apart}){} ({:.0} s)",
            report.loss,
            report.floor,
            report.rank,
            set_figures(&nets, &held_sets),
            started.elapsed().as_secs_f64()
        ))?;
        let improved = err < best;
        if improved || args.every_pass {
            let labels: Vec<String> = args
                .labels
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            let info = format!(
                "method=fit labels={} passes={epoch} alpha={} decay={} adam_batch={} \
                 features={} extended={} contact_hidden={} crashed_net={} seed={} class={} \
                 sets={} rank_weight={} sets_per_step={}{} held_out_error={err:.4} \
                 from=[{start_info}]",
                labels.join(","),
                args.alpha,
                args.decay,
                args.adam_batch,
                args.features,
                args.extended,
                nets.contact.hidden,
                nets.crashed.is_some(),
                args.seed,
                args.class
                    .map_or("all".into(), |c| format!("{c:?}").to_lowercase()),
                args.sets
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                args.rank_weight,
                args.sets_per_step,
                thinning.info()
            );
            if improved {
                best = err;
                tabula_coach::save_backgammon(&args.out, &nets, info.clone())?;
            }
            if args.every_pass {
                let stem = args.out.file_stem().unwrap_or_default().to_string_lossy();
                let path = args.out.with_file_name(format!("{stem}-pass{epoch}.tnn"));
                tabula_coach::save_backgammon(&path, &nets, info)?;
            }
        }
        alpha *= args.decay;
    }
    say(format!("best held-out equity error {best:.4}"))?;
    Ok(())
}
