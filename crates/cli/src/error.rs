//! The errors the command reports, and the exit code of each.
//!
//! Anything the user typed wrong (arguments, positions, dice, game ids) is an [`InputError`]:
//! one line on stderr and exit code 2, like a usage error. Anything else (a failed write) is
//! exit code 1. Nothing panics on input.

use std::fmt;

/// Exit code for bad input or usage.
pub const EXIT_INPUT: u8 = 2;
/// Exit code for any other failure.
pub const EXIT_FAILURE: u8 = 1;

/// Bad input from the user; the message is one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// An [`InputError`] with this message, as an `anyhow` error.
pub fn bad_input(message: impl Into<String>) -> anyhow::Error {
    InputError(message.into()).into()
}

/// The exit code for an error: 2 for bad input, 1 otherwise.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    if err.is::<InputError>() {
        EXIT_INPUT
    } else {
        EXIT_FAILURE
    }
}

/// The error and its causes on one line.
pub fn one_line(err: &anyhow::Error) -> String {
    let text = format!("{err:#}");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// True when the error is a closed pipe on stdout (`tabula ... | head`): not worth reporting.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_errors_exit_2_and_others_1() {
        assert_eq!(exit_code(&bad_input("x")), EXIT_INPUT);
        let io = anyhow::Error::from(std::io::Error::other("disk"));
        assert_eq!(exit_code(&io), EXIT_FAILURE);
    }

    #[test]
    fn messages_are_flattened_to_one_line() {
        let err = bad_input("first\nsecond");
        assert_eq!(one_line(&err), "first second");
    }

    #[test]
    fn broken_pipes_are_recognised() {
        let err = anyhow::Error::from(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert!(is_broken_pipe(&err));
        assert!(!is_broken_pipe(&bad_input("x")));
    }
}
