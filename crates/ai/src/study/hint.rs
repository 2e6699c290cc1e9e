//! A hint for the decision a backgammon session asks now, in the session's real stakes (the
//! cube where it is, the match score): the plays of the roll ranked, or the cube decision
//! (to double, or to take) with its three equities. The server's hint button uses it; the
//! command line's `tabula hint` reads positions from notation instead.

use super::analyse::value;
use super::cube::{CubeAnalysis, Unit};
use super::cube_race::{self, CubeRaceConfig};
use super::nply::{self, Filter};
use crate::backgammon::cube::{self as cube_rules, CubeState};
use crate::backgammon::{ChancesReport, Evaluator, Probabilities};
use serde::Serialize;
use tabula_core::{Decision, Dice, Game, Status};
use tabula_tables::backgammon::Backgammon;
use tabula_tables::notation::format_play;
use tabula_tables::{MoveGen, Position};

/// One ranked play.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HintPlay {
    /// Its rank, 1 for the best.
    pub rank: usize,
    /// The play in gnubg's notation.
    #[serde(rename = "move")]
    pub play: String,
    /// Its value in the hint's unit.
    pub equity: f32,
    /// Its difference to the best play's value (0 or negative).
    pub diff: f32,
    /// The mover's cubeless chances after it.
    pub chances: ChancesReport,
    /// The depth of those chances (0 for plays the move filter did not search deeper).
    pub plies: u32,
    /// Whether they are the mean of `plies` and `plies - 1` (a close play of the 2-ply hint
    /// valued again as the strong bot values it, [`nply::deepen`]).
    pub blended: bool,
    /// The position after it, seen from the mover.
    #[serde(skip)]
    pub after: Position,
}

/// What the hint says.
#[derive(Debug, Clone, PartialEq)]
pub enum Hint {
    /// The plays of the roll, best first.
    Plays {
        /// The roll.
        dice: Dice,
        /// The unit of the values: money equity or match-winning chance.
        unit: Unit,
        /// The ranked plays (none when the roll cannot be played).
        plays: Vec<HintPlay>,
    },
    /// A cube decision: to double (the player on roll) or to take (the player doubled).
    Cube {
        /// The player answers a double (else may double).
        answering: bool,
        /// The equities, from the doubler's side, and the proper actions.
        analysis: CubeAnalysis,
    },
}

/// The hint for the decision `session` asks now, searched at `plies` (a close cube decision
/// then checked by the strong bot's rollout, [`CubeRaceConfig::strong`]); `None` when the
/// decision is none of a play, a double and an answer to one (a resignation).
pub fn hint(eval: &(impl Evaluator + Sync), session: &Backgammon, plies: u32) -> Option<Hint> {
    let Status::Decide { player, decision } = session.status() else {
        return None;
    };
    let board = session.game().board();
    match decision {
        Decision::Move => {
            let dice = session.game().dice()?;
            let legal = board.legal_plays(dice);
            let candidates: Vec<_> = legal.iter().map(|(_, after)| *after).collect();
            let state = CubeState::of(session, player);
            let unit = Unit::of(&state.stakes);
            let score = |p: &Probabilities| match unit {
                Unit::Money => value(session, player, p),
                Unit::MatchWinningChance => {
                    cube_rules::match_decision(p, &state).map_or(0.0, |(nd, _, _)| nd)
                }
            };
            let ranked = nply::rank_plays_as_strong(
                eval,
                MoveGen::new,
                &candidates,
                plies,
                Filter::default(),
                true,
                score,
            );
            let best = ranked.first().map(|r| score(&r.chances));
            let plays = ranked
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let equity = score(&r.chances);
                    HintPlay {
                        rank: i + 1,
                        play: legal
                            .iter()
                            .find(|(_, a)| *a == r.after)
                            .map(|(play, _)| format_play(play))
                            .unwrap_or_default(),
                        equity,
                        diff: equity - best.unwrap_or(equity),
                        chances: (&r.chances).into(),
                        plies: r.plies,
                        blended: r.blended,
                        after: r.after,
                    }
                })
                .collect();
            Some(Hint::Plays { dice, unit, plays })
        }
        Decision::DoubleOrRoll | Decision::TakeOrDrop => {
            let answering = decision == Decision::TakeOrDrop;
            // The board and the cube state are the doubler's.
            let doubler = if answering { !player } else { player };
            let state = CubeState::of(session, doubler);
            // As the strong bot decides: a close decision checked by a short rollout.
            let analysis = cube_race::decide(
                eval,
                &mut MoveGen::new(),
                &board,
                &state,
                plies,
                Some(&CubeRaceConfig::strong()),
            );
            Some(Hint::Cube {
                answering,
                analysis,
            })
        }
        _ => None,
    }
}
