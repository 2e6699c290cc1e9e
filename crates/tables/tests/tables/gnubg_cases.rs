//! The gnubg move fixture (`fixtures/gnubg_moves.txt`, made by `scripts/gen_fixtures.py`),
//! parsed once for every test that walks it.

use std::collections::BTreeSet;
use tabula_core::Dice;
use tabula_tables::Position;

const FIXTURE: &str = include_str!("../fixtures/gnubg_moves.txt");

/// One (position, dice) case with gnubg's set of resulting Position IDs.
pub struct Case {
    /// The fixture line, for messages.
    pub line: &'static str,
    /// How the position was produced (opening, contact, race, bearoff, bar, closed, synthetic).
    pub category: &'static str,
    /// The position, mover on roll.
    pub position: Position,
    /// The dice.
    pub dice: Dice,
    /// gnubg's resulting positions, seen from the mover, as Position IDs.
    pub results: BTreeSet<&'static str>,
}

/// Every case of the fixture.
pub fn cases() -> impl Iterator<Item = Case> {
    FIXTURE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let fields: Vec<&'static str> = line.split(' ').collect();
            let results: BTreeSet<&str> = fields[4..].iter().copied().collect();
            assert_eq!(results.len(), fields[3].parse::<usize>().unwrap(), "{line}");
            Case {
                line,
                category: fields[0],
                position: Position::from_position_id(fields[1]).unwrap(),
                dice: fields[2].parse().unwrap(),
                results,
            }
        })
}
