//! An evaluator that judges a position by several evaluators and takes the mean of their
//! chances: nets trained apart misjudge different positions, so part of their errors cancel.
//! It costs the sum of its members' evaluations.

use super::{Evaluator, Probabilities};
use tabula_tables::Position;

/// The mean of several evaluators' chances.
#[derive(Debug, Clone)]
pub struct Ensemble<'a, E> {
    members: Vec<&'a E>,
}

impl<'a, E: Evaluator> Ensemble<'a, E> {
    /// An ensemble of `members`; `None` when there are none.
    pub fn new(members: Vec<&'a E>) -> Option<Ensemble<'a, E>> {
        (!members.is_empty()).then_some(Ensemble { members })
    }

    /// Its members.
    pub fn members(&self) -> &[&'a E] {
        &self.members
    }
}

impl<E: Evaluator> Evaluator for Ensemble<'_, E> {
    fn evaluate(&self, pos: &Position) -> Probabilities {
        let each: Vec<Probabilities> = self.members.iter().map(|m| m.evaluate(pos)).collect();
        let mut out = vec![Probabilities::default()];
        mean_into(&mut out, &each, 1);
        out[0]
    }

    fn evaluate_batch(&self, positions: &[Position], out: &mut Vec<Probabilities>) {
        let mut all = Vec::with_capacity(positions.len() * self.members.len());
        let mut one = Vec::with_capacity(positions.len());
        for m in &self.members {
            m.evaluate_batch(positions, &mut one);
            all.extend_from_slice(&one);
        }
        out.clear();
        out.resize(positions.len(), Probabilities::default());
        mean_into(out, &all, positions.len());
    }
}

/// `out[i]` = the mean of `all[m * n + i]` over the members `m`, where `n = out.len()` and
/// `all` holds each member's `n` answers in turn.
fn mean_into(out: &mut [Probabilities], all: &[Probabilities], n: usize) {
    let members = (all.len() / n.max(1)) as f32;
    for (i, o) in out.iter_mut().enumerate() {
        let mut sum = Probabilities::default();
        for p in all.iter().skip(i).step_by(n.max(1)) {
            sum.win += p.win;
            sum.win_gammon += p.win_gammon;
            sum.win_backgammon += p.win_backgammon;
            sum.lose_gammon += p.lose_gammon;
            sum.lose_backgammon += p.lose_backgammon;
        }
        *o = Probabilities {
            win: sum.win / members,
            win_gammon: sum.win_gammon / members,
            win_backgammon: sum.win_backgammon / members,
            lose_gammon: sum.lose_gammon / members,
            lose_backgammon: sum.lose_backgammon / members,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::{Heuristic, NeuralEvaluator};
    use tabula_core::Dice;
    use tabula_tables::MoveGen;

    #[test]
    fn an_ensemble_of_one_is_its_member() {
        let nets = NeuralEvaluator::shipped();
        let one = Ensemble::new(vec![nets]).unwrap();
        let pos = Position::START;
        assert_eq!(one.evaluate(&pos), nets.evaluate(&pos));
        assert!(Ensemble::<Heuristic>::new(Vec::new()).is_none());
    }

    #[test]
    fn an_ensemble_is_the_mean_of_its_members_one_at_a_time_and_in_a_batch() {
        let nets = NeuralEvaluator::shipped();
        let two = Ensemble::new(vec![nets, nets]).unwrap();
        let positions = MoveGen::new()
            .positions(&Position::START, Dice::new(6, 2).unwrap())
            .to_vec();
        let mut batch = Vec::new();
        two.evaluate_batch(&positions, &mut batch);
        assert_eq!(batch.len(), positions.len());
        for (p, b) in positions.iter().zip(&batch) {
            let want = nets.evaluate(p);
            let got = two.evaluate(p);
            assert!((got.win - want.win).abs() < 1e-6);
            assert!((got.lose_gammon - want.lose_gammon).abs() < 1e-6);
            assert!((b.equity() - want.equity()).abs() < 1e-4);
        }
    }
}
