//! Move generation throughput over a fixed corpus of contact and race positions.
//!
//! The corpus is deterministic: random games from the starting position, each play chosen
//! uniformly among the legal results (sorted, so the choice does not depend on the generator's
//! output order) by a `ChaCha8Rng` with a fixed seed, using `MoveGen` itself. Every kept position is benchmarked with all 21 rolls, and throughput is reported in
//! resulting positions per second.
//!
//! The benchmark asserts what it measures: before timing, the total number of resulting
//! positions over the corpus must equal the count recorded below (a faster generator that
//! finds different plays fails here, not in a report), and a sample of cases is cross-checked
//! against the typed `plays` path, replaying every play step by step.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_core::Dice;
use tabula_tables::{MoveGen, Play, Position, SequenceGen, TablesGen, Trapping};

/// Positions per class.
const PER_CLASS: usize = 1_000;
/// Seed of the corpus games; changing it changes the recorded counts below.
const SEED: u64 = 20_240_601;
/// A position is kept with probability 1 / `KEEP_ONE_IN`, so that the corpus spreads over many
/// games instead of the first few.
const KEEP_ONE_IN: u32 = 3;

/// Total resulting positions over the contact corpus, all 21 rolls each.
const CONTACT_RESULTS: usize = 476_319;
/// Total resulting positions over the race corpus, all 21 rolls each.
const RACE_RESULTS: usize = 283_193;
/// The same corpus under Never-Finishing rules (trap choices on every blot landed on).
const NF_CONTACT_RESULTS: usize = 766_017;
const NF_RACE_RESULTS: usize = 283_193;
/// Results over 1,000 positions of random Never-Finishing games, all 21 rolls.
const NF_GAME_RESULTS: usize = 896_681;

/// The benchmark corpus: `PER_CLASS` contact positions and `PER_CLASS` race positions, each
/// seen from the player on roll.
struct Corpus {
    contact: Vec<Position>,
    race: Vec<Position>,
}

impl Corpus {
    fn generate() -> Corpus {
        let mut rng = ChaCha8Rng::seed_from_u64(SEED);
        let mut gen = MoveGen::new();
        let (mut contact, mut race) = (Vec::new(), Vec::new());
        while contact.len() < PER_CLASS || race.len() < PER_CLASS {
            let mut pos = Position::START;
            // A game ends when the side that just moved has borne off all its checkers.
            while pos.opponent_off() < 15 {
                if rng.gen_range(0..KEEP_ONE_IN) == 0 {
                    let class = if pos.is_race() {
                        &mut race
                    } else {
                        &mut contact
                    };
                    if class.len() < PER_CLASS {
                        class.push(pos);
                    }
                }
                let dice = Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
                // Sorted, so that the corpus does not depend on the generator's output order.
                let mut results = gen.positions(&pos, dice).to_vec();
                results.sort_by_key(Position::to_counts);
                if !results.is_empty() {
                    pos = results[rng.gen_range(0..results.len())];
                }
                pos = pos.flip();
            }
        }
        Corpus { contact, race }
    }
}

/// Total resulting positions over `positions` with every roll, by the fast path.
fn count_results(gen: &mut MoveGen, positions: &[Position]) -> usize {
    let mut total = 0;
    for pos in positions {
        for dice in Dice::all() {
            total += gen.positions(pos, dice).len();
        }
    }
    total
}

/// Total resulting positions by the typed path.
/// Resulting positions of the general sequence generator (Never-Finishing's) over `positions`.
fn count_sequences(gen: &mut SequenceGen, positions: &[Position], trapping: Trapping) -> usize {
    let mut total = 0;
    for pos in positions {
        for dice in Dice::all() {
            total += gen.positions(pos, dice, trapping).len();
        }
    }
    total
}

/// Resulting positions of the production tables generator under Never-Finishing rules.
fn count_tables(gen: &mut TablesGen, positions: &[Position]) -> usize {
    let mut total = 0;
    for pos in positions {
        for dice in Dice::all() {
            total += gen.positions(pos, dice, Trapping::On).len();
        }
    }
    total
}

/// Positions met in random Never-Finishing games (trapped checkers included), one in three.
fn nf_corpus(count: usize) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut gen = SequenceGen::new();
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = tabula_tables::never_finishing::start_position();
        for _ in 0..400 {
            if pos.opponent_off() == 15 || out.len() == count {
                break;
            }
            if rng.gen_range(0..KEEP_ONE_IN) == 0 {
                out.push(pos);
            }
            let dice = Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
            let mut results = gen.positions(&pos, dice, Trapping::On).to_vec();
            results.sort_by_key(|p| (p.pips(), p.trapped_mask()));
            if !results.is_empty() {
                pos = results[rng.gen_range(0..results.len())];
            }
            pos = pos.flip();
        }
    }
    out
}

