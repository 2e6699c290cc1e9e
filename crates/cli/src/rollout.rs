//! `tabula rollout`: a backgammon position played out many times by the shipped nets,
//! cubeless (the five chances and the equity, each with its standard error) or with
//! `--cubeful` the cube decision of the player on roll (no double and double/take, each
//! rolled out with the cube in play). Built on `tabula_ai::study::rollout` and
//! `tabula_ai::study::cubeful_rollout`; docs/cli.md, "Study".

use crate::input::{capitalized, Setup};
use crate::study::{cube_decision, cube_state, setup, write_cube, CubeJson};
pub use crate::study_shared::RolloutArgs;
use crate::study_shared::{equity_line, percent, run_rollout, write_json, ChancesJson, DiceGame};
use anyhow::Result;
use serde::Serialize;
use std::io::Write;
use tabula_ai::backgammon::cubeful::Owner;
use tabula_ai::backgammon::match_cube::Holder;
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_ai::study::cube::{CubeAnalysis, Unit};
use tabula_ai::study::cubeful_rollout::{self, CubefulResult};
use tabula_ai::study::rollout::{rollout, RolloutConfig, RolloutResult};
use tabula_games::backgammon::drawing::CubeView;
use tabula_tables::MoveGen;

/// `tabula rollout`.
pub fn rollout_command(out: &mut dyn Write, args: &RolloutArgs) -> Result<()> {
    let pool = args.pool()?;
    if args.game == DiceGame::NeverFinishing {
        return crate::study_nf::rollout_nf(out, args, &pool);
    }
    let setup = setup(&args.position)?;
    // A score that cannot be played on is refused before the work, not after it.
    cube_state(&setup)?;
    let config = args.config();
    let threads = pool.current_num_threads();
    if args.cubeful {
        return cubeful(out, args, &setup, &config, &pool);
    }
    let (result, seconds) = run_rollout(&pool, u64::from(args.trials), |bar| {
        rollout(
            NeuralEvaluator::shipped(),
            MoveGen::new,
            NeuralEvaluator::exact,
            &setup.board,
            &config,
            || bar.inc(1),
        )
    });
    let analysis = cube_decision(&setup, &result.chances)?;
    if args.json {
        return write_rollout_json(out, &result, &config, threads, seconds, analysis.as_ref());
    }
    writeln!(
        out,
        "Rollout: {} on roll, {} trials, seed {}, {}, {} thread{}, {:.1} s",
        capitalized(setup.on_roll),
        result.trials,
        config.seed,
        settings(&config, " (exact bear-offs)"),
        threads,
        if threads == 1 { "" } else { "s" },
        seconds
    )?;
    let p = &result.chances;
    let se = result.std_err;
    writeln!(
        out,
        "Win {} ± {:.2}  gammon {} ± {:.2}  backgammon {} ± {:.2}",
        percent(p.win),
        100.0 * se[0],
        percent(p.win_gammon),
        100.0 * se[1],
        percent(p.win_backgammon),
        100.0 * se[2]
    )?;
    writeln!(
        out,
        "Lose {}  gammon {} ± {:.2}  backgammon {} ± {:.2}",
        percent(1.0 - p.win),
        percent(p.lose_gammon),
        100.0 * se[3],
        percent(p.lose_backgammon),
        100.0 * se[4]
    )?;
    writeln!(out, "Cubeless {}", equity_line(&result))?;
    if let Some(a) = &analysis {
        write_cube(out, a)?;
    }
    Ok(())
}

fn write_rollout_json(
    out: &mut dyn Write,
    r: &RolloutResult,
    config: &RolloutConfig,
    threads: usize,
    seconds: f64,
    cube: Option<&CubeAnalysis>,
) -> Result<()> {
    #[derive(Serialize)]
    struct RolloutJson {
        #[serde(flatten)]
        run: RunJson,
        chances: ChancesJson,
        std_err: [f64; 5],
        equity: f64,
        equity_std_err: f64,
        equity_ci95: [f64; 2],
        #[serde(skip_serializing_if = "Option::is_none")]
        cube: Option<CubeJson>,
    }
    write_json(
        out,
        &RolloutJson {
            run: RunJson::new(r.trials, config, threads, seconds),
            chances: (&r.chances).into(),
            std_err: r.std_err,
            equity: r.equity,
            equity_std_err: r.equity_std_err,
            equity_ci95: [r.equity - r.equity_ci95(), r.equity + r.equity_ci95()],
            cube: cube.map(Into::into),
        },
    )
}

/// How a rollout ran, as every rollout's JSON begins.
#[derive(Serialize)]
struct RunJson {
    trials: u32,
    seed: u64,
    truncate: Option<u32>,
    variance_reduction: bool,
    threads: usize,
    seconds: f64,
}

impl RunJson {
    fn new(trials: u32, config: &RolloutConfig, threads: usize, seconds: f64) -> RunJson {
        RunJson {
            trials,
            seed: config.seed,
            truncate: config.truncate,
            variance_reduction: config.variance_reduction,
            threads,
            seconds,
        }
    }
}

