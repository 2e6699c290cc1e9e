//! `tabula eval`, `tabula hint` and `tabula rollout`: the study commands for backgammon
//! positions, on the shipped neural nets (docs/cli.md, "Study").
//!
//! A position is read as `tabula moves` reads it (XGID, gnubg Position ID with or without
//! Match ID, or `start`). The cube and the score come from the notation; a bare Position ID
//! (or `start`) is money play with the cube centred at 1, the Jacoby rule on and beavers
//! allowed (gnubg's defaults for money). Equities are cubeful: money in points per unit of
//! the current cube (Janowski's interpolation), a match in match-winning chances.

use crate::error::bad_input;
use crate::input::{capitalized, parse_dice, Notation, Setup};
use crate::study_shared::{
    hint_plays, refuse_finished, shown_of, write_chances, write_json, write_not_shown, DiceGame,
    EvalJson, HintPlay,
};
pub use crate::study_shared::{EvalArgs, HintArgs};
use anyhow::Result;
use serde::Serialize;
use std::io::Write;
use tabula_ai::backgammon::cube::{CubeState, Stakes};
use tabula_ai::backgammon::cubeful::{self, Owner};
use tabula_ai::backgammon::met::Crawford;
use tabula_ai::backgammon::{NeuralEvaluator, Probabilities};
use tabula_ai::study::cube::{CubeAnalysis, Unit};
use tabula_ai::study::cube_race::{self, CubeRaceConfig, CubeRaced};
use tabula_ai::study::nply::{self, Filter};
use tabula_ai::study::race::{self, RaceConfig};
use tabula_games::backgammon::drawing::CubeView;
use tabula_tables::{MoveGen, Position};

/// The deepest search the commands allow (3-ply takes seconds per play).
const MAX_PLIES: u32 = 3;

/// A cube decision as JSON shows it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CubeJson {
    /// `money` (points per unit of the current cube) or `match` (match-winning chance).
    unit: &'static str,
    no_double: f32,
    double_take: f32,
    double_pass: f32,
    /// The right actions, in words (`Double, take`).
    verdict: String,
    /// The rollout that corrected a close decision (`--race`; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    rollout: Option<CubeRolloutJson>,
}

/// The rollout of a close cube decision (`eval --race`), as JSON shows it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CubeRolloutJson {
    trials: u32,
    /// The rolled-out cubeless equity of the player on roll and its standard error.
    cubeless_equity: f64,
    equity_std_err: f64,
    /// The searched decision before the correction, in words.
    searched_verdict: String,
}

impl From<&CubeAnalysis> for CubeJson {
    fn from(a: &CubeAnalysis) -> CubeJson {
        CubeJson {
            unit: match a.unit {
                Unit::Money => "money",
                Unit::MatchWinningChance => "match",
            },
            no_double: a.no_double,
            double_take: a.double_take,
            double_pass: a.double_drop,
            verdict: a.verdict(),
            rollout: None,
        }
    }
}

/// The cube and stakes a position's notation records, for the player on roll, and who holds
/// the cube as that player sees it.
pub(crate) fn cube_state(setup: &Setup) -> Result<(CubeState, Owner)> {
    let (jacoby, beavers) = match &setup.notation {
        Notation::Xgid(x) => (x.jacoby, x.beavers),
        Notation::GnubgId(m) => (m.jacoby, true),
        _ => (true, true),
    };
    let cube = setup.cube.unwrap_or(CubeView::Centred(1));
    let (value, owner) = match cube {
        CubeView::Centred(v) => (v, Owner::Centred),
        CubeView::Owned(v, c) if c == setup.on_roll => (v, Owner::Player),
        CubeView::Owned(v, _) => (v, Owner::Opponent),
        CubeView::Crawford => (1, Owner::Centred),
    };
    let centred = owner == Owner::Centred;
    let match_length = setup.score.and_then(|s| s.match_length);
    let stakes = match match_length {
        None => Stakes::Money {
            beavers,
            jacoby_applies: jacoby && centred,
            centred,
        },
        Some(length) => {
            let score = setup.score.expect("a match has a score").points;
            let away = |c| length.saturating_sub(score[c]);
            let (away_me, away_opp) = (away(setup.on_roll), away(!setup.on_roll));
            if away_me == 0 || away_opp == 0 {
                return Err(bad_input("the match in this position is already over"));
            }
            let crawford_game = cube == CubeView::Crawford;
            Stakes::Match {
                away_me,
                away_opp,
                next: if crawford_game || away_me == 1 || away_opp == 1 {
                    Crawford::Post
                } else {
                    Crawford::Pre
                },
                crawford_game,
                holder: owner.into(),
            }
        }
    };
    Ok((
        CubeState {
            cube: value,
            stakes,
        },
        owner,
    ))
}

