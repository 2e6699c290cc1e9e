//! The mutation engine and the loop that runs one target.
//!
//! No coverage feedback (stable Rust has no sanitizer coverage without nightly): inputs come
//! from the target's seed corpus and dictionary, mutated by stacked byte-level edits (bit
//! flips, byte sets, inserts, deletes, duplications, dictionary tokens, splices with other
//! corpus entries, digit nudges), plus pure random bytes. Feedback is semantic: an input the
//! target *accepts* (it parsed) joins a bounded pool of live inputs, so mutations walk along
//! the edge of the grammar rather than staying in the noise. Everything is drawn from a
//! seeded ChaCha, so a run is reproducible from its seed.
//!
//! Each input runs inside [`std::panic::catch_unwind`]; a panic is saved to a crash file
//! named by its signature (the panic's location), counted once per signature.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::{Duration, Instant};

/// The largest input the engine makes, in bytes.
pub const MAX_INPUT: usize = 4096;
/// How many accepted inputs the live pool keeps (random replacement beyond).
pub const POOL_SIZE: usize = 4096;

/// One fuzz target: a parser (or a group of closely related parsers) fed arbitrary bytes.
#[derive(Clone, Copy)]
pub struct Target {
    /// The name on the command line.
    pub name: &'static str,
    /// What it covers, in words.
    pub about: &'static str,
    /// Runs the parser on one input and checks the properties that must hold; returns
    /// whether the input was accepted (parsed), which feeds the live pool. Panics are bugs.
    pub run: fn(&[u8]) -> bool,
    /// Valid (and nearly valid) inputs to start from.
    pub seeds: fn() -> Vec<Vec<u8>>,
    /// Tokens of the grammar, spliced into inputs.
    pub dictionary: fn() -> Vec<Vec<u8>>,
}

/// How long to run a target.
#[derive(Debug, Clone, Copy)]
pub enum Budget {
    /// Until this much time has passed.
    Time(Duration),
    /// This many inputs.
    Inputs(u64),
}

/// What a run found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The target's name.
    pub target: &'static str,
    /// Inputs run.
    pub inputs: u64,
    /// Inputs the target accepted.
    pub accepted: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Unique crashes: signature (panic location and message) to the crash file written
    /// (or `None` when no folder was given) and how many inputs hit it.
    pub crashes: BTreeMap<String, (Option<PathBuf>, u64)>,
}

impl Report {
    /// One line for people: inputs, accepted, seconds, unique crashes.
    pub fn line(&self) -> String {
        format!(
            "{:<18} inputs {:>12}  accepted {:>11}  seconds {:>8.1}  unique crashes {}",
            self.target,
            self.inputs,
            self.accepted,
            self.elapsed.as_secs_f64(),
            self.crashes.len()
        )
    }
}

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Replaces the panic hook (once) with one that records the panic's location and message
/// for the engine instead of printing it.
fn install_hook() {
    HOOK.call_once(|| {
        panic::set_hook(Box::new(|info| {
            let location = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_else(|| "?".into());
            let payload = info.payload();
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let message: String = message.chars().take(200).collect();
            LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{location}: {message}")));
        }));
    });
}

/// Runs `target` once on `input`: `Ok(accepted)`, or `Err(signature)` if it panicked.
pub fn run_one(target: &Target, input: &[u8]) -> Result<bool, String> {
    install_hook();
    match panic::catch_unwind(AssertUnwindSafe(|| (target.run)(input))) {
        Ok(accepted) => Ok(accepted),
        Err(_) => Err(LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| "unknown panic".into())),
    }
}

/// The byte edits.
struct Mutator {
    rng: ChaCha8Rng,
    dictionary: Vec<Vec<u8>>,
}

const INTERESTING: &[u8] = b"\0\xff\x7f\x80 -:/*^()=,.#0123456789abcdefABCDEFwbWBxX\n\t";

impl Mutator {
    fn random_bytes(&mut self) -> Vec<u8> {
        let len = match self.rng.gen_range(0..4) {
            0 => self.rng.gen_range(0..8),
            1 => self.rng.gen_range(0..64),
            2 => self.rng.gen_range(0..512),
            _ => self.rng.gen_range(0..MAX_INPUT),
        };
        let printable = self.rng.gen_bool(0.5);
        (0..len)
            .map(|_| {
                if printable {
                    self.rng.gen_range(0x20..0x7f)
                } else {
                    self.rng.gen()
                }
            })
            .collect()
    }

