//! Perft from both start positions against the committed table (docs/rules/halma-grasshopper.md).

use crate::common::reference_moves;
use tabula_halma::{perft, BoardSize, Position};

/// perft(1..=4) from the 8x8 start.
const PERFT_8: [u64; 4] = [24, 576, 20_050, 700_034];
/// perft(1..=4) from the 10x10 start.
const PERFT_10: [u64; 4] = [32, 1_024, 46_016, 2_067_884];

#[test]
fn perft_from_both_starts_matches_the_table_to_depth_3() {
    for (size, table) in [(BoardSize::Eight, PERFT_8), (BoardSize::Ten, PERFT_10)] {
        let start = Position::start(size);
        for depth in 1..=3 {
            assert_eq!(
                perft(&start, depth),
                table[depth as usize - 1],
                "{size} depth {depth}"
            );
        }
    }
}

#[test]
fn perft_4_matches_the_recorded_value() {
    assert_eq!(perft(&Position::start(BoardSize::Eight), 4), PERFT_8[3]);
    assert_eq!(perft(&Position::start(BoardSize::Ten), 4), PERFT_10[3]);
}

/// The same count with the plain reference generator (no wins are possible this early).
fn reference_perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    reference_moves(p)
        .into_iter()
        .map(|(from, to)| reference_perft(&p.play_unchecked(from, to), depth - 1))
        .sum()
}

#[test]
fn perft_to_depth_3_agrees_with_the_reference_generator() {
    for (size, table) in [(BoardSize::Eight, PERFT_8), (BoardSize::Ten, PERFT_10)] {
        assert_eq!(
            reference_perft(&Position::start(size), 3),
            table[2],
            "{size}"
        );
    }
}
