//! The general sequence generator with trapping off is plain backgammon: it must give exactly
//! gnubg's move sets, and the fast generator's.

use crate::gnubg_cases::cases;
use std::collections::{BTreeSet, HashSet};
use tabula_tables::{MoveGen, Position, SequenceGen, Trapping};

#[test]
fn sequence_generator_without_trapping_matches_gnubg_on_every_fixture_case() {
    let mut gen = SequenceGen::new();
    let mut fast = MoveGen::new();
    for case in cases() {
        let (pos, dice) = (case.position, case.dice);
        let got: Vec<Position> = gen.positions(&pos, dice, Trapping::Off).to_vec();
        let ids: BTreeSet<String> = got.iter().map(|p| p.position_id()).collect();
        assert_eq!(got.len(), ids.len(), "duplicates in {}", case.line);
        let ids: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
        assert_eq!(ids, case.results, "{}", case.line);
        let fast_set: HashSet<Position> = fast.positions(&pos, dice).iter().copied().collect();
        assert_eq!(fast_set, got.into_iter().collect::<HashSet<_>>());
    }
}