    fn token(&mut self) -> Vec<u8> {
        if !self.dictionary.is_empty() && self.rng.gen_bool(0.8) {
            self.dictionary
                .choose(&mut self.rng)
                .cloned()
                .unwrap_or_default()
        } else {
            vec![*INTERESTING.choose(&mut self.rng).unwrap_or(&b'0')]
        }
    }

    /// Applies 1 to 8 stacked edits to `input`; `other` is another corpus entry to splice.
    fn mutate(&mut self, mut input: Vec<u8>, other: &[u8]) -> Vec<u8> {
        let edits = 1 << self.rng.gen_range(0..4);
        for _ in 0..edits {
            let len = input.len();
            match self.rng.gen_range(0..12) {
                0 if len > 0 => {
                    let i = self.rng.gen_range(0..len);
                    input[i] ^= 1 << self.rng.gen_range(0..8);
                }
                1 if len > 0 => {
                    let i = self.rng.gen_range(0..len);
                    input[i] = if self.rng.gen_bool(0.5) {
                        self.rng.gen()
                    } else {
                        *INTERESTING.choose(&mut self.rng).unwrap_or(&0)
                    };
                }
                2 => {
                    let i = self.rng.gen_range(0..=len);
                    let b = self.rng.gen();
                    input.insert(i, b);
                }
                3 if len > 0 => {
                    let i = self.rng.gen_range(0..len);
                    let n = self.rng.gen_range(1..=(len - i).min(16));
                    input.drain(i..i + n);
                }
                4 if len > 0 => {
                    let i = self.rng.gen_range(0..len);
                    let n = self.rng.gen_range(1..=(len - i).min(64));
                    let chunk = input[i..i + n].to_vec();
                    let at = self.rng.gen_range(0..=len);
                    input.splice(at..at, chunk);
                }
                5 | 6 => {
                    let token = self.token();
                    let i = self.rng.gen_range(0..=len);
                    input.splice(i..i, token);
                }
                7 if len > 0 => {
                    let token = self.token();
                    let i = self.rng.gen_range(0..len);
                    let n = self.rng.gen_range(0..=(len - i).min(token.len().max(1)));
                    input.splice(i..i + n, token);
                }
                8 if !other.is_empty() => {
                    // Splice: a prefix of this input, a suffix of the other.
                    let cut = self.rng.gen_range(0..=len);
                    let from = self.rng.gen_range(0..other.len());
                    input.truncate(cut);
                    input.extend_from_slice(&other[from..]);
                }
                9 => {
                    // A digit nudged, or a number replaced by an extreme one.
                    let digits: Vec<usize> =
                        (0..len).filter(|&i| input[i].is_ascii_digit()).collect();
                    if let Some(&i) = digits.choose(&mut self.rng) {
                        if self.rng.gen_bool(0.7) {
                            input[i] = b'0' + self.rng.gen_range(0..10);
                        } else {
                            let big: &[u8] = [
                                &b"4294967296"[..],
                                b"18446744073709551616",
                                b"-1",
                                b"65535",
                                b"99999999999999999999999",
                                b"255",
                                b"256",
                                b"-9223372036854775808",
                            ]
                            .choose(&mut self.rng)
                            .copied()
                            .unwrap_or(b"0");
                            input.splice(i..=i, big.iter().copied());
                        }
                    }
                }
                10 if len > 1 => {
                    let i = self.rng.gen_range(0..len);
                    input.truncate(i);
                }
                11 if len > 1 => {
                    let (a, b) = (self.rng.gen_range(0..len), self.rng.gen_range(0..len));
                    input.swap(a, b);
                }
                _ => {}
            }
            input.truncate(MAX_INPUT);
        }
        input
    }
}

