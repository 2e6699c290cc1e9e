//! Cubeless rollouts: a position played out many times by the evaluator's 0-ply choices,
//! with the mean and standard error of the results.
//!
//! - **Seeded and reproducible.** Trial `t` draws its dice from a ChaCha8 stream `t` of the
//!   rollout's seed, so a trial's game is the same whatever the number of threads, and the
//!   trials are summed in their order: the result depends on the seed and the settings only.
//! - **Stratified first rolls.** Trial `t` begins with the ordered roll `a = t mod 36` and
//!   answers it with the ordered roll `(t / 36 + 5a) mod 36`, so 1,296 trials play every pair
//!   of opening rolls exactly once, and each block of 36 trials (`0..36`, `36..72`, ...) every
//!   first roll once and every reply once (5 and 36 have no common factor): a short rollout
//!   does not answer every first roll with the same reply.
//! - **Variance reduction by luck.** At every roll the luck of the player to move is the
//!   value (0-ply, from the rollout's side) after their best play with the roll they got, less
//!   the mean of that value over all 36 rolls. Luck has mean zero, so subtracting each
//!   trial's total luck from its result leaves the expectation unchanged and removes most of
//!   the dice's noise (the estimator gnubg and every strong program use). It costs the 21
//!   rolls' best plays at every move, about 21 times the work of a plain trial.
//! - **Truncation.** With `truncate = n` a trial stops after `n` plays and takes the
//!   evaluator's chances there.
//! - **Exact endings.** A trial stops where `exact` knows the answer (the backgammon bear-off
//!   database), taking it.
//! - **Dead positions end.** A position no roll can change for either side (Never-Finishing's
//!   dead position, a draw by its rules) ends the trial as a draw: half a win, equity 0.
//!   Without this a trial that reached one played it forever. As a bound on any trial's
//!   time, one still going after [`MAX_PLIES`] plays stops there like a truncated one.

use super::nply::{add_weighted, best_play_0ply, best_plays_0ply, is_over};
use super::sums::{run_blocks, Sums};
use crate::backgammon::{Evaluator, Probabilities};
use crate::search::{is_dead, Plays};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;
use tabula_core::{Dice, Die};
use tabula_tables::Position;

/// The settings of a rollout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RolloutConfig {
    /// Games played out.
    pub trials: u32,
    /// Stop each trial after this many plays and take the evaluator there (`None`: play to
    /// the end).
    pub truncate: Option<u32>,
    /// The seed of the dice.
    pub seed: u64,
    /// Subtract each trial's luck (see the module docs).
    pub variance_reduction: bool,
}

impl Default for RolloutConfig {
    fn default() -> RolloutConfig {
        RolloutConfig {
            trials: 1296,
            truncate: None,
            seed: 1,
            variance_reduction: true,
        }
    }
}

/// A rollout's result, from the side of the player on roll at the start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RolloutResult {
    /// Trials played.
    pub trials: u32,
    /// The mean chances (win, win gammon, win backgammon, lose gammon, lose backgammon).
    pub chances: Probabilities,
    /// The standard error of each of the five means, in the same order.
    pub std_err: [f64; 5],
    /// The mean cubeless equity.
    pub equity: f64,
    /// Its standard error.
    pub equity_std_err: f64,
}

impl RolloutResult {
    /// The half-width of the 95 % confidence interval of the equity (1.96 standard errors).
    pub fn equity_ci95(&self) -> f64 {
        1.96 * self.equity_std_err
    }
}

fn as_array(p: &Probabilities) -> [f64; 5] {
    [
        f64::from(p.win),
        f64::from(p.win_gammon),
        f64::from(p.win_backgammon),
        f64::from(p.lose_gammon),
        f64::from(p.lose_backgammon),
    ]
}

fn equity_of(v: &[f64; 5]) -> f64 {
    2.0 * v[0] - 1.0 + v[1] - v[3] + v[2] - v[4]
}

/// The ordered roll number `i` (0..36): first die `i / 6 + 1`, second `i mod 6 + 1`.
fn ordered_roll(i: u64) -> Dice {
    let die = |v: u64| Die::new(v as u8 + 1).expect("0..6 + 1 is a die");
    Dice::from_values(die(i / 6), die(i % 6))
}

/// The ordered roll numbers (0..36) of trial `t`'s first roll and of the reply to it (see
/// the module docs).
pub(super) fn opening_rolls(t: u64) -> (u64, u64) {
    (t % 36, (t / 36 + 5 * t) % 36)
}

/// The dice of play `ply` of trial `t`: the stratified first two rolls, then the trial's
/// stream.
pub(super) fn trial_dice(ply: u32, t: u64, rng: &mut ChaCha8Rng) -> Dice {
    match ply {
        0 => ordered_roll(opening_rolls(t).0),
        1 => ordered_roll(opening_rolls(t).1),
        _ => Dice::from_values(
            Die::new(rng.gen_range(1..=6)).expect("a die"),
            Die::new(rng.gen_range(1..=6)).expect("a die"),
        ),
    }
}

/// A trial still going after this many plays stops and takes the evaluator's chances, as a
/// truncated one does: a bound on any trial's time, whatever the game (real games end in a
/// few hundred plays at most).
pub const MAX_PLIES: u32 = 5_000;

/// A drawn game's chances (a dead Never-Finishing position): half a win, no gammons.
const DRAW: Probabilities = Probabilities {
    win: 0.5,
    win_gammon: 0.0,
    win_backgammon: 0.0,
    lose_gammon: 0.0,
    lose_backgammon: 0.0,
};

