//! The database against hand-worked cases and an independent brute force.

use super::*;
use crate::backgammon::Evaluator;
use std::collections::HashMap;
use tabula_core::Dice;
use tabula_tables::MoveGen;

fn home(counts: &[(usize, u8)]) -> Home {
    let mut h = [0u8; POINTS];
    for &(point, n) in counts {
        h[point - 1] = n;
    }
    h
}

fn all_homes(max_checkers: u8, max_point: usize) -> Vec<Home> {
    (0..POSITIONS)
        .map(unrank)
        .filter(|h| {
            h.iter().map(|&c| c as u32).sum::<u32>() <= u32::from(max_checkers)
                && h[max_point..].iter().all(|&c| c == 0)
        })
        .collect()
}

#[test]
fn rank_is_a_bijection_that_falls_with_every_step() {
    assert_eq!(
        BINOMIAL[21][6] as usize, POSITIONS,
        "C(21, 6) positions of up to 15 on 6 points"
    );
    let mut out = [0usize; POINTS];
    for r in 0..POSITIONS {
        let h = unrank(r);
        assert_eq!(rank(&h), r, "{h:?}");
        for die in 1..=6 {
            let n = build::steps_for_test(&h, die, &mut out);
            assert!(out[..n].iter().all(|&s| s < r), "{h:?} die {die}");
        }
    }
    assert_eq!(rank(&[0; 6]), 0);
    assert_eq!(rank(&home(&[(6, 15)])), POSITIONS - 1);
}

#[test]
fn distributions_sum_to_one_and_match_their_means() {
    let db = BearoffDb::get();
    for r in 0..POSITIONS {
        let h = unrank(r);
        let d = db.rolls_to_bear_off(&h);
        let total: f32 = d.iter().sum();
        assert!((total - 1.0).abs() < 1e-5, "{h:?}: {total}");
        let mean: f32 = d.iter().enumerate().map(|(n, p)| n as f32 * p).sum();
        assert!((mean - db.expected_rolls(&h)).abs() < 1e-4, "{h:?}");
        let first: f32 = db.rolls_to_first_off(&h).iter().sum();
        assert!((first - 1.0).abs() < 1e-5, "{h:?}: {first}");
    }
}

#[test]
fn hand_worked_positions() {
    let db = BearoffDb::get();
    assert_eq!(db.expected_rolls(&[0; 6]), 0.0);
    assert_eq!(db.rolls_to_bear_off(&[0; 6])[0], 1.0);
    // One or two checkers on the 1-point, one on the 2-point: always one roll.
    for h in [home(&[(1, 1)]), home(&[(1, 2)]), home(&[(2, 1)])] {
        assert!((db.rolls_to_bear_off(&h)[1] - 1.0).abs() < 1e-6, "{h:?}");
        assert!((db.expected_rolls(&h) - 1.0).abs() < 1e-6, "{h:?}");
    }
    // Four checkers on the 1-point: one roll with a double, else two.
    let d = db.rolls_to_bear_off(&home(&[(1, 4)]));
    assert!((d[1] - 6.0 / 36.0).abs() < 1e-6 && (d[2] - 30.0 / 36.0).abs() < 1e-6);
    // One checker on the 6-point misses only with 1-1, 1-2, 1-3, 1-4 and 2-3 (9 of 36).
    let d = db.rolls_to_bear_off(&home(&[(6, 1)]));
    assert!((d[1] - 27.0 / 36.0).abs() < 1e-6 && (d[2] - 9.0 / 36.0).abs() < 1e-6);
    assert!((db.expected_rolls(&home(&[(6, 1)])) - 1.25).abs() < 1e-6);
    // First checker off from 15 on the 6-point at once: any roll with a 6 (11 of 36), or
    // one checker walking 6 pips: 5-1, 4-2 (2 each), 3-3, 2-2 (1 each): 17 of 36.
    let f = db.rolls_to_first_off(&home(&[(6, 15)]));
    assert!((f[1] - 17.0 / 36.0).abs() < 1e-6, "{f:?}");
    // With all fifteen on the 1-point every roll bears one off.
    assert!((db.rolls_to_first_off(&home(&[(1, 15)]))[1] - 1.0).abs() < 1e-6);
    // Fewer than 15 checkers: one is off already.
    assert_eq!(db.rolls_to_first_off(&home(&[(6, 14)]))[0], 1.0);
}

/// Expected rolls and distribution by a plain expectimax over the engine's own move
/// generator (a different code path from the database's steps), memoised by board.
struct Brute {
    gen: MoveGen,
    memo: HashMap<Home, (f64, Vec<f64>)>,
}

