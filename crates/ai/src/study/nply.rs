//! n-ply evaluation: a position's cubeless chances looked at 0 to 3 rolls ahead, and the
//! ranking of a roll's plays at a chosen depth with move filters.
//!
//! The plies are counted as GNU Backgammon counts them. **0-ply** is the evaluator on the
//! position. **n-ply** is the mean over the 21 rolls of the player on roll of the position
//! after that player's best play — chosen at 0-ply, as every strong program chooses the
//! plays inside its look-ahead — judged at (n - 1)-ply from the other side. A play is ranked
//! at n-ply by the n-ply chances of the position after it, the opponent on roll.
//!
//! **Move filters.** Ranking every legal play deeply would cost too much (a roll can have
//! hundreds), so the plays are first ranked at 0-ply and only the best [`Filter::keep`]
//! within [`Filter::within`] of the best (in cubeless equity) are searched deeper; the rest
//! keep their 0-ply value and rank below them.

pub use super::filter::Filter;
use crate::backgammon::{Evaluator, Probabilities};
use crate::search::Plays;
use tabula_core::Dice;
use tabula_tables::{Position, CHECKERS};

/// Whether the game on `pos` is over (a side has borne off all its checkers).
pub fn is_over(pos: &Position) -> bool {
    pos.mover_off() == CHECKERS || pos.opponent_off() == CHECKERS
}

/// The luck of `dice` for the mover of `pos` at 0-ply, as the analyses count it: the value
/// `score` gives the mover's chances after the best 0-ply play of the roll (the board as it
/// stands when the roll cannot be played) less the mean of that over the 21 rolls.
pub fn luck_0ply(
    eval: &impl Evaluator,
    plays: &mut impl Plays,
    pos: &Position,
    dice: Dice,
    score: impl Fn(&Probabilities) -> f32,
) -> f32 {
    let after_roll = |best: Option<(Position, Probabilities)>| {
        best.map_or_else(|| eval.evaluate(&pos.flip()).flip(), |(_, t)| t.flip())
    };
    let mut mean = 0.0;
    let mut rolled = 0.0;
    for (d, best) in Dice::all().zip(best_plays_0ply(eval, plays, pos)) {
        let value = score(&after_roll(best));
        mean += value * d.weight() as f32 / 36.0;
        if d == dice {
            rolled = value;
        }
    }
    rolled - mean
}

/// The best play of the mover of `pos` with `dice` at 0-ply (the one that leaves the
/// opponent the lowest equity), with the opponent's chances after it; `None` when no play is
/// legal. The candidates are evaluated as one batch ([`Evaluator::evaluate_batch`]).
pub fn best_play_0ply(
    eval: &impl Evaluator,
    plays: &mut impl Plays,
    pos: &Position,
    dice: Dice,
) -> Option<(Position, Probabilities)> {
    thread_local! {
        static BUFFERS: std::cell::RefCell<(Vec<Position>, Vec<Probabilities>)> =
            const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
    }
    let candidates = plays.plays(pos, dice);
    if candidates.is_empty() {
        return None;
    }
    BUFFERS.with(|b| {
        let (flipped, chances) = &mut *b.borrow_mut();
        flipped.clear();
        flipped.extend(candidates.iter().map(Position::flip));
        eval.evaluate_batch(flipped, chances);
        best_of(candidates, chances)
    })
}

/// The candidate that leaves the opponent the lowest equity, with the opponent's chances
/// after it (`chances[i]` are the opponent's after `candidates[i]`); `None` when there are
/// no candidates.
fn best_of(
    candidates: &[Position],
    chances: &[Probabilities],
) -> Option<(Position, Probabilities)> {
    candidates
        .iter()
        .zip(chances)
        .min_by(|a, b| a.1.equity().total_cmp(&b.1.equity()))
        .map(|(play, theirs)| (*play, *theirs))
}

