//! Deterministic replay: a game rebuilt from its action log and dice seed is the same game.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_core::{replay, settle, ChaChaDice, Game, Status};
use tabula_tables::backgammon::{Action, Backgammon, Options};

/// Plays `max_actions` random legal actions (resignations only rarely, so games get played
/// out) and returns the session with its action log.
fn random_session(options: Options, seed: u64, max_actions: usize) -> (Backgammon, Vec<Action>) {
    let mut s = Backgammon::new(options).unwrap();
    let mut dice = ChaChaDice::new(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut log = Vec::new();
    for _ in 0..max_actions {
        settle(&mut s, &mut dice).unwrap();
        if let Status::Over(_) = s.status() {
            break;
        }
        let mut actions = s.legal_actions();
        if rng.gen_range(0..50) != 0 {
            actions.retain(|a| !matches!(a, Action::Resign(_)));
        }
        let a = actions[rng.gen_range(0..actions.len())];
        s.apply(&a).unwrap();
        log.push(a);
    }
    settle(&mut s, &mut dice).unwrap();
    (s, log)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn replay_of_a_random_game_from_its_log_reproduces_it(seed in any::<u64>(), money in any::<bool>()) {
        let options = if money { Options::money() } else { Options::match_to(5).unwrap() };
        let (played, log) = random_session(options, seed, 400);
        let replayed = replay(Backgammon::new(options).unwrap(), &log, &mut ChaChaDice::new(seed)).unwrap();
        prop_assert_eq!(replayed.events(), played.events());
        prop_assert_eq!(replayed.game(), played.game());
        prop_assert_eq!(replayed.score(), played.score());
        prop_assert_eq!(replayed.status(), played.status());
    }
}

#[test]
fn replay_refuses_an_illegal_log_entry() {
    let (_, mut log) = random_session(Options::money(), 9, 30);
    log.insert(0, Action::Take);
    let err = replay(
        Backgammon::new(Options::money()).unwrap(),
        &log,
        &mut ChaChaDice::new(9),
    );
    assert!(matches!(
        err,
        Err(tabula_core::ReplayError::Refused { index: 0, .. })
    ));
}
