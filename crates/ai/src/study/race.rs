//! Rollouts that race a roll's close plays against each other: the search of the level above
//! strong (issue 27), where a 2-ply ranking leaves several plays within a few hundredths.
//!
//! - **The same dice for every play.** Trial `t` of every play draws the dice of trial `t` of
//!   one rollout ([`super::rollout`]: stratified first rolls, then the trial's own stream),
//!   so the luck the plays meet is shared and their *difference* is known far better than
//!   either value: its standard error is taken over the paired trials.
//! - **Blocks of 36.** The trials run in blocks of 36 (each block every first roll once and
//!   every reply once). After each block a play is dropped when it trails the leader by more
//!   than `drop_z` standard errors of their paired difference; the race ends when one play
//!   is left, a play's trials are spent, or the next block would overrun the budget of all
//!   the plays' trials together (which bounds the time of a decision).
//! - **Reproducible.** Which trials are played depends only on the results of earlier blocks,
//!   and each trial's game only on the seed and its number: the answer is the same on any
//!   number of threads. No clock is read.

use super::cube_race::CubeRaceConfig;
use super::nply::RankedPlay;
use super::rollout::{trial, RolloutConfig};
use crate::backgammon::{Evaluator, NeuralEvaluator, Probabilities};
use crate::search::Plays;
use rayon::prelude::*;
use tabula_tables::Position;

/// Which plays are raced and for how long.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RaceConfig {
    /// Race only the plays whose searched equity is within this of the best play's...
    pub within: f32,
    /// ...at most this many of them.
    pub keep: usize,
    /// The most trials a play is rolled out (rounded up to a block of 36).
    pub max_trials: u32,
    /// The most trials of all the plays together: a block is played only while the plays
    /// still in the race can all play it within this (at least one block is always played).
    pub budget: u32,
    /// A play trailing the leader by more than this many standard errors of their paired
    /// difference is dropped.
    pub drop_z: f64,
    /// The rollouts' settings (their `trials` is not read: the race decides).
    pub rollout: RolloutConfig,
    /// The same level's cube decisions: a close one corrected by a rollout
    /// ([`super::cube_race`]; `None`: the searched decision stands).
    pub cube: Option<CubeRaceConfig>,
    /// `Some(z)`: the search's choice (the first play) is not dropped at `drop_z` (only once it
    /// trails by twice that), and it stays the choice unless a play still in the race at its
    /// end leads it by more than `z` standard errors of their paired difference. `None`: the
    /// play with the best mean at the end wins.
    pub hold_z: Option<f64>,
}

impl Default for RaceConfig {
    /// The level above strong: up to 4 plays within 0.08 at 2-ply, up to 432 variance-reduced
    /// trials each and 864 in all (two plays 432 each, four 216), played to the end, dropped
    /// at 2 standard errors, the search's choice held unless a play leads it by more than 1
    /// standard error at the end (docs/bots.md: better than 2 by gnubg 1-, 2- and 3-ply
    /// alike); close cube decisions rolled out as [`CubeRaceConfig::default`].
    fn default() -> RaceConfig {
        RaceConfig {
            within: 0.08,
            keep: 4,
            max_trials: 432,
            budget: 864,
            drop_z: 2.0,
            rollout: RolloutConfig::default(),
            cube: Some(CubeRaceConfig::default()),
            hold_z: Some(1.0),
        }
    }
}

/// What the race found for one play.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Raced {
    /// The position after the play, seen from the mover.
    pub after: Position,
    /// Trials it was rolled out.
    pub trials: u32,
    /// The mover's mean cubeless equity over those trials (0 when it was not rolled out).
    pub equity: f64,
    /// The mover's mean chances over those trials (all 0 when it was not rolled out).
    pub chances: Probabilities,
    /// Behind the winner over the trials both played (0 for the winner).
    pub behind: f64,
    /// The standard error of that difference (0 for the winner).
    pub behind_std_err: f64,
    /// Whether it left the race before the end (dropped, or a kept or held play released).
    pub dropped: bool,
}

