//! The fuzz targets, one per parser of outside input (trivially related parsers share one):
//! each reads the bytes as text (lossy UTF-8, so invalid bytes still reach the parser as
//! U+FFFD), runs the parser, and where it accepts checks what must hold (the canonical text
//! written back parses to the same value; a value built from the parse does not panic).
//! Action text is checked once for every game, through its [`Face`] ([`face_action`]).

mod backgammon;
mod gnubg;
mod grasshopper;
mod halma;
mod names;
mod server;
mod small;

use crate::engine::Target;
use tabula_games::Face;

/// Every target, in the order `--all` runs them.
pub fn all() -> Vec<Target> {
    vec![
        gnubg::TARGET,
        gnubg::XGID,
        backgammon::TARGET,
        grasshopper::TARGET,
        halma::TARGET,
        small::TARGET,
        server::JSON,
        names::TARGET,
        server::ACTIONS,
    ]
}

/// The bytes as text: valid UTF-8 as is, anything else with U+FFFD for the bad bytes.
pub(crate) fn text(input: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(input)
}

/// String literals as byte vectors.
pub(crate) fn bytes(items: &[&str]) -> Vec<Vec<u8>> {
    items.iter().map(|s| s.as_bytes().to_vec()).collect()
}

/// The action `text` names in `game` (read by its [`Face`]), if any. Its canonical text must
/// name the same action again, and applying it (to a copy; the rules may refuse it) must not
/// panic.
pub(crate) fn face_action<F: Face>(game: &F, text: &str) -> Option<F::Action> {
    let action = game.parse(text).ok()?;
    let canonical = game.text(&action);
    assert_eq!(
        game.parse(&canonical).ok(),
        Some(action.clone()),
        "canonical text {canonical:?} of the action {text:?}"
    );
    let _ = game.clone().apply(&action);
    Some(action)
}