/// The cube decision of the player on roll; `None` when the opponent holds the cube.
pub(crate) fn cube_decision(setup: &Setup, p: &Probabilities) -> Result<Option<CubeAnalysis>> {
    let (state, owner) = cube_state(setup)?;
    Ok((owner != Owner::Opponent).then(|| CubeAnalysis::at(&setup.board, p, &state)))
}

/// A number for ranking plays: cubeful money equity, or match-winning chance, for the mover
/// after the play (the opponent then on roll), the cube held by `owner`.
fn play_score(state: &CubeState, owner: Owner, p: &Probabilities) -> f32 {
    match state.stakes {
        Stakes::Money { jacoby_applies, .. } => cubeful::money_equity(p, owner, jacoby_applies),
        Stakes::Match { .. } => {
            tabula_ai::backgammon::cube::match_decision(p, state).map_or(p.equity(), |m| m.0)
        }
    }
}

/// What `--race` did, in a sentence.
fn race_line(raced: usize, race: &RaceConfig) -> String {
    if raced == 0 {
        format!(
            "Race: no other play within {:.2} of the best, so nothing was rolled out.",
            race.within
        )
    } else {
        let held = match race.hold_z {
            Some(z) => format!(
                "; the search's choice is dropped only 4 standard errors behind and stays first unless a play leads it by more than {z} standard error{} at the end",
                if z == 1.0 { "" } else { "s" }
            ),
            None => String::new(),
        };
        format!(
            "Race: the {raced} plays within {:.2} rolled out on the same dice (variance-reduced, up to {} trials each and {} in all, a play dropped once {} standard errors behind{held}); their rows show rollout chances, and below the first how far each trails it over the trials both played (cubeless equity, with its standard error).",
            race.within, race.max_trials, race.budget, race.drop_z
        )
    }
}

fn check_plies(plies: u32) -> Result<()> {
    if plies > MAX_PLIES {
        return Err(bad_input(format!(
            "--plies must be 0 to {MAX_PLIES}, not {plies}"
        )));
    }
    Ok(())
}

/// The backgammon position `text` names, refused when its game is over.
pub(crate) fn setup(text: &str) -> Result<Setup> {
    let setup = Setup::parse(text)?;
    refuse_finished(&setup.board)?;
    Ok(setup)
}

fn describe_stakes(state: &CubeState, setup: &Setup) -> String {
    let cube = match setup.cube.unwrap_or(CubeView::Centred(1)) {
        CubeView::Centred(v) => format!("cube centred at {v}"),
        CubeView::Owned(v, c) => format!("cube at {v}, {}'s", capitalized(c)),
        CubeView::Crawford => "Crawford game, no cube".to_string(),
    };
    match state.stakes {
        Stakes::Match {
            away_me, away_opp, ..
        } => format!(
            "match: {} needs {away_me}, {} needs {away_opp}; {cube}",
            capitalized(setup.on_roll),
            capitalized(!setup.on_roll)
        ),
        _ => cube,
    }
}

pub(crate) fn write_cube(out: &mut dyn Write, a: &CubeAnalysis) -> Result<()> {
    let best = a.best();
    let fmt = |x: f32| match a.unit {
        Unit::Money => format!("{x:+.3}"),
        Unit::MatchWinningChance => format!("{:6.2} %", 100.0 * x),
    };
    let diff = |x: f32| match a.unit {
        Unit::Money => format!("({:+.3})", x - best),
        Unit::MatchWinningChance => format!("({:+.2} %)", 100.0 * (x - best)),
    };
    let unit = match a.unit {
        Unit::Money => "cubeful equity per unit of the cube",
        Unit::MatchWinningChance => "match-winning chance",
    };
    writeln!(out, "Cube decision ({unit}):")?;
    let (verb, verb_capitalised) = (a.verb(), a.verb_capitalised());
    writeln!(
        out,
        "  No {verb:<10} {}  {}",
        fmt(a.no_double),
        diff(a.no_double)
    )?;
    writeln!(
        out,
        "  {:<13} {}  {}",
        format!("{verb_capitalised}, take"),
        fmt(a.double_take),
        diff(a.double_take)
    )?;
    writeln!(
        out,
        "  {:<13} {}  {}",
        format!("{verb_capitalised}, pass"),
        fmt(a.double_drop),
        diff(a.double_drop)
    )?;
    writeln!(out, "Proper cube action: {}", a.verdict())?;
    Ok(())
}

