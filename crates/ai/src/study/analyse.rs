//! The analysis of a played backgammon session (match or money), decision by decision: the
//! error of every chequer play and cube action against the best, a mark for each error, the
//! luck of every roll, and per player the error rates and a rating.
//!
//! **Units.** Every value is in EMG, equivalent money game points per unit of the cube: in
//! money play the cubeful equity ([`crate::backgammon::cubeful`]); in a match the
//! match-winning chance turned linear so that losing the current cube's points is -1 and
//! winning them +1 (gnubg's "normalised money game equivalent"). An error in points is the
//! EMG error times the cube.
//!
//! **Chequer play.** The plays are ranked at the settings' plies with the move filter and,
//! at 2 plies, the close ones valued again by the mean of 3 and 2 plies as the strong bot
//! values them ([`Settings::deeper`], [`nply::rank_plays_as_strong`]); the play made is
//! judged on the best play's footing if the ranking left it behind. Its error is the best
//! value less its value. A roll with one distinct result is forced and not counted.
//!
//! **Cube.** At every turn where the player on roll could double, the chances at the
//! settings' plies give no double, double/take and double/drop
//! ([`super::cube::CubeAnalysis`]); doubling where the right action is not to (or the
//! reverse) costs the difference between the two. At every double the answer is judged the
//! same way (a take where a pass is right, or the reverse). A close cube decision is
//! corrected by a rollout ([`super::cube_race`]): by default the strong bot's short one
//! ([`Settings::cube_check`]), with a race ([`Settings::race`]) the race's longer one. A cube
//! decision is counted in the
//! rates when it was acted on (a double, a take, a pass) or close: the best of double/take
//! and double/pass within [`CLOSE`] of no double.
//!
//! **Luck.** The luck of a roll is the value after the best 0-ply play with it less the mean
//! of that over the 36 rolls (0-ply, as gnubg's analysis uses); a player's luck is the sum.
//!
//! **Marks** follow gnubg's default thresholds (GNU Backgammon 1.07, `show analysis`):
//! doubtful from 0.03 EMG, bad from 0.06, very bad from 0.12. **Ratings** follow gnubg's table of error rates in mEMG per decision: below
//! 2 Supernatural, 5 World class, 8 Expert, 12 Advanced, 18 Intermediate, 26 Casual player,
//! 35 Beginner, and Awful! beyond.

use super::cube::{CubeAnalysis, Unit};
use super::cube_race::{self, CubeRaceConfig};
use super::nply::{self, Filter, RankedPlay};
use super::race::{self, RaceConfig};
use crate::backgammon::cube::{self as cube_rules, CubeState, Stakes};
use crate::backgammon::cubeful::{self, Owner};
use crate::backgammon::{Evaluator, Probabilities};
use rayon::prelude::*;
use tabula_core::{Color, Dice, Game, Status};
use tabula_tables::backgammon::{Action, Backgammon, Mode};
use tabula_tables::{MoveGen, Position};

/// A cube decision is "close" (counted in the cube error rate though no cube was turned)
/// when doubling is within this many EMG of not doubling.
pub const CLOSE: f32 = 0.1;

/// The analysis settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Plies for chequer play and cube decisions.
    pub plies: u32,
    /// The move filter for chequer play.
    pub filter: Filter,
    /// At 2 plies, value the close plays again by the mean of 3 and 2 plies, as the strong
    /// bot does (`crate::search::STRONG_DEEPER`; default on).
    pub deeper: bool,
    /// Race the close plays by rollouts after the search ([`super::race`]; `None`: no race).
    pub race: Option<RaceConfig>,
    /// The check of close cube decisions by a rollout when no race is set: by default the
    /// strong bot's ([`CubeRaceConfig::strong`]), so that the analysis judges a cube action
    /// as the bot decides it; a race's own cube configuration replaces it.
    pub cube_check: Option<CubeRaceConfig>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            plies: 2,
            filter: Filter::default(),
            deeper: true,
            race: None,
            cube_check: Some(CubeRaceConfig::strong()),
        }
    }
}

/// How bad an error is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Under 0.03 EMG.
    None,
    /// From 0.03 EMG.
    Doubtful,
    /// From 0.06 EMG.
    Bad,
    /// From 0.12 EMG.
    VeryBad,
}

impl Mark {
    /// The mark of an error of `emg`.
    pub fn of(emg: f32) -> Mark {
        if emg >= 0.12 {
            Mark::VeryBad
        } else if emg >= 0.06 {
            Mark::Bad
        } else if emg >= 0.03 {
            Mark::Doubtful
        } else {
            Mark::None
        }
    }