/// Runs `target` for `budget`, drawing from a ChaCha seeded with `seed`; crash inputs are
/// written under `crash_dir` when given. `progress` is called about every 10 seconds.
pub fn run_target(
    target: &Target,
    budget: Budget,
    seed: u64,
    crash_dir: Option<&Path>,
    mut progress: impl FnMut(&Report),
) -> Report {
    let start = Instant::now();
    let mut report = Report {
        target: target.name,
        ..Report::default()
    };
    let seeds = (target.seeds)();
    let mut mutator = Mutator {
        rng: ChaCha8Rng::seed_from_u64(seed),
        dictionary: (target.dictionary)(),
    };
    let mut pool: Vec<Vec<u8>> = Vec::new();
    let mut last_progress = Instant::now();
    // The seeds themselves first, unmutated.
    let mut queue: Vec<Vec<u8>> = seeds.clone();
    queue.reverse();
    loop {
        match budget {
            Budget::Inputs(n) if report.inputs >= n => break,
            Budget::Time(d) if report.inputs & 63 == 0 && start.elapsed() >= d => break,
            _ => {}
        }
        let input = if let Some(seed_input) = queue.pop() {
            seed_input
        } else {
            let choice = mutator.rng.gen_range(0..20);
            if choice == 0 || (seeds.is_empty() && pool.is_empty()) {
                mutator.random_bytes()
            } else {
                let from_pool = !pool.is_empty() && (seeds.is_empty() || choice < 12);
                let base = if from_pool {
                    pool.choose(&mut mutator.rng).cloned().unwrap_or_default()
                } else {
                    seeds.choose(&mut mutator.rng).cloned().unwrap_or_default()
                };
                let other = if !pool.is_empty() && mutator.rng.gen_bool(0.5) {
                    pool.choose(&mut mutator.rng).cloned().unwrap_or_default()
                } else {
                    seeds.choose(&mut mutator.rng).cloned().unwrap_or_default()
                };
                mutator.mutate(base, &other)
            }
        };
        report.inputs += 1;
        match run_one(target, &input) {
            Ok(true) => {
                report.accepted += 1;
                if pool.len() < POOL_SIZE {
                    pool.push(input);
                } else {
                    let i = mutator.rng.gen_range(0..POOL_SIZE);
                    pool[i] = input;
                }
            }
            Ok(false) => {}
            Err(signature) => {
                let entry = report.crashes.entry(signature).or_insert_with(|| {
                    let file = crash_dir.and_then(|dir| save_crash(dir, target.name, &input));
                    (file, 0)
                });
                entry.1 += 1;
            }
        }
        if last_progress.elapsed() >= Duration::from_secs(10) {
            report.elapsed = start.elapsed();
            progress(&report);
            last_progress = Instant::now();
        }
    }
    report.elapsed = start.elapsed();
    report
}

/// Writes a crash input to `dir/<target>-<fnv64 of the input>.bin`.
fn save_crash(dir: &Path, target: &str, input: &[u8]) -> Option<PathBuf> {
    let hash = input.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let path = dir.join(format!("{target}-{hash:016x}.bin"));
    std::fs::create_dir_all(dir).ok()?;
    std::fs::write(&path, input).ok()?;
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panics_on_x(input: &[u8]) -> bool {
        assert!(!input.contains(&b'X'), "found an X");
        true
    }

    #[test]
    fn a_panic_is_caught_and_counted_once_per_location() {
        let target = Target {
            name: "x",
            about: "panics on X",
            run: panics_on_x,
            seeds: || vec![b"abc".to_vec()],
            dictionary: || vec![b"X".to_vec()],
        };
        let report = run_target(&target, Budget::Inputs(2000), 1, None, |_| {});
        assert_eq!(report.inputs, 2000);
        assert_eq!(report.crashes.len(), 1, "{:?}", report.crashes);
        let (sig, (_, hits)) = report.crashes.iter().next().unwrap();
        assert!(sig.contains("found an X"), "{sig}");
        assert!(*hits > 1);
    }

    #[test]
    fn runs_are_reproducible_from_the_seed() {
        let target = Target {
            name: "count",
            about: "accepts even lengths",
            run: |b| b.len() % 2 == 0,
            seeds: || vec![b"ab".to_vec()],
            dictionary: Vec::new,
        };
        let a = run_target(&target, Budget::Inputs(5000), 9, None, |_| {});
        let b = run_target(&target, Budget::Inputs(5000), 9, None, |_| {});
        assert_eq!(a.accepted, b.accepted);
    }
}