const BLOCK: u32 = 36;

/// A kept or held play leaves the race once it trails the leader by this many times the drop
/// margin (4 standard errors by default): from there the race's end would not give it back
/// its place, and running on to the budget only cost time (`race_decision_time`: a held
/// choice never dropped made the mean 4.28 s a decision, released here 3.82 s, unheld 3.75 s).
const RELEASE: f64 = 2.0;

/// Races `plays` (positions after the mover's plays, seen from the mover; the first is the
/// search's choice) and returns them best first; the first is the race's winner. With fewer
/// than two plays nothing is rolled out.
/// A trial stops where the bear-off database knows the answer ([`NeuralEvaluator::exact`]),
/// whatever the evaluator.
///
/// `kept = Some(k)`: the play `plays[k]` is not dropped at `drop_z` but kept until it trails
/// by [`RELEASE`] times that, so it meets every trial the winner meets and how far it trails
/// is the paired difference over all of them. The analysis keeps the play that was played: a
/// play dropped after a block trailed by at least `drop_z` standard errors *then*, so its
/// shortfall taken at the drop overstates the error of a play that is in truth as good: one
/// such play in ten is dropped at some block of a 432-trial race (twelve looks at 2 standard
/// errors of a paired difference whose true mean is 0), with a shortfall of at least two
/// standard errors of that block, 0.06 or more in the first blocks of a contact race (the
/// opening 4-3: 24/20 13/10 dropped at 72 trials, 0.058 behind): a bad mark for a play that
/// may not be an error at all.
pub fn race<E, P>(
    eval: &E,
    plays_for: impl Fn() -> P + Sync,
    plays: &[Position],
    kept: Option<usize>,
    config: &RaceConfig,
) -> Vec<Raced>
where
    E: Evaluator + Sync,
    P: Plays,
{
    // chances[c][t]: the mover's chances in trial t of play c; results[c][t] their equity.
    let mut chances: Vec<Vec<[f64; 5]>> = vec![Vec::new(); plays.len()];
    let mut results: Vec<Vec<f64>> = vec![Vec::new(); plays.len()];
    let mut alive: Vec<usize> = (0..plays.len()).collect();
    let max = config.max_trials.div_ceil(BLOCK).max(1) * BLOCK;
    let mut played = 0u32;
    // The trials of all the plays so far.
    let spent = |results: &[Vec<f64>]| results.iter().map(Vec::len).sum::<usize>();
    // The kept play and the held choice stay until they trail by RELEASE times the drop
    // margin, where no end of the race could give them back their place.
    let stays = |c: usize| Some(c) == kept || (c == 0 && config.hold_z.is_some());
    while alive.len() > 1
        && played < max
        && (played == 0 || spent(&results) + BLOCK as usize * alive.len() <= config.budget as usize)
    {
        let block: Vec<Vec<[f64; 5]>> = (u64::from(played)..u64::from(played + BLOCK))
            .into_par_iter()
            .map_init(&plays_for, |gen, t| {
                alive
                    .iter()
                    .map(|&c| {
                        let root = plays[c].flip();
                        let r = trial(
                            eval,
                            gen,
                            &NeuralEvaluator::exact,
                            &root,
                            &config.rollout,
                            t,
                        );
                        // The opponent's chances turned to the mover's.
                        [1.0 - r[0], r[3], r[4], r[1], r[2]]
                    })
                    .collect()
            })
            .collect();
        for row in &block {
            for (k, &c) in alive.iter().enumerate() {
                let v = row[k];
                results[c].push(2.0 * v[0] - 1.0 + v[1] - v[3] + v[2] - v[4]);
                chances[c].push(v);
            }
        }
        played += BLOCK;
        let leader = *alive
            .iter()
            .max_by(|&&a, &&b| mean(&results[a]).total_cmp(&mean(&results[b])))
            .expect("two or more alive");
        alive.retain(|&c| {
            let (d, se) = paired(&results[leader], &results[c]);
            let margin = if stays(c) { RELEASE } else { 1.0 } * config.drop_z;
            c == leader || d <= margin * se
        });
    }
    let winner = (0..plays.len())
        .filter(|&c| !results[c].is_empty())
        .max_by(|&a, &b| {
            // The plays still alive outrank the dropped ones, then by their mean.
            let key = |c: usize| (alive.contains(&c), results[c].len());
            key(a)
                .cmp(&key(b))
                .then(mean(&results[a]).total_cmp(&mean(&results[b])))
        })
        .unwrap_or(0);
    // The search's choice, still in the race, held unless the winner is clearly ahead of it.
    let winner = match config.hold_z {
        Some(z) if alive.contains(&0) => {
            let (d, se) = paired(&results[winner], &results[0]);
            if d > z * se {
                winner
            } else {
                0
            }
        }
        _ => winner,
    };
    let mut raced: Vec<Raced> = (0..plays.len())
        .map(|c| {
            let (behind, behind_std_err) = if c == winner || results[c].is_empty() {
                (0.0, 0.0)
            } else {
                paired(&results[winner], &results[c])
            };
            Raced {
                after: plays[c],
                trials: results[c].len() as u32,
                equity: if results[c].is_empty() {
                    0.0
                } else {
                    mean(&results[c])
                },
                behind,
                behind_std_err,
                dropped: !results[c].is_empty() && !alive.contains(&c),
                chances: mean_chances(&chances[c]),
            }
        })
        .collect();
    // The winner first, then by how far behind, the plays never rolled out last in their order.
    raced.sort_by(|a, b| {
        let key = |r: &Raced| (r.trials == 0, r.after != plays[winner]);
        key(a).cmp(&key(b)).then(a.behind.total_cmp(&b.behind))
    });
    raced
}

