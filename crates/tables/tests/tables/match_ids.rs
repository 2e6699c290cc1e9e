//! Match IDs encoded and decoded exactly as gnubg does, over a fixture made by gnubg's own
//! encoder (`scripts/gen_notation_fixtures.py`), and round trips of arbitrary valid values.

use proptest::prelude::*;
use tabula_tables::notation::{GameState, MatchId};

const FIXTURE: &str = include_str!("../fixtures/gnubg_match_ids.txt");

fn lines() -> impl Iterator<Item = Vec<&'static str>> {
    FIXTURE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split(' ').collect())
}

fn state(code: &str) -> GameState {
    match code {
        "0" => GameState::NoGame,
        "1" => GameState::Playing,
        "2" => GameState::Over,
        "3" => GameState::Resigned,
        "4" => GameState::Dropped,
        other => panic!("game state {other}"),
    }
}

#[test]
fn synthetic_match_ids_have_gnubgs_fields_and_bits() {
    let mut n = 0;
    for f in lines().filter(|f| f[0] == "synthetic") {
        let n_of = |i: usize| f[i].parse::<u16>().unwrap();
        let expected = MatchId {
            cube_log2: n_of(2) as u8,
            cube_owner: if f[3] == "c" {
                None
            } else {
                Some(n_of(3) as u8)
            },
            on_roll: n_of(4) as u8,
            turn: n_of(5) as u8,
            crawford: f[6] == "1",
            game_state: state(f[7]),
            double_offered: f[8] == "1",
            resignation: n_of(9) as u8,
            dice: match (n_of(10) as u8, n_of(11) as u8) {
                (0, 0) => None,
                d => Some(d),
            },
            match_length: n_of(12),
            score: [n_of(13), n_of(14)],
            jacoby: f[15] == "1",
        };
        assert_eq!(
            MatchId::decode(f[1]),
            Ok(expected),
            "decoding {}",
            f.join(" ")
        );
        assert_eq!(expected.encode(), f[1], "encoding {}", f.join(" "));
        n += 1;
    }
    assert!(n >= 500, "only {n} synthetic Match IDs");
}

#[test]
fn every_match_id_gnubg_wrote_in_play_is_accepted_and_rewritten_identically() {
    let mut n = 0;
    let mut states = std::collections::HashSet::new();
    for f in lines().filter(|f| f[0] == "live") {
        let id = MatchId::decode(f[1]).unwrap_or_else(|e| panic!("{}: {e}", f[1]));
        assert_eq!(id.encode(), f[1]);
        states.insert((id.game_state as u8, id.double_offered, id.resignation > 0));
        n += 1;
    }
    assert!(n >= 500, "only {n} live Match IDs");
    // The matches went through doubles, resignations and every way a game ends.
    assert!(states.len() >= 6, "{states:?}");
}

fn any_match_id() -> impl Strategy<Value = MatchId> {
    (
        (0u8..16, prop::option::of(0u8..2), 0u8..2, 0u8..2, 0u8..5),
        (any::<bool>(), 0u8..4, prop::option::of((1u8..7, 1u8..7))),
        (
            0u16..0x8000,
            0u16..0x8000,
            0u16..0x8000,
            any::<bool>(),
            any::<bool>(),
        ),
    )
        .prop_map(|(a, b, c)| {
            let (cube_log2, cube_owner, on_roll, turn, state) = a;
            let (double_offered, resignation, dice) = b;
            let (length, s0, s1, crawford, jacoby) = c;
            let (score, crawford) = if length == 0 {
                ([s0, s1], false)
            } else {
                // Scores below the length; Crawford only with a player 1-away.
                let score = [s0 % length, s1 % length];
                (score, crawford && score.contains(&(length - 1)))
            };
            MatchId {
                cube_log2,
                cube_owner,
                on_roll,
                turn,
                crawford,
                game_state: [
                    GameState::NoGame,
                    GameState::Playing,
                    GameState::Over,
                    GameState::Resigned,
                    GameState::Dropped,
                ][state as usize],
                double_offered,
                resignation: if double_offered { 0 } else { resignation },
                dice,
                match_length: length,
                score,
                jacoby,
            }
        })
}

proptest! {
    #[test]
    fn decode_of_encode_is_identity(id in any_match_id()) {
        prop_assert_eq!(id.validate(), Ok(()));
        let text = id.encode();
        prop_assert_eq!(text.len(), 12);
        prop_assert_eq!(MatchId::decode(&text), Ok(id));
    }
}
