//! Sibling sets: the close candidate plays of one roll, each labelled by a deeper search, so
//! that a fit can teach the nets to *rank* the plays of a roll as the search does, not only
//! to value positions one by one (docs/training.md, "Sibling sets").
//!
//! A chequer decision is lost by ranking two close plays the wrong way round. The plain fit
//! ([`crate::supervised`]) lowers each position's error on its own; the error that decides
//! a play is the *difference* between the errors of a roll's candidates, which that fit
//! reaches only through their absolute values. A sibling set keeps a roll's candidates
//! together so that [`crate::supervised::Adam::pass_with_sets`] can add a loss on those
//! differences.
//!
//! **Sampling** ([`sample_sets`]): the positions of [`label::sample_chunk`] (the nets'
//! exploring self-play), each with a roll drawn from the chunk's seed and the position's
//! index; its candidates are every distinct play, valued by the nets at 0-ply; the set is the
//! best [`SetConfig::max_members`] within [`SetConfig::window`] of the best (cubeless
//! equity), and a roll with fewer than two such plays gives no set.
//!
//! **Members** are the positions after each play seen from the opponent, now on roll, as
//! every labelled position is; their labels are that player's chances
//! ([`label::label_position`], or the exact answer where the bear-off database has one).
//!
//! **Set files** ([`write_sets`], [`read_sets`]): a magic, the set count, then per set its
//! member count (one byte) and the members as [`label`]'s records, and a SHA-256 of
//! everything before it; a damaged or truncated file is refused.

use crate::label::{self, ChunkError, Labelled, SampleConfig, RECORD};
use crate::td::{roll, to_array};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabula_ai::backgammon::nn::NeuralEvaluator;
use tabula_ai::backgammon::Evaluator;
use tabula_tables::{MoveGen, Position};

/// The first bytes of a set file.
const MAGIC: &[u8; 8] = b"TSIBS001";

/// How sibling sets are drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SetConfig {
    /// The parent positions: [`label::sample_chunk`]'s settings.
    pub sample: SampleConfig,
    /// The most plays a set keeps.
    pub max_members: usize,
    /// Plays further than this behind the best at 0-ply (cubeless equity) are left out.
    pub window: f32,
}

impl Default for SetConfig {
    fn default() -> SetConfig {
        SetConfig {
            sample: SampleConfig {
                per_chunk: 50,
                ..SampleConfig::default()
            },
            max_members: 8,
            window: 0.16,
        }
    }
}

/// One roll's close candidates: the positions after each play, seen from the opponent (on
/// roll), each with that player's chances.
#[derive(Debug, Clone, PartialEq)]
pub struct SiblingSet {
    /// At least two members, best first by the sampling nets at 0-ply.
    pub members: Vec<Labelled>,
}

/// The unlabelled sets of chunk `index`: for each parent position of
/// [`label::sample_chunk`], the close candidates of a roll drawn for it (module docs), the
/// best at 0-ply first; rolls with one close play give none.
pub fn sample_sets(nets: &NeuralEvaluator, cfg: &SetConfig, index: u64) -> Vec<Vec<Position>> {
    let parents = label::sample_chunk(nets, &cfg.sample, index);
    let mut gen = MoveGen::new();
    let mut sets = Vec::new();
    for (i, parent) in parents.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(
            cfg.sample.seed.wrapping_mul(0xA24B_AED4_963E_E407)
                ^ index.wrapping_mul(0x9FB2_1C65_1E98_DF25)
                ^ (i as u64).wrapping_add(0x51B1),
        );
        let dice = roll(&mut rng);
        let mut scored: Vec<(f32, Position)> = gen
            .positions(parent, dice)
            .iter()
            .map(|c| {
                let theirs = c.flip();
                (nets.evaluate(&theirs).equity(), theirs)
            })
            .collect();
        // The opponent's equity after each play: lowest is best for the mover.
        scored.sort_by(|a, b| a.0.total_cmp(&b.0));
        let Some(&(best, _)) = scored.first() else {
            continue;
        };
        let members: Vec<Position> = scored
            .iter()
            .take_while(|(e, _)| *e - best <= cfg.window)
            .take(cfg.max_members)
            .map(|(_, p)| *p)
            .collect();
        if members.len() >= 2 {
            sets.push(members);
        }
    }
    sets
}