/// Races the close plays at the head of `ranked` (a ranking by [`super::nply::rank_plays`],
/// best first) and writes the race into it: the raced plays first, in the race's order, with
/// their rollouts' chances and trial counts; the others after them as they were. Returns how
/// many plays were raced (0 when fewer than two were close).
/// `kept`: a play of the ranking kept in the race as [`race`] keeps one, when it is a
/// contender (the analysis' played play).
pub fn refine<E, P>(
    eval: &E,
    plays_for: impl Fn() -> P + Sync,
    ranked: &mut [RankedPlay],
    kept: Option<Position>,
    config: &RaceConfig,
) -> usize
where
    E: Evaluator + Sync,
    P: Plays,
{
    let plays = contenders(ranked, config);
    if plays.len() < 2 {
        return 0;
    }
    let kept = kept.and_then(|k| plays.iter().position(|&p| p == k));
    let raced = race(eval, plays_for, &plays, kept, config);
    let head: Vec<RankedPlay> = raced
        .iter()
        .map(|r| {
            let searched = ranked[..plays.len()]
                .iter()
                .find(|p| p.after == r.after)
                .expect("every raced play comes from the ranking");
            RankedPlay {
                chances: r.chances,
                trials: r.trials,
                behind: [r.behind, r.behind_std_err],
                ..*searched
            }
        })
        .collect();
    ranked[..plays.len()].copy_from_slice(&head);
    plays.len()
}

/// The plays of a ranking that a race takes: the searched plays within `within` of the best,
/// at most `keep`.
pub fn contenders(ranked: &[RankedPlay], config: &RaceConfig) -> Vec<Position> {
    let Some(first) = ranked.first() else {
        return Vec::new();
    };
    let best = first.chances.equity();
    ranked
        .iter()
        .take(config.keep)
        .take_while(|r| r.plies == first.plies && best - r.chances.equity() <= config.within)
        .map(|r| r.after)
        .collect()
}

fn mean_chances(v: &[[f64; 5]]) -> Probabilities {
    if v.is_empty() {
        return Probabilities::default();
    }
    let n = v.len() as f64;
    let m = |k: usize| (v.iter().map(|x| x[k]).sum::<f64>() / n) as f32;
    Probabilities {
        win: m(0),
        win_gammon: m(1),
        win_backgammon: m(2),
        lose_gammon: m(3),
        lose_backgammon: m(4),
    }
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NEG_INFINITY;
    }
    v.iter().sum::<f64>() / v.len() as f64
}

