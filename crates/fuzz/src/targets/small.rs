//! The FIBS `board:` line that GNU Backgammon sends to `tabula external`, with the small
//! words read from outside (one target: each is a few lines of field splitting): dice
//! (`6-5`, `65`, ...), game names, bot levels, the server's stored dice (`5-2`) and dice
//! seeds in hex. A board read must turn into a position or a typed error, never a panic.

use super::text;
use crate::engine::Target;
use crate::fibs_board::FibsBoard;
use tabula_ai::Level;
use tabula_core::verifiable::ServerSeed;
use tabula_core::{Dice, GameId};
use tabula_server::service::{dice_text, parse_dice};

/// The target.
pub const TARGET: Target = Target {
    name: "fibs-board-words",
    about: "the FIBS board line, dice, game names, bot levels, stored rolls, seed hex",
    run,
    seeds,
    dictionary,
};

fn run(input: &[u8]) -> bool {
    let text = text(input);
    let mut accepted = false;
    if let Ok(board) = FibsBoard::parse(&text) {
        let _ = board.position();
        let _ = (board.is_crawford(), board.is_money(), board.rolled());
        accepted = true;
    }
    if let Ok(dice) = text.parse::<Dice>() {
        assert_eq!(dice.to_string().parse::<Dice>(), Ok(dice), "dice {text:?}");
        accepted = true;
    }
    if let Ok(game) = text.parse::<GameId>() {
        assert_eq!(game.as_str().parse::<GameId>(), Ok(game));
        accepted = true;
    }
    if let Ok(level) = text.parse::<Level>() {
        assert_eq!(level.as_str().parse::<Level>(), Ok(level));
        accepted = true;
    }
    if let Some(roll) = parse_dice(&text) {
        assert_eq!(parse_dice(&dice_text(roll)), Some(roll), "roll {text:?}");
        accepted = true;
    }
    if let Ok(seed) = ServerSeed::from_hex(&text) {
        let hex = seed.to_hex();
        let again = ServerSeed::from_hex(&hex).map(|s| s.to_hex());
        assert_eq!(again.ok().as_deref(), Some(hex.as_str()), "seed {text:?}");
        let _ = seed.commitment();
        accepted = true;
    }
    accepted
}

const BOARD: &str = "board:gnubg:root:3:0:0:0:-1:0:0:0:0:5:0:3:0:0:-1:-5:5:0:0:0:\
    -3:0:-5:0:0:0:0:2:0:1:2:5:2:5:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

fn seeds() -> Vec<Vec<u8>> {
    let mut s = super::bytes(&[
        BOARD,
        "board:You:Opp:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0:0",
        "6-5",
        "65",
        "6 5",
        "6,5",
        "5-6",
        "1x1",
        "backgammon",
        "never-finishing",
        "grasshopper",
        "halma-grasshopper",
        "random",
        "strong",
        "5-2",
        "0000000000000000000000000000000000000000000000000000000000000000",
    ]);
    s.push(ServerSeed::generate().to_hex().into_bytes());
    s
}

fn dictionary() -> Vec<Vec<u8>> {
    super::bytes(&[
        "board:", ":", "-1", "1", "0", "15", "-15", "16", "9999", "10000", "32768", "25", "-", ",",
        " ", "x", "6", "ff", "00", "gnubg", "easy", "medium",
    ])
}