impl Brute {
    fn solve(&mut self, h: Home) -> (f64, Vec<f64>) {
        if let Some(v) = self.memo.get(&h) {
            return v.clone();
        }
        let mut dist = vec![0f64; MAX_ROLLS];
        let mut mean = 0.0;
        if h.iter().all(|&c| c == 0) {
            dist[0] = 1.0;
        } else {
            let mut mover = [0u8; 25];
            mover[..POINTS].copy_from_slice(&h);
            // The opponent waits on its own 1-point (the mover's 24), out of the way.
            let mut opponent = [0u8; 25];
            opponent[0] = 15;
            let pos = Position::from_counts(&mover, &opponent).unwrap();
            mean = 1.0;
            for dice in Dice::all() {
                let results: Vec<Home> = self
                    .gen
                    .positions(&pos, dice)
                    .iter()
                    .map(|p| {
                        let c = p.to_counts()[0];
                        assert!(c[POINTS..].iter().all(|&x| x == 0));
                        c[..POINTS].try_into().unwrap()
                    })
                    .collect();
                let mut best: Option<(f64, Vec<f64>)> = None;
                for r in results {
                    let v = self.solve(r);
                    if best.as_ref().is_none_or(|b| v.0 < b.0 - 1e-12) {
                        best = Some(v);
                    }
                }
                let (m, d) = best.expect("a die can always be played");
                let w = f64::from(dice.weight()) / 36.0;
                mean += w * m;
                for n in 1..MAX_ROLLS {
                    dist[n] += w * d[n - 1];
                }
            }
        }
        self.memo.insert(h, (mean, dist.clone()));
        (mean, dist)
    }
}

#[test]
fn agrees_with_brute_force_on_small_positions() {
    let db = BearoffDb::get();
    let mut brute = Brute {
        gen: MoveGen::new(),
        memo: HashMap::new(),
    };
    let cases = all_homes(4, 4)
        .into_iter()
        .chain(all_homes(3, 6))
        .collect::<Vec<_>>();
    assert!(cases.len() > 100);
    for h in cases {
        let (mean, dist) = brute.solve(h);
        assert!(
            (f64::from(db.expected_rolls(&h)) - mean).abs() < 1e-5,
            "{h:?}: {} vs {mean}",
            db.expected_rolls(&h)
        );
        for (n, (&a, &b)) in db.rolls_to_bear_off(&h).iter().zip(&dist).enumerate() {
            assert!((f64::from(a) - b).abs() < 1e-5, "{h:?} n={n}: {a} vs {b}");
        }
    }
}

#[test]
fn race_chances_follow_the_formula() {
    let db = BearoffDb::get();
    let me_home = home(&[(6, 3), (5, 2), (2, 4)]);
    let them_home = home(&[(6, 2), (4, 4), (3, 3), (1, 2)]);
    let mut me = [0u8; 25];
    me[..POINTS].copy_from_slice(&me_home);
    let mut them = [0u8; 25];
    them[..POINTS].copy_from_slice(&them_home);
    let pos = Position::from_counts(&me, &them).unwrap();
    let (pm, po) = (
        db.rolls_to_bear_off(&me_home),
        db.rolls_to_bear_off(&them_home),
    );
    let mut win = 0.0f64;
    for (n, &a) in pm.iter().enumerate() {
        for &b in &po[n..] {
            win += f64::from(a) * f64::from(b);
        }
    }
    let p = db.chances(&pos).unwrap();
    assert!((f64::from(p.win) - win).abs() < 1e-5, "{p:?} vs {win}");
    assert_eq!(
        (p.win_gammon, p.lose_gammon),
        (0.0, 0.0),
        "both have checkers off"
    );
    let h = crate::backgammon::Heuristic.evaluate(&pos);
    assert_eq!(h, p, "the evaluator answers from the database");
    // Seen from the other side, on roll, the same board's chances are consistent.
    let q = db.chances(&pos.flip()).unwrap();
    assert!(q.win > 0.0 && q.win < 1.0);
    // Symmetric boards: the player on roll is ahead.
    let same = Position::from_counts(&me, &me).unwrap();
    assert!(db.chances(&same).unwrap().win > 0.5);
}

#[test]
fn gammons_only_when_the_loser_has_none_off() {
    let db = BearoffDb::get();
    // Mover: two checkers left on the 1-point; opponent: 15 on its 6-point, none off.
    let mut me = [0u8; 25];
    me[0] = 2;
    let mut them = [0u8; 25];
    them[5] = 15;
    let pos = Position::from_counts(&me, &them).unwrap();
    let p = db.chances(&pos).unwrap();
    assert_eq!(p.win, 1.0);
    assert_eq!(p.win_gammon, 1.0, "the opponent never rolls: a sure gammon");
    // The other way round: the side with 15 on its 6-point is on roll and cannot finish
    // before we do on our next roll; it saves the gammon only by bearing one off now (17 of
    // 36, as in `hand_worked_positions`).
    let q = db.chances(&pos.flip()).unwrap();
    assert!((q.lose_gammon - 19.0 / 36.0).abs() < 1e-5, "{q:?}");
    assert_eq!(
        q.win_gammon, 0.0,
        "we have borne off 13: no gammon for the opponent"
    );
    assert!(db.chances(&Position::START).is_none());
}

#[test]
#[ignore = "timing only: cargo test --release -p tabula-ai build_time -- --ignored --nocapture"]
fn build_time() {
    let t = std::time::Instant::now();
    let db = BearoffDb::build();
    println!(
        "built in {:?}; 15 on the 6-point: {} rolls",
        t.elapsed(),
        db.expected_rolls(&home(&[(6, 15)]))
    );
}