/// The best 0-ply play of the mover of `pos` for each of the 21 rolls, in [`Dice::all`]'s
/// order, with the opponent's chances after it ([`best_play_0ply`]'s answer for each roll):
/// the candidates of all 21 rolls go to the evaluator as one batch, after the position
/// itself seen from the opponent, so that an incremental evaluator (the nets) computes one
/// full first layer for the whole look-ahead, and every candidate differs from that first
/// position only by the one play that made it.
pub fn best_plays_0ply(
    eval: &impl Evaluator,
    plays: &mut impl Plays,
    pos: &Position,
) -> [Option<(Position, Probabilities)>; 21] {
    /// A roll's candidates: where they start in the batch, and how many.
    type Span = (usize, usize);
    thread_local! {
        static BUFFERS: std::cell::RefCell<(Vec<Position>, Vec<Position>, Vec<Probabilities>)> =
            const { std::cell::RefCell::new((Vec::new(), Vec::new(), Vec::new())) };
    }
    BUFFERS.with(|b| {
        let (candidates, flipped, chances) = &mut *b.borrow_mut();
        candidates.clear();
        flipped.clear();
        flipped.push(pos.flip());
        let mut spans: [Span; 21] = [(0, 0); 21];
        for (span, dice) in spans.iter_mut().zip(Dice::all()) {
            let these = plays.plays(pos, dice);
            *span = (candidates.len(), these.len());
            candidates.extend_from_slice(these);
            flipped.extend(these.iter().map(Position::flip));
        }
        eval.evaluate_batch(flipped, chances);
        // The batch's first answer is the position itself: a roll's chances sit one later.
        spans.map(|(start, n)| {
            best_of(
                &candidates[start..start + n],
                &chances[1 + start..1 + start + n],
            )
        })
    })
}

/// Adds `w · p` to `sum`, output by output.
pub fn add_weighted(sum: &mut Probabilities, p: &Probabilities, w: f32) {
    sum.win += w * p.win;
    sum.win_gammon += w * p.win_gammon;
    sum.win_backgammon += w * p.win_backgammon;
    sum.lose_gammon += w * p.lose_gammon;
    sum.lose_backgammon += w * p.lose_backgammon;
}

/// The cubeless chances of the player on roll in `pos` at `plies` (0 to any depth; each ply
/// multiplies the work by about 21 rolls times the plays of a roll).
pub fn chances(
    eval: &impl Evaluator,
    plays: &mut impl Plays,
    pos: &Position,
    plies: u32,
) -> Probabilities {
    if plies == 0 || is_over(pos) {
        return eval.evaluate(pos);
    }
    let mut sum = Probabilities::default();
    for (dice, best) in Dice::all().zip(best_plays_0ply(eval, plays, pos)) {
        let w = dice.weight() as f32 / 36.0;
        // With no legal play the turn passes: the opponent is on roll in the same position.
        let next = best.map_or(*pos, |(play, _)| play);
        let theirs = match best {
            // One ply: the best play's chances are already known.
            Some((_, theirs)) if plies == 1 => theirs,
            _ if plies == 1 => eval.evaluate(&next.flip()),
            _ => chances(eval, plays, &next.flip(), plies - 1),
        };
        add_weighted(&mut sum, &theirs.flip(), w);
    }
    sum
}

/// The cubeless chances of the player on roll in `pos` at `plies` (at least 1) and at
/// `plies - 1` together, for the price of the deeper alone: the shallower search is the
/// deeper one with its last roll left out, so it falls out of the same tree.
pub fn chances_pair(
    eval: &impl Evaluator,
    plays: &mut impl Plays,
    pos: &Position,
    plies: u32,
) -> (Probabilities, Probabilities) {
    if plies == 0 || is_over(pos) {
        let p = eval.evaluate(pos);
        return (p, p);
    }
    if plies == 1 {
        return (chances(eval, plays, pos, 1), eval.evaluate(pos));
    }
    let mut deep = Probabilities::default();
    let mut shallow = Probabilities::default();
    for (dice, best) in Dice::all().zip(best_plays_0ply(eval, plays, pos)) {
        let w = dice.weight() as f32 / 36.0;
        let next = best.map_or(*pos, |(play, _)| play);
        let (d, s) = chances_pair(eval, plays, &next.flip(), plies - 1);
        add_weighted(&mut deep, &d.flip(), w);
        add_weighted(&mut shallow, &s.flip(), w);
    }
    (deep, shallow)
}

