//! Cubeful rollouts: a position played out many times with the cube in play, each player
//! doubling, taking and dropping by the evaluator's 0-ply chances
//! ([`crate::backgammon::cube`]), and the mean and standard error of what the games were
//! worth.
//!
//! - **What is valued.** The position with the cube as given and the player on roll about
//!   to roll (they have not doubled). Valuing a cube decision means rolling out two cube
//!   states from the same position: no double (the cube where it is) and double/take (the
//!   cube at twice its value, held by the opponent); [`cube_decision`] does both, on the same
//!   dice, so that their difference is measured more precisely than either value.
//! - **Units.** Money: points per unit of the starting cube, from the side of the player on
//!   roll at the start. A match: that player's chance of winning the match.
//! - **Inside a trial.** Before every roll after the first, the player on roll doubles when
//!   the cube rules say so at 0-ply; the opponent takes, drops (the trial ends there) or,
//!   in money play with beavers, beavers. The Jacoby rule counts gammons once the cube has
//!   moved; a match game ends in match-winning chances through the table.
//! - **Dice, seeds, stratified first rolls, truncation:** as in the cubeless rollouts
//!   ([`super::rollout`]). A truncated trial takes the evaluator's cubeful value
//!   (Janowski's interpolation) where it stops.
//! - **Variance reduction.** The luck of each roll is measured on the cubeful value: the
//!   value after the best play with the roll, less its mean over the 36 rolls, with the cube
//!   as it stands. It has mean zero whatever the value measured, so subtracting it leaves the
//!   expectation unchanged.
//! - **No early stop in bear-offs.** The bear-off database's chances are cubeless; a trial
//!   with the cube in play is played to its end, where the cube can still turn.

use super::nply::{best_play_0ply, best_plays_0ply, is_over};
use super::rollout::{trial_dice, RolloutConfig, MAX_PLIES};
use super::sums::{run_blocks, Sums};
use crate::backgammon::cube::{self, Answer, CubeState, Stakes};
use crate::backgammon::cubeful::{self, Owner};
use crate::backgammon::match_cube::{self, Holder, Score};
use crate::backgammon::{Evaluator, Probabilities};
use crate::search::{is_dead, Plays};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;
use tabula_core::Dice;
use tabula_tables::Position;

/// A cubeful rollout's result, from the side of the player on roll at the start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubefulResult {
    /// Trials played.
    pub trials: u32,
    /// The mean value (points per starting cube unit, or match-winning chance).
    pub value: f64,
    /// Its standard error.
    pub std_err: f64,
}

/// The rollouts of a cube decision, from the doubler's side, in the units of the module
/// docs (money: per unit of the cube before the double).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubeRollout {
    /// Not doubling.
    pub no_double: CubefulResult,
    /// Doubling, the opponent taking.
    pub double_take: CubefulResult,
    /// Doubling, the opponent dropping (exact: one cube unit, or the table).
    pub double_drop: f64,
}

impl CubeRollout {
    /// The player on roll should double: double/take and double/drop both beat no double.
    pub fn double(&self) -> bool {
        self.double_take.value.min(self.double_drop) > self.no_double.value
    }

    /// The opponent should take: taking costs them no more than dropping.
    pub fn take(&self) -> bool {
        self.double_take.value <= self.double_drop
    }
}

/// The cube as the rollout's player sees it: the stakes, whose value the cube has, who
/// holds it.
#[derive(Debug, Clone, Copy)]
struct Cube {
    /// The starting state, for the player on roll at the start.
    root: CubeState,
    value: u32,
    holder: Holder,
}

impl Cube {
    fn start(root: &CubeState, value: u32, holder: Holder) -> Cube {
        Cube {
            root: *root,
            value,
            holder,
        }
    }

    fn score(&self) -> Option<Score> {
        match self.root.stakes {
            Stakes::Money { .. } => None,
            Stakes::Match {
                away_me,
                away_opp,
                next,
                ..
            } => Some(Score {
                away_me,
                away_opp,
                next,
            }),
        }
    }

    /// The Jacoby rule is in force: set at the start with a centred cube, and the cube still
    /// centred.
    fn jacoby(&self) -> bool {
        matches!(
            self.root.stakes,
            Stakes::Money {
                jacoby_applies: true,
                ..
            }
        ) && self.holder == Holder::Centred
    }

