//! `tabula eval|hint|rollout --game never-finishing`: the study commands for Never-Finishing
//! positions, on the shipped Never-Finishing net. The game has no cube, so everything is
//! cubeless: the five chances and the equity (a gammon counts two, a backgammon three, as
//! the game scores them). Positions are the tables notation (or `start`), which records
//! trapped checkers; moves are written with the trap mark. Plies, filters, rollouts and
//! their variance reduction are the backgammon commands' (`tabula_ai::study`).

use crate::error::bad_input;
use crate::input::{capitalized, nf_position, parse_dice};
use crate::study_shared::{
    equity_line, hint_plays, percent, refuse_finished, run_rollout, shown_of, write_chances,
    write_json, write_not_shown, ChancesJson, EvalArgs, EvalJson, HintArgs, RolloutArgs,
};
use anyhow::Result;
use std::io::Write;
use tabula_ai::backgammon::Probabilities;
use tabula_ai::never_finishing::NfEvaluator;
use tabula_ai::study::nply::{self, Filter};
use tabula_ai::study::rollout::rollout;
use tabula_tables::notation::{format_move_nf, TablesPosition};
use tabula_tables::{Position, TablesGen, Trapping};

fn gen() -> (TablesGen, Trapping) {
    (TablesGen::new(), Trapping::On)
}

fn position(text: &str) -> Result<TablesPosition> {
    let pos = nf_position(text)?;
    refuse_finished(&pos.position)?;
    Ok(pos)
}

/// `tabula eval --game never-finishing`.
pub fn eval(out: &mut dyn Write, args: &EvalArgs) -> Result<()> {
    if args.race {
        return Err(bad_input(
            "--race rolls out cube decisions: Never-Finishing has no cube",
        ));
    }
    let pos = position(&args.position)?;
    let p = nply::chances(
        NfEvaluator::shipped(),
        &mut gen(),
        &pos.position,
        args.plies,
    );
    if args.json {
        return write_json(
            out,
            &EvalJson::<()> {
                game: Some("never-finishing"),
                plies: args.plies,
                on_roll: pos.to_move,
                chances: (&p).into(),
                cube: None,
            },
        );
    }
    writeln!(
        out,
        "Never-Finishing, {} on roll; {}-ply",
        capitalized(pos.to_move),
        args.plies
    )?;
    write_chances(out, &p)?;
    writeln!(out, "(the game has no cube)")?;
    Ok(())
}

/// `tabula hint --game never-finishing`: the plays of the dice ranked by cubeless equity.
pub fn hint(out: &mut dyn Write, args: &HintArgs) -> Result<()> {
    if args.race {
        return Err(bad_input(
            "--race is for backgammon: Never-Finishing has no rollouts of plays yet",
        ));
    }
    let pos = position(&args.position)?;
    let Some(text) = &args.dice else {
        return Err(bad_input(
            "--dice is required: Never-Finishing has no cube decision to hint at",
        ));
    };
    let dice = parse_dice(text)?;
    let candidates: Vec<Position> = gen()
        .0
        .positions(&pos.position, dice, Trapping::On)
        .to_vec();
    let nets = NfEvaluator::shipped();
    let ranked = nply::rank_plays(nets, gen, &candidates, args.plies, Filter::default(), |p| {
        p.equity()
    });
    let shown = shown_of(args.top, ranked.len());
    let rows = hint_plays(&ranked, shown, Probabilities::equity, |after| {
        let play = format_move_nf(&pos.position, after, dice).unwrap_or_default();
        (play, Some(pos.after_move(*after).to_string()))
    });
    if args.json {
        return write_json(
            out,
            &serde_json::json!({
                "game": "never-finishing",
                "dice": dice.to_string(),
                "plies": args.plies,
                "plays": rows,
                "total_plays": ranked.len(),
            }),
        );
    }
    writeln!(
        out,
        "Never-Finishing, {} to play {dice}; plays ranked at {}-ply by equity (no cube)",
        capitalized(pos.to_move),
        args.plies
    )?;
    if rows.is_empty() {
        writeln!(out, "No legal play: the roll is lost.")?;
    }
    for r in &rows {
        let d = if r.rank == 1 {
            String::new()
        } else {
            format!("{:+.3}", r.diff)
        };
        writeln!(
            out,
            "{:>3}  {:<28} {:+.3} {:>7}  win {:>5.1}%",
            r.rank,
            r.play,
            r.equity,
            d,
            100.0 * r.chances.win
        )?;
    }
    write_not_shown(out, shown, ranked.len())
}

/// `tabula rollout --game never-finishing`: cubeless, luck-adjusted unless asked not to.
pub fn rollout_nf(out: &mut dyn Write, args: &RolloutArgs, pool: &rayon::ThreadPool) -> Result<()> {
    let pos = position(&args.position)?;
    if args.cubeful {
        return Err(bad_input(
            "Never-Finishing has no cube: --cubeful does not apply",
        ));
    }
    let config = args.config();
    let (r, seconds) = run_rollout(pool, u64::from(args.trials), |bar| {
        rollout(
            NfEvaluator::shipped(),
            gen,
            |_: &Position| None,
            &pos.position,
            &config,
            || bar.inc(1),
        )
    });
    if args.json {
        return write_json(
            out,
            &serde_json::json!({
                "game": "never-finishing",
                "trials": r.trials,
                "seed": config.seed,
                "truncate": config.truncate,
                "variance_reduction": config.variance_reduction,
                "seconds": seconds,
                "chances": ChancesJson::from(&r.chances),
                "std_err": r.std_err,
                "equity": r.equity,
                "equity_std_err": r.equity_std_err,
                "equity_ci95": [r.equity - r.equity_ci95(), r.equity + r.equity_ci95()],
            }),
        );
    }
    writeln!(
        out,
        "Never-Finishing rollout: {} on roll, {} trials, seed {}, {:.1} s",
        capitalized(pos.to_move),
        r.trials,
        config.seed,
        seconds
    )?;
    writeln!(
        out,
        "Win {} ± {:.2}  gammon {}  backgammon {}   Lose gammon {}  backgammon {}",
        percent(r.chances.win),
        100.0 * r.std_err[0],
        percent(r.chances.win_gammon),
        percent(r.chances.win_backgammon),
        percent(r.chances.lose_gammon),
        percent(r.chances.lose_backgammon)
    )?;
    writeln!(out, "Rolled-out {}", equity_line(&r))?;
    Ok(())
}
