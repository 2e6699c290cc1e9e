//! Every face reads back every canonical text it writes: along seeded random games of the
//! four kinds, each legal action's text parses to that action, and [`Face::text`] of the
//! action is the text [`Face::legal`] lists.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_core::{DiceRoll, Status};
use tabula_games::{apply_text, backgammon, grasshopper, halma, never_finishing, Face};

fn walk<F: Face>(mut game: F, seed: u64, plies: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..plies {
        match game.status() {
            Status::Over(_) => return,
            Status::Chance(_) => {
                let roll = loop {
                    if let Ok(r) = DiceRoll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)) {
                        break r;
                    }
                };
                let _ = game.roll(roll);
            }
            Status::Decide { .. } => {
                let legal = game.legal();
                assert!(!legal.is_empty());
                for (text, action) in &legal {
                    assert_eq!(game.parse(text).as_ref(), Ok(action), "{text}");
                    assert_eq!(&game.text(action), text);
                }
                let (text, _) = &legal[rng.gen_range(0..legal.len())];
                assert_eq!(&apply_text(&mut game, text).unwrap(), text);
            }
        }
    }
}

#[test]
fn every_canonical_text_reads_back_to_its_action() {
    for seed in 0..4 {
        walk(
            backgammon::new(None, true, true, true, 0).unwrap(),
            seed,
            300,
        );
        walk(
            backgammon::new(Some(3), true, true, true, 0).unwrap(),
            seed,
            300,
        );
        walk(never_finishing::new(1).unwrap(), seed, 300);
        walk(grasshopper::new(6).unwrap(), seed, 300);
        walk(halma::new(8, None).unwrap(), seed, 300);
    }
}

#[test]
fn refusals_keep_their_words() {
    let mut game = grasshopper::new(4).unwrap();
    let err = apply_text(&mut game, "").unwrap_err();
    assert!(!err.to_string().is_empty());
    let mut game = backgammon::new(None, true, true, true, 0).unwrap();
    assert_eq!(
        apply_text(&mut game, "8/3 6/3").unwrap_err().to_string(),
        "the dice must be rolled first"
    );
    let err = never_finishing::new(65).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a match is 1 to 64 points long (0: money), not 65"
    );
    let err = halma::new(10, Some(14)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the evacuation deadline on 10x10 is 0 (off) or 15 to 300 moves, not 14"
    );
}
