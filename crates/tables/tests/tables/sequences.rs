//! The general sequence generator with trapping off is plain backgammon: it must give exactly
//! gnubg's move sets, and the fast generator's.

use std::collections::{BTreeSet, HashSet};
use tabula_core::Dice;
use tabula_tables::{MoveGen, Position, SequenceGen, Trapping};

const FIXTURE: &str = include_str!("../fixtures/gnubg_moves.txt");

#[test]
fn sequence_generator_without_trapping_matches_gnubg_on_every_fixture_case() {
    let mut gen = SequenceGen::new();
    let mut fast = MoveGen::new();
    for line in FIXTURE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split(' ').collect();
        let pos = Position::from_position_id(fields[1]).unwrap();
        let dice: Dice = fields[2].parse().unwrap();
        let expected: BTreeSet<&str> = fields[4..].iter().copied().collect();
        let got: Vec<String> = gen
            .positions(&pos, dice, Trapping::Off)
            .iter()
            .map(|p| p.position_id())
            .collect();
        let got_set: BTreeSet<&str> = got.iter().map(String::as_str).collect();
        assert_eq!(got.len(), got_set.len(), "duplicates in {line}");
        assert_eq!(got_set, expected, "{line}");
        let fast_set: HashSet<Position> = fast.positions(&pos, dice).iter().copied().collect();
        let seq_set: HashSet<Position> = gen
            .positions(&pos, dice, Trapping::Off)
            .iter()
            .copied()
            .collect();
        assert_eq!(fast_set, seq_set);
    }
}
