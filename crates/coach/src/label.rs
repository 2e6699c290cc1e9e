//! Labelled positions for expert iteration: positions sampled from the current nets' play,
//! each with the cubeless chances a deeper search of the same nets gives it (n-ply, as
//! `study::nply` counts plies), stored in chunks that a long run writes one by one and
//! resumes after.
//!
//! **Sampling** ([`sample_chunk`]): games of 0-ply self-play by the nets in which each play
//! is, with probability [`SampleConfig::explore`], a random one of the best
//! [`SampleConfig::explore_top`] at 0-ply instead of the best (so the games leave the nets'
//! favourite paths and reach the holding games, primes and back games the nets misjudge),
//! each position a net answers (not finished, not in the bear-off database) kept with
//! probability [`SampleConfig::keep`]. A chunk is seeded by its index alone, so chunks can
//! be made in any order, on any number of threads, and the same index gives the same chunk.
//!
//! **Labels** ([`label_position`]): the n-ply chances of the player on roll.
//!
//! **Chunk files** ([`write_chunk`], [`read_chunk`]): a magic, the record count, then per
//! record the position's 26 signed pip counts and the five chances as little-endian `f32`,
//! and a SHA-256 of everything before it; a damaged or truncated file is refused.

use super::td::{roll, to_array};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};
use tabula_ai::backgammon::nn::NeuralEvaluator;
use tabula_ai::backgammon::Evaluator;
use tabula_ai::nn::net::OUTPUTS;
use tabula_ai::study::nply;
use tabula_tables::{MoveGen, Position, CHECKERS};

/// The first bytes of a chunk file.
const MAGIC: &[u8; 8] = b"TLABEL01";
/// Bytes of one record: 26 pip counts and five `f32`.
pub(crate) const RECORD: usize = 26 + 4 * OUTPUTS;

/// How positions are sampled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleConfig {
    /// Positions per chunk.
    pub per_chunk: usize,
    /// The share of the positions met that is kept.
    pub keep: f64,
    /// The chance that a play is a random one of the best few rather than the best.
    pub explore: f64,
    /// How many of the best plays an exploring play is drawn from.
    pub explore_top: usize,
    /// The run's seed; chunk `c` is seeded by `(seed, c)`.
    pub seed: u64,
    /// Keep only positions of the kinds the nets misjudge ([`crate::kinds`]).
    pub kinds_only: bool,
    /// Keep only positions whose two sides have this many pips or more left together (250:
    /// the opening and early middle game; 0 keeps all).
    pub min_pips: u32,
}

impl Default for SampleConfig {
    fn default() -> SampleConfig {
        SampleConfig {
            per_chunk: 250,
            keep: 0.2,
            explore: 0.15,
            explore_top: 4,
            seed: 1,
            kinds_only: false,
            min_pips: 0,
        }
    }
}

/// One labelled position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Labelled {
    /// The position, seen from the player on roll.
    pub position: Position,
    /// That player's cubeless chances: win, win gammon, win backgammon, lose gammon, lose
    /// backgammon.
    pub target: [f32; OUTPUTS],
}

/// The chances of the player on roll in `pos` by a cubeless rollout of `nets` (0-ply plays,
/// luck-based variance reduction, stratified first rolls; `study::rollout`) of `trials`
/// trials with dice seeded by `seed`, as a target; with `truncate`, each trial stops after
/// that many plays and takes the nets' 0-ply chances there. A rollout sees past the nets'
/// misjudged structures (a closed board that must break, a blitz that fails) where an n-ply
/// look stays inside them.
pub fn label_by_rollout(
    nets: &NeuralEvaluator,
    pos: &Position,
    trials: u32,
    truncate: Option<u32>,
    seed: u64,
) -> [f32; OUTPUTS] {
    use tabula_ai::study::rollout::{rollout, RolloutConfig};
    let config = RolloutConfig {
        trials,
        truncate,
        seed,
        variance_reduction: true,
    };
    let r = rollout(
        nets,
        MoveGen::new,
        NeuralEvaluator::exact,
        pos,
        &config,
        || {},
    );
    to_array(&r.chances).map(|p| p.clamp(0.0, 1.0))
}

