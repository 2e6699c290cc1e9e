//! Cubeful n-ply search: the values of a cube decision looked at several rolls ahead with the
//! cube in play at every turn on the way.
//!
//! The plain way to judge a cube decision at n plies averages the *cubeless* chances over
//! the rolls ([`super::nply::chances`]) and applies Janowski's interpolation once, at the
//! root. That misses what the cube does in between: a sequence after which the opponent
//! could double the player out (a market loser for the player), or the player cash, counts
//! there at its cubeless value, and the interpolation of the mean is not the mean of the
//! interpolations.
//!
//! Here every node is valued with the cube:
//!
//! - **A leaf** (0 plies left) is the evaluator's chances turned into a cubeful value for
//!   the cube as it stands there ([`crate::backgammon::cubeful`] for money,
//!   [`crate::backgammon::match_cube`] for a match).
//! - **A node with plies left** is the mean over the 21 rolls of the player on roll of the
//!   value of the position after their best 0-ply play (the plays chosen as in
//!   [`super::nply`]), judged from the other side one ply shallower.
//! - **At every node below the root, the player on roll makes the cube decision** when they
//!   may double: no double, or double and the opponent's better answer (take with the cube
//!   then theirs at twice the value, or drop), whichever is worth more to the doubler. At a
//!   leaf the values compared are the interpolations; above, the means of the children.
//! - **At the root** the three values are returned undecided: no double, double/take and
//!   double/drop, for [`super::cube::CubeAnalysis`].
//!
//! Both cube states of the root (no double, double/take) and every cube state the decisions
//! below open are carried through one walk of the tree, so the search costs the same
//! evaluations as [`super::nply::chances`] at the same depth (about 9,000 at 2 plies); the
//! cubeless chances are averaged on the way for display.
//!
//! Money values are points from the side of the player on roll at the node (the cube's value
//! included), returned per unit of the root's cube; match values are match-winning chances.
//! Beavers are not searched (the bots take instead, `crate::backgammon::cube`).

use super::nply::{add_weighted, best_plays_0ply, is_over};
use crate::backgammon::cube::{CubeState, Stakes};
use crate::backgammon::cubeful::{money_equity_with, Owner};
use crate::backgammon::efficiency::Efficiency;
use crate::backgammon::match_cube::{cubeful_chances, Score};
use crate::backgammon::{Evaluator, Probabilities};
use crate::search::Plays;
use tabula_core::Dice;
use tabula_tables::Position;

/// The values of a cube decision of the player on roll, in the unit of
/// [`super::cube::Unit`]: money per unit of the current cube, or match-winning chances.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubeValues {
    /// The cubeless chances of the player on roll at the same depth (for display).
    pub chances: Probabilities,
    /// Playing on without doubling.
    pub no_double: f32,
    /// Doubling, the opponent taking.
    pub double_take: f32,
    /// Doubling, the opponent dropping.
    pub double_drop: f32,
}

/// What is played for, seen from the player on roll at a node.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Game {
    Money { jacoby: bool },
    Match { score: Score, crawford_game: bool },
}

/// A cube state at a node of the search, seen from the player on roll there.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Node {
    cube: u32,
    owner: Owner,
    game: Game,
}

impl Node {
    /// The root node of `state` for the player on roll, who may double in it.
    fn root(state: &CubeState) -> Node {
        match state.stakes {
            Stakes::Money {
                jacoby_applies,
                centred,
                ..
            } => Node {
                cube: state.cube,
                owner: if centred {
                    Owner::Centred
                } else {
                    Owner::Player
                },
                game: Game::Money {
                    jacoby: jacoby_applies,
                },
            },
            Stakes::Match {
                away_me,
                away_opp,
                next,
                crawford_game,
                holder,
            } => Node {
                cube: state.cube,
                owner: holder.into(),
                game: Game::Match {
                    score: Score {
                        away_me,
                        away_opp,
                        next,
                    },
                    crawford_game,
                },
            },
        }
    }