/// `tabula eval`.
pub fn eval(out: &mut dyn Write, args: &EvalArgs) -> Result<()> {
    check_plies(args.plies)?;
    if args.game == DiceGame::NeverFinishing {
        return crate::study_nf::eval(out, args);
    }
    let setup = setup(&args.position)?;
    let nets = NeuralEvaluator::shipped();
    let (state, owner) = cube_state(&setup)?;
    // The cube decision is searched with the cube in play; its chances are the n-ply ones.
    let (p, analysis) = if owner == Owner::Opponent {
        let p = nply::chances(nets, &mut MoveGen::new(), &setup.board, args.plies);
        (p, None)
    } else {
        let a = CubeAnalysis::search(nets, &mut MoveGen::new(), &setup.board, &state, args.plies);
        (a.chances, Some(a))
    };
    // A close decision corrected by a rollout (tabula_ai::study::cube_race): the strong
    // bot's 72 trials by default, the level above strong's 324 with --race.
    let (race, label) = if args.race {
        (CubeRaceConfig::default(), "Race")
    } else {
        (CubeRaceConfig::strong(), "Checked")
    };
    let raced = analysis
        .as_ref()
        .and_then(|a| cube_race::refine(nets, MoveGen::new, &setup.board, &state, a, &race));
    let (p, shown) = match &raced {
        Some(r) => (r.rollout.chances, Some(r.analysis)),
        None => (p, analysis),
    };
    if args.json {
        let cube = shown.as_ref().map(|a| {
            let mut json = CubeJson::from(a);
            json.rollout =
                raced
                    .as_ref()
                    .zip(analysis.as_ref())
                    .map(|(r, searched)| CubeRolloutJson {
                        trials: r.rollout.trials,
                        cubeless_equity: r.rollout.equity,
                        equity_std_err: r.rollout.equity_std_err,
                        searched_verdict: searched.verdict(),
                    });
            json
        });
        return write_json(
            out,
            &EvalJson::<CubeJson> {
                game: None,
                plies: args.plies,
                on_roll: setup.on_roll,
                chances: (&p).into(),
                cube,
            },
        );
    }
    writeln!(
        out,
        "{} on roll, {}; {}-ply{}",
        capitalized(setup.on_roll),
        describe_stakes(&state, &setup),
        args.plies,
        if raced.is_some() {
            ", the chances rolled out"
        } else {
            ""
        }
    )?;
    write_chances(out, &p)?;
    match &shown {
        Some(a) => write_cube(out, a)?,
        None => writeln!(out, "No cube decision: the opponent holds the cube.")?,
    }
    // The check speaks only when it rolled out; --race also says when it did not.
    if raced.is_some() || (args.race && analysis.is_some()) {
        writeln!(
            out,
            "{}",
            cube_race_line(raced.as_ref(), analysis.as_ref(), &race, label)
        )?;
    }
    Ok(())
}

/// What the rollout of a close cube decision did, in a sentence starting with `label`
/// (`Checked` for the default check, `Race` for `--race`).
fn cube_race_line(
    raced: Option<&CubeRaced>,
    searched: Option<&CubeAnalysis>,
    race: &CubeRaceConfig,
    label: &str,
) -> String {
    match (raced, searched) {
        (Some(r), Some(s)) => format!(
            "{}: the decision was close, so the position was rolled out {} times (variance-reduced, to the end; cubeless equity {:+.3} \u{b1} {:.3}) and the searched values corrected by its chances; the search alone said: {}.",
            label,
            r.rollout.trials,
            r.rollout.equity,
            r.rollout.equity_std_err,
            s.verdict()
        ),
        _ => format!(
            "{label}: not rolled out, the decision is not close (its options more than {:.2} apart).",
            race.close
        ),
    }
}