    /// The state for a player: the root player (`ours`) or the opponent.
    fn state_for(&self, ours: bool) -> CubeState {
        let holder = if ours { self.holder } else { flip(self.holder) };
        let stakes = match self.root.stakes {
            Stakes::Money { beavers, .. } => Stakes::Money {
                beavers,
                jacoby_applies: self.jacoby(),
                centred: holder == Holder::Centred,
            },
            Stakes::Match {
                away_me,
                away_opp,
                next,
                crawford_game,
                ..
            } => Stakes::Match {
                away_me: if ours { away_me } else { away_opp },
                away_opp: if ours { away_opp } else { away_me },
                next,
                crawford_game,
                holder,
            },
        };
        CubeState {
            cube: self.value,
            stakes,
        }
    }

    /// Whether the player (`ours`: the root player) may double now.
    fn may_double(&self, ours: bool) -> bool {
        let crawford = matches!(
            self.root.stakes,
            Stakes::Match {
                crawford_game: true,
                ..
            }
        );
        let holder = if ours { self.holder } else { flip(self.holder) };
        !crawford && holder != Holder::Opponent
    }

    /// The root player's value of a position with their cubeless chances `p`: at 0-ply
    /// with Janowski's interpolation (`live`), or the game's end (`!live`).
    fn value(&self, p: &Probabilities, live: bool) -> f64 {
        let relative = f64::from(self.value) / f64::from(self.root.cube);
        match self.score() {
            None => {
                let per_cube = if live {
                    let owner = match self.holder {
                        Holder::Centred => Owner::Centred,
                        Holder::Player => Owner::Player,
                        Holder::Opponent => Owner::Opponent,
                    };
                    cubeful::money_equity(p, owner, self.jacoby())
                } else if self.jacoby() {
                    2.0 * p.win - 1.0
                } else {
                    p.equity()
                };
                relative * f64::from(per_cube)
            }
            Some(score) if live => f64::from(match_cube::cubeful_chances(
                p,
                self.value,
                self.holder,
                &score,
                cubeful::CUBE_EFFICIENCY,
            )),
            Some(score) => f64::from(match_cube::dead_chances(p, self.value, &score)),
        }
    }

    /// The root player's value when the player `ours` drops a double of the current cube.
    fn dropped(&self, ours: bool) -> f64 {
        let points = if ours { -1 } else { 1 };
        match self.score() {
            None => points as f64 * f64::from(self.value) / f64::from(self.root.cube),
            Some(score) => f64::from(score.after(points * i64::from(self.value))),
        }
    }
}

fn flip(h: Holder) -> Holder {
    match h {
        Holder::Centred => Holder::Centred,
        Holder::Player => Holder::Opponent,
        Holder::Opponent => Holder::Player,
    }
}

/// One trial's value (root's view), luck subtracted when asked.
fn trial<E: Evaluator, P: Plays>(
    eval: &E,
    plays: &mut P,
    root: &Position,
    start: Cube,
    config: &RolloutConfig,
    t: u64,
) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    rng.set_stream(t);
    let mut pos = *root;
    let mut cube = start;
    let mut ours = true;
    let mut luck = 0.0;
    let to_root = |p: Probabilities, ours: bool| if ours { p } else { p.flip() };
    let mut ply = 0u32;
    let end = loop {
        if is_over(&pos) {
            break cube.value(&to_root(eval.evaluate(&pos), ours), false);
        }
        if config.truncate == Some(ply) || ply == MAX_PLIES {
            break cube.value(&to_root(eval.evaluate(&pos), ours), true);
        }
        if ply > 0 && cube.may_double(ours) {
            let p = eval.evaluate(&pos);
            if cube::should_double(&p, &cube.state_for(ours)) {
                match cube::answer_double(&p.flip(), &cube.state_for(!ours)) {
                    Answer::Drop => break cube.dropped(!ours),
                    answer => {
                        let factor = if answer == Answer::Beaver { 4 } else { 2 };
                        cube.value = cube.value.saturating_mul(factor);
                        // After a take the taker holds the cube; after a beaver too.
                        cube.holder = if ours {
                            Holder::Opponent
                        } else {
                            Holder::Player
                        };
                    }
                }
            }
        }
        let dice = trial_dice(ply, t, &mut rng);
        let next = if config.variance_reduction {
            let mut mean = 0.0;
            let mut got = None;
            let best = best_plays_0ply(eval, plays, &pos);
            for (d, best) in Dice::all().zip(best) {
                let (after, theirs) = match best {
                    Some(x) => x,
                    None => (pos, eval.evaluate(&pos.flip())),
                };
                let v = cube.value(&to_root(theirs, !ours), true);
                mean += v * f64::from(d.weight()) / 36.0;
                if d == dice {
                    got = Some((after, v));
                }
            }
            let (after, v) = got.expect("the roll is one of the 21");
            luck += v - mean;
            after
        } else {
            best_play_0ply(eval, plays, &pos, dice).map_or(pos, |(after, _)| after)
        };
        // A position no roll can ever change (both sides closed out on the bar) would be
        // played forever: nobody wins, the cube's stake changes hands for nothing (0).
        if next == pos && is_dead(plays, &pos) {
            break 0.0;
        }
        pos = next.flip();
        ours = !ours;
        ply += 1;
    };
    end - luck
}

