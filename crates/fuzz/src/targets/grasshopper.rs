//! Grasshopper's position text, point names and move text: the first input byte picks a
//! position to resolve moves in, the rest is the text, given to every parser. A position
//! read is written back and must read the same; a move read is written back and must read
//! the same, and a move resolved must resolve again from its own text to the same action.

use super::{face_action, text};
use crate::engine::Target;
use std::sync::OnceLock;
use tabula_grasshopper::notation::{format_position, parse_move, parse_position};
use tabula_grasshopper::{Checkers, Grasshopper, Point, Position};

/// The target.
pub const TARGET: Target = Target {
    name: "grasshopper",
    about: "Grasshopper position text, points (1-24, A1-D6) and move text, resolved in positions",
    run,
    seeds,
    dictionary,
};

/// Positions along a fixed walk from the start with 14 and 4 checkers.
fn positions() -> &'static [Position] {
    static P: OnceLock<Vec<Position>> = OnceLock::new();
    P.get_or_init(|| {
        let mut out = Vec::new();
        for n in [14, 4, 2] {
            let Ok(checkers) = Checkers::new(n) else {
                continue;
            };
            let mut pos = Position::start(checkers);
            for step in 0..60usize {
                if step % 6 == 0 {
                    out.push(pos);
                }
                let legal = pos.legal_actions();
                if legal.is_empty() {
                    break;
                }
                match pos.play(legal[(step * 7 + 3) % legal.len()]) {
                    Ok(next) => pos = next,
                    Err(_) => break,
                }
            }
            out.push(pos);
        }
        out
    })
}

fn run(input: &[u8]) -> bool {
    let [p, rest @ ..] = input else {
        return false;
    };
    let positions = positions();
    let pos = positions[usize::from(*p) % positions.len()];
    let text = text(rest);
    let mut accepted = false;
    if let Ok(read) = parse_position(&text) {
        let written = format_position(&read);
        let again = parse_position(&written)
            .unwrap_or_else(|e| panic!("position {written:?} from {text:?} does not read: {e}"));
        assert_eq!(again, read, "position round trip of {text:?}");
        let _ = read.legal_actions();
        accepted = true;
    }
    if let Ok(point) = text.parse::<Point>() {
        let again = point.to_string().parse::<Point>();
        assert_eq!(again, Ok(point), "point round trip of {text:?}");
        accepted = true;
    }
    if let Ok(mv) = parse_move(&text) {
        let written = mv.to_string();
        assert_eq!(
            parse_move(&written),
            Ok(mv),
            "move text round trip of {text:?}"
        );
        // Resolved in the position, through the game's face.
        face_action(&Grasshopper::from_position(pos), &text);
        accepted = true;
    }
    accepted
}

fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (i, pos) in positions().iter().enumerate() {
        let mut s = vec![i as u8];
        s.extend_from_slice(format_position(pos).as_bytes());
        out.push(s);
        for a in pos.legal_actions().iter().take(4) {
            let mut s = vec![i as u8];
            s.extend_from_slice(a.to_string().as_bytes());
            out.push(s);
        }
    }
    for t in [
        "....../....../....../w..... b 0-0 2#-1 - 8",
        "....../....../....../w....b w 0-0 1-1* - 4",
        "w.b.../.W..b./....../...... w 9-10 0-0 - 12",
        "in 3",
        "3-9",
        "9-15w",
        "off 21",
        "discard 20",
        "pass",
        "enter A3",
        "b2/c4",
        "D6",
    ] {
        let mut s = vec![0];
        s.extend_from_slice(t.as_bytes());
        out.push(s);
    }
    out
}

fn dictionary() -> Vec<Vec<u8>> {
    super::bytes(&[
        ".", "w", "b", "W", "B", "/", "......", " w ", " b ", "0-0", "13-13", "*", "#", " - ",
        " p ", "14", "in ", "off ", "discard ", "enter ", "pass", "-", "w", "A", "D6", "24", "25",
        "0",
    ])
}
