//! Labels positions for expert iteration (`tabula_coach::label`): chunk after chunk of
//! positions from the nets' exploring self-play, each with the nets' n-ply chances, written
//! to `<out>/chunk-NNNNNN.tlb`. A manifest (`<out>/manifest.txt`) records the nets (their
//! SHA-256), the depth and the sampling settings; a later run with other settings into the
//! same folder is refused, and the same command resumes by making the chunks still missing.
//!
//! ```text
//! cargo run --release -p tabula-coach --example label -- --out labels/gen1 --chunks 400 \
//!     --plies 2 --threads 1
//! ```
//!
//! `--blend` labels each position by the mean of its `--plies` and `--plies - 1` chances
//! (`tabula_coach::label::label_position_blended`).
//!
//! `--kinds` keeps only positions of the kinds the nets misjudge (`tabula_coach::kinds`);
//! `--rollout N` labels each by a variance-reduced rollout of N trials (seeded by the run's
//! seed, the chunk and the record) instead of the n-ply chances, `--truncate P` stopping
//! each trial after P plays; `--min-pips 250` keeps only the opening and early middle game.
//! All are written to the manifest when used.
//!
//! `--sets` writes sibling sets instead (`tabula_coach::siblings`: for each sampled position
//! a roll's close candidate plays, each labelled at `--plies`) to `<out>/sets-NNNNNN.tsb`;
//! `--per-chunk` then counts the parent positions (50 is usual).

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_coach::label::{self, Labelled, SampleConfig};
use tabula_coach::siblings::{self, SetConfig};
use tabula_tables::MoveGen;

#[derive(Parser)]
struct Args {
    /// The nets that sample and label (a `.tnn` file); the shipped nets when left out.
    #[arg(long)]
    nets: Option<PathBuf>,
    /// The folder of chunks and the manifest.
    #[arg(long)]
    out: PathBuf,
    /// Chunks to reach in all (indices 0..chunks).
    #[arg(long, default_value_t = 100)]
    chunks: u64,
    /// Depth of the labels in plies.
    #[arg(long, default_value_t = 2)]
    plies: u32,
    /// Positions per chunk.
    #[arg(long, default_value_t = 250)]
    per_chunk: usize,
    /// Share of the positions met that is kept.
    #[arg(long, default_value_t = 0.2)]
    keep: f64,
    /// Chance that a play explores.
    #[arg(long, default_value_t = 0.15)]
    explore: f64,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Keep only positions of the kinds the nets misjudge.
    #[arg(long)]
    kinds: bool,
    /// Label by rollouts of this many trials instead of n-ply chances.
    #[arg(long)]
    rollout: Option<u32>,
    /// With `--rollout`: each trial stops after this many plays and takes the nets' 0-ply
    /// chances there.
    #[arg(long, requires = "rollout")]
    truncate: Option<u32>,
    /// Keep only positions whose two sides have this many pips or more left together (250:
    /// the opening and early middle game).
    #[arg(long, default_value_t = 0)]
    min_pips: u32,
    /// Label by the mean of the chances at `--plies` (at least 1) and one ply less (one
    /// search gives both).
    #[arg(long, conflicts_with = "rollout")]
    blend: bool,
    /// Write sibling sets (a roll's close plays labelled together) instead of positions.
    #[arg(long, conflicts_with_all = ["rollout", "blend"])]
    sets: bool,
    /// With `--sets`: the most plays a set keeps.
    #[arg(long, default_value_t = 8)]
    max_members: usize,
    /// With `--sets`: plays further behind the best at 0-ply are left out.
    #[arg(long, default_value_t = 0.16)]
    window: f32,
}