/// Rolls out `root` (the player on roll to roll, not doubling) with the cube `value` held by
/// `holder` (root player's view) and the stakes of `state`, whose cube is the unit of money
/// results. Runs on the current rayon pool; `progress` is called once per finished trial.
pub fn rollout_cubeful<E, P>(
    eval: &E,
    plays_for: impl Fn() -> P + Sync,
    root: &Position,
    state: &CubeState,
    (value, holder): (u32, Holder),
    config: &RolloutConfig,
    progress: impl Fn() + Sync,
) -> CubefulResult
where
    E: Evaluator + Sync,
    P: Plays,
{
    let sums = rollout_cubeful_resume(
        eval,
        plays_for,
        root,
        state,
        (value, holder),
        config,
        (Sums::default(), config.trials.max(1)),
        progress,
        &AtomicBool::new(false),
        |_| {},
    );
    CubefulResult::of(&sums)
}

/// The sums a cubeful rollout keeps: the value of each trial.
pub type CubefulSums = Sums<1>;

impl CubefulResult {
    /// The result of the trials summed in `sums`.
    pub fn of(sums: &CubefulSums) -> CubefulResult {
        CubefulResult {
            trials: sums.trials,
            value: sums.mean()[0],
            std_err: sums.std_err()[0],
        }
    }
}

/// [`rollout_cubeful`]'s trials `from.trials..config.trials` in blocks of `block`, added to
/// `from`, `on_block` called with the sums after each block, stopping between blocks once
/// `cancel` is set (as [`super::rollout::rollout_resume`]).
#[allow(clippy::too_many_arguments)]
pub fn rollout_cubeful_resume<E, P>(
    eval: &E,
    plays_for: impl Fn() -> P + Sync,
    root: &Position,
    state: &CubeState,
    (value, holder): (u32, Holder),
    config: &RolloutConfig,
    (from, block): (CubefulSums, u32),
    progress: impl Fn() + Sync,
    cancel: &AtomicBool,
    on_block: impl FnMut(&CubefulSums),
) -> CubefulSums
where
    E: Evaluator + Sync,
    P: Plays,
{
    let start = Cube::start(state, value, holder);
    run_blocks(
        from,
        config.trials,
        block,
        cancel,
        plays_for,
        |plays, t| {
            let r = trial(eval, plays, root, start, config, t);
            progress();
            [r]
        },
        on_block,
    )
}

/// What a doubler's side has after a double dropped: one cube unit, or the match table's
/// figure (from the doubler's side, in the units of the module docs).
pub fn dropped_value(state: &CubeState, holder: Holder) -> f64 {
    Cube::start(state, state.cube, holder).dropped(false)
}

/// Rolls out the cube decision of the player on roll in `state` (who must be allowed to
/// double: the cube centred or theirs, not the Crawford game): no double, then double/take
/// on the same dice.
pub fn cube_decision<E, P>(
    eval: &E,
    plays_for: impl Fn() -> P + Sync + Clone,
    root: &Position,
    state: &CubeState,
    holder: Holder,
    config: &RolloutConfig,
    progress: impl Fn() + Sync + Clone,
) -> CubeRollout
where
    E: Evaluator + Sync,
    P: Plays,
{
    let c = state.cube;
    let no_double = rollout_cubeful(
        eval,
        plays_for.clone(),
        root,
        state,
        (c, holder),
        config,
        progress.clone(),
    );
    let double_take = rollout_cubeful(
        eval,
        plays_for,
        root,
        state,
        (2 * c, Holder::Opponent),
        config,
        progress,
    );
    let double_drop = dropped_value(state, holder);
    CubeRollout {
        no_double,
        double_take,
        double_drop,
    }
}
