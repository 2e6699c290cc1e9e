//! What a person at the keyboard can type during play.

use tabula_tables::backgammon::ResignLevel;

/// One line of input, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Roll (also an empty line).
    Roll,
    /// Offer the cube.
    Double,
    /// Take the cube.
    Take,
    /// Drop the cube.
    Drop,
    /// `pass`: drop the cube in backgammon; pass the turn in both Grasshoppers, where it is
    /// legal only without a move.
    Pass,
    /// Offer a draw, or accept the opponent's offer (Grasshopper (Halma)).
    Draw,
    /// Take and redouble at once (money play with beavers).
    Beaver,
    /// Offer to resign at this level.
    Resign(ResignLevel),
    /// Accept the opponent's resignation.
    Accept,
    /// Reject the opponent's resignation.
    Reject,
    /// List the legal moves.
    Moves,
    /// Draw the board again.
    Board,
    /// Print the commands.
    Help,
    /// Stop playing.
    Quit,
    /// The move with this number in the `moves` list (from 1).
    Pick(usize),
    /// Anything else that looks like a move: gnubg notation (with `^` for a trap in
    /// Never-Finishing), squares (`c3-e5`, `c3:e5:g7`) in Grasshopper (Halma), or
    /// Grasshopper's move text (`in 3`, `3-9`, `9-15w`, `off 21`, `discard 20`); checked
    /// against the position.
    Play(String),
}

/// The help text.
pub const HELP: &str = "\
Commands:
  <move>          play the dice in gnubg notation: 24/18 13/8, bar/22*, 6/off, 8/2(2)
  roll            roll the dice (an empty line does too)
  double          offer the cube
  take | drop     answer a double (drop is also `pass`)
  beaver          take and redouble at once (money play with beavers)
  resign [single|gammon|backgammon]
                  offer to resign (single by default)
  accept | reject answer a resignation offer
  moves           list the legal moves; then a number picks one
  board           draw the board again
  help            this text
  quit            stop (end of input does too)";

/// The help text of Never-Finishing backgammon: moves only (the dice are rolled for you and
/// there is no cube); `^` traps a blot, `*` hits it.
pub const NF_HELP: &str = "\
Commands:
  <move>          play the dice: 24/16, 13/8* (hit the blot on 8), 13/8^ (trap it),
                  bar/20^, 8/2(2); landing on a blot that may be hit or
                  trapped needs the * or the ^
  moves           list the legal moves; then a number picks one
  board           draw the board again
  help            this text
  quit            stop (end of input does too)";

/// The help text of Grasshopper (Halma): moves, pass and draws (no dice, no cube).
pub const HALMA_HELP: &str = "\
Commands:
  <move>          from-to, a step or any chain of jumps: c3-d4, c3-e5; or a jump
                  path, each square the chain lands on: c3:e5:g7
  pass            pass the turn (only when you have no legal move)
  draw            offer a draw (then make your move), or accept the other side's offer;
                  moving declines an offer
  moves           list the legal moves with their jump paths; then a number picks one
  board           draw the board again
  help            this text
  quit            stop (end of input does too)";

/// The help text of Grasshopper (the dice-free backgammon variant): one action a turn.
pub const GRASSHOPPER_HELP: &str = "\
Commands:
  in 3            enter a checker from your hand on a vacant point of 1-6
  3-9             move the top checker of 3 to a vacant point of the next quadrant
  9-15w           build a wall: move the top checker of 9 onto your single on 15
                  (the w may be left out)
  off 21          bear off your wall on 21 and score
  discard 20      remove your single on 20 without scoring (only when all you have
                  left are singles in 19-24)
  pass            pass (only when you have no other action)
                  points are 1-24 or A1-D6 (A4 = 4, B3 = 9, C5 = 17, D3 = 21)
  moves           list the legal actions; then a number picks one
  board           draw the board again
  help            this text
  quit            stop (end of input does too)";

/// Whether a word starts like a square of the Grasshopper (Halma) board: a file letter and a
/// rank digit (`c3`, `j10`).
fn is_square_start(word: &str) -> bool {
    let mut bytes = word.bytes();
    matches!(
        (bytes.next(), bytes.next()),
        (Some(b'a'..=b'j'), Some(b'0'..=b'9'))
    )
}