/// `members` labelled by `nets` at `plies` (the exact answer where the bear-off database
/// has one).
pub fn label_set(
    nets: &NeuralEvaluator,
    gen: &mut MoveGen,
    members: &[Position],
    plies: u32,
) -> SiblingSet {
    SiblingSet {
        members: members
            .iter()
            .map(|&position| Labelled {
                position,
                target: match NeuralEvaluator::exact(&position) {
                    Some(exact) => to_array(&exact).map(|p| p.clamp(0.0, 1.0)),
                    None => label::label_position(nets, gen, &position, plies),
                },
            })
            .collect(),
    }
}

/// The bytes of a set file holding `sets` (each of 2 to 255 members).
pub fn write_sets(sets: &[SiblingSet]) -> Vec<u8> {
    label::seal(MAGIC, sets.len(), |out| {
        for set in sets {
            out.push(u8::try_from(set.members.len()).expect("at most 255 members"));
            for m in &set.members {
                label::push_record(out, m);
            }
        }
    })
}

/// The sets of a set file's bytes, checked: each of two or more members, nothing after
/// the last.
pub fn read_sets(bytes: &[u8]) -> Result<Vec<SiblingSet>, ChunkError> {
    let (count, mut body) = label::unseal(bytes, MAGIC, |_, _| true)?;
    let mut sets = Vec::new();
    let mut record = 0;
    for _ in 0..count {
        let (&n, rest) = body.split_first().ok_or(ChunkError::Format)?;
        let n = usize::from(n);
        if n < 2 || rest.len() < n * RECORD {
            return Err(ChunkError::Format);
        }
        let (members, rest) = rest.split_at(n * RECORD);
        let members = members
            .chunks_exact(RECORD)
            .map(|rec| {
                record += 1;
                label::parse_record(rec, record - 1)
            })
            .collect::<Result<Vec<_>, _>>()?;
        sets.push(SiblingSet { members });
        body = rest;
    }
    if !body.is_empty() {
        return Err(ChunkError::Format);
    }
    Ok(sets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::Digest;

    fn tiny() -> SetConfig {
        SetConfig {
            sample: SampleConfig {
                per_chunk: 10,
                ..SampleConfig::default()
            },
            ..SetConfig::default()
        }
    }

    #[test]
    fn sibling_sets_are_a_rolls_close_plays_best_first_and_reproducible() {
        let nets = NeuralEvaluator::shipped();
        let sets = sample_sets(nets, &tiny(), 2);
        assert!(!sets.is_empty());
        assert_eq!(sets, sample_sets(nets, &tiny(), 2));
        for set in &sets {
            assert!((2..=8).contains(&set.len()), "{}", set.len());
            let equities: Vec<f32> = set.iter().map(|p| nets.evaluate(p).equity()).collect();
            // Best for the mover first: the opponent's equity rises, within the window.
            assert!(equities.windows(2).all(|w| w[0] <= w[1]), "{equities:?}");
            assert!(equities[equities.len() - 1] - equities[0] <= 0.16 + 1e-6);
        }
    }

    #[test]
    fn set_files_round_trip_and_refuse_damage() {
        let nets = NeuralEvaluator::shipped();
        let mut gen = MoveGen::new();
        let sets: Vec<SiblingSet> = sample_sets(nets, &tiny(), 1)
            .iter()
            .take(3)
            .map(|m| label_set(nets, &mut gen, m, 1))
            .collect();
        let bytes = write_sets(&sets);
        assert_eq!(read_sets(&bytes).unwrap(), sets);
        let mut bad = bytes.clone();
        bad[30] ^= 1;
        assert!(matches!(read_sets(&bad), Err(ChunkError::Checksum)));
        assert!(matches!(
            read_sets(&bytes[..bytes.len() - 1]),
            Err(ChunkError::Checksum)
        ));
        // A set of one play, and bytes after the last set, are refused though the
        // checksum holds.
        let mut one = sets[0].clone();
        one.members.truncate(1);
        assert!(matches!(
            read_sets(&write_sets(&[one])),
            Err(ChunkError::Format)
        ));
        let mut longer = write_sets(&sets);
        longer.truncate(longer.len() - 32);
        longer.push(0);
        let digest = sha2::Sha256::digest(&longer);
        longer.extend_from_slice(&digest);
        assert!(matches!(read_sets(&longer), Err(ChunkError::Format)));
        assert!(matches!(label::read_chunk(&bytes), Err(ChunkError::Format)));
    }
}