    /// The mark in gnubg's words (`""` for none).
    pub fn label(self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Doubtful => "doubtful",
            Mark::Bad => "bad",
            Mark::VeryBad => "very bad",
        }
    }
}

/// gnubg's rating for an error rate in mEMG per decision.
pub fn rating(memg: f64) -> &'static str {
    match memg {
        r if r < 2.0 => "Supernatural",
        r if r < 5.0 => "World class",
        r if r < 8.0 => "Expert",
        r if r < 12.0 => "Advanced",
        r if r < 18.0 => "Intermediate",
        r if r < 26.0 => "Casual player",
        r if r < 35.0 => "Beginner",
        _ => "Awful!",
    }
}

/// What kind of decision was analysed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A chequer play with these dice; `best` is the best play's result (mover's view),
    /// `forced` when the roll had one distinct result.
    Move {
        /// The dice.
        dice: Dice,
        /// The position after the play made (mover's view).
        played: Position,
        /// The position after the best play.
        best: Position,
        /// Legal distinct results of the roll.
        choices: usize,
    },
    /// The player on roll doubled (`true`) or rolled (`false`).
    Double(bool),
    /// The player doubled answered: took (`true`, beavers included) or passed.
    Answer(bool),
}

/// One analysed decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    /// Its index among the steps given to [`analyse`].
    pub step: usize,
    /// The game of the session it belongs to (1 first).
    pub game: u32,
    /// Who decided.
    pub player: Color,
    /// What was decided.
    pub kind: Kind,
    /// The cube's value at the decision.
    pub cube: u32,
    /// The equity given up, EMG (0 for the best choice).
    pub error: f32,
    /// Its mark.
    pub mark: Mark,
    /// Counted in the error rates (an unforced play; an acted-on or close cube decision).
    pub counted: bool,
    /// Chequer plays: the luck of the roll, EMG, for the mover.
    pub luck: Option<f32>,
    /// The decider's value (EMG) with the right choice: the graph of the game.
    pub value: f32,
    /// Cube decisions and answers: the three equities and the right actions.
    pub cube_analysis: Option<CubeAnalysis>,
    /// Chequer plays: the best plays found, best first (at most [`ALTERNATIVES`]).
    pub alternatives: [Option<Alternative>; ALTERNATIVES],
}

/// How many of the best plays a decision keeps.
pub const ALTERNATIVES: usize = 5;

/// One of the best plays of a decision: the play as ranked, and its value for the mover
/// (EMG, as the error).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Alternative {
    /// The play, its chances and their depth.
    pub play: RankedPlay,
    /// Its value for the mover, EMG.
    pub value: f32,
}

/// One player's totals.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PlayerStats {
    /// Unforced chequer plays.
    pub moves: u32,
    /// Their total error, EMG.
    pub chequer_error: f64,
    /// Cube decisions counted (acted on or close).
    pub cube_decisions: u32,
    /// Their total error, EMG.
    pub cube_error: f64,
    /// Total luck of the rolls, EMG.
    pub luck: f64,
    /// Errors marked doubtful, bad and very bad.
    pub marks: [u32; 3],
}

impl PlayerStats {
    fn rate(error: f64, n: u32) -> f64 {
        if n == 0 {
            0.0
        } else {
            1000.0 * error / f64::from(n)
        }
    }

    /// Chequer play error rate, mEMG per unforced play.
    pub fn chequer_rate(&self) -> f64 {
        PlayerStats::rate(self.chequer_error, self.moves)
    }

    /// Cube error rate, mEMG per counted cube decision.
    pub fn cube_rate(&self) -> f64 {
        PlayerStats::rate(self.cube_error, self.cube_decisions)
    }

    /// Overall error rate, mEMG per counted decision.
    pub fn overall_rate(&self) -> f64 {
        PlayerStats::rate(
            self.chequer_error + self.cube_error,
            self.moves + self.cube_decisions,
        )
    }
}

/// A whole analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The decisions, in order.
    pub decisions: Vec<Decision>,
    /// White's and Black's totals.
    pub white: PlayerStats,
    /// Black's totals.
    pub black: PlayerStats,
}