/// One trial's result (root's view), luck already subtracted when asked.
pub(super) fn trial<E: Evaluator, P: Plays>(
    eval: &E,
    plays: &mut P,
    exact: &impl Fn(&Position) -> Option<Probabilities>,
    root: &Position,
    config: &RolloutConfig,
    t: u64,
) -> [f64; 5] {
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    rng.set_stream(t);
    let mut pos = *root;
    // Whether the player on roll in `pos` is the rollout's side.
    let mut ours = true;
    let mut luck = Probabilities::default();
    let to_root = |p: Probabilities, ours: bool| if ours { p } else { p.flip() };
    let mut ply = 0u32;
    let end = loop {
        if is_over(&pos) || config.truncate == Some(ply) || ply == MAX_PLIES {
            break to_root(eval.evaluate(&pos), ours);
        }
        if ply > 0 {
            if let Some(p) = exact(&pos) {
                break to_root(p, ours);
            }
        }
        let dice = trial_dice(ply, t, &mut rng);
        let next = if config.variance_reduction {
            // The mover's value after each roll's best play, and the mean over the rolls.
            let mut mean = Probabilities::default();
            let mut got = None;
            let best = best_plays_0ply(eval, plays, &pos);
            for (d, best) in Dice::all().zip(best) {
                let (after, theirs) = match best {
                    Some(x) => x,
                    None => (pos, eval.evaluate(&pos.flip())),
                };
                add_weighted(&mut mean, &theirs.flip(), d.weight() as f32 / 36.0);
                if d == dice {
                    got = Some((after, theirs.flip()));
                }
            }
            let (after, value) = got.expect("the roll is one of the 21");
            // Luck of the mover, turned to the rollout's side.
            let diff = Probabilities {
                win: value.win - mean.win,
                win_gammon: value.win_gammon - mean.win_gammon,
                win_backgammon: value.win_backgammon - mean.win_backgammon,
                lose_gammon: value.lose_gammon - mean.lose_gammon,
                lose_backgammon: value.lose_backgammon - mean.lose_backgammon,
            };
            // Flipping a difference of chances swaps the gammon outputs and negates the
            // win: add it by hand rather than through `flip`, which would add 1.
            if ours {
                add_weighted(&mut luck, &diff, 1.0);
            } else {
                luck.win -= diff.win;
                luck.win_gammon += diff.lose_gammon;
                luck.win_backgammon += diff.lose_backgammon;
                luck.lose_gammon += diff.win_gammon;
                luck.lose_backgammon += diff.win_backgammon;
            }
            after
        } else {
            best_play_0ply(eval, plays, &pos, dice).map_or(pos, |(after, _)| after)
        };
        // A roll without a move may have left a dead position (Never-Finishing: no roll
        // moves either side again), which would otherwise be played forever: a draw, half a
        // win from either side (equity 0).
        if next == pos && is_dead(plays, &pos) {
            break DRAW;
        }
        pos = next.flip();
        ours = !ours;
        ply += 1;
    };
    let mut v = as_array(&end);
    let l = as_array(&luck);
    for k in 0..5 {
        v[k] -= l[k];
    }
    v
}

/// Rolls out `root` (the player on roll to roll). `plays_for` makes each worker's play
/// generator; `exact` answers the positions known exactly; `progress` is called once per
/// finished trial (from any thread). Runs on the current rayon pool.
pub fn rollout<E, P>(
    eval: &E,
    plays_for: impl Fn() -> P + Sync,
    exact: impl Fn(&Position) -> Option<Probabilities> + Sync,
    root: &Position,
    config: &RolloutConfig,
    progress: impl Fn() + Sync,
) -> RolloutResult
where
    E: Evaluator + Sync,
    P: Plays,
{
    let sums = rollout_resume(
        eval,
        plays_for,
        exact,
        root,
        config,
        (Sums::default(), config.trials.max(1)),
        progress,
        &AtomicBool::new(false),
        |_| {},
    );
    RolloutResult::of(&sums)
}

/// The trials `from.trials..config.trials` of a rollout, in blocks of `block` trials,
/// added to `from` (the sums of the trials before; [`Sums::default`] to begin). Calls
/// `progress` once per finished trial and `on_block` with the sums after each block; stops
/// between blocks once `cancel` is set. The sums of trials `0..n` are the same whether they
/// were played in one call or in several ([`super::sums`]).
#[allow(clippy::too_many_arguments)]
pub fn rollout_resume<E, P>(
    eval: &E,
    plays_for: impl Fn() -> P + Sync,
    exact: impl Fn(&Position) -> Option<Probabilities> + Sync,
    root: &Position,
    config: &RolloutConfig,
    (from, block): (RolloutSums, u32),
    progress: impl Fn() + Sync,
    cancel: &AtomicBool,
    on_block: impl FnMut(&RolloutSums),
) -> RolloutSums
where
    E: Evaluator + Sync,
    P: Plays,
{
    run_blocks(
        from,
        config.trials,
        block,
        cancel,
        plays_for,
        |plays, t| {
            let r = trial(eval, plays, &exact, root, config, t);
            progress();
            [r[0], r[1], r[2], r[3], r[4], equity_of(&r)]
        },
        on_block,
    )
}

/// The sums a cubeless rollout keeps: the five chances and the cubeless equity.
pub type RolloutSums = Sums<6>;

impl RolloutResult {
    /// The result of the trials summed in `sums`.
    pub fn of(sums: &RolloutSums) -> RolloutResult {
        let mean = sums.mean();
        let se = sums.std_err();
        RolloutResult {
            trials: sums.trials,
            chances: Probabilities {
                win: mean[0] as f32,
                win_gammon: mean[1] as f32,
                win_backgammon: mean[2] as f32,
                lose_gammon: mean[3] as f32,
                lose_backgammon: mean[4] as f32,
            },
            std_err: [se[0], se[1], se[2], se[3], se[4]],
            equity: mean[5],
            equity_std_err: se[5],
        }
    }
}