    /// The same state seen by the other player.
    fn flip(self) -> Node {
        let owner = match self.owner {
            Owner::Centred => Owner::Centred,
            Owner::Player => Owner::Opponent,
            Owner::Opponent => Owner::Player,
        };
        let game = match self.game {
            Game::Money { jacoby } => Game::Money { jacoby },
            Game::Match {
                score,
                crawford_game,
            } => Game::Match {
                score: score.swapped(),
                crawford_game,
            },
        };
        Node {
            cube: self.cube,
            owner,
            game,
        }
    }

    /// Whether the player on roll may (and might want to) double: they have the cube's
    /// access, no Crawford game, and in a match winning at the current cube does not already
    /// win it (then doubling can only cost).
    fn can_double(&self) -> bool {
        if self.owner == Owner::Opponent {
            return false;
        }
        match self.game {
            Game::Money { .. } => true,
            Game::Match {
                score,
                crawford_game,
            } => !crawford_game && score.away_me > self.cube,
        }
    }

    /// The state after the player on roll doubles and the opponent takes.
    fn doubled(self) -> Node {
        Node {
            cube: 2 * self.cube,
            owner: Owner::Opponent,
            game: self.game,
        }
    }

    /// What the player on roll gets when the opponent drops their double.
    fn dropped(&self) -> f32 {
        match self.game {
            Game::Money { .. } => self.cube as f32,
            Game::Match { score, .. } => score.after(i64::from(self.cube)),
        }
    }

    /// The cubeful value of chances `p` of the player on roll in this state (Janowski).
    fn leaf(&self, p: &Probabilities, x: f32) -> f32 {
        match self.game {
            Game::Money { jacoby } => {
                self.cube as f32 * money_equity_with(p, self.owner, jacoby, x)
            }
            Game::Match { score, .. } => {
                cubeful_chances(p, self.cube, self.owner.into(), &score, x)
            }
        }
    }

    /// A value of the other player turned into this player's.
    fn of_other(&self, v: f32) -> f32 {
        match self.game {
            Game::Money { .. } => -v,
            Game::Match { .. } => 1.0 - v,
        }
    }
}

/// The better of playing on (`no_double`) and doubling (`double_take` or the drop, whichever
/// the opponent prefers) for the player on roll.
fn decide(no_double: f32, double_take: f32, double_drop: f32) -> f32 {
    let doubled = double_take.min(double_drop);
    if doubled > no_double {
        doubled
    } else {
        no_double
    }
}

/// `nodes` and, after each that may double, its doubled state; with the indices in that list
/// of each node and of its doubled state.
fn expand(nodes: &[Node]) -> (Vec<Node>, Vec<(usize, Option<usize>)>) {
    let mut all = Vec::with_capacity(2 * nodes.len());
    let mut at = Vec::with_capacity(nodes.len());
    for n in nodes {
        all.push(*n);
        let own = all.len() - 1;
        if n.can_double() {
            all.push(n.doubled());
            at.push((own, Some(all.len() - 1)));
        } else {
            at.push((own, None));
        }
    }
    (all, at)
}

/// The cubeful search of a position: see the module docs.
struct Search<'a, E, P> {
    eval: &'a E,
    plays: &'a mut P,
    efficiency: Efficiency,
}

