//! Never-Finishing invariants over random games: checker conservation, legal stacks, replay,
//! and backgammon's move sets when trapping is off.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use tabula_core::{replay, settle, ChaChaDice, Dice, Game, Status};
use tabula_tables::never_finishing::{start_position, Action, NeverFinishing, NfOptions, Scoring};
use tabula_tables::{MoveGen, Position, SequenceGen, Trapping};

/// Checkers of each side counted on the points (trapped included), bars and off.
fn totals(p: &Position) -> (u32, u32) {
    let pips = p.pips();
    let (mut mover, mut opponent) = (u32::from(p.mover_off()), u32::from(p.opponent_off()));
    for (i, &v) in pips.iter().enumerate() {
        let trapped = u32::from(p.is_trapped(i));
        if v > 0 {
            mover += v as u32;
            opponent += trapped;
        } else if v < 0 {
            opponent += (-v) as u32;
            mover += trapped;
        }
    }
    (mover, opponent)
}

fn random_session(seed: u64, max_actions: usize) -> (NeverFinishing, Vec<Action>) {
    let options = NfOptions {
        scoring: Scoring::Money { games: None },
        trapping: Trapping::On,
    };
    let mut s = NeverFinishing::new(options).unwrap();
    let mut dice = ChaChaDice::new(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut log = Vec::new();
    for _ in 0..max_actions {
        settle(&mut s, &mut dice).unwrap();
        if let Status::Over(_) = s.status() {
            break;
        }
        let actions = s.legal_actions();
        let a = actions[rng.gen_range(0..actions.len())];
        s.apply(&a).unwrap();
        log.push(a);
        let board = s.game().board();
        prop_assert_invariants(&board);
    }
    settle(&mut s, &mut dice).unwrap();
    (s, log)
}

fn prop_assert_invariants(p: &Position) {
    assert_eq!(totals(p), (15, 15), "checkers not conserved: {p:?}");
    // Every value is a legal board: it passes the validating constructor unchanged.
    assert_eq!(
        Position::from_parts(p.pips(), p.trapped_mask()).as_ref(),
        Ok(p)
    );
    assert_eq!(p.flip().flip(), *p);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn checkers_are_conserved_and_stacks_stay_legal_in_random_games(seed in any::<u64>()) {
        let (s, _) = random_session(seed, 300);
        prop_assert!(s.events().len() > 1);
    }

    #[test]
    fn replay_of_a_random_game_from_its_log_reproduces_it(seed in any::<u64>()) {
        let (played, log) = random_session(seed, 250);
        let replayed = replay(NeverFinishing::new(*played.options()).unwrap(), &log, &mut ChaChaDice::new(seed)).unwrap();
        prop_assert_eq!(replayed.events(), played.events());
        prop_assert_eq!(replayed.game(), played.game());
        prop_assert_eq!(replayed.score(), played.score());
    }

    #[test]
    fn without_trapping_the_generator_gives_backgammons_move_sets(seed in any::<u64>()) {
        // Random backgammon positions from random play, every roll compared.
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut fast = MoveGen::new();
        let mut general = SequenceGen::new();
        let mut pos = Position::START;
        for _ in 0..60 {
            for dice in Dice::all() {
                let a: HashSet<Position> = fast.positions(&pos, dice).iter().copied().collect();
                let b: Vec<Position> = general.positions(&pos, dice, Trapping::Off).to_vec();
                prop_assert_eq!(b.len(), a.len());
                prop_assert_eq!(b.into_iter().collect::<HashSet<_>>(), a);
            }
            let dice = Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
            let next = fast.positions(&pos, dice).to_vec();
            if let Some(&p) = next.get(rng.gen_range(0..next.len().max(1))) {
                pos = p;
            }
            if pos.mover_off() == 15 {
                break;
            }
            pos = pos.flip();
        }
    }
}

#[test]
fn the_start_position_has_fifteen_a_side() {
    assert_eq!(totals(&start_position()), (15, 15));
}

/// The fast generator's trapping mode against the general one (exact by construction), as
/// sets, with no duplicates, on every gnubg fixture position (all without trapped checkers).
#[test]
fn fast_trapping_generator_matches_the_general_one_on_fixture_positions() {
    let mut fast = MoveGen::new();
    let mut general = SequenceGen::new();
    for case in crate::gnubg_cases::cases() {
        let (pos, dice) = (case.position, case.dice);
        let a: Vec<Position> = fast.trapping_positions(&pos, dice).unwrap().to_vec();
        let set: HashSet<Position> = a.iter().copied().collect();
        assert_eq!(set.len(), a.len(), "duplicates: {}", case.line);
        let b: HashSet<Position> = general
            .positions(&pos, dice, Trapping::On)
            .iter()
            .copied()
            .collect();
        assert_eq!(set, b, "{}", case.line);
        let (positions, plays) = fast.trapping_plays(&pos, dice).unwrap();
        assert_eq!(positions.len(), plays.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn fast_trapping_generator_matches_the_general_one_in_random_games(seed in any::<u64>()) {
        let (s, _) = random_session(seed, 200);
        let _ = s;
        // Walk a fresh random game and compare at every position without trapped checkers.
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut general = SequenceGen::new();
        let mut fast = MoveGen::new();
        let mut pos = start_position();
        for _ in 0..200 {
            let dice = Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
            let b: Vec<Position> = general.positions(&pos, dice, Trapping::On).to_vec();
            if let Some(a) = fast.trapping_positions(&pos, dice) {
                let set: HashSet<Position> = a.iter().copied().collect();
                prop_assert_eq!(set.len(), a.len());
                prop_assert_eq!(set, b.iter().copied().collect::<HashSet<_>>());
            }
            if let Some(&p) = b.get(rng.gen_range(0..b.len().max(1))) {
                pos = p;
            }
            if pos.mover_off() == 15 {
                break;
            }
            pos = pos.flip();
        }
    }
}