/// The mean of the chances at `plies` and at `plies - 1` ([`chances_pair`]): an odd and an
/// even depth together. A search that ends on the opponent's reply (odd plies) and one
/// that ends on the mover's own play (even) err in opposite directions on the same
/// position, the one side's last choice always made by the net alone; their mean cancels
/// part of that.
pub fn chances_blended(
    eval: &impl Evaluator,
    plays: &mut impl Plays,
    pos: &Position,
    plies: u32,
) -> Probabilities {
    let (deep, shallow) = chances_pair(eval, plays, pos, plies);
    deep.mean(&shallow)
}

/// A play ranked by [`rank_plays`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankedPlay {
    /// The position after the play, still seen from the mover.
    pub after: Position,
    /// The mover's cubeless chances after it.
    pub chances: Probabilities,
    /// The depth those chances come from (0 for plays the filter left out).
    pub plies: u32,
    /// When the play was raced ([`super::race`]): the rollout trials its chances now come
    /// from (0 otherwise).
    pub trials: u32,
    /// Whether the chances are the mean of `plies` and `plies - 1` ([`deepen`]: a close
    /// play after the strong bot's 2-ply search, valued as the bot values it).
    pub blended: bool,
    /// When the play was raced and lost: how far its cubeless equity trails the race's
    /// winner over the trials both played, and that paired difference's standard error
    /// (`[0, 0]` otherwise). The paired difference is known far better than the gap between
    /// the two plays' own means, which saw different numbers of trials.
    pub behind: [f64; 2],
}

/// `candidates` (the legal results of a roll, seen from the mover) ranked best first for the
/// mover: all at 0-ply, then those the filter keeps at `plies` (where more plays than it
/// keeps are within its margin, up to `crate::search::STRONG_WIDE` of them are ranked at
/// 1-ply first and its `keep` best by that ranking searched). `score` turns chances into
/// the number ranked by (cubeless or cubeful equity); `plays_for` makes a play generator for
/// each worker, since the deeper searches run in parallel (rayon).
pub fn rank_plays<E, P>(
    eval: &E,
    plays_for: impl Fn() -> P + Sync,
    candidates: &[Position],
    plies: u32,
    filter: Filter,
    score: impl Fn(&Probabilities) -> f32 + Sync,
) -> Vec<RankedPlay>
where
    E: Evaluator + Sync,
    P: Plays,
{
    rank_plays_by(
        eval,
        plays_for,
        candidates,
        plies,
        filter,
        score,
        Deep::Searched,
    )
}

/// How [`rank_plays_by`] values the plays its filter keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deep {
    /// By the search at the ranking's depth ([`chances`]).
    Searched,
    /// By the mean of the ranking's depth and the one below ([`chances_blended`]); the
    /// plays are marked [`RankedPlay::blended`].
    Blended,
}

