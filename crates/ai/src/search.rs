//! Choosing a play among the legal results of a roll: 0-ply by the evaluator, with noise at
//! the easy level, and a 2-ply look-ahead at the strong level. Shared by every dice game of
//! the tables family; the game supplies its play generator.
//!
//! The strong level prunes the plays with the move filter [`STRONG_FILTER`] at 0-ply (the
//! same filter as the analysis, `study::filter::Filter`; where more plays than it keeps are
//! within its margin, up to [`STRONG_WIDE`] of them are ranked one roll ahead first and the
//! filter's `keep` best by that ranking kept) and scores each kept play at 2
//! plies: the opponent's 21 rolls, each answered by their best 0-ply reply, then our 21
//! rolls, each answered by our best 0-ply play, and the evaluator on the result. Choosing
//! the replies at 0-ply rather than by a deeper search keeps it near 21 x 21 move
//! generations per candidate. The few plays that stay close at 2 plies ([`STRONG_DEEPER`])
//! are then valued by the mean of 3 and 2 plies, which one 3-ply search gives; all within a
//! second a decision (docs/bots.md).

use crate::backgammon::{Evaluator, Probabilities};
use crate::study::filter::Filter;
use crate::study::nply::{best_play_0ply, best_plays_0ply, chances_pair};
use crate::Level;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tabula_core::{Dice, Die};
use tabula_tables::{MoveGen, Position, TablesGen, Trapping, CHECKERS};

/// Which 0-ply candidates the strong level examines deeper: the analysis' default filter
/// (up to 8 within 0.32 of the best, the best 5 always; until issue 27 the best 4).
pub const STRONG_FILTER: Filter = Filter {
    keep: 8,
    within: 0.32,
    at_least: 5,
};
/// When more of the 0-ply candidates than [`STRONG_FILTER`] keeps are within its margin
/// (issue 27: a 2-1 with 30 plays within 0.1 at 0-ply, the right one 31st), up to this many
/// of them are ranked one roll ahead first, and the filter's `keep` best by that ranking are
/// searched at [`STRONG_PLIES`].
pub const STRONG_WIDE: usize = 40;
/// How many plies deep the strong level looks after its own play.
pub const STRONG_PLIES: u32 = 2;
/// Which of the plays ranked at [`STRONG_PLIES`] the strong level then values once more, by
/// the mean of one ply deeper and [`STRONG_PLIES`] (`study::nply::chances_pair`): the close
/// ones, where the odd and the even depth's opposite errors decide (docs/bots.md).
pub const STRONG_DEEPER: Filter = Filter {
    keep: 3,
    within: 0.04,
    at_least: 1,
};
/// Spread of the noise the easy level adds to each play's equity.
const EASY_NOISE: f32 = 0.35;

/// The legal results of a roll under one game's rules.
pub trait Plays {
    /// Every distinct position the mover of `pos` can reach with `dice`.
    fn plays(&mut self, pos: &Position, dice: Dice) -> &[Position];
}

impl Plays for MoveGen {
    fn plays(&mut self, pos: &Position, dice: Dice) -> &[Position] {
        self.positions(pos, dice)
    }
}

impl Plays for (TablesGen, Trapping) {
    fn plays(&mut self, pos: &Position, dice: Dice) -> &[Position] {
        self.0.positions(pos, dice, self.1)
    }
}

/// Whether `pos` is dead under the rules of `plays`: no roll gives either side a legal move,
/// so it can never change (Never-Finishing scores it a draw, docs/rules/never-finishing.md).
/// The rule as the game sessions apply it is `tabula_tables::never_finishing`'s; this is the
/// same test over any [`Plays`], so that backgammon's rollouts end such a position too.
/// Up to 84 move generations: call it only once a roll has found no move.
pub fn is_dead(plays: &mut impl Plays, pos: &Position) -> bool {
    [*pos, pos.flip()]
        .iter()
        .all(|p| Dice::all().all(|d| plays.plays(p, d).is_empty()))
}

