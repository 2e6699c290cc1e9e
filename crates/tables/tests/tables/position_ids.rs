//! Position IDs encoded and decoded exactly as gnubg does, over a gnubg-generated fixture.

use tabula_tables::Position;

const FIXTURE: &str = include_str!("../fixtures/gnubg_position_ids.txt");

fn counts(text: &str) -> [u8; 25] {
    let v: Vec<u8> = text
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    v.try_into().unwrap()
}

#[test]
fn position_ids_match_gnubg_both_ways() {
    let mut n = 0;
    for line in FIXTURE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (id, rest) = line.split_once(' ').unwrap();
        let (mover, opponent) = rest.split_once('|').unwrap();
        let (mover, opponent) = (counts(mover), counts(opponent));
        let pos = Position::from_counts(&mover, &opponent).unwrap();
        assert_eq!(pos.position_id(), id, "encoding {line}");
        let decoded = Position::from_position_id(id).unwrap();
        assert_eq!(decoded, pos, "decoding {line}");
        assert_eq!(decoded.to_counts(), [mover, opponent]);
        n += 1;
    }
    assert!(n >= 300);
}