/// [`rank_plays`] with the plays the filter keeps valued as `valued` says.
pub fn rank_plays_by<E, P>(
    eval: &E,
    plays_for: impl Fn() -> P + Sync,
    candidates: &[Position],
    plies: u32,
    filter: Filter,
    score: impl Fn(&Probabilities) -> f32 + Sync,
    valued: Deep,
) -> Vec<RankedPlay>
where
    E: Evaluator + Sync,
    P: Plays,
{
    use rayon::prelude::*;
    let mut ranked: Vec<RankedPlay> = candidates
        .iter()
        .map(|&after| RankedPlay {
            after,
            chances: eval.evaluate(&after.flip()).flip(),
            plies: 0,
            trials: 0,
            blended: false,
            behind: [0.0; 2],
        })
        .collect();
    let by_score = |a: &RankedPlay, b: &RankedPlay| score(&b.chances).total_cmp(&score(&a.chances));
    ranked.sort_by(by_score);
    if plies == 0 || ranked.is_empty() {
        return ranked;
    }
    let equities = || ranked.iter().map(|r| r.chances.equity());
    let mut deep = filter.count(equities());
    let wide = filter.wide_count(crate::search::STRONG_WIDE, equities());
    if let Some(wide) = wide.filter(|_| plies >= 2) {
        // More plays within the filter's margin than it keeps: rank them one roll ahead
        // first, and search the filter's `keep` best by that ranking (the strong bot's
        // stage, `crate::search::STRONG_WIDE`).
        ranked[..wide].par_iter_mut().for_each(|r| {
            let mut plays = plays_for();
            r.chances = chances(eval, &mut plays, &r.after.flip(), 1).flip();
            r.plies = 1;
        });
        ranked[..wide].sort_by(by_score);
        deep = filter.keep;
    }
    ranked[..deep].par_iter_mut().for_each(|r| {
        let mut plays = plays_for();
        let after = r.after.flip();
        r.chances = match valued {
            Deep::Searched => chances(eval, &mut plays, &after, plies),
            Deep::Blended => chances_blended(eval, &mut plays, &after, plies),
        }
        .flip();
        r.plies = plies;
        r.blended = valued == Deep::Blended;
    });
    // The searched plays first, among themselves by their deeper value; the others after
    // them in their 1-ply order (those ranked one roll ahead), then their 0-ply order.
    ranked[..deep].sort_by(by_score);
    ranked
}

/// The plays ranked as the strong bot ranks them: [`rank_plays`], and at its 2 plies
/// (`crate::search::STRONG_PLIES`) the close plays valued again by the mean of 3 and 2
/// plies ([`deepen`] with `crate::search::STRONG_DEEPER`). At other depths, or with
/// `deeper` false, [`rank_plays`] alone.
pub fn rank_plays_as_strong<E, P>(
    eval: &E,
    plays_for: impl Fn() -> P + Sync,
    candidates: &[Position],
    plies: u32,
    filter: Filter,
    deeper: bool,
    score: impl Fn(&Probabilities) -> f32 + Sync,
) -> Vec<RankedPlay>
where
    E: Evaluator + Sync,
    P: Plays,
{
    use crate::search::{STRONG_DEEPER, STRONG_PLIES};
    let mut ranked = rank_plays(eval, &plays_for, candidates, plies, filter, &score);
    if deeper && plies == STRONG_PLIES {
        deepen(
            eval,
            plays_for,
            &mut ranked,
            plies + 1,
            STRONG_DEEPER,
            score,
        );
    }
    ranked
}

