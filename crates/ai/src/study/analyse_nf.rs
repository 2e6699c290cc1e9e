//! The analysis of Never-Finishing games, as [`super::analyse`] analyses backgammon: every
//! chequer play ranked at a depth by the Never-Finishing net (its trapping move generator),
//! the error of the play made against the best, its mark and the luck of its roll; per
//! player the error rate and gnubg's rating words.
//!
//! Decisions (docs/rules/never-finishing.md, "Analysis"): the game has no cube, so values are
//! cubeless equities in points of the game's stake (a gammon two, a backgammon three), in
//! money sessions and matches alike (no match equity table is used: Never-Finishing matches
//! have no cube, and a point's worth at each score is left for later); the marks use
//! backgammon's thresholds (0.03, 0.06, 0.12). A play with one distinct result is forced:
//! listed, not counted. The luck of a roll is [`nply::luck_0ply`], as backgammon's.

use super::analyse::{Mark, PlayerStats};
use super::hint::HintPlay;
use super::nply::{self, Filter};
use super::report::{AlternativeReport, DecisionReport};
use crate::backgammon::{Evaluator, Probabilities};
use rayon::prelude::*;
use tabula_core::{Color, Dice};
use tabula_tables::notation::format_move_with;
use tabula_tables::{Position, TablesGen, Trapping};

/// One Never-Finishing chequer play: the game's number, the board before it (seen from the
/// mover), the mover, the dice, the board after it (seen from the mover), and whether the
/// session traps blots (its option).
#[derive(Debug, Clone, Copy)]
pub struct NfStep {
    /// The session's trapping option.
    pub trapping: Trapping,
    /// The game of the session (1 first).
    pub game: u32,
    /// The board before the play, seen from the mover.
    pub board: Position,
    /// The mover.
    pub player: Color,
    /// The dice played.
    pub dice: Dice,
    /// The board after the play, seen from the mover.
    pub played: Position,
}

/// The plays analysed, each a [`DecisionReport`] (kind `move`), and both players' totals.
pub struct NfAnalysis {
    /// The plays in order (`step` is the index in the steps given).
    pub decisions: Vec<DecisionReport>,
    /// White's totals.
    pub white: PlayerStats,
    /// Black's totals.
    pub black: PlayerStats,
}

/// Analyses `steps` at `plies`; `on_each` is called once per step analysed (from worker
/// threads).
pub fn analyse_nf(
    eval: &(impl Evaluator + Sync),
    steps: &[NfStep],
    plies: u32,
    on_each: impl Fn() + Sync,
) -> NfAnalysis {
    let decisions: Vec<DecisionReport> = steps
        .par_iter()
        .enumerate()
        .map(|(i, s)| {
            let d = decision(eval, i, s, plies);
            on_each();
            d
        })
        .collect();
    let mut white = PlayerStats::default();
    let mut black = PlayerStats::default();
    for d in &decisions {
        let stats = match d.player {
            Color::White => &mut white,
            Color::Black => &mut black,
        };
        stats.luck += f64::from(d.luck.unwrap_or(0.0));
        if d.counted {
            stats.moves += 1;
            stats.chequer_error += f64::from(d.error);
        }
        match Mark::of(d.error) {
            Mark::Doubtful => stats.marks[0] += 1,
            Mark::Bad => stats.marks[1] += 1,
            Mark::VeryBad => stats.marks[2] += 1,
            Mark::None => {}
        }
    }
    NfAnalysis {
        decisions,
        white,
        black,
    }
}

fn decision(eval: &(impl Evaluator + Sync), i: usize, s: &NfStep, plies: u32) -> DecisionReport {
    let trapping = s.trapping;
    let candidates = TablesGen::new()
        .positions(&s.board, s.dice, trapping)
        .to_vec();
    let plays_for = || (TablesGen::new(), trapping);
    let ranked = nply::rank_plays(
        eval,
        plays_for,
        &candidates,
        plies,
        Filter::default(),
        |p| p.equity(),
    );
    let text =
        |after: &Position| format_move_with(&s.board, after, s.dice, trapping).unwrap_or_default();
    let best = ranked.first();
    let best_value = best.map_or(0.0, |r| r.chances.equity());
    // The play made, ranked as the others are (it is among the candidates).
    let played_value = ranked
        .iter()
        .find(|r| r.after == s.played)
        .map(|r| r.chances.equity())
        .unwrap_or_else(|| {
            let p: Probabilities = eval.evaluate(&s.played.flip()).flip();
            p.equity()
        });
    let error = (best_value - played_value).max(0.0);
    let counted = candidates.len() > 1;
    let mark = if counted { Mark::of(error) } else { Mark::None };
    let alternatives = ranked
        .iter()
        .take(5)
        .enumerate()
        .map(|(k, r)| AlternativeReport {
            choice: HintPlay {
                rank: k + 1,
                play: text(&r.after),
                equity: r.chances.equity(),
                diff: r.chances.equity() - best_value,
                chances: (&r.chances).into(),
                plies: r.plies,
                blended: r.blended,
                after: r.after,
            },
            played: r.after == s.played,
        })
        .collect();
    DecisionReport {
        game: s.game,
        step: i,
        player: s.player,
        kind: "move",
        dice: Some(s.dice.to_string()),
        played: Some(text(&s.played)),
        best: best.map(|r| text(&r.after)),
        cube: 1,
        error: if counted { error } else { 0.0 },
        mark: mark.label(),
        counted,
        luck: Some(nply::luck_0ply(
            eval,
            &mut plays_for(),
            &s.board,
            s.dice,
            Probabilities::equity,
        )),
        value: best_value,
        proper: None,
        alternatives,
        xgid: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::never_finishing::NfEvaluator;
    use tabula_tables::never_finishing::start_position;

    #[test]
    fn the_worst_play_of_a_roll_is_marked_and_the_best_is_not() {
        let nets = NfEvaluator::shipped();
        let board = start_position();
        let dice = Dice::new(6, 5).unwrap();
        let plays = TablesGen::new()
            .positions(&board, dice, Trapping::On)
            .to_vec();
        assert!(plays.len() > 1);
        let gen = || (TablesGen::new(), Trapping::On);
        let ranked = nply::rank_plays(nets, gen, &plays, 0, Filter::default(), |p| p.equity());
        let step = |played| NfStep {
            trapping: Trapping::On,
            game: 1,
            board,
            player: Color::White,
            dice,
            played,
        };
        let best = ranked.first().unwrap().after;
        let worst = ranked.last().unwrap().after;
        let a = analyse_nf(nets, &[step(best), step(worst)], 0, || {});
        assert_eq!(a.decisions[0].error, 0.0);
        assert_eq!(a.decisions[0].best, a.decisions[0].played);
        assert!(a.decisions[1].error > 0.0);
        assert_eq!(a.decisions[1].mark, Mark::of(a.decisions[1].error).label());
        assert_eq!(a.white.moves, 2);
        assert!((a.white.chequer_error - f64::from(a.decisions[1].error)).abs() < 1e-6);
        assert!(a.decisions[1].alternatives.len() <= 5);
        assert!(a.decisions[0].alternatives[0].played);
    }
}
