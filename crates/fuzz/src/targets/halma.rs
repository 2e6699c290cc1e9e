//! Grasshopper (Halma)'s position notation, squares, board sizes, move text and actions: the
//! first input byte picks a position to read moves in, the rest is the text, given to every
//! parser. What is read is written back and must read the same.

use super::{face_action, text};
use crate::engine::Target;
use std::sync::OnceLock;
use tabula_halma::notation::{format_move, MoveText, PathStyle};
use tabula_halma::{Action, BoardSize, HalmaGrasshopper, HalmaOptions, Position, Square};

/// The target.
pub const TARGET: Target = Target {
    name: "halma",
    about: "Grasshopper (Halma) position notation, squares, sizes, move text and actions",
    run,
    seeds,
    dictionary,
};

/// Positions along a fixed walk from both starts.
fn positions() -> &'static [Position] {
    static P: OnceLock<Vec<Position>> = OnceLock::new();
    P.get_or_init(|| {
        let mut out = Vec::new();
        for size in [BoardSize::Eight, BoardSize::Ten] {
            let mut pos = Position::start(size);
            for step in 0..80usize {
                if step % 10 == 0 {
                    out.push(pos);
                }
                let moves: Vec<_> = pos.moves().collect();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(step * 11 + 5) % moves.len()];
                pos = pos.play_unchecked(mv.from, mv.to);
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
    let pos = &positions[usize::from(*p) % positions.len()];
    let text = text(rest);
    let mut accepted = false;
    if let Ok(read) = text.parse::<Position>() {
        let written = read.to_string();
        let again = written
            .parse::<Position>()
            .unwrap_or_else(|e| panic!("position {written:?} from {text:?} does not read: {e}"));
        assert_eq!(again, read, "position round trip of {text:?}");
        let _ = read.moves().count();
        accepted = true;
    }
    if let Ok(sq) = text.parse::<Square>() {
        assert_eq!(sq.to_string().parse::<Square>(), Ok(sq), "square {text:?}");
        accepted = true;
    }
    if let Ok(size) = text.parse::<BoardSize>() {
        assert_eq!(
            size.to_string().parse::<BoardSize>(),
            Ok(size),
            "size {text:?}"
        );
        accepted = true;
    }
    if text.parse::<MoveText>().is_ok() {
        accepted = true;
    }
    if let Ok(mv) = pos.parse_move(&text) {
        for style in [PathStyle::FromTo, PathStyle::Path] {
            let written = format_move(pos, mv, style);
            assert_eq!(
                pos.parse_move(&written),
                Ok(mv),
                "{written:?} from {text:?}"
            );
        }
        let _ = pos.play_unchecked(mv.from, mv.to);
        accepted = true;
    }
    // Read by the game's face, whose canonical text of a move is its path; its from-to text
    // must read the same too.
    let game = HalmaGrasshopper::from_position(*pos, HalmaOptions::default());
    if let Some(action) = face_action(&game, &text) {
        assert_eq!(
            Action::parse(pos, &action.to_string()),
            Ok(action),
            "action from {text:?}"
        );
        accepted = true;
    }
    accepted
}

fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (i, pos) in positions().iter().enumerate() {
        let mut s = vec![i as u8];
        s.extend_from_slice(pos.to_string().as_bytes());
        out.push(s);
        for mv in pos.moves().take(4) {
            let mut s = vec![i as u8];
            s.extend_from_slice(format_move(pos, mv, PathStyle::Path).as_bytes());
            out.push(s);
        }
    }
    for t in [
        "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w:0",
        "10:5bbbbb/6bbbb/7bbb/8bb/9b/w9/ww8/www7/wwww6/wwwww5:w:0",
        "c3-e5",
        "c3:e5:g7",
        "pass",
        "offer-draw",
        "accept-draw",
        "j10",
        "10x10",
        "8",
    ] {
        let mut s = vec![0];
        s.extend_from_slice(t.as_bytes());
        out.push(s);
    }
    out
}

fn dictionary() -> Vec<Vec<u8>> {
    super::bytes(&[
        "8:",
        "10:",
        "/",
        ":",
        "w",
        "b",
        "4",
        "7",
        "9",
        "10",
        "a1",
        "j10",
        "-",
        ":w",
        ":b",
        ":0",
        "pass",
        "offer-draw",
        "accept-draw",
        "x",
        "8x8",
        "k1",
        "a11",
        "a0",
    ])
}