/// Why a chunk file is refused.
#[derive(Debug, thiserror::Error)]
pub enum ChunkError {
    /// Not a chunk file, or cut short.
    #[error("not a label chunk, or cut short")]
    Format,
    /// The checksum does not match.
    #[error("the chunk's checksum does not match its contents")]
    Checksum,
    /// A record holds no legal position or a chance outside 0..=1.
    #[error("record {0} holds no legal position or chances")]
    Record(usize),
}

/// The positions of chunk `index`: [`SampleConfig::per_chunk`] positions from exploring
/// self-play of `nets` (module docs), in the order met.
pub fn sample_chunk(nets: &NeuralEvaluator, cfg: &SampleConfig, index: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(
        cfg.seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(index.wrapping_mul(0xD1B5_4A32_D192_ED03))
            ^ 0x5EED,
    );
    let mut gen = MoveGen::new();
    let mut kept = Vec::with_capacity(cfg.per_chunk);
    let mut pos = Position::START;
    let mut scored: Vec<(f32, Position)> = Vec::new();
    while kept.len() < cfg.per_chunk {
        if pos.mover_off() == CHECKERS || pos.opponent_off() == CHECKERS {
            pos = Position::START;
        }
        if NeuralEvaluator::exact(&pos).is_none()
            && (!cfg.kinds_only || crate::kinds::of(&pos).any())
            && pos.mover_pips() + pos.opponent_pips() >= cfg.min_pips
            && rng.gen_bool(cfg.keep)
        {
            kept.push(pos);
        }
        let dice = roll(&mut rng);
        scored.clear();
        scored.extend(
            gen.positions(&pos, dice)
                .iter()
                .map(|c| (nets.evaluate(&c.flip()).equity(), *c)),
        );
        if scored.is_empty() {
            pos = pos.flip();
            continue;
        }
        // The opponent's equity after each play: lowest is best for the mover.
        scored.sort_by(|a, b| a.0.total_cmp(&b.0));
        let pick = if rng.gen_bool(cfg.explore) {
            rng.gen_range(0..scored.len().min(cfg.explore_top.max(1)))
        } else {
            0
        };
        pos = scored[pick].1.flip();
    }
    kept
}

/// The `plies`-ply cubeless chances of the player on roll in `pos`, by `nets`, as a target
/// (clamped to `[0, 1]`: a weighted mean can round a hair past 1).
pub fn label_position(
    nets: &NeuralEvaluator,
    gen: &mut MoveGen,
    pos: &Position,
    plies: u32,
) -> [f32; OUTPUTS] {
    to_array(&nply::chances(nets, gen, pos, plies)).map(|p| p.clamp(0.0, 1.0))
}

/// The mean of the `plies`-ply and `(plies - 1)`-ply chances ([`nply::chances_blended`], the
/// strong bot's valuation of its closest plays), as a target: one search of the deeper
/// depth gives both, and an odd and an even depth err in opposite directions.
pub fn label_position_blended(
    nets: &NeuralEvaluator,
    gen: &mut MoveGen,
    pos: &Position,
    plies: u32,
) -> [f32; OUTPUTS] {
    to_array(&nply::chances_blended(nets, gen, pos, plies)).map(|p| p.clamp(0.0, 1.0))
}

/// The bytes of a chunk file holding `records`.
pub fn write_chunk(records: &[Labelled]) -> Vec<u8> {
    seal(MAGIC, records.len(), |out| {
        for r in records {
            push_record(out, r);
        }
    })
}

/// The records of a chunk file's bytes, checked.
pub fn read_chunk(bytes: &[u8]) -> Result<Vec<Labelled>, ChunkError> {
    let (_, body) = unseal(bytes, MAGIC, |count, len| {
        usize::try_from(count)
            .ok()
            .and_then(|n| n.checked_mul(RECORD))
            == Some(len)
    })?;
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, rec)| parse_record(rec, i))
        .collect()
}

