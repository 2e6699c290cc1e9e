//! What a person at the keyboard can type during play, for every game: [`parse`] reads a
//! line into a [`Command`], and each game's [`super::Terminal`] says what it means there.

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