impl<E: Evaluator, P: Plays> Search<'_, E, P> {
    /// The values of `nodes` for the player on roll in `pos`, each with that player's cube
    /// decision made, `plies` rolls deep; and the cubeless chances at that depth.
    /// `known`: the chances of `pos` when the caller has them already.
    fn decided(
        &mut self,
        pos: &Position,
        known: Option<Probabilities>,
        nodes: &[Node],
        plies: u32,
    ) -> (Probabilities, Vec<f32>) {
        let (all, at) = expand(nodes);
        let (p, values) = if plies == 0 || is_over(pos) {
            let p = known.unwrap_or_else(|| self.eval.evaluate(pos));
            let x = self.efficiency.at(pos);
            let values = all.iter().map(|n| n.leaf(&p, x)).collect();
            (p, values)
        } else {
            self.rolls(pos, &all, plies)
        };
        let decided = nodes
            .iter()
            .zip(&at)
            .map(|(n, &(own, doubled))| match doubled {
                Some(d) => decide(values[own], values[d], n.dropped()),
                None => values[own],
            })
            .collect();
        (p, decided)
    }

    /// The mean over the 21 rolls of the player on roll in `pos` of the values of `nodes`
    /// after the best 0-ply play of each, the opponent deciding `plies - 1` deep.
    fn rolls(&mut self, pos: &Position, nodes: &[Node], plies: u32) -> (Probabilities, Vec<f32>) {
        let theirs: Vec<Node> = nodes.iter().map(|n| n.flip()).collect();
        let mut chances = Probabilities::default();
        let mut values = vec![0.0; nodes.len()];
        for (dice, best) in Dice::all().zip(best_plays_0ply(self.eval, self.plays, pos)) {
            let w = dice.weight() as f32 / 36.0;
            // With no legal play the turn passes: the opponent is on roll in the same position.
            let next = best.map_or(*pos, |(p, _)| p);
            let known = best.map(|(_, chances)| chances);
            let (p, v) = self.decided(&next.flip(), known, &theirs, plies - 1);
            add_weighted(&mut chances, &p.flip(), w);
            for ((sum, n), v) in values.iter_mut().zip(nodes).zip(v) {
                *sum += w * n.of_other(v);
            }
        }
        (chances, values)
    }
}

/// The values of the cube decision of the player on roll in `pos` (who may double in
/// `state`), searched `plies` deep with the cube in play (see the module docs), each leaf at
/// the cube efficiency [`Efficiency::SHIPPED`] gives it.
pub fn cube_values(
    eval: &impl Evaluator,
    plays: &mut impl Plays,
    pos: &Position,
    state: &CubeState,
    plies: u32,
) -> CubeValues {
    cube_values_with(eval, plays, pos, state, plies, Efficiency::SHIPPED)
}

