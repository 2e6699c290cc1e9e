//! The running sums of a rollout, trial by trial in trial order: what a stopped rollout keeps
//! and what a resumed one goes on from.
//!
//! A rollout's trials are independent and seeded by their number ([`super::rollout`]), so
//! the trials `0..n` can be played in any number of calls: [`run_blocks`] plays them in
//! blocks (parallel inside a block), adds each block's results to the sums in trial order,
//! and reports the sums after every block. Stopped between blocks, the sums hold a prefix
//! of the trials; given back, they are continued from the next trial. Because the sums are
//! added in the same order however the work was split, a rollout run in pieces gives
//! exactly the result of the same rollout run at once.

use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// The sums of `trials` trials' `K` results and of their squares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sums<const K: usize> {
    /// Trials summed: the trials `0..trials`.
    pub trials: u32,
    /// The sum of each result.
    pub sum: [f64; K],
    /// The sum of each result's square.
    pub sum_sq: [f64; K],
}

impl<const K: usize> Default for Sums<K> {
    fn default() -> Sums<K> {
        Sums {
            trials: 0,
            sum: [0.0; K],
            sum_sq: [0.0; K],
        }
    }
}

impl<const K: usize> Sums<K> {
    /// Adds the next trial's results.
    pub fn add(&mut self, r: &[f64; K]) {
        self.trials += 1;
        for (k, x) in r.iter().enumerate() {
            self.sum[k] += x;
            self.sum_sq[k] += x * x;
        }
    }

    /// The mean of each result (zero before any trial).
    pub fn mean(&self) -> [f64; K] {
        let n = f64::from(self.trials.max(1));
        self.sum.map(|s| s / n)
    }

    /// The standard error of each mean (zero for fewer than two trials).
    pub fn std_err(&self) -> [f64; K] {
        let n = f64::from(self.trials);
        if self.trials < 2 {
            return [0.0; K];
        }
        std::array::from_fn(|k| {
            let var = (self.sum_sq[k] - self.sum[k] * self.sum[k] / n).max(0.0) / (n - 1.0);
            (var / n).sqrt()
        })
    }

    /// Whether sums given from outside can be trials' sums: finite, squares not negative.
    pub fn is_plausible(&self) -> bool {
        self.sum.iter().chain(&self.sum_sq).all(|x| x.is_finite())
            && self.sum_sq.iter().all(|&x| x >= 0.0)
    }
}

/// Plays the trials `from.trials..until` in blocks of `block`, each trial by `trial` (given
/// its worker's state from `state_for` and its number), adding them to `from` in trial
/// order and calling `on_block` with the sums after each block. Stops between blocks once
/// `cancel` is set (the trials of an unfinished block are dropped, so the sums always hold
/// whole prefixes). Runs on the current rayon pool.
pub fn run_blocks<const K: usize, S>(
    from: Sums<K>,
    until: u32,
    block: u32,
    cancel: &AtomicBool,
    state_for: impl Fn() -> S + Sync,
    trial: impl Fn(&mut S, u64) -> [f64; K] + Sync,
    mut on_block: impl FnMut(&Sums<K>),
) -> Sums<K> {
    let mut sums = from;
    let block = block.max(1);
    while sums.trials < until && !cancel.load(Ordering::Relaxed) {
        let start = sums.trials;
        let end = until.min(start.saturating_add(block));
        let results: Vec<Option<[f64; K]>> = (u64::from(start)..u64::from(end))
            .into_par_iter()
            .map_init(&state_for, |state, t| {
                (!cancel.load(Ordering::Relaxed)).then(|| trial(state, t))
            })
            .collect();
        if results.iter().any(Option::is_none) {
            break;
        }
        for r in results.iter().flatten() {
            sums.add(r);
        }
        on_block(&sums);
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake(t: u64) -> [f64; 2] {
        [(t % 7) as f64 / 7.0, ((t * 13) % 5) as f64]
    }

    #[test]
    fn sums_resumed_in_pieces_equal_sums_run_at_once() {
        let never = AtomicBool::new(false);
        let whole = run_blocks(
            Sums::default(),
            100,
            36,
            &never,
            || (),
            |_, t| fake(t),
            |_| {},
        );
        let first = run_blocks(
            Sums::default(),
            40,
            7,
            &never,
            || (),
            |_, t| fake(t),
            |_| {},
        );
        assert_eq!(first.trials, 40);
        let rest = run_blocks(first, 100, 11, &never, || (), |_, t| fake(t), |_| {});
        assert_eq!(rest, whole);
        assert_eq!(whole.trials, 100);
    }

    #[test]
    fn a_cancelled_run_keeps_whole_blocks_only() {
        let cancel = AtomicBool::new(false);
        let mut seen = Vec::new();
        let sums = run_blocks(
            Sums::default(),
            100,
            10,
            &cancel,
            || (),
            |_, t| fake(t),
            |s| {
                seen.push(s.trials);
                if s.trials == 30 {
                    cancel.store(true, Ordering::Relaxed);
                }
            },
        );
        assert_eq!(sums.trials, 30);
        assert_eq!(seen, vec![10, 20, 30]);
        let mut by_hand = Sums::<2>::default();
        (0..30).for_each(|t| by_hand.add(&fake(t)));
        assert_eq!(sums, by_hand);
    }

    #[test]
    fn mean_and_standard_error_match_the_textbook_formulas() {
        let mut s = Sums::<1>::default();
        for x in [1.0, 2.0, 3.0, 4.0] {
            s.add(&[x]);
        }
        assert!((s.mean()[0] - 2.5).abs() < 1e-12);
        // Sample variance 5/3; standard error sqrt(5/3 / 4).
        assert!((s.std_err()[0] - (5.0f64 / 12.0).sqrt()).abs() < 1e-12);
        assert_eq!(Sums::<1>::default().std_err(), [0.0]);
    }

    #[test]
    fn implausible_sums_are_recognised() {
        let mut s = Sums::<1>::default();
        s.add(&[0.5]);
        assert!(s.is_plausible());
        s.sum[0] = f64::NAN;
        assert!(!s.is_plausible());
        s.sum[0] = 0.5;
        s.sum_sq[0] = -1.0;
        assert!(!s.is_plausible());
    }
}