/// The bytes of a checksummed file: `magic`, `count` (little-endian `u64`), what `body`
/// appends, and a SHA-256 of everything before it (the chunk and set files' framing).
pub(crate) fn seal(magic: &[u8; 8], count: usize, body: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(magic);
    out.extend_from_slice(&(count as u64).to_le_bytes());
    body(&mut out);
    let digest = Sha256::digest(&out);
    out.extend_from_slice(&digest);
    out
}

/// The count and the body (between the count and the checksum) of a file [`seal`] wrote
/// with `magic`, checked: the magic, then `fits(count, body length)` (a file cut short is
/// refused as [`ChunkError::Format`] where the length tells), then the checksum.
pub(crate) fn unseal<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    fits: impl FnOnce(u64, usize) -> bool,
) -> Result<(u64, &'a [u8]), ChunkError> {
    if bytes.len() < 8 + 8 + 32 || &bytes[..8] != magic {
        return Err(ChunkError::Format);
    }
    let (sealed, digest) = bytes.split_at(bytes.len() - 32);
    let count = u64::from_le_bytes(sealed[8..16].try_into().expect("8 bytes"));
    if !fits(count, sealed.len() - 16) {
        return Err(ChunkError::Format);
    }
    if Sha256::digest(sealed).as_slice() != digest {
        return Err(ChunkError::Checksum);
    }
    Ok((count, &sealed[16..]))
}

/// Appends one record's [`RECORD`] bytes to `out`: the 26 signed pip counts, then the five
/// chances as little-endian `f32`.
pub(crate) fn push_record(out: &mut Vec<u8>, r: &Labelled) {
    out.extend(r.position.pips().iter().map(|&p| p as u8));
    for t in r.target {
        out.extend_from_slice(&t.to_le_bytes());
    }
}