/// `tabula hint`.
pub fn hint(out: &mut dyn Write, args: &HintArgs) -> Result<()> {
    check_plies(args.plies)?;
    if args.game == DiceGame::NeverFinishing {
        return crate::study_nf::hint(out, args);
    }
    let setup = setup(&args.position)?;
    let dice = match (&args.dice, setup.dice) {
        (Some(text), _) => Some(parse_dice(text)?),
        (None, d) => d,
    };
    let Some(dice) = dice else {
        // No dice: the hint is the cube decision.
        return eval(
            out,
            &EvalArgs {
                game: args.game,
                position: args.position.clone(),
                plies: args.plies,
                race: args.race,
                json: args.json,
            },
        );
    };
    let nets = NeuralEvaluator::shipped();
    let (state, owner) = cube_state(&setup)?;
    let legal = setup.board.legal_plays(dice);
    let candidates: Vec<Position> = legal.iter().map(|(_, after)| *after).collect();
    let mut ranked = nply::rank_plays_as_strong(
        nets,
        MoveGen::new,
        &candidates,
        args.plies,
        Filter::default(),
        true,
        |p| play_score(&state, owner, p),
    );
    let race = RaceConfig::default();
    let raced = if args.race {
        race::refine(nets, MoveGen::new, &mut ranked, None, &race)
    } else {
        0
    };
    let name_of = |after: &Position| {
        let play = legal
            .iter()
            .find(|(_, a)| a == after)
            .map(|(play, _)| tabula_tables::notation::format_play(play))
            .unwrap_or_default();
        (play, None)
    };
    let shown = shown_of(args.top, ranked.len());
    let rows = hint_plays(&ranked, shown, |p| play_score(&state, owner, p), name_of);
    if args.json {
        #[derive(Serialize)]
        struct HintJson<'a> {
            dice: String,
            plies: u32,
            plays: &'a [HintPlay],
            total_plays: usize,
        }
        return write_json(
            out,
            &HintJson {
                dice: dice.to_string(),
                plies: args.plies,
                plays: &rows,
                total_plays: ranked.len(),
            },
        );
    }
    let filter = Filter::default();
    let searched = if ranked.iter().any(|r| r.plies == 1) && args.plies >= 2 {
        format!(
            "more than {} within {:.2} at 0-ply: up to {} of them ranked at 1-ply and the best {} by that searched",
            filter.keep,
            filter.within,
            tabula_ai::search::STRONG_WIDE,
            filter.keep
        )
    } else {
        format!(
            "the best {}, and up to {} within {:.2}, searched",
            filter.at_least, filter.keep, filter.within
        )
    };
    writeln!(
        out,
        "{} to play {dice}; {}; plays ranked at {}-ply ({searched}; the rest at 0-ply)",
        capitalized(setup.on_roll),
        describe_stakes(&state, &setup),
        args.plies,
    )?;
    if ranked.iter().any(|r| r.blended) {
        let deeper = tabula_ai::search::STRONG_DEEPER;
        writeln!(
            out,
            "The plays within {:.2} of the best at 2-ply (at most {}) valued again, as the strong bot values them, by the mean of 2 and 3 plies (ply 2+3)",
            deeper.within, deeper.keep
        )?;
    }
    if args.race {
        writeln!(out, "{}", race_line(raced, &race))?;
    }
    if rows.is_empty() {
        writeln!(out, "No legal play: the roll is lost.")?;
        return Ok(());
    }
    let money = matches!(state.stakes, Stakes::Money { .. });
    writeln!(
        out,
        "{:>3}  {:<24} {:>8} {:>8}  {:>6} {:>6} {:>6} {:>6} {:>6}  ply",
        "#",
        "move",
        if money { "equity" } else { "mwc" },
        "diff",
        "win",
        "w.g",
        "w.bg",
        "l.g",
        "l.bg"
    )?;
    for r in &rows {
        let (e, d) = if money {
            (format!("{:+.3}", r.equity), format!("{:+.3}", r.diff))
        } else {
            (
                format!("{:.2}%", 100.0 * r.equity),
                format!("{:+.2}%", 100.0 * r.diff),
            )
        };
        let d = if r.rank == 1 { String::new() } else { d };
        let c = &r.chances;
        writeln!(
            out,
            "{:>3}  {:<24} {:>8} {:>8}  {:>5.1}% {:>5.1}% {:>5.1}% {:>5.1}% {:>5.1}%  {}",
            r.rank,
            r.play,
            e,
            d,
            100.0 * c.win,
            100.0 * c.win_gammon,
            100.0 * c.win_backgammon,
            100.0 * c.lose_gammon,
            100.0 * c.lose_backgammon,
            match (r.trials, &r.paired) {
                (Some(t), Some(p)) =>
                    format!("{t} trials, {:+.3} ± {:.3} paired", -p.behind, p.std_err),
                (Some(t), None) => format!("{t} trials"),
                (None, _) if r.blended => format!("{}+{}", r.plies - 1, r.plies),
                (None, _) => r.plies.to_string(),
            }
        )?;
    }
    write_not_shown(out, shown, ranked.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_position_id_is_money_with_a_centred_cube() {
        let setup = Setup::parse("4HPwATDgc/ABMA").unwrap();
        let (state, owner) = cube_state(&setup).unwrap();
        assert_eq!(owner, Owner::Centred);
        assert_eq!(state.cube, 1);
        assert!(matches!(
            state.stakes,
            Stakes::Money {
                centred: true,
                jacoby_applies: true,
                ..
            }
        ));
    }

    #[test]
    fn plies_above_three_are_refused() {
        assert!(check_plies(3).is_ok());
        assert!(check_plies(4).is_err());
    }

    #[test]
    fn the_best_play_has_no_difference_and_the_others_lose_equity() {
        let mut out = Vec::new();
        hint(
            &mut out,
            &HintArgs {
                game: DiceGame::Backgammon,
                position: "start".into(),
                dice: Some("3-1".into()),
                plies: 0,
                top: 0,
                race: false,
                json: true,
            },
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let plays = v["plays"].as_array().unwrap();
        assert_eq!(plays[0]["move"], "8/5 6/5");
        assert_eq!(plays[0]["diff"], 0.0);
        assert!(plays[1..]
            .iter()
            .all(|p| p["diff"].as_f64().unwrap() <= 0.0));
    }
}