/// Reads a line. Words are case-insensitive; an unknown word that is not a move is refused
/// with a hint.
pub fn parse(line: &str) -> Result<Command, String> {
    let text = line.trim().to_ascii_lowercase();
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or("");
    let rest: Vec<&str> = words.collect();
    let simple = |c: Command| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(format!("{first} takes no argument"))
        }
    };
    match first {
        "" | "r" | "roll" => simple(Command::Roll),
        "d" | "double" => simple(Command::Double),
        "t" | "take" => simple(Command::Take),
        "drop" => simple(Command::Drop),
        "pass" => simple(Command::Pass),
        "draw" => simple(Command::Draw),
        "beaver" => simple(Command::Beaver),
        "accept" => simple(Command::Accept),
        "reject" => simple(Command::Reject),
        "moves" | "hint" => simple(Command::Moves),
        "board" => simple(Command::Board),
        "help" | "?" => simple(Command::Help),
        "quit" | "exit" | "q" => simple(Command::Quit),
        "resign" => match rest.as_slice() {
            [] | ["single"] | ["s"] | ["normal"] | ["n"] => {
                Ok(Command::Resign(ResignLevel::Single))
            }
            ["gammon"] | ["g"] => Ok(Command::Resign(ResignLevel::Gammon)),
            ["backgammon"] | ["b"] => Ok(Command::Resign(ResignLevel::Backgammon)),
            _ => Err("resign single, resign gammon or resign backgammon".to_string()),
        },
        w if rest.is_empty() && !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) => w
            .parse::<usize>()
            .map(Command::Pick)
            .map_err(|_| format!("there is no move number {w}")),
        // Grasshopper's entries, bear-offs and discards (`in 3`, `off D3`, `discard 20`).
        "in" | "enter" | "off" | "discard" => Ok(Command::Play(line.trim().to_string())),
        w if w.starts_with(|c: char| c.is_ascii_digit())
            || w.starts_with("bar")
            || is_square_start(w) =>
        {
            Ok(Command::Play(line.trim().to_string()))
        }
        w => Err(format!("unknown command {w:?} (type help)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_moves_are_recognised() {
        assert_eq!(parse(""), Ok(Command::Roll));
        assert_eq!(parse("  Double "), Ok(Command::Double));
        assert_eq!(parse("drop"), Ok(Command::Drop));
        assert_eq!(parse("pass"), Ok(Command::Pass));
        assert_eq!(parse("Draw"), Ok(Command::Draw));
        assert_eq!(parse("C3-e5"), Ok(Command::Play("C3-e5".to_string())));
        assert_eq!(
            parse(" c3:e5:g7 "),
            Ok(Command::Play("c3:e5:g7".to_string()))
        );
        assert_eq!(parse("j10-i9"), Ok(Command::Play("j10-i9".to_string())));
        assert_eq!(parse("resign"), Ok(Command::Resign(ResignLevel::Single)));
        assert_eq!(
            parse("resign gammon"),
            Ok(Command::Resign(ResignLevel::Gammon))
        );
        assert_eq!(
            parse("24/18 13/8"),
            Ok(Command::Play("24/18 13/8".to_string()))
        );
        assert_eq!(parse("Bar/22*"), Ok(Command::Play("Bar/22*".to_string())));
        assert_eq!(parse(" 3 "), Ok(Command::Pick(3)));
        assert_eq!(parse("In A3"), Ok(Command::Play("In A3".to_string())));
        assert_eq!(parse("off 21"), Ok(Command::Play("off 21".to_string())));
        assert_eq!(
            parse("discard d2"),
            Ok(Command::Play("discard d2".to_string()))
        );
        assert_eq!(parse("9-15w"), Ok(Command::Play("9-15w".to_string())));
        assert!(parse("99999999999999999999999").is_err());
    }

    #[test]
    fn nonsense_is_refused_with_a_reason() {
        assert!(parse("chess").unwrap_err().contains("unknown command"));
        assert!(parse("resign everything").is_err());
        assert!(parse("take 2").is_err());
    }
}