/// The record in `rec` ([`RECORD`] bytes), the `i`th of its file, checked: a legal
/// position and chances within `0..=1`.
pub(crate) fn parse_record(rec: &[u8], i: usize) -> Result<Labelled, ChunkError> {
    let mut pips = [0i8; 26];
    for (p, &b) in pips.iter_mut().zip(&rec[..26]) {
        *p = b as i8;
    }
    let position = Position::from_parts(pips, 0).map_err(|_| ChunkError::Record(i))?;
    let mut target = [0.0f32; OUTPUTS];
    for (k, t) in target.iter_mut().enumerate() {
        let at = 26 + 4 * k;
        *t = f32::from_le_bytes(rec[at..at + 4].try_into().expect("4 bytes"));
    }
    if target.iter().any(|t| !(0.0..=1.0).contains(t)) {
        return Err(ChunkError::Record(i));
    }
    Ok(Labelled { position, target })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> SampleConfig {
        SampleConfig {
            per_chunk: 12,
            ..SampleConfig::default()
        }
    }

    #[test]
    fn a_chunk_is_the_same_for_the_same_index_and_differs_for_another() {
        let nets = NeuralEvaluator::shipped();
        let a = sample_chunk(nets, &tiny(), 3);
        assert_eq!(a.len(), 12);
        assert_eq!(a, sample_chunk(nets, &tiny(), 3));
        assert_ne!(a, sample_chunk(nets, &tiny(), 4));
        assert!(a.iter().all(|p| NeuralEvaluator::exact(p).is_none()));
    }

    #[test]
    fn chunk_files_round_trip_and_refuse_damage() {
        let nets = NeuralEvaluator::shipped();
        let mut gen = MoveGen::new();
        let records: Vec<Labelled> = sample_chunk(nets, &tiny(), 1)
            .into_iter()
            .map(|position| Labelled {
                position,
                target: label_position(nets, &mut gen, &position, 1),
            })
            .collect();
        let bytes = write_chunk(&records);
        assert_eq!(read_chunk(&bytes).unwrap(), records);
        let mut bad = bytes.clone();
        bad[20] ^= 1;
        assert!(matches!(read_chunk(&bad), Err(ChunkError::Checksum)));
        assert!(matches!(
            read_chunk(&bytes[..bytes.len() - 1]),
            Err(ChunkError::Format)
        ));
    }

    #[test]
    fn a_one_ply_label_is_the_mean_of_the_replies() {
        let nets = NeuralEvaluator::shipped();
        let pos = Position::START;
        let t = label_position(nets, &mut MoveGen::new(), &pos, 1);
        let direct = to_array(&nply::chances(nets, &mut MoveGen::new(), &pos, 1));
        for (a, b) in t.iter().zip(direct) {
            assert!((a - b.clamp(0.0, 1.0)).abs() < 1e-6);
        }
        // The start is close to even for the player on roll.
        assert!((0.4..0.6).contains(&t[0]), "{t:?}");
    }

    #[test]
    fn a_blended_label_is_the_mean_of_two_depths() {
        let nets = NeuralEvaluator::shipped();
        let pos = Position::START;
        let blended = label_position_blended(nets, &mut MoveGen::new(), &pos, 1);
        let one = label_position(nets, &mut MoveGen::new(), &pos, 1);
        let zero = label_position(nets, &mut MoveGen::new(), &pos, 0);
        for k in 0..OUTPUTS {
            assert!((blended[k] - (one[k] + zero[k]) / 2.0).abs() < 1e-6, "{k}");
        }
        // Not the same as either depth alone (the opening's 0- and 1-ply chances differ).
        assert!((blended[0] - one[0]).abs() > 1e-4, "{blended:?} {one:?}");
    }

    #[test]
    fn a_rollout_label_is_reproducible_and_exact_where_the_database_knows() {
        let nets = NeuralEvaluator::shipped();
        let kinds = SampleConfig {
            per_chunk: 3,
            kinds_only: true,
            ..tiny()
        };
        let positions = sample_chunk(nets, &kinds, 1);
        assert!(positions.iter().all(|p| crate::kinds::of(p).any()));
        let a = label_by_rollout(nets, &positions[0], 4, None, 9);
        assert_eq!(a, label_by_rollout(nets, &positions[0], 4, None, 9));
        assert!(a.iter().all(|p| (0.0..=1.0).contains(p)), "{a:?}");
        // Two checkers each in the home boards: the bear-off database's answer.
        let mut mover = [0u8; 25];
        let mut opponent = [0u8; 25];
        mover[2] = 2;
        opponent[4] = 2;
        let bearoff = Position::from_counts(&mover, &opponent).unwrap();
        let exact = NeuralEvaluator::exact(&bearoff).expect("in the database");
        let rolled = label_by_rollout(nets, &bearoff, 4, None, 9);
        for (a, b) in rolled.iter().zip(to_array(&exact)) {
            assert!((a - b).abs() < 1e-6, "{rolled:?} {exact:?}");
        }
    }

    #[test]
    fn a_rollout_truncated_before_any_play_is_the_nets_own_answer() {
        let nets = NeuralEvaluator::shipped();
        let positions = sample_chunk(nets, &tiny(), 2);
        let pos = positions[0];
        let rolled = label_by_rollout(nets, &pos, 36, Some(0), 3);
        let own = to_array(&nets.evaluate(&pos));
        for (a, b) in rolled.iter().zip(own) {
            assert!((a - b).abs() < 1e-5, "{rolled:?} {own:?}");
        }
        // Two plays on, the answer moves.
        let deeper = label_by_rollout(nets, &pos, 36, Some(2), 3);
        assert!(
            (deeper[0] - rolled[0]).abs() > 1e-4,
            "{deeper:?} {rolled:?}"
        );
    }

    #[test]
    fn an_early_sample_keeps_only_positions_of_enough_pips() {
        let nets = NeuralEvaluator::shipped();
        let early = SampleConfig {
            per_chunk: 20,
            min_pips: 250,
            ..tiny()
        };
        let positions = sample_chunk(nets, &early, 4);
        assert_eq!(positions.len(), 20);
        assert!(positions
            .iter()
            .all(|p| p.mover_pips() + p.opponent_pips() >= 250));
        // Without the bound some positions are later in the game.
        let all = sample_chunk(
            nets,
            &SampleConfig {
                per_chunk: 60,
                ..tiny()
            },
            4,
        );
        assert!(all.iter().any(|p| p.mover_pips() + p.opponent_pips() < 250));
    }
}