/// How the games were played, in words: `truncated after 10 plays, luck-adjusted`.
pub(crate) fn settings(config: &RolloutConfig, to_the_end: &str) -> String {
    format!(
        "{}, {}",
        match config.truncate {
            Some(n) => format!("truncated after {n} plays"),
            None => format!("played to the end{to_the_end}"),
        },
        if config.variance_reduction {
            "luck-adjusted"
        } else {
            "no variance reduction"
        }
    )
}

/// A cubeful value and its standard error, as JSON shows them.
#[derive(Debug, Serialize)]
struct ValueJson {
    value: f64,
    std_err: f64,
}

impl From<&CubefulResult> for ValueJson {
    fn from(r: &CubefulResult) -> ValueJson {
        ValueJson {
            value: r.value,
            std_err: r.std_err,
        }
    }
}

/// `tabula rollout --cubeful`.
fn cubeful(
    out: &mut dyn Write,
    args: &RolloutArgs,
    setup: &Setup,
    config: &RolloutConfig,
    pool: &rayon::ThreadPool,
) -> Result<()> {
    let (state, owner) = cube_state(setup)?;
    let holder = match owner {
        Owner::Centred => Holder::Centred,
        Owner::Player => Holder::Player,
        Owner::Opponent => Holder::Opponent,
    };
    let may_double = holder != Holder::Opponent && setup.cube != Some(CubeView::Crawford);
    let games = u64::from(args.trials) * if may_double { 2 } else { 1 };
    let nets = NeuralEvaluator::shipped();
    let ((no_double, decision), seconds) = run_rollout(pool, games, |bar| {
        if may_double {
            let d = cubeful_rollout::cube_decision(
                nets,
                MoveGen::new,
                &setup.board,
                &state,
                holder,
                config,
                || bar.inc(1),
            );
            (d.no_double, Some(d))
        } else {
            let r = cubeful_rollout::rollout_cubeful(
                nets,
                MoveGen::new,
                &setup.board,
                &state,
                (state.cube, holder),
                config,
                || bar.inc(1),
            );
            (r, None)
        }
    });
    let unit = Unit::of(&state.stakes);
    let verdict = decision.map(|d| CubeAnalysis {
        chances: Default::default(),
        unit,
        no_double: d.no_double.value as f32,
        double_take: d.double_take.value as f32,
        double_drop: d.double_drop as f32,
        double: d.double(),
        take: d.take(),
        beaver: false,
        redouble: holder == Holder::Player,
    });
    if args.json {
        #[derive(Serialize)]
        struct CubefulJson {
            #[serde(flatten)]
            run: RunJson,
            /// `money` (points per unit of the current cube) or `match` (match-winning chance).
            unit: &'static str,
            no_double: ValueJson,
            #[serde(skip_serializing_if = "Option::is_none")]
            double_take: Option<ValueJson>,
            #[serde(skip_serializing_if = "Option::is_none")]
            double_pass: Option<f64>,
            #[serde(skip_serializing_if = "Option::is_none")]
            verdict: Option<String>,
        }
        return write_json(
            out,
            &CubefulJson {
                run: RunJson::new(args.trials, config, pool.current_num_threads(), seconds),
                unit: match unit {
                    Unit::Money => "money",
                    Unit::MatchWinningChance => "match",
                },
                no_double: (&no_double).into(),
                double_take: decision.as_ref().map(|d| (&d.double_take).into()),
                double_pass: decision.as_ref().map(|d| d.double_drop),
                verdict: verdict.as_ref().map(CubeAnalysis::verdict),
            },
        );
    }
    writeln!(
        out,
        "Cubeful rollout: {} on roll, {} trials{}, seed {}, {}, {:.1} s",
        capitalized(setup.on_roll),
        args.trials,
        if may_double { " per cube action" } else { "" },
        config.seed,
        settings(config, ""),
        seconds
    )?;
    let show = |r: &CubefulResult| match unit {
        Unit::Money => format!("{:+.3} ± {:.3}", r.value, r.std_err),
        Unit::MatchWinningChance => {
            format!("{:6.2} % ± {:.2} %", 100.0 * r.value, 100.0 * r.std_err)
        }
    };
    match (&decision, &verdict) {
        (Some(d), Some(v)) => {
            writeln!(out, "No double     {}", show(&d.no_double))?;
            writeln!(out, "Double, take  {}", show(&d.double_take))?;
            writeln!(
                out,
                "Double, pass  {}",
                match unit {
                    Unit::Money => format!("{:+.3}", d.double_drop),
                    Unit::MatchWinningChance => format!("{:6.2} %", 100.0 * d.double_drop),
                }
            )?;
            writeln!(out, "Proper cube action: {}", v.verdict())?;
            let gap = d.double_take.value - d.no_double.value;
            let se = (d.double_take.std_err.powi(2) + d.no_double.std_err.powi(2)).sqrt();
            writeln!(
                out,
                "Double/take less no double: {gap:+.3} ± {se:.3} (independent errors; the same dice make the true error smaller)"
            )?;
        }
        _ => writeln!(
            out,
            "The player on roll cannot double; with the cube as it stands: {}",
            show(&no_double)
        )?,
    }
    Ok(())
}