/// A random roll (the dice of self-play and of its measurements).
pub fn roll(rng: &mut ChaCha8Rng) -> Dice {
    let die = |rng: &mut ChaCha8Rng| Die::new(rng.gen_range(1..=6)).expect("1..=6 is a die");
    Dice::from_values(die(rng), die(rng))
}

/// The position after the 0-ply choice of `eval` with `dice` (the result that leaves the
/// opponent the lowest equity; the mover's view, not flipped), or `None` when no move is
/// legal under the rules of `plays`.
pub fn best_play(
    eval: &impl Evaluator,
    plays: &mut impl Plays,
    pos: &Position,
    dice: Dice,
) -> Option<Position> {
    best_play_0ply(eval, plays, pos, dice).map(|(play, _)| play)
}

/// The chosen result among `candidates` (non-empty, seen from the mover).
pub fn choose_play(
    level: Level,
    rng: &mut ChaCha8Rng,
    eval: &impl Evaluator,
    replies: &mut impl Plays,
    candidates: &[Position],
) -> Position {
    choose_play_at(
        level,
        rng,
        eval,
        replies,
        candidates,
        STRONG_PLIES,
        STRONG_FILTER,
        STRONG_WIDE,
        Some(STRONG_DEEPER),
    )
}

/// [`choose_play`] with the strong level looking `strong_plies` rolls ahead instead of
/// [`STRONG_PLIES`], filtering by `strong_filter` (after a ranking one roll ahead of up to
/// `wide` plays within its margin, as [`STRONG_WIDE`]; 0: none), and valuing the plays
/// `deeper` keeps of that ranking by the mean of one ply more and `strong_plies` (none: no
/// such stage).
/// Never-Finishing's strong level looks one roll ahead at its best 4 plays, with no deeper
/// stage: its general move generator makes more too slow.
#[allow(clippy::too_many_arguments)]
pub fn choose_play_at(
    level: Level,
    rng: &mut ChaCha8Rng,
    eval: &impl Evaluator,
    replies: &mut impl Plays,
    candidates: &[Position],
    strong_plies: u32,
    strong_filter: Filter,
    wide: usize,
    deeper: Option<Filter>,
) -> Position {
    if level == Level::Random {
        return candidates[rng.gen_range(0..candidates.len())];
    }
    // 0-ply: our equity after the play is minus the opponent's, who is then on roll.
    let flipped: Vec<Position> = candidates.iter().map(Position::flip).collect();
    let mut theirs = Vec::with_capacity(flipped.len());
    eval.evaluate_batch(&flipped, &mut theirs);
    let mut scored: Vec<(f32, Position)> = theirs
        .iter()
        .zip(candidates)
        .map(|(t, c)| (-t.equity(), *c))
        .collect();
    if level == Level::Easy {
        for s in &mut scored {
            s.0 += EASY_NOISE * (rng.gen::<f32>() - 0.5) * 2.0;
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    if level == Level::Strong {
        if let Some(within) = strong_filter.wide_count(wide, scored.iter().map(|s| s.0)) {
            scored.truncate(within);
            for s in &mut scored {
                s.0 = -on_roll(eval, replies, &s.1.flip(), 1);
            }
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
            scored.truncate(strong_filter.keep);
        } else {
            scored.truncate(strong_filter.count(scored.iter().map(|s| s.0)));
        }
        for s in &mut scored {
            s.0 = -on_roll(eval, replies, &s.1.flip(), strong_plies);
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let close = deeper.map_or(0, |f| f.count(scored.iter().map(|s| s.0)));
        if close >= 2 {
            for s in &mut scored[..close] {
                let (deep, shallow) = chances_pair(eval, replies, &s.1.flip(), strong_plies + 1);
                s.0 = -(deep.equity() + shallow.equity()) / 2.0;
            }
            scored[..close].sort_by(|a, b| b.0.total_cmp(&a.0));
        }
    }
    scored[0].1
}

/// The equity of the player on roll in `pos` (seen from them, before they roll), looking
/// `plies` rolls ahead: each roll is answered by the mover's best play at 0-ply, and the
/// evaluator judges the position after the last of them.
fn on_roll(eval: &impl Evaluator, plays: &mut impl Plays, pos: &Position, plies: u32) -> f32 {
    if plies == 0 || pos.mover_off() == CHECKERS || pos.opponent_off() == CHECKERS {
        return eval.evaluate(pos).equity();
    }
    let mut total = 0.0;
    for (dice, best) in Dice::all().zip(best_plays_0ply(eval, plays, pos)) {
        // The mover's best play at 0-ply minimises the opponent's equity on roll after it.
        // With no play the turn passes and the opponent is on roll in the same position.
        let next = best.map_or(*pos, |(play, _)| play);
        let ours = -on_roll(eval, plays, &next.flip(), plies - 1);
        total += ours * dice.weight() as f32;
    }
    total / 36.0
}

/// The cubeless chances of the player on roll in `pos` (seen from them, before they roll),
/// one roll ahead: the mean over the 21 rolls of the evaluator's chances after the mover's
/// best 0-ply play: [`crate::study::nply::chances`] at one ply, under the name the coach's
/// supervised refinement reads its targets by.
pub fn chances_one_roll_ahead(
    eval: &impl Evaluator,
    plays: &mut impl Plays,
    pos: &Position,
) -> Probabilities {
    crate::study::nply::chances(eval, plays, pos, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::Heuristic;
    use crate::study::nply;
    use rand::SeedableRng;
    use std::time::Instant;

    /// Positions from random play, to time and check the search on.
    fn positions(n: usize, seed: u64) -> Vec<(Position, Dice)> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut gen = MoveGen::new();
        let mut pos = Position::START;
        let mut out = Vec::new();
        while out.len() < n {
            let all: Vec<Dice> = Dice::all().collect();
            let dice = all[rng.gen_range(0..all.len())];
            let plays = gen.positions(&pos, dice).to_vec();
            if !plays.is_empty() {
                out.push((pos, dice));
                pos = plays[rng.gen_range(0..plays.len())];
            }
            pos = pos.flip();
            if pos.mover_off() == CHECKERS || pos.opponent_off() == CHECKERS {
                pos = Position::START;
            }
        }
        out
    }

    #[test]
    fn two_plies_with_no_look_ahead_is_the_evaluator() {
        let (pos, _) = positions(1, 1)[0];
        let e = on_roll(&Heuristic, &mut MoveGen::new(), &pos, 0);
        assert_eq!(e, Heuristic.evaluate(&pos).equity());
    }

    #[test]
    fn strong_chooses_a_legal_play_deterministically() {
        let mut gen = MoveGen::new();
        for (pos, dice) in positions(8, 2) {
            let plays = gen.positions(&pos, dice).to_vec();
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            let a = choose_play(
                Level::Strong,
                &mut rng,
                &Heuristic,
                &mut MoveGen::new(),
                &plays,
            );
            let b = choose_play(
                Level::Strong,
                &mut rng,
                &Heuristic,
                &mut MoveGen::new(),
                &plays,
            );
            assert!(plays.contains(&a));
            assert_eq!(a, b);
        }
    }

    #[test]
    fn strong_chooses_among_the_close_plays_by_the_mean_of_three_and_two_plies() {
        let mut gen = MoveGen::new();
        let mut replies = MoveGen::new();
        let mut changed = 0;
        for (pos, dice) in positions(60, 3) {
            let plays = gen.positions(&pos, dice).to_vec();
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            let mut at = |deeper| {
                let filter = STRONG_FILTER;
                choose_play_at(
                    Level::Strong,
                    &mut rng,
                    &Heuristic,
                    &mut replies,
                    &plays,
                    STRONG_PLIES,
                    filter,
                    0,
                    deeper,
                )
            };
            let (two_ply, chosen) = (at(None), at(Some(STRONG_DEEPER)));
            if two_ply == chosen {
                continue;
            }
            changed += 1;
            // The choice is within STRONG_DEEPER of the 2-ply best and better than it by
            // the mean of 3 and 2 plies.
            let mut two_plies = |p: &Position| -on_roll(&Heuristic, &mut replies, &p.flip(), 2);
            assert!(two_plies(&two_ply) - two_plies(&chosen) <= STRONG_DEEPER.within + 1e-6);
            let mut blended = |p: &Position| {
                -nply::chances_blended(&Heuristic, &mut replies, &p.flip(), 3).equity()
            };
            assert!(blended(&chosen) > blended(&two_ply), "{pos:?} {dice:?}");
            if changed == 1 {
                break;
            }
        }
        assert!(
            changed > 0,
            "no position of the sample where the deeper stage decides"
        );
    }

    /// Issue 27's match 11, game 1: Black to play 2-1 with 88 pips against two White
    /// stragglers. Some 30 of the 39 plays are within 0.1 at 0-ply, and 13/12 6/4 (gnubg's
    /// choice, and Tabula's rollouts') is 31st: the filter alone never searches it, the
    /// ranking one roll ahead puts it among the kept.
    #[test]
    fn strong_ranks_many_close_plays_one_roll_ahead_and_finds_the_one_the_filter_missed() {
        use crate::backgammon::NeuralEvaluator;
        use tabula_tables::notation::xgid::Xgid;
        let pos = Xgid::parse("XGID=-FDBA----A--b-a---Accbbb--:1:1:-1:21:0:0:0:5:10")
            .unwrap()
            .position;
        let dice = Dice::from_values(Die::new(2).unwrap(), Die::new(1).unwrap());
        let plays = MoveGen::new().positions(&pos, dice).to_vec();
        // 13/12 6/4, by the mover's counts.
        let [mut mover, opponent] = pos.to_counts();
        for (point, change) in [(13, -1), (12, 1), (6, -1), (4, 1)] {
            mover[point - 1] = (mover[point - 1] as i8 + change) as u8;
        }
        let right = Position::from_counts(&mover, &opponent).unwrap();
        assert!(plays.contains(&right));
        let nets = NeuralEvaluator::shipped();
        let choose = |wide| {
            choose_play_at(
                Level::Strong,
                &mut ChaCha8Rng::seed_from_u64(0),
                nets,
                &mut MoveGen::new(),
                &plays,
                STRONG_PLIES,
                STRONG_FILTER,
                wide,
                Some(STRONG_DEEPER),
            )
        };
        assert_ne!(choose(0), right, "the filter alone searches it now");
        assert_eq!(choose(STRONG_WIDE), right);
    }

    /// Time per strong decision over positions of random play, on the neural nets (the
    /// bots' evaluator) and on the hand-made evaluator: `cargo test --release -p tabula-ai
    /// strong_decision_time -- --ignored --nocapture`. With `TABULA_TIME_WEIGHTS=FILE`, the
    /// nets of FILE instead of the shipped ones (candidate weights timed before shipping).
    #[test]
    #[ignore]
    fn strong_decision_time() {
        fn time(name: &str, eval: &impl Evaluator) {
            let mut gen = MoveGen::new();
            let mut replies = MoveGen::new();
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            let sample = positions(200, 7);
            let (mut worst, start) = (0.0f64, Instant::now());
            for (pos, dice) in &sample {
                let plays = gen.positions(pos, *dice).to_vec();
                let t = Instant::now();
                choose_play(Level::Strong, &mut rng, eval, &mut replies, &plays);
                worst = worst.max(t.elapsed().as_secs_f64());
            }
            let mean = start.elapsed().as_secs_f64() / sample.len() as f64;
            println!(
                "strong ({STRONG_PLIES}-ply, filter {STRONG_FILTER:?}, then {STRONG_DEEPER:?} by the mean of 3 and 2 plies, {name}): mean {:.1} ms, worst {:.1} ms per decision over {} positions",
                mean * 1e3,
                worst * 1e3,
                sample.len()
            );
        }
        use crate::backgammon::NeuralEvaluator;
        match std::env::var_os("TABULA_TIME_WEIGHTS") {
            Some(path) => {
                let bytes = std::fs::read(&path).expect("the weights file reads");
                let nets = NeuralEvaluator::from_bytes(&bytes).expect("the weights file loads");
                time(&path.to_string_lossy(), &nets);
            }
            None => time("neural", NeuralEvaluator::shipped()),
        }
        time("hand-made", &Heuristic);
    }
}