/// The mean of `a[t] - b[t]` over the trials both played, and its standard error.
fn paired(a: &[f64], b: &[f64]) -> (f64, f64) {
    let n = a.len().min(b.len());
    if n < 2 {
        return (0.0, f64::INFINITY);
    }
    let d: Vec<f64> = (0..n).map(|t| a[t] - b[t]).collect();
    let m = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
    (m, (var / n as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::Heuristic;
    use crate::study::nply::{rank_plays, Filter};
    use tabula_core::{Dice, Die};
    use tabula_tables::MoveGen;

    fn plays_of(a: u8, b: u8) -> Vec<Position> {
        let dice = Dice::from_values(Die::new(a).unwrap(), Die::new(b).unwrap());
        MoveGen::new().positions(&Position::START, dice).to_vec()
    }

    fn config(max_trials: u32) -> RaceConfig {
        RaceConfig {
            hold_z: None,
            max_trials,
            ..RaceConfig::default()
        }
    }

    #[test]
    fn every_play_meets_the_same_dice_so_a_play_raced_against_itself_ties() {
        let p = plays_of(3, 1)[0];
        let raced = race(&Heuristic, MoveGen::new, &[p, p], None, &config(72));
        assert_eq!(raced.len(), 2);
        assert!(raced.iter().all(|r| r.trials == 72));
        assert_eq!(raced[0].equity, raced[1].equity);
        assert_eq!(raced[1].behind, 0.0);
        assert_eq!(raced[1].behind_std_err, 0.0);
        assert!(
            raced.iter().all(|r| !r.dropped),
            "both plays are in the race to its end"
        );
    }

    #[test]
    fn a_play_far_behind_is_dropped_after_the_first_block() {
        let (good, bad) = far_apart();
        let raced = race(&Heuristic, MoveGen::new, &[bad, good], None, &config(360));
        assert_eq!(raced[0].after, good);
        assert_eq!(raced[0].trials, 36, "the race ends when one play is left");
        assert_eq!(raced[1].trials, 36);
        assert!(raced[0].equity > 0.9 && raced[1].equity < -2.9, "{raced:?}");
        assert!(raced[1].behind > 2.0 * raced[1].behind_std_err);
        assert!(raced[1].dropped && !raced[0].dropped, "{raced:?}");
    }

    /// A good play and a bad one, far apart (the bad one is dropped after the first block):
    /// after the good play the mover has one checker left on the 2-point against an
    /// opponent still on the 24-point; after the bad one the opponent has one checker left
    /// on their 2-point and the mover's fifteen sit in the opponent's home board.
    fn far_apart() -> (Position, Position) {
        let side = |off_all_but_one: bool| {
            let mut counts = [0u8; 25];
            if off_all_but_one {
                counts[1] = 1;
            } else {
                counts[23] = 15;
            }
            counts
        };
        let good = Position::from_counts(&side(true), &side(false)).unwrap();
        let bad = Position::from_counts(&side(false), &side(true)).unwrap();
        (good, bad)
    }

    /// Opening plays `[first, second]` whose plain race drops `first` within twice the drop
    /// margin, with the trials it had then (searched once for the tests that use them).
    fn dropped_within_the_release() -> &'static [([Position; 2], u32)] {
        static FOUND: std::sync::OnceLock<Vec<([Position; 2], u32)>> = std::sync::OnceLock::new();
        FOUND.get_or_init(search_dropped_within_the_release)
    }

    fn search_dropped_within_the_release() -> Vec<([Position; 2], u32)> {
        let release = RELEASE * RaceConfig::default().drop_z;
        let mut found = Vec::new();
        for (a, b) in [(2, 1), (4, 1), (5, 3), (6, 4)] {
            let plays = plays_of(a, b);
            for i in 0..plays.len().min(4) {
                for j in 0..plays.len().min(4) {
                    if i == j {
                        continue;
                    }
                    let pair = [plays[i], plays[j]];
                    let raced = race(&Heuristic, MoveGen::new, &pair, None, &config(144));
                    let first = raced.iter().find(|r| r.after == pair[0]).unwrap();
                    if raced[0].after != pair[0]
                        && first.trials < 144
                        && first.behind <= release * first.behind_std_err
                        && pair[0] != pair[1]
                    {
                        found.push((pair, first.trials));
                    }
                }
            }
        }
        found
    }

    #[test]
    fn a_kept_play_far_behind_leaves_the_race_at_twice_the_drop_margin() {
        let (good, bad) = far_apart();
        let kept = race(
            &Heuristic,
            MoveGen::new,
            &[bad, good],
            Some(0),
            &config(144),
        );
        assert_eq!(kept[0].after, good);
        assert_eq!(kept[1].trials, 36, "{kept:?}");
        assert!(kept[1].behind > RELEASE * RaceConfig::default().drop_z * kept[1].behind_std_err);
        let held = RaceConfig {
            hold_z: Some(1e9),
            ..config(144)
        };
        // Held by a margin no lead reaches, a choice that far behind still loses its place.
        let raced = race(&Heuristic, MoveGen::new, &[bad, good], None, &held);
        assert_eq!(raced[0].after, good, "{raced:?}");
    }

    #[test]
    fn a_kept_play_stays_in_the_race_while_within_twice_the_drop_margin() {
        let cases = dropped_within_the_release();
        assert!(
            !cases.is_empty(),
            "no opening play dropped within the release"
        );
        let mut longer = 0;
        for (pair, dropped_at) in cases {
            let kept = race(&Heuristic, MoveGen::new, pair, Some(0), &config(144));
            let mine = kept.iter().find(|r| r.after == pair[0]).unwrap();
            let winner = &kept[0];
            assert!(mine.trials > *dropped_at, "{pair:?}: {kept:?}");
            if mine.trials == winner.trials {
                longer += 1;
                if winner.after != mine.after {
                    assert!((mine.behind - (winner.equity - mine.equity)).abs() < 1e-9);
                }
            }
        }
        assert!(longer > 0, "{cases:?}");
    }

    #[test]
    fn a_held_choice_stays_unless_a_play_is_clearly_ahead_of_it() {
        let cases = dropped_within_the_release();
        let mut held_first = 0;
        for (pair, _) in cases {
            let held = RaceConfig {
                hold_z: Some(2.0),
                ..config(144)
            };
            let raced = race(&Heuristic, MoveGen::new, pair, None, &held);
            let choice = raced.iter().find(|r| r.after == pair[0]).unwrap();
            let other = raced.iter().find(|r| r.after == pair[1]).unwrap();
            if choice.trials < other.trials {
                // Released: it trailed by twice the drop margin.
                assert!(choice.dropped);
                assert_eq!(raced[0].after, pair[1]);
            } else if raced[0].after == pair[0] {
                // Held: the other play is not ahead by more than 2 standard errors.
                assert!(-other.behind <= 2.0 * other.behind_std_err, "{raced:?}");
                held_first += 1;
            } else {
                assert!(choice.behind > 2.0 * choice.behind_std_err, "{raced:?}");
            }
        }
        assert!(held_first > 0, "no choice held: {cases:?}");
        // Unheld, the best mean wins.
        let (good, bad) = far_apart();
        let raced = race(&Heuristic, MoveGen::new, &[bad, good], None, &config(72));
        assert_eq!(raced[0].after, good);
    }

    #[test]
    fn the_budget_bounds_the_trials_of_all_the_plays_together() {
        let p = plays_of(5, 2)[0];
        let config = RaceConfig {
            budget: 300,
            ..config(432)
        };
        // Four copies of one play are never dropped: two blocks of 4 x 36 fit in 300.
        let raced = race(&Heuristic, MoveGen::new, &[p, p, p, p], None, &config);
        assert!(raced.iter().all(|r| r.trials == 72), "{raced:?}");
    }

    #[test]
    fn the_race_is_the_same_on_one_thread_and_on_two() {
        let plays: Vec<Position> = plays_of(4, 2).into_iter().take(3).collect();
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| race(&Heuristic, MoveGen::new, &plays, None, &config(72)))
        };
        assert_eq!(run(1), run(2));
    }

    #[test]
    fn refine_races_the_close_head_of_a_ranking_and_leaves_the_rest() {
        let plays = plays_of(2, 1);
        let mut ranked = rank_plays(
            &Heuristic,
            MoveGen::new,
            &plays,
            0,
            Filter::default(),
            |p| p.equity(),
        );
        let before = ranked.clone();
        let config = RaceConfig {
            within: 10.0,
            keep: 3,
            max_trials: 36,
            ..RaceConfig::default()
        };
        assert_eq!(
            refine(&Heuristic, MoveGen::new, &mut ranked, None, &config),
            3
        );
        assert!(ranked[..3].iter().all(|r| r.trials == 36));
        // The winner trails nothing; the others carry their paired difference to it.
        assert_eq!(ranked[0].behind, [0.0, 0.0]);
        assert!(ranked[1..3].iter().all(|r| r.behind[1] > 0.0), "{ranked:?}");
        let mut head: Vec<_> = ranked[..3].iter().map(|r| r.after).collect();
        let mut was: Vec<_> = before[..3].iter().map(|r| r.after).collect();
        head.sort_by_key(|p| p.to_counts());
        was.sort_by_key(|p| p.to_counts());
        assert_eq!(head, was);
        assert_eq!(ranked[3..], before[3..]);
        // Nothing is close: nothing is raced.
        let mut alone = before.clone();
        let narrow = RaceConfig {
            within: -1.0,
            ..config
        };
        assert_eq!(
            refine(&Heuristic, MoveGen::new, &mut alone, None, &narrow),
            0
        );
        assert_eq!(alone, before);
    }

    /// Time per decision of the level above strong (the 2-ply ranking with the default
    /// filter, then the race with the default settings) on the shipped nets, over positions
    /// of random play with a random roll:
    /// `cargo test --release -p tabula-ai race_decision_time -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn race_decision_time() {
        let shipped = RaceConfig::default();
        let unheld = RaceConfig {
            hold_z: None,
            ..shipped
        };
        for (name, config) in [("the choice held (shipped)", shipped), ("unheld", unheld)] {
            decision_time(name, &config);
        }
    }

    fn decision_time(name: &str, config: &RaceConfig) {
        use crate::backgammon::NeuralEvaluator;
        use crate::study::nply::is_over;
        use rand::{Rng, SeedableRng};
        use std::time::Instant;
        let nets = NeuralEvaluator::shipped();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut gen = MoveGen::new();
        let mut pos = Position::START;
        let (mut times, mut raced) = (Vec::new(), 0);
        while times.len() < 60 {
            if is_over(&pos) {
                pos = Position::START;
            }
            let roll = Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
            let candidates = gen.positions(&pos, roll).to_vec();
            if candidates.len() >= 2 {
                let t = Instant::now();
                let mut ranked = rank_plays(
                    nets,
                    MoveGen::new,
                    &candidates,
                    2,
                    Filter::default(),
                    Probabilities::equity,
                );
                if refine(nets, MoveGen::new, &mut ranked, None, config) > 0 {
                    raced += 1;
                }
                times.push(t.elapsed().as_secs_f64());
            }
            if !candidates.is_empty() {
                pos = candidates[rng.gen_range(0..candidates.len())];
            }
            pos = pos.flip();
        }
        times.sort_by(f64::total_cmp);
        println!(
            "2-ply and the race, {name}, {} threads: mean {:.2} s, median {:.2} s, worst {:.2} s per decision over {} positions ({} raced)",
            rayon::current_num_threads(),
            times.iter().sum::<f64>() / times.len() as f64,
            times[times.len() / 2],
            times[times.len() - 1],
            times.len(),
            raced
        );
    }
}
