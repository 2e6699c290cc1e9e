//! Every fuzz target for a bounded number of inputs (a few seconds in all), so the normal
//! test suite exercises the parsers with mutated and random input; the long runs are
//! `tabula-fuzz --all --seconds 600` (docs/fuzzing.md).

use tabula_fuzz::{run_target, targets, Budget};

/// Inputs per target in the test suite.
const INPUTS: u64 = 20_000;

#[test]
fn every_target_survives_a_bounded_run() {
    let mut failures = Vec::new();
    for target in targets::all() {
        let report = run_target(&target, Budget::Inputs(INPUTS), 7, None, |_| {});
        assert_eq!(report.inputs, INPUTS);
        assert!(report.accepted > 0, "{}: no input accepted", target.name);
        for sig in report.crashes.keys() {
            failures.push(format!("{}: {sig}", target.name));
        }
    }
    assert!(failures.is_empty(), "panics:\n{}", failures.join("\n"));
}

#[test]
fn every_seed_input_is_accepted_or_refused_without_panic() {
    for target in targets::all() {
        for seed in (target.seeds)() {
            if let Err(sig) = tabula_fuzz::run_one(&target, &seed) {
                panic!(
                    "{}: seed {:?} panics: {sig}",
                    target.name,
                    String::from_utf8_lossy(&seed)
                );
            }
        }
    }
}
