//! XGIDs read as GNU Backgammon reads them (`set xgid`, over a fixture of 500 XGIDs and the
//! gnubg IDs gnubg made of them), and round trips of arbitrary XGIDs.

use proptest::prelude::*;
use tabula_core::DiceRoll;
use tabula_tables::notation::xgid::{CubeOwner, Side, XgidDice};
use tabula_tables::notation::{MatchId, Xgid};
use tabula_tables::Position;

const FIXTURE: &str = include_str!("../fixtures/xgid_gnubg.txt");
const MOVES: &str = include_str!("../fixtures/gnubg_moves.txt");

#[test]
fn xgids_mean_what_gnubg_reads_in_them() {
    let mut n = 0;
    let mut sides = [0; 2];
    for line in FIXTURE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (text, gnubg_id) = line.split_once(' ').unwrap();
        let (position_id, match_id) = gnubg_id.split_once(':').unwrap();
        let x = Xgid::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(x.encode(), text, "re-encoding");
        assert_eq!(x.position.position_id(), position_id, "board of {line}");
        // gnubg makes the XGID's player on roll its player 1.
        let m = MatchId::decode(match_id).unwrap();
        assert_eq!(m.on_roll, 1, "{line}");
        assert_eq!([m.score[1], m.score[0]], x.score, "score of {line}");
        assert_eq!(m.match_length, x.match_length, "{line}");
        assert_eq!(m.crawford, x.crawford, "{line}");
        assert_eq!(m.cube_log2, x.cube_log2, "{line}");
        let owner = match x.cube_owner {
            CubeOwner::Centred => None,
            CubeOwner::OnRoll => Some(1),
            CubeOwner::Opponent => Some(0),
        };
        assert_eq!(m.cube_owner, owner, "cube owner of {line}");
        match x.dice {
            XgidDice::Rolled(r) => {
                let (a, b) = m.dice.unwrap();
                assert_eq!(DiceRoll::new(a, b).unwrap().dice(), r.dice(), "{line}");
            }
            XgidDice::ToRoll => assert_eq!(m.dice, None, "{line}"),
            other => panic!("{other:?} in the fixture"),
        }
        if x.match_length == 0 {
            assert_eq!(m.jacoby, x.jacoby, "Jacoby of {line}");
        }
        sides[(x.on_roll == Side::Top) as usize] += 1;
        n += 1;
    }
    assert!(n >= 400, "only {n} XGIDs");
    assert!(sides[0] > 100 && sides[1] > 100, "{sides:?}");
}

fn positions() -> Vec<Position> {
    MOVES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .step_by(37)
        .map(|l| Position::from_position_id(l.split(' ').nth(1).unwrap()).unwrap())
        .collect()
}

fn any_xgid() -> impl Strategy<Value = Xgid> {
    let positions = positions();
    (
        (0..positions.len(), any::<bool>(), 0u8..11, 0u8..3, 0u8..10),
        (
            0u16..30,
            0u16..30,
            0u16..30,
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        ),
        (1u8..7, 1u8..7),
    )
        .prop_map(move |(a, b, (d1, d2))| {
            let (index, top, cube_log2, owner, dice) = a;
            let (length, s0, s1, crawford, jacoby, beavers) = b;
            let money = length == 0;
            let score = if money {
                [s0, s1]
            } else {
                [s0 % length, s1 % length]
            };
            let one_away = |s: u16| !money && s == length - 1;
            Xgid {
                position: positions[index],
                on_roll: if top { Side::Top } else { Side::Bottom },
                cube_log2,
                cube_owner: [CubeOwner::Centred, CubeOwner::OnRoll, CubeOwner::Opponent]
                    [owner as usize],
                dice: match dice {
                    0 => XgidDice::ToRoll,
                    1 => XgidDice::Doubled,
                    2 => XgidDice::Beavered,
                    3 => XgidDice::Raccooned,
                    _ => XgidDice::Rolled(DiceRoll::new(d1, d2).unwrap()),
                },
                score,
                match_length: length,
                crawford: crawford && one_away(score[0]) != one_away(score[1]),
                jacoby: money && jacoby,
                beavers: money && beavers,
                max_cube_log2: 12,
            }
        })
}

proptest! {
    #[test]
    fn parse_of_encode_is_identity(x in any_xgid()) {
        prop_assert_eq!(x.validate(), Ok(()));
        let text = x.encode();
        prop_assert_eq!(Xgid::parse(&text), Ok(x));
        prop_assert_eq!(Xgid::parse(text.trim_start_matches("XGID=")), Ok(x));
    }
}
