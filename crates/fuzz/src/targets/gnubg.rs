//! gnubg's Position ID and Match ID (one target: both are base64 bit fields and get each
//! other's inputs), and XGID with Tabula's tables position text (one target: both are
//! colon-separated board tokens).

use super::{bytes, text};
use crate::engine::Target;
use tabula_core::Color;
use tabula_tables::notation::{MatchId, TablesPosition, Xgid};
use tabula_tables::Position;

/// Position ID and Match ID.
pub const TARGET: Target = Target {
    name: "gnubg-ids",
    about: "gnubg Position ID and Match ID: decode, and encode(decode(x)) decodes to the same",
    run,
    seeds,
    dictionary,
};

fn run(input: &[u8]) -> bool {
    let text = text(input);
    let mut accepted = false;
    if let Ok(position) = Position::from_position_id(&text) {
        let id = position.position_id();
        let again = Position::from_position_id(&id)
            .unwrap_or_else(|e| panic!("Position ID {id} written for {text:?} does not read: {e}"));
        assert_eq!(again, position, "Position ID round trip of {text:?}");
        accepted = true;
    }
    if let Ok(m) = MatchId::decode(&text) {
        let id = m.encode();
        let again =
            MatchId::decode(&id).unwrap_or_else(|e| panic!("Match ID {id} from {text:?}: {e}"));
        assert_eq!(again, m, "Match ID round trip of {text:?}");
        accepted = true;
    }
    accepted
}

fn seeds() -> Vec<Vec<u8>> {
    let mut s = bytes(&[
        "4HPwATDgc/ABMA",
        "/////////////w",
        "AAAAAAAAAAAAAA",
        "4HPhASLgc/ABMA",
        "sGfwATDgc/ABMA",
        "cAkAAAAAAAAA",
        "cAnlAAAAAAAE",
        "cAnlAAAAAAAI",
        "UYkqASAAIAAE",
        "MAAAAAAAAAAA",
        "QYkVACAAAAAA",
        "4HPwATDgc/ABMA:cAkAAAAAAAAA",
    ]);
    s.push(Position::START.position_id().into_bytes());
    s.push(MatchId::new(7).encode().into_bytes());
    s
}

fn dictionary() -> Vec<Vec<u8>> {
    bytes(&[
        "A", "/", "+", "=", "==", "AA", "//", "w", "4HPw", "cAk", "AAAA",
    ])
}

/// XGID and the tables position text.
pub const XGID: Target = Target {
    name: "xgid-tables",
    about: "XGID and Tabula's tables position text: parse, validate, and the written text \
            parses to the same value",
    run: run_xgid,
    seeds: xgid_seeds,
    dictionary: xgid_dictionary,
};

fn run_xgid(input: &[u8]) -> bool {
    let text = text(input);
    let mut accepted = false;
    if let Ok(x) = Xgid::parse(&text) {
        let _ = x.validate();
        let written = x.encode();
        let again =
            Xgid::parse(&written).unwrap_or_else(|e| panic!("XGID {written} from {text:?}: {e}"));
        assert_eq!(again, x, "XGID round trip of {text:?}");
        accepted = true;
    }
    if let Ok(t) = text.parse::<TablesPosition>() {
        let written = t.to_string();
        let again = written
            .parse::<TablesPosition>()
            .unwrap_or_else(|e| panic!("tables text {written} from {text:?}: {e}"));
        assert_eq!(again, t, "tables position round trip of {text:?}");
        let _ = t.white_view();
        accepted = true;
    }
    accepted
}

fn xgid_seeds() -> Vec<Vec<u8>> {
    let mut s = bytes(&[
        "XGID=---A-------------------b-A:1:1:-1:D:3:4:0:7:10",
        "XGID=-ACaCCB-------a-c--cAbbbaB:0:0:1:65:0:2:1:3:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10",
        "2b/4/5w/1/3w/3/5b/5w/3/3b/1/5b/4/2w:0:0:0:0:w",
        "15b/22/15w:0:0:0:0:b",
        "15b/22/15w:0:0:b",
        "2b+w/4/5w/1/3w/3/5b/5w/3/3b/1/4b/4/2w:0:0:w",
    ]);
    s.push(Xgid::new(Position::START).encode().into_bytes());
    s.push(
        TablesPosition::new(Position::START, Color::Black)
            .to_string()
            .into_bytes(),
    );
    s
}

fn xgid_dictionary() -> Vec<Vec<u8>> {
    bytes(&[
        "XGID=", ":", "-", "a", "A", "o", "O", "D", "B", "R", "10", "0", "1", "-1", "65", "w", "b",
        "/", "+w", "+b", "15w", "22", "99",
    ])
}
