//! Seeded random backgammon sessions for the `.mat` tests, and the decisions of a session in a
//! form a `.mat` file keeps.

#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_core::{ChaChaDice, Color, Decision, Dice, DiceSource, Game, Status};
use tabula_tables::backgammon::{Action, Backgammon, Ending, Event, Options, ResignLevel};
use tabula_tables::notation::mat::Replay;

/// How often the random players double, and resign when they may.
pub struct Policy {
    /// Chance of doubling when it is allowed.
    pub double: f64,
    /// Chance of offering a resignation when it is allowed.
    pub resign: f64,
}

/// A whole session: dice from `ChaChaDice(seed)`, each decision drawn from a ChaCha generator
/// seeded with `seed` among the legal actions.
pub fn play_session(options: Options, seed: u64, policy: &Policy) -> Backgammon {
    let mut session = Backgammon::new(options).unwrap();
    let mut dice = ChaChaDice::new(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..200_000 {
        let decision = match session.status() {
            Status::Over(_) => return session,
            Status::Chance(_) => {
                session.roll(dice.roll()).unwrap();
                continue;
            }
            Status::Decide { decision, .. } => decision,
        };
        let legal = session.legal_actions();
        let has = |a: Action| legal.contains(&a);
        let resigns: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Resign(_)))
            .collect();
        let action = if !resigns.is_empty() && rng.gen_bool(policy.resign) {
            resigns[rng.gen_range(0..resigns.len())]
        } else {
            match decision {
                Decision::DoubleOrRoll if rng.gen_bool(policy.double) => Action::Double,
                Decision::DoubleOrRoll => Action::Roll,
                Decision::TakeOrDrop => {
                    let r: f64 = rng.gen();
                    if r < 0.2 && has(Action::Beaver) {
                        Action::Beaver
                    } else if r < 0.6 {
                        Action::Take
                    } else {
                        Action::Drop
                    }
                }
                Decision::ResignationAnswer if rng.gen_bool(0.6) => Action::AcceptResignation,
                Decision::ResignationAnswer => Action::RejectResignation,
                _ => {
                    let moves: Vec<Action> = legal
                        .iter()
                        .copied()
                        .filter(|a| matches!(a, Action::Move(_)))
                        .collect();
                    moves[rng.gen_range(0..moves.len())]
                }
            }
        };
        session.apply(&action).unwrap();
    }
    panic!("the session did not end");
}

/// The decisions of a session as a `.mat` file keeps them, from `(player, action, dice)` in
/// order, with each accepted resignation's `GameOver` multiplier (`None` where unknown): a
/// refused resignation offer and its refusal are left out (not written), an accepted offer
/// is at the level its game scored (under the Jacoby rule, a single), and a `Roll` followed by
/// an accepted offer is left out (the dice of a resigned turn are not written).
pub fn normalize(
    decisions: &[(Color, Action, Option<Dice>)],
    multipliers: &[u32],
) -> Vec<(Color, Action, Option<Dice>)> {
    let mut kept: Vec<(Color, Action, Option<Dice>)> = Vec::new();
    let mut resignations = multipliers.iter();
    let mut i = 0;
    while i < decisions.len() {
        let d = decisions[i];
        let next = decisions.get(i + 1).map(|n| n.1);
        match (d.1, next) {
            (Action::Resign(_), Some(Action::RejectResignation)) => {
                i += 2;
                continue;
            }
            (Action::Resign(_), Some(Action::AcceptResignation)) => {
                let level = match resignations.next() {
                    Some(2) => ResignLevel::Gammon,
                    Some(3) => ResignLevel::Backgammon,
                    _ => ResignLevel::Single,
                };
                if kept
                    .last()
                    .is_some_and(|k| k.1 == Action::Roll && k.0 == d.0)
                {
                    kept.pop();
                }
                kept.push((d.0, Action::Resign(level), None));
            }
            _ => kept.push(d),
        }
        i += 1;
    }
    kept
}

/// A session's decisions from its event log, with the dice of each play, normalized.
pub fn logged_decisions(session: &Backgammon) -> Vec<(Color, Action, Option<Dice>)> {
    let mut out = Vec::new();
    let mut multipliers = Vec::new();
    let mut dice = None;
    for event in session.events() {
        match *event {
            // A tied opening roll is thrown again.
            Event::Rolled { roll, player } if player.is_some() || roll.first != roll.second => {
                dice = Some(roll.dice());
            }
            Event::Acted { player, action } => {
                let d = match action {
                    Action::Move(_) => dice,
                    _ => None,
                };
                out.push((player, action, d));
            }
            Event::GameOver(result) if result.ending == Ending::Resigned => {
                multipliers.push(result.multiplier);
            }
            _ => {}
        }
    }
    normalize(&out, &multipliers)
}

/// A replay's decisions, normalized as [`logged_decisions`] does.
pub fn replayed_decisions(replay: &Replay) -> Vec<(Color, Action, Option<Dice>)> {
    let steps: Vec<(Color, Action, Option<Dice>)> = replay
        .steps
        .iter()
        .map(|s| (s.player, s.action, s.dice))
        .collect();
    let multipliers: Vec<u32> = replay
        .session
        .results()
        .iter()
        .filter(|r| r.ending == Ending::Resigned)
        .map(|r| r.multiplier)
        .collect();
    normalize(&steps, &multipliers)
}

/// The plays of a session's log: who moved and the position after.
pub fn logged_plays(session: &Backgammon) -> Vec<(Color, Action)> {
    session
        .events()
        .iter()
        .filter_map(|e| match *e {
            Event::Acted {
                player,
                action: a @ Action::Move(_),
            } => Some((player, a)),
            _ => None,
        })
        .collect()
}