fn chunk_path(dir: &Path, index: u64, sets: bool) -> PathBuf {
    if sets {
        dir.join(format!("sets-{index:06}.tsb"))
    } else {
        dir.join(format!("chunk-{index:06}.tlb"))
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let (nets, nets_bytes): (NeuralEvaluator, Vec<u8>) = match &args.nets {
        Some(p) => {
            let bytes = std::fs::read(p)?;
            (NeuralEvaluator::from_bytes(&bytes)?, bytes)
        }
        None => (NeuralEvaluator::shipped().clone(), Vec::new()),
    };
    let nets_id = if nets_bytes.is_empty() {
        let shipped = include_bytes!("../../ai/weights/backgammon.tnn");
        format!("shipped sha256={:x}", Sha256::digest(shipped))
    } else {
        format!("sha256={:x}", Sha256::digest(&nets_bytes))
    };
    let cfg = SampleConfig {
        per_chunk: args.per_chunk,
        keep: args.keep,
        explore: args.explore,
        seed: args.seed,
        kinds_only: args.kinds,
        min_pips: args.min_pips,
        ..SampleConfig::default()
    };
    if args.blend && args.plies == 0 {
        return Err("--blend needs --plies 1 or more: it is the mean of two depths".into());
    }
    let depth = match args.rollout {
        Some(trials) => match args.truncate {
            Some(plays) => format!(
                "rollout: {trials} trials, variance reduction, truncated after {plays} plays\n"
            ),
            None => format!("rollout: {trials} trials, variance reduction\n"),
        },
        None if args.blend => format!(
            "plies: {} and {}, the mean (blended)\n",
            args.plies,
            args.plies - 1
        ),
        None => format!("plies: {}\n", args.plies),
    };
    let mut manifest = format!(
        "tabula label chunks\nnets: {nets_id}\n{depth}per_chunk: {}\nkeep: {}\n\
         explore: {}\nexplore_top: {}\nseed: {}\n",
        cfg.per_chunk, cfg.keep, cfg.explore, cfg.explore_top, cfg.seed
    );
    if args.kinds {
        manifest.push_str("kinds: closed out, prime, blitz, back game\n");
    }
    if args.min_pips > 0 {
        manifest.push_str(&format!("min_pips: {}\n", args.min_pips));
    }
    if args.sets {
        manifest.push_str(&format!(
            "sets: the best {} plays within {} at 0-ply\n",
            args.max_members, args.window
        ));
    }
    let set_cfg = SetConfig {
        sample: cfg,
        max_members: args.max_members,
        window: args.window,
    };
    std::fs::create_dir_all(&args.out)?;
    let manifest_path = args.out.join("manifest.txt");
    match std::fs::read_to_string(&manifest_path) {
        Ok(old) if old != manifest => {
            return Err(format!(
                "{} was labelled with other settings:\n{old}",
                args.out.display()
            )
            .into())
        }
        Ok(_) => {}
        Err(_) => std::fs::write(&manifest_path, &manifest)?,
    }
    let missing: Vec<u64> = (0..args.chunks)
        .filter(|&c| !chunk_path(&args.out, c, args.sets).exists())
        .collect();
    let bar = ProgressBar::new(args.chunks);
    bar.set_style(ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} chunks ({eta} left)",
    )?);
    bar.set_position(args.chunks - missing.len() as u64);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()?;
    pool.install(|| {
        missing.par_iter().try_for_each(|&c| {
            let mut gen = MoveGen::new();
            let path = chunk_path(&args.out, c, args.sets);
            let tmp = path.with_extension("tmp");
            let bytes = if args.sets {
                let sets: Vec<_> = siblings::sample_sets(&nets, &set_cfg, c)
                    .iter()
                    .map(|members| siblings::label_set(&nets, &mut gen, members, args.plies))
                    .collect();
                siblings::write_sets(&sets)
            } else {
                let positions = label::sample_chunk(&nets, &cfg, c);
                let records: Vec<Labelled> = positions
                    .into_iter()
                    .enumerate()
                    .map(|(i, position)| Labelled {
                        position,
                        target: match args.rollout {
                            Some(trials) => {
                                let seed = args.seed ^ (c << 20) ^ i as u64;
                                label::label_by_rollout(
                                    &nets,
                                    &position,
                                    trials,
                                    args.truncate,
                                    seed,
                                )
                            }
                            None if args.blend => label::label_position_blended(
                                &nets, &mut gen, &position, args.plies,
                            ),
                            None => label::label_position(&nets, &mut gen, &position, args.plies),
                        },
                    })
                    .collect();
                label::write_chunk(&records)
            };
            std::fs::write(&tmp, bytes)?;
            std::fs::rename(&tmp, &path)?;
            bar.inc(1);
            Ok::<(), std::io::Error>(())
        })
    })?;
    bar.finish();
    Ok(())
}