/// [`cube_values`] with the cube efficiency `efficiency` at the leaves.
pub fn cube_values_with(
    eval: &impl Evaluator,
    plays: &mut impl Plays,
    pos: &Position,
    state: &CubeState,
    plies: u32,
    efficiency: Efficiency,
) -> CubeValues {
    let root = Node::root(state);
    let nodes = [root, root.doubled()];
    let mut search = Search {
        eval,
        plays,
        efficiency,
    };
    let (chances, values) = if plies == 0 || is_over(pos) {
        let p = eval.evaluate(pos);
        let x = efficiency.at(pos);
        (p, nodes.iter().map(|n| n.leaf(&p, x)).collect())
    } else {
        search.rolls(pos, &nodes, plies)
    };
    let per_cube = |v: f32| match root.game {
        Game::Money { .. } => v / root.cube as f32,
        Game::Match { .. } => v,
    };
    CubeValues {
        chances,
        no_double: per_cube(values[0]),
        double_take: per_cube(values[1]),
        double_drop: per_cube(root.dropped()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::match_cube::Holder;
    use crate::backgammon::met::Crawford;
    use crate::backgammon::NeuralEvaluator;
    use crate::study::cube::CubeAnalysis;
    use tabula_tables::MoveGen;

    fn money(centred: bool, jacoby: bool) -> CubeState {
        CubeState {
            cube: if centred { 1 } else { 2 },
            stakes: Stakes::Money {
                beavers: false,
                jacoby_applies: jacoby && centred,
                centred,
            },
        }
    }

    fn a_match(away_me: u32, away_opp: u32, holder: Holder) -> CubeState {
        CubeState {
            cube: if holder == Holder::Centred { 1 } else { 2 },
            stakes: Stakes::Match {
                away_me,
                away_opp,
                next: Crawford::Pre,
                crawford_game: false,
                holder,
            },
        }
    }

    /// A contact position: the opening after 3-1 made the five-point, the opponent on roll.
    fn contact() -> Position {
        let mut gen = MoveGen::new();
        let dice = Dice::from_values(
            tabula_core::Die::new(3).unwrap(),
            tabula_core::Die::new(1).unwrap(),
        );
        gen.positions(&Position::START, dice)[0].flip()
    }

    #[test]
    fn zero_plies_is_janowski_at_the_root() {
        let nets = NeuralEvaluator::shipped();
        let pos = contact();
        let p = nets.evaluate(&pos);
        for state in [
            money(true, false),
            money(true, true),
            money(false, false),
            a_match(5, 3, Holder::Centred),
            a_match(4, 7, Holder::Player),
        ] {
            let v = cube_values(nets, &mut MoveGen::new(), &pos, &state, 0);
            let a = CubeAnalysis::at(&pos, &p, &state);
            assert_eq!(v.chances, p);
            for (got, want) in [
                (v.no_double, a.no_double),
                (v.double_take, a.double_take),
                (v.double_drop, a.double_drop),
            ] {
                assert!((got - want).abs() < 1e-6, "{state:?}: {got} {want}");
            }
        }
    }

    /// The player on roll bears off their last two checkers (on the six and five points) with
    /// some rolls; otherwise the opponent, one checker on their one-point, bears off next.
    fn last_roll() -> (Position, f32) {
        let mut mover = [0u8; 25];
        mover[5] = 1;
        mover[4] = 1;
        let mut opponent = [0u8; 25];
        opponent[0] = 1;
        let pos = Position::from_counts(&mover, &opponent).unwrap();
        let mut gen = MoveGen::new();
        let wins: f32 = Dice::all()
            .filter(|&d| gen.positions(&pos, d).iter().any(|p| p.mover_off() == 15))
            .map(|d| d.weight() as f32 / 36.0)
            .sum();
        (pos, wins)
    }

    #[test]
    fn a_last_roll_is_valued_exactly_with_the_opponents_cash_on_the_way() {
        let (pos, q) = last_roll();
        assert!((q - 6.0 / 36.0).abs() < 1e-6, "{q}");
        let nets = NeuralEvaluator::shipped();
        for plies in [1, 2] {
            let v = cube_values(nets, &mut MoveGen::new(), &pos, &money(true, false), plies);
            // The opponent, sure to win, is valued at the cube they hold or cash.
            assert!((v.no_double - (2.0 * q - 1.0)).abs() < 1e-5, "{v:?}");
            assert!(
                (v.double_take - 2.0 * (2.0 * q - 1.0)).abs() < 1e-5,
                "{v:?}"
            );
            assert_eq!(v.double_drop, 1.0);
            assert!((v.chances.win - q).abs() < 1e-5);
            let a = CubeAnalysis::from_values(&v, &money(true, false));
            assert!(!a.double && a.take);
        }
    }

    #[test]
    fn a_last_roll_in_a_match_is_worth_the_table_s_chances() {
        let (pos, q) = last_roll();
        let nets = NeuralEvaluator::shipped();
        let state = a_match(3, 2, Holder::Centred);
        let score = Score {
            away_me: 3,
            away_opp: 2,
            next: Crawford::Pre,
        };
        let v = cube_values(nets, &mut MoveGen::new(), &pos, &state, 1);
        let want_nd = q * score.after(1) + (1.0 - q) * score.after(-1);
        let want_dt = q * score.after(2) + (1.0 - q) * score.after(-2);
        assert!((v.no_double - want_nd).abs() < 1e-5, "{v:?} {want_nd}");
        assert!((v.double_take - want_dt).abs() < 1e-5, "{v:?} {want_dt}");
        assert_eq!(v.double_drop, score.after(1));
    }

    #[test]
    fn an_opening_position_is_not_a_double_at_any_depth() {
        let nets = NeuralEvaluator::shipped();
        let pos = contact();
        for plies in [0, 1, 2] {
            let v = cube_values(nets, &mut MoveGen::new(), &pos, &money(true, false), plies);
            let a = CubeAnalysis::from_values(&v, &money(true, false));
            assert!(!a.double && a.take, "{plies}: {v:?}");
            assert!(v.no_double.abs() < 0.3, "{plies}: {v:?}");
        }
    }
}