/// Values the plays of `ranked` (best first, as [`rank_plays`] leaves them) that `filter`
/// keeps by their searched `score` again, by [`chances_blended`] at `plies`, and sorts them
/// among themselves: the cascade's last stage, for the few plays still close after the
/// search. Nothing changes when fewer than two are kept. Returns how many were valued.
pub fn deepen<E, P>(
    eval: &E,
    plays_for: impl Fn() -> P + Sync,
    ranked: &mut [RankedPlay],
    plies: u32,
    filter: Filter,
    score: impl Fn(&Probabilities) -> f32 + Sync,
) -> usize
where
    E: Evaluator + Sync,
    P: Plays,
{
    use rayon::prelude::*;
    let close = filter.count(ranked.iter().map(|r| score(&r.chances)));
    if close < 2 {
        return 0;
    }
    ranked[..close].par_iter_mut().for_each(|r| {
        let mut plays = plays_for();
        r.chances = chances_blended(eval, &mut plays, &r.after.flip(), plies).flip();
        r.plies = plies;
        r.blended = true;
    });
    ranked[..close].sort_by(|a, b| score(&b.chances).total_cmp(&score(&a.chances)));
    close
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::Heuristic;
    use tabula_core::Die;
    use tabula_tables::MoveGen;

    fn dice(a: u8, b: u8) -> Dice {
        Dice::from_values(Die::new(a).unwrap(), Die::new(b).unwrap())
    }

    #[test]
    fn zero_plies_is_the_evaluator() {
        let pos = Position::START;
        assert_eq!(
            chances(&Heuristic, &mut MoveGen::new(), &pos, 0),
            Heuristic.evaluate(&pos)
        );
    }

    #[test]
    fn one_ply_is_the_mean_over_the_rolls_of_the_best_replies() {
        let pos = Position::START;
        let mut gen = MoveGen::new();
        let mut want = 0.0;
        for d in Dice::all() {
            let (_, theirs) = best_play_0ply(&Heuristic, &mut gen, &pos, d).unwrap();
            want += theirs.flip().equity() * d.weight() as f32 / 36.0;
        }
        let got = chances(&Heuristic, &mut gen, &pos, 1).equity();
        assert!((got - want).abs() < 1e-5, "{got} {want}");
    }

    #[test]
    fn the_best_plays_of_all_rolls_in_one_batch_are_each_roll_s_own() {
        // The nets (an incremental batch: the one batch of 21 rolls starts its first layer
        // from the position itself) on positions of a seeded game, contact to bear-off.
        use rand::{Rng, SeedableRng};
        let nets = crate::backgammon::nn::NeuralEvaluator::shipped();
        let mut gen = MoveGen::new();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let mut pos = Position::START;
        let mut checked = 0;
        while !is_over(&pos) {
            let all = best_plays_0ply(nets, &mut gen, &pos);
            for (d, got) in Dice::all().zip(all) {
                let want = best_play_0ply(nets, &mut gen, &pos, d);
                match (got, want) {
                    (None, None) => {}
                    (Some((a, ca)), Some((b, cb))) => {
                        // The same play, or one the nets value the same within rounding.
                        assert!(a == b || (ca.equity() - cb.equity()).abs() < 1e-5);
                        assert!((ca.equity() - cb.equity()).abs() < 1e-5, "{ca:?} {cb:?}");
                        checked += 1;
                    }
                    other => panic!("a roll's play found by one and not the other: {other:?}"),
                }
            }
            let d = Dice::from_values(
                Die::new(rng.gen_range(1..=6)).unwrap(),
                Die::new(rng.gen_range(1..=6)).unwrap(),
            );
            let plays = gen.positions(&pos, d).to_vec();
            if !plays.is_empty() {
                pos = plays[rng.gen_range(0..plays.len())];
            }
            pos = pos.flip();
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn the_pair_of_depths_is_each_depth_searched_alone_and_the_blend_their_mean() {
        let mut gen = MoveGen::new();
        let pos = gen.positions(&Position::START, dice(6, 4))[0].flip();
        for plies in 1..=2 {
            let (deep, shallow) = chances_pair(&Heuristic, &mut gen, &pos, plies);
            let want_deep = chances(&Heuristic, &mut gen, &pos, plies);
            let want_shallow = chances(&Heuristic, &mut gen, &pos, plies - 1);
            assert!((deep.equity() - want_deep.equity()).abs() < 1e-5);
            assert!((shallow.equity() - want_shallow.equity()).abs() < 1e-5);
            assert!((deep.win - want_deep.win).abs() < 1e-5);
            assert!((shallow.win_gammon - want_shallow.win_gammon).abs() < 1e-5);
            let blended = chances_blended(&Heuristic, &mut gen, &pos, plies);
            let mean = (want_deep.equity() + want_shallow.equity()) / 2.0;
            assert!((blended.equity() - mean).abs() < 1e-5, "{plies}");
        }
    }

    #[test]
    fn ranking_keeps_every_play_and_searches_only_the_filtered_ones() {
        let mut gen = MoveGen::new();
        let candidates = gen.positions(&Position::START, dice(2, 1)).to_vec();
        let filter = Filter {
            keep: 3,
            within: 1.0,
            at_least: 0,
        };
        let ranked = rank_plays(
            &Heuristic,
            MoveGen::new,
            &candidates,
            1,
            filter,
            Probabilities::equity,
        );
        assert_eq!(ranked.len(), candidates.len());
        assert_eq!(ranked.iter().filter(|r| r.plies == 1).count(), 3);
        assert!(ranked[..3].iter().all(|r| r.plies == 1));
        assert!(ranked[..3]
            .windows(2)
            .all(|w| w[0].chances.equity() >= w[1].chances.equity()));
    }

    #[test]
    fn a_blended_ranking_values_and_marks_the_filtered_plays_by_the_mean_of_two_depths() {
        let mut gen = MoveGen::new();
        let candidates = gen.positions(&Position::START, dice(4, 3)).to_vec();
        let filter = Filter {
            keep: 3,
            within: 1.0,
            at_least: 0,
        };
        let ranked = rank_plays_by(
            &Heuristic,
            MoveGen::new,
            &candidates,
            1,
            filter,
            Probabilities::equity,
            Deep::Blended,
        );
        assert_eq!(ranked.len(), candidates.len());
        let (searched, rest) = ranked.split_at(3);
        assert!(rest.iter().all(|r| r.plies == 0 && !r.blended));
        for r in searched {
            assert!(r.plies == 1 && r.blended, "{r:?}");
            let want = chances_blended(&Heuristic, &mut gen, &r.after.flip(), 1).flip();
            assert!((r.chances.equity() - want.equity()).abs() < 1e-5);
        }
    }

    #[test]
    fn the_filter_searches_the_best_few_however_far_behind_and_the_close_ones_up_to_keep() {
        let f = Filter {
            keep: 4,
            within: 0.1,
            at_least: 2,
        };
        // Far behind: only the best `at_least`.
        assert_eq!(f.count([0.5, 0.0, -0.5, -0.6]), 2);
        // Close: up to `keep`.
        assert_eq!(f.count([0.5, 0.45, 0.44, 0.43, 0.42]), 4);
        // Past the best `at_least`, the first play too far behind ends the search.
        assert_eq!(f.count([0.5, 0.45, 0.3, 0.29]), 2);
        assert_eq!(f.count([0.5, 0.45, 0.41, 0.3]), 3);
        assert_eq!(f.count(std::iter::empty()), 0);
        assert_eq!(f.count([0.1]), 1);
    }

    /// Time per decision of the analysis at 3-ply with the default filter (the level above
    /// strong), on the shipped nets over positions of random play with a random roll:
    /// `cargo test --release -p tabula-ai analysis_decision_time -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn analysis_decision_time() {
        use crate::backgammon::NeuralEvaluator;
        use rand::{Rng, SeedableRng};
        use std::time::Instant;
        let nets = NeuralEvaluator::shipped();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut gen = MoveGen::new();
        let mut pos = Position::START;
        let mut times = Vec::new();
        while times.len() < 100 {
            if is_over(&pos) {
                pos = Position::START;
            }
            let roll = dice(rng.gen_range(1..=6), rng.gen_range(1..=6));
            let candidates = gen.positions(&pos, roll).to_vec();
            if candidates.len() >= 2 {
                let t = Instant::now();
                let ranked = rank_plays(
                    nets,
                    MoveGen::new,
                    &candidates,
                    3,
                    Filter::default(),
                    Probabilities::equity,
                );
                times.push(t.elapsed().as_secs_f64());
                assert_eq!(ranked.len(), candidates.len());
            }
            if !candidates.is_empty() {
                pos = candidates[rng.gen_range(0..candidates.len())];
            }
            pos = pos.flip();
        }
        times.sort_by(f64::total_cmp);
        println!(
            "3-ply analysis, filter {:?}, {} threads: mean {:.2} s, median {:.2} s, worst {:.2} s per decision over {} positions",
            Filter::default(),
            rayon::current_num_threads(),
            times.iter().sum::<f64>() / times.len() as f64,
            times[times.len() / 2],
            times[times.len() - 1],
            times.len()
        );
    }
}
