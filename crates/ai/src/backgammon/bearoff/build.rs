//! Solving a one-sided table: one pass over the ranks in increasing order.
//!
//! For each die `d` and `k` in 1..=4, `best[d][k][r]` is the rank reached from rank `r` by the
//! `k` steps of die `d` that minimise the expected rolls of the result. Since a step always
//! lowers the rank, `best[d][k][r]` is a minimum over the one-step results `s < r` of
//! `best[d][k - 1][s]`, all known when `r` is reached; a double is `best[d][4]`, a mixed roll
//! `a-b` the better of `a` then `best[b][1]` and `b` then `best[a][1]`. With no opponent
//! every die can be played while a checker is left, so "use both dice" and "the larger die"
//! never bind. Ties go to the lower rank, so the table is deterministic.

use super::{rank, unrank, Home, MAX_ROLLS, POINTS, POSITIONS};

/// Ranks reachable from `home` by one step of `die` (at most one per occupied point).
fn steps(home: &Home, die: usize, out: &mut [usize; POINTS]) -> usize {
    let highest = match (0..POINTS).rev().find(|&i| home[i] > 0) {
        Some(h) => h + 1,
        None => return 0,
    };
    let mut n = 0;
    for point in 1..=highest {
        if home[point - 1] == 0 {
            continue;
        }
        // A checker moves down by the die, bears off exactly, or bears off from the highest
        // point when the die is larger than it.
        if point >= die || point == highest {
            let mut next = *home;
            next[point - 1] -= 1;
            if point > die {
                next[point - die - 1] += 1;
            }
            out[n] = rank(&next);
            n += 1;
        }
    }
    n
}

/// [`steps`] for the tests.
#[cfg(test)]
pub(super) fn steps_for_test(home: &Home, die: usize, out: &mut [usize; POINTS]) -> usize {
    steps(home, die, out)
}

/// Solves the table whose goal is `done`: the distributions of rolls until a board satisfying
/// `done` is reached (all mass at 0 for those), and their means.
pub(super) fn solve(done: impl Fn(&Home) -> bool) -> (Vec<[f32; MAX_ROLLS]>, Vec<f32>) {
    let mut dist = vec![[0f32; MAX_ROLLS]; POSITIONS];
    let mut mean = vec![0f64; POSITIONS];
    // best[(die - 1) * 4 + (k - 1)][r]
    let mut best = vec![vec![0u16; POSITIONS]; POINTS * 4];
    let mut out = [0usize; POINTS];
    for r in 0..POSITIONS {
        let home = unrank(r);
        if done(&home) {
            dist[r][0] = 1.0;
            for row in best.iter_mut() {
                row[r] = r as u16;
            }
            continue;
        }
        for die in 1..=POINTS {
            let n = steps(&home, die, &mut out);
            for k in 1..=4 {
                let pick = |s: usize| {
                    if k == 1 {
                        s
                    } else {
                        best[(die - 1) * 4 + k - 2][s] as usize
                    }
                };
                let mut choice = pick(out[0]);
                for &s in &out[1..n] {
                    let c = pick(s);
                    if mean[c] < mean[choice] || (mean[c] == mean[choice] && c < choice) {
                        choice = c;
                    }
                }
                best[(die - 1) * 4 + k - 1][r] = choice as u16;
            }
        }
        let mut m = 1.0f64;
        let mut d = [0f64; MAX_ROLLS];
        for a in 1..=POINTS {
            for b in a..=POINTS {
                let (result, weight) = if a == b {
                    (best[(a - 1) * 4 + 3][r] as usize, 1.0)
                } else {
                    let mut choice = usize::MAX;
                    for (first, second) in [(a, b), (b, a)] {
                        let n = steps(&home, first, &mut out);
                        for &s in &out[..n] {
                            let c = best[(second - 1) * 4][s] as usize;
                            if choice == usize::MAX
                                || mean[c] < mean[choice]
                                || (mean[c] == mean[choice] && c < choice)
                            {
                                choice = c;
                            }
                        }
                    }
                    (choice, 2.0)
                };
                let w = weight / 36.0;
                m += w * mean[result];
                let from = &dist[result];
                assert!(
                    from[MAX_ROLLS - 1] == 0.0,
                    "a bear-off needs more than {MAX_ROLLS} rolls"
                );
                for n in 1..MAX_ROLLS {
                    d[n] += w * f64::from(from[n - 1]);
                }
            }
        }
        mean[r] = m;
        for (to, from) in dist[r].iter_mut().zip(d) {
            *to = from as f32;
        }
    }
    (dist, mean.into_iter().map(|m| m as f32).collect())
}