impl Analysis {
    /// The totals of `c`.
    pub fn stats(&self, c: Color) -> &PlayerStats {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// One decision the session asked: the session just before it, who decided, what they did
/// and, for a play, the dice.
pub type Step = (Backgammon, Color, Action, Option<Dice>);

/// What a decider's chances are worth in EMG in `session` (see the module docs), the cube
/// held as it is now. `p` are the decider's chances.
pub(super) fn value(session: &Backgammon, decider: Color, p: &Probabilities) -> f32 {
    let cube = session.game().cube();
    let state = CubeState::of(session, decider);
    match state.stakes {
        Stakes::Money { .. } => {
            let owner = match cube.owner() {
                None => Owner::Centred,
                Some(c) if c == decider => Owner::Player,
                Some(_) => Owner::Opponent,
            };
            let jacoby = matches!(session.options().mode, Mode::Money { jacoby: true, .. });
            cubeful::money_equity(p, owner, jacoby && owner == Owner::Centred)
        }
        Stakes::Match { .. } => {
            let (nd, _, _) = cube_rules::match_decision(p, &state).expect("a match");
            emg(session, decider, nd)
        }
    }
}

/// A match-winning chance of `decider` as EMG at the current cube.
fn emg(session: &Backgammon, decider: Color, mwc: f32) -> f32 {
    let state = CubeState::of(session, decider);
    let (win, lose) = cube_rules::match_cube_swing(&state).expect("a match");
    if win - lose <= f32::EPSILON {
        return 0.0;
    }
    2.0 * (mwc - lose) / (win - lose) - 1.0
}

/// The cube decision of the player on roll in `board` at `state`, searched at the settings'
/// plies; a close one corrected by a rollout ([`super::cube_race`]): the race's cube
/// configuration when a race is set, else the settings' `cube_check`.
fn cube_analysis(
    eval: &(impl Evaluator + Sync),
    gen: &mut MoveGen,
    board: &Position,
    state: &CubeState,
    settings: &Settings,
) -> CubeAnalysis {
    let check = match settings.race {
        Some(race) => race.cube,
        None => settings.cube_check,
    };
    cube_race::decide(eval, gen, board, state, settings.plies, check.as_ref())
}

/// A difference of cube-decision values in EMG.
fn cube_diff(session: &Backgammon, decider: Color, a: &CubeAnalysis, x: f32, y: f32) -> f32 {
    match a.unit {
        Unit::Money => (x - y).abs(),
        Unit::MatchWinningChance => (emg(session, decider, x) - emg(session, decider, y)).abs(),
    }
}

fn analyse_move(
    eval: &(impl Evaluator + Sync),
    session: &Backgammon,
    player: Color,
    dice: Dice,
    played: Position,
    settings: &Settings,
) -> (
    Kind,
    f32,
    bool,
    f32,
    f32,
    [Option<Alternative>; ALTERNATIVES],
) {
    let board = session.game().board();
    let mut gen = MoveGen::new();
    let candidates = gen.positions(&board, dice).to_vec();
    let score = |p: &Probabilities| value(session, player, p);
    let luck = nply::luck_0ply(eval, &mut gen, &board, dice, score);
    if candidates.len() <= 1 {
        let kind = Kind::Move {
            dice,
            played,
            best: played,
            choices: candidates.len(),
        };
        let v = if candidates.is_empty() {
            score(&eval.evaluate(&board.flip()).flip())
        } else {
            score(&eval.evaluate(&played.flip()).flip())
        };
        return (kind, 0.0, false, luck, v, [None; ALTERNATIVES]);
    }
    let mut ranked = nply::rank_plays_as_strong(
        eval,
        MoveGen::new,
        &candidates,
        settings.plies,
        settings.filter,
        settings.deeper,
        score,
    );
    let searched = ranked.clone();
    if let Some(race) = &settings.race {
        // The played play is kept in the race when it is a contender, so that its shortfall
        // is measured over all of the winner's trials (race::race).
        race::refine(eval, MoveGen::new, &mut ranked, Some(played), race);
    }
    let best = ranked[0];
    // The played play against the best on one footing: the rollouts when both were raced,
    // else the search's values.
    let raced = |p: &Position| ranked.iter().find(|r| r.after == *p && r.trials > 0);
    let (best_value, played_value) = match raced(&played) {
        Some(r) => (score(&best.chances), score(&r.chances)),
        None => {
            let best_searched = searched
                .iter()
                .find(|r| r.after == best.after)
                .expect("the race reorders the ranking's own plays");
            // The played play on the best play's footing: its depth, blended or not.
            let footing = |r: &&RankedPlay| {
                r.plies == best_searched.plies && r.blended == best_searched.blended
            };
            let played_value = match searched.iter().find(|r| r.after == played) {
                Some(r) if footing(&r) => score(&r.chances),
                _ if best_searched.blended => score(
                    &nply::chances_blended(eval, &mut gen, &played.flip(), best_searched.plies)
                        .flip(),
                ),
                _ => score(&nply::chances(eval, &mut gen, &played.flip(), settings.plies).flip()),
            };
            (score(&best_searched.chances), played_value)
        }
    };
    let kind = Kind::Move {
        dice,
        played,
        best: best.after,
        choices: candidates.len(),
    };
    let mut alternatives = [None; ALTERNATIVES];
    for (slot, r) in alternatives.iter_mut().zip(&ranked) {
        *slot = Some(Alternative {
            play: *r,
            value: score(&r.chances),
        });
    }
    (
        kind,
        (best_value - played_value).max(0.0),
        true,
        luck,
        best_value.max(played_value),
        alternatives,
    )
}

fn analyse_one(
    eval: &(impl Evaluator + Sync),
    index: usize,
    (session, player, action, dice): &Step,
    settings: &Settings,
) -> Option<Decision> {
    let player = *player;
    let game = session.game_number();
    let cube = session.game().cube().value();
    let Status::Decide { decision, .. } = session.status() else {
        return None;
    };
    let mut gen = MoveGen::new();
    let mut alternatives = [None; ALTERNATIVES];
    let (kind, error, counted, luck, value_now, cube_analysis) = match (decision, action) {
        (tabula_core::Decision::Move, Action::Move(played)) => {
            let dice = (*dice).or(session.game().dice())?;
            let (kind, error, counted, luck, v, alts) =
                analyse_move(eval, session, player, dice, *played, settings);
            alternatives = alts;
            (kind, error, counted, Some(luck), v, None)
        }
        (tabula_core::Decision::DoubleOrRoll, Action::Roll | Action::Double) => {
            let doubled = *action == Action::Double;
            let board = session.game().board();
            let state = CubeState::of(session, player);
            let a = cube_analysis(eval, &mut gen, &board, &state, settings);
            let take_or_drop = a.double_take.min(a.double_drop);
            let error = if doubled == a.double {
                0.0
            } else {
                cube_diff(session, player, &a, take_or_drop, a.no_double)
            };
            let gap = match a.unit {
                Unit::Money => take_or_drop - a.no_double,
                Unit::MatchWinningChance => {
                    emg(session, player, take_or_drop) - emg(session, player, a.no_double)
                }
            };
            let counted = doubled || a.double || gap > -CLOSE;
            let v = match a.unit {
                Unit::Money => a.best(),
                Unit::MatchWinningChance => emg(session, player, a.best()),
            };
            (Kind::Double(doubled), error, counted, None, v, Some(a))
        }
        (tabula_core::Decision::TakeOrDrop, Action::Take | Action::Beaver | Action::Drop) => {
            let took = *action != Action::Drop;
            // The board is seen from the doubler, the cube state before the double.
            let doubler = !player;
            let board = session.game().board();
            let state = CubeState::of(session, doubler);
            let a = cube_analysis(eval, &mut gen, &board, &state, settings);
            let error = if took == a.take {
                0.0
            } else {
                cube_diff(session, doubler, &a, a.double_take, a.double_drop)
            };
            let v = match a.unit {
                Unit::Money => -a.double_take.min(a.double_drop),
                Unit::MatchWinningChance => {
                    -emg(session, doubler, a.double_take.min(a.double_drop))
                }
            };
            (Kind::Answer(took), error, true, None, v, Some(a))
        }
        _ => return None,
    };
    Some(Decision {
        step: index,
        game,
        player,
        kind,
        cube,
        error,
        mark: Mark::of(error),
        counted,
        luck,
        value: value_now,
        cube_analysis,
        alternatives,
    })
}

/// Analyses `steps` (every decision of a session, in order) with `settings`, on the current
/// rayon pool; `progress` is called once per step analysed. Resignations are not analysed.
pub fn analyse(
    eval: &(impl Evaluator + Sync),
    steps: &[Step],
    settings: &Settings,
    progress: impl Fn() + Sync,
) -> Analysis {
    let decisions: Vec<Decision> = steps
        .par_iter()
        .enumerate()
        .filter_map(|(i, step)| {
            let d = analyse_one(eval, i, step, settings);
            progress();
            d
        })
        .collect();
    let mut white = PlayerStats::default();
    let mut black = PlayerStats::default();
    for d in &decisions {
        let s = match d.player {
            Color::White => &mut white,
            Color::Black => &mut black,
        };
        if let Some(l) = d.luck {
            s.luck += f64::from(l);
        }
        if !d.counted {
            continue;
        }
        match d.kind {
            Kind::Move { .. } => {
                s.moves += 1;
                s.chequer_error += f64::from(d.error);
            }
            Kind::Double(_) | Kind::Answer(_) => {
                s.cube_decisions += 1;
                s.cube_error += f64::from(d.error);
            }
        }
        match d.mark {
            Mark::None => {}
            Mark::Doubtful => s.marks[0] += 1,
            Mark::Bad => s.marks[1] += 1,
            Mark::VeryBad => s.marks[2] += 1,
        }
    }
    Analysis {
        decisions,
        white,
        black,
    }
}
