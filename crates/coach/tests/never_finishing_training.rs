//! The Never-Finishing trainer on a tiny run (moved here from `tabula-ai`'s net tests with
//! the trainer).

use tabula_ai::never_finishing::NfEvaluator;
use tabula_coach::nf_td;
use tabula_coach::td::TdConfig;

#[test]
fn a_tiny_training_run_lowers_its_loss_deterministically() {
    let config = TdConfig {
        batch: 4,
        lambda: 0.7,
        alpha: 0.02,
        seed: 9,
    };
    let run = || {
        let mut eval = NfEvaluator::random(8, 4);
        let losses: Vec<f64> = (0..40)
            .map(|b| nf_td::train_batch(&mut eval, &config, b * 4).loss)
            .collect();
        (losses, eval.net)
    };
    let (losses, net) = run();
    let early: f64 = losses[..5].iter().sum();
    let late: f64 = losses[35..].iter().sum();
    assert!(late < early, "loss went from {early} to {late}: {losses:?}");
    assert_eq!(run().1, net, "the same seed gives the same weights");
}