fn count_plays(gen: &mut MoveGen, positions: &[Position]) -> usize {
    let mut total = 0;
    for pos in positions {
        for dice in Dice::all() {
            total += gen.plays(pos, dice).1.len();
        }
    }
    total
}

/// Applies a play's steps to `pos` through the public counts API, independently of the
/// generator's own step code.
fn replay(pos: &Position, play: &Play) -> Position {
    let [mut mover, mut opponent] = pos.to_counts();
    for s in play.steps() {
        // Mover index = point - 1, bar = 24; the opponent's index for the mover's point p is
        // 24 - p.
        mover[s.from as usize - 1] -= 1;
        if s.to > 0 {
            mover[s.to as usize - 1] += 1;
            let opp = 24 - s.to as usize;
            assert_eq!(s.hit, opponent[opp] == 1, "hit mark of {s:?} in {pos:?}");
            if s.hit {
                opponent[opp] = 0;
                opponent[24] += 1;
            }
        }
    }
    Position::from_counts(&mover, &opponent).expect("replayed play gives a legal board")
}

/// Cross-checks every `stride`-th case of `positions` between the two paths.
fn cross_check(positions: &[Position], stride: usize) {
    let (mut fast, mut typed) = (MoveGen::new(), MoveGen::new());
    for pos in positions.iter().step_by(stride) {
        for dice in Dice::all() {
            let expected = fast.positions(pos, dice).to_vec();
            let (results, plays) = typed.plays(pos, dice);
            assert_eq!(expected, results, "{pos:?} {dice}");
            assert_eq!(plays.len(), results.len());
            for (play, result) in plays.iter().zip(results) {
                assert_eq!(replay(pos, play), *result, "{pos:?} {dice} {play:?}");
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let corpus = Corpus::generate();
    let mut gen = MoveGen::new();
    let contact_total = count_results(&mut gen, &corpus.contact);
    let race_total = count_results(&mut gen, &corpus.race);
    assert_eq!(
        (contact_total, race_total),
        (CONTACT_RESULTS, RACE_RESULTS),
        "resulting positions over the corpus (contact, race)"
    );
    assert_eq!(count_plays(&mut gen, &corpus.contact), contact_total);
    assert_eq!(count_plays(&mut gen, &corpus.race), race_total);
    cross_check(&corpus.contact, 7);
    cross_check(&corpus.race, 7);

    let all: Vec<Position> = corpus.contact.iter().chain(&corpus.race).copied().collect();
    let classes = [
        ("contact", &corpus.contact, contact_total),
        ("race", &corpus.race, race_total),
        ("overall", &all, contact_total + race_total),
    ];
    for (name, positions, total) in classes {
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function("positions", |b| {
            b.iter(|| count_results(&mut gen, black_box(positions)))
        });
        group.bench_function("plays", |b| {
            b.iter(|| count_plays(&mut gen, black_box(positions)))
        });
        group.finish();
    }

    // Never-Finishing move generation on the same positions: with trapping off the general
    // generator must find exactly the backgammon results; with trapping on, every blot landed
    // on is a choice. `tables` is the production path (`TablesGen`: the fast generator's
    // trapping mode, as none of these positions has a trapped checker), `general` the
    // breadth-first `SequenceGen` it falls back to when one has.
    let mut seq = SequenceGen::new();
    let mut tables = TablesGen::new();
    for (name, positions, total) in classes {
        assert_eq!(count_sequences(&mut seq, positions, Trapping::Off), total);
        let trapping_total = count_sequences(&mut seq, positions, Trapping::On);
        let expected = match name {
            "contact" => NF_CONTACT_RESULTS,
            "race" => NF_RACE_RESULTS,
            _ => NF_CONTACT_RESULTS + NF_RACE_RESULTS,
        };
        assert_eq!(trapping_total, expected, "{name}: results with trapping");
        assert_eq!(count_tables(&mut tables, positions), expected);
        let mut group = c.benchmark_group(format!("never-finishing/{name}"));
        group.throughput(Throughput::Elements(trapping_total as u64));
        group.bench_function("tables", |b| {
            b.iter(|| count_tables(&mut tables, black_box(positions)))
        });
        group.bench_function("general", |b| {
            b.iter(|| count_sequences(&mut seq, black_box(positions), Trapping::On))
        });
        group.finish();
    }

    // Positions from Never-Finishing games themselves, where trapped checkers are common.
    let nf = nf_corpus(PER_CLASS);
    let nf_total = count_tables(&mut tables, &nf);
    assert_eq!(nf_total, count_sequences(&mut seq, &nf, Trapping::On));
    assert_eq!(
        nf_total, NF_GAME_RESULTS,
        "results over the Never-Finishing game corpus"
    );
    let mut group = c.benchmark_group("never-finishing/games");
    group.throughput(Throughput::Elements(nf_total as u64));
    group.bench_function("tables", |b| {
        b.iter(|| count_tables(&mut tables, black_box(&nf)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
