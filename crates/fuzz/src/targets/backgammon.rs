//! Backgammon and Never-Finishing move text (gnubg notation, `^` for a trap): the first
//! input byte picks a position, the second the dice, the rest is the text. The text is read
//! ([`parse_play`]) and matched against the legal plays with trapping off and on; a play
//! found must be written back ([`format_move_with`]) as text that matches the same play.

use super::text;
use crate::engine::Target;
use std::sync::OnceLock;
use tabula_core::Dice;
use tabula_tables::notation::{format_move_with, match_play_with, parse_play, TablesPosition};
use tabula_tables::{Position, Trapping};

/// The target.
pub const TARGET: Target = Target {
    name: "backgammon-moves",
    about: "gnubg move notation and Never-Finishing move text, matched against legal plays",
    run,
    seeds,
    dictionary,
};

/// Positions to read moves in, in the tables position text.
const POSITIONS: &[&str] = &[
    "2b/4/5w/1/3w/3/5b/5w/3/3b/1/5b/4/2w:0:0:0:0:w",
    "15b/22/15w:0:0:0:0:b",
    "15b/22/15w:0:0:0:0:w",
    "2b+w/4/5w/1/3w/3/5b/5w/3/3b/1/4b/4/2w:0:0:w",
    "1b/4/4w/1/3w/3/5b/5w/3/3b/1/5b/4/2w:1:0:w",
    "3w/3w/3w/3w/3w/14/2b/2b/2b/2b/2b:0:0:0:5:w",
    "2w/1w/19/1b/1w:0:0:w",
    "1b/1w/1b/1w/1b/1w/18/2b:1:1:w",
];

fn positions() -> &'static [Position] {
    static P: OnceLock<Vec<Position>> = OnceLock::new();
    P.get_or_init(|| {
        POSITIONS
            .iter()
            .filter_map(|t| t.parse::<TablesPosition>().ok())
            .map(|t| t.position)
            .chain([Position::START])
            .collect()
    })
}

fn dice() -> &'static [Dice] {
    static D: OnceLock<Vec<Dice>> = OnceLock::new();
    D.get_or_init(|| Dice::all().collect())
}

fn run(input: &[u8]) -> bool {
    let [p, d, rest @ ..] = input else {
        return false;
    };
    let positions = positions();
    let pos = positions[usize::from(*p) % positions.len()];
    let dice = dice()[usize::from(*d) % dice().len()];
    let text = text(rest);
    let mut accepted = parse_play(&text).is_ok();
    for trapping in [Trapping::Off, Trapping::On] {
        if let Ok((_, after)) = match_play_with(&pos, dice, &text, trapping) {
            accepted = true;
            let written = format_move_with(&pos, &after, dice, trapping).unwrap_or_else(|| {
                panic!("no text for the play {text:?} matched ({dice}, {trapping:?})")
            });
            let (_, again) = match_play_with(&pos, dice, &written, trapping).unwrap_or_else(|e| {
                panic!(
                    "{written:?} (written for {text:?}, {dice}, {trapping:?}) does not match: {e}"
                )
            });
            assert_eq!(
                again, after,
                "{written:?} written for {text:?} names another play"
            );
        }
    }
    accepted
}

fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (pi, pos) in positions().iter().enumerate() {
        for (di, dice) in dice().iter().enumerate() {
            let plays = pos.legal_plays(*dice);
            for (_, after) in plays.iter().take(3) {
                if let Some(t) = format_move_with(pos, after, *dice, Trapping::Off) {
                    let mut s = vec![pi as u8, di as u8];
                    s.extend_from_slice(t.as_bytes());
                    out.push(s);
                }
            }
        }
    }
    for t in [
        "24/18 13/8",
        "bar/23*/22* bar/24",
        "10/8*(2) 6/off(2)",
        "13/9 13/11(2)",
        "  BAR/22*, 6/Off 24/18/13  8/2 (1) ",
        "pass",
        "6/2(3) 8/4(2)",
        "24/20^ 13/8",
    ] {
        let mut s = vec![0, 5];
        s.extend_from_slice(t.as_bytes());
        out.push(s);
    }
    out
}

fn dictionary() -> Vec<Vec<u8>> {
    super::bytes(&[
        "/", "*", "^", "(2)", "(4)", "(", ")", "bar", "off", "BAR/", "/off", " ", ",", "24", "25",
        "0", "13", "8", "6", "1", "pass", "/bar", "off/",
    ])
}
