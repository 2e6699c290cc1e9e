//! Sibling sets in the fit (`tabula_coach::siblings`, `supervised::Adam::pass_with_sets`): the
//! ranking loss's gradient is the loss's slope, and a tiny fit with sets lowers their ranking
//! loss, deterministically.

use tabula_ai::backgammon::nn::NeuralEvaluator;
use tabula_coach::label::SampleConfig;
use tabula_coach::siblings::{label_set, sample_sets, SetConfig, SiblingSet};
use tabula_coach::supervised::{self, Adam, SetLoss};
use tabula_coach::td;
use tabula_tables::MoveGen;

fn sets(nets: &NeuralEvaluator, parents: usize) -> Vec<SiblingSet> {
    let cfg = SetConfig {
        sample: SampleConfig {
            per_chunk: parents,
            ..SampleConfig::default()
        },
        ..SetConfig::default()
    };
    let mut gen = MoveGen::new();
    sample_sets(nets, &cfg, 0)
        .iter()
        .map(|m| label_set(nets, &mut gen, m, 1))
        .collect()
}

#[test]
fn the_ranking_loss_gradient_is_the_slope_of_the_loss() {
    let nets = td::fresh(16, 8, 4);
    // A set with members the contact net answers, labelled by a deeper look than the net.
    let set = sets(&nets, 40)
        .into_iter()
        .find(|s| s.members.len() >= 3)
        .expect("a set of three or more");
    // The ranking term alone: the loss and gradient with the term less those without it.
    let rank = |n: &NeuralEvaluator| {
        let (with, g) = supervised::set_loss_and_gradient(n, &set, 1.0);
        let (without, g0) = supervised::set_loss_and_gradient(n, &set, 0.0);
        let diff: Vec<f32> = g[0].w2.iter().zip(&g0[0].w2).map(|(a, b)| a - b).collect();
        (with - without, diff)
    };
    let (loss, grad) = rank(&nets);
    assert!(loss > 0.0);
    // The output weights with the largest ranking gradients.
    let mut order: Vec<usize> = (0..grad.len()).collect();
    order.sort_by(|&a, &b| grad[b].abs().total_cmp(&grad[a].abs()));
    assert!(grad[order[0]].abs() > 1e-6, "{grad:?}");
    let eps = 5e-2f32;
    for &i in &order[..4] {
        let mut moved = nets.clone();
        moved.contact.w2[i] += eps;
        let (up, _) = rank(&moved);
        moved.contact.w2[i] -= 2.0 * eps;
        let (down, _) = rank(&moved);
        let slope = (up - down) / (2.0 * f64::from(eps));
        let g = f64::from(grad[i]);
        assert!(
            (slope - g).abs() <= 0.1 * g.abs(),
            "w2[{i}]: slope {slope} against gradient {g} (ranking loss {loss})"
        );
    }
}

#[test]
fn a_fit_with_sibling_sets_lowers_their_ranking_loss_deterministically() {
    let nets = td::fresh(16, 8, 3);
    let sets = sets(&nets, 30);
    assert!(sets.len() >= 5, "{}", sets.len());
    let loss = SetLoss {
        weight: 8.0,
        per_step: 2,
    };
    let run = || {
        let mut n = nets.clone();
        let mut adam = Adam::new(&n);
        let first = adam.pass_with_sets(&mut n, &[], &sets, &loss, 0.01, 8, 1);
        let mut last = first;
        for pass in 2..30 {
            last = adam.pass_with_sets(&mut n, &[], &sets, &loss, 0.01, 8, pass);
        }
        (n, first, last)
    };
    let (fitted, first, last) = run();
    assert!(last.rank < first.rank, "{} >= {}", last.rank, first.rank);
    let (_, rank_before) = supervised::set_errors(&nets, &sets);
    let (_, rank_after) = supervised::set_errors(&fitted, &sets);
    assert!(rank_after < rank_before, "{rank_after} >= {rank_before}");
    assert_eq!(run().0.contact, fitted.contact);
}
