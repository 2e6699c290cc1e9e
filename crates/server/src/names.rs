//! Names that cannot impersonate: the rules for usernames and guests' nicknames, and the
//! normalised forms they are compared in (docs/protocol.md, "Names").
//!
//! - A **username** is 3 to 32 ASCII letters, digits, `_` or `-`. Usernames are unique on
//!   their lowercase form ([`username_key`]; a unique index in the database), so `admin`,
//!   `Admin` and `ADMIN` are one name, and login accepts any case.
//! - A **nickname** (guests) is 1 to 32 characters after NFKC normalisation, trimming and
//!   collapsing runs of spaces, each a space or a character of the UTS #39 General Security
//!   Profile (`Identifier_Status=Allowed`: letters and digits of the scripts in use today,
//!   a few joiners such as `_ - . '`); so no control, format, bidi-override (U+202E),
//!   zero-width, invisible filler or symbol character. It has a letter or digit, at most two
//!   combining marks in a row, and its letters are of one script (UTS #39 mixed-script
//!   detection, where Han with kana, or Han with Hangul, counts as one), which refuses a
//!   Latin name with a Cyrillic `а` in it.
//! - Every name also has a **key** ([`name_key`]): NFKC, lowercase (with `ß` as `ss` and `ς`
//!   as `σ`, the case foldings lowercase misses), the UTS #39 confusable skeleton, lowercase
//!   again, letters and digits only. Two names with one key look alike (`Admin`, `аdmin` in
//!   Cyrillic, `ADMlN`, `r00t`/`root`, `Tabula-Strong`/`Tabula strong`). A nickname is
//!   refused when its key is a registered user's key, a [`RESERVED`] name's key, or starts
//!   with a [`RESERVED_PREFIXES`] key (which covers every bot, named `Tabula <level>`); a
//!   username is refused when reserved, and when its key is another user's key (`mike` after
//!   `rnike`).

use crate::error::ApiError;
use axum::http::StatusCode;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, MixedScript};

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// Names nobody may take (as a username or nickname), compared by key.
pub const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "root",
    "system",
    "sysop",
    "superuser",
    "moderator",
    "mod",
    "staff",
    "support",
    "official",
    "owner",
    "server",
    "tabula",
    "guest",
    "bot",
    "anonymous",
    "nobody",
];

/// Names may not begin like these (by key): the bots are `Tabula random` ... `Tabula strong`.
pub const RESERVED_PREFIXES: &[&str] = &["tabula", "admin", "moderator"];

/// A refused name: why, for people.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Not 3 to 32 ASCII letters, digits, `_` or `-`.
    #[error("a username is 3 to 32 letters (a-z, A-Z), digits, _ or -")]
    BadUsername,
    /// Empty, too long, or with a character outside the nickname rules.
    #[error(
        "a nickname is 1 to 32 letters, digits, spaces or _ - . ' (no symbols, and no \
         invisible, control or direction-changing characters)"
    )]
    BadNickname,
    /// Letters of more than one script.
    #[error("a nickname's letters must all be of one script (this one mixes scripts, as look-alike names do)")]
    MixedScripts,
    /// Reserved for the server, its staff or its bots.
    #[error("that name is reserved (it is, or looks like, the name of the server, its staff or its bots)")]
    Reserved,
    /// Looks like a registered user's name.
    #[error("that name is, or looks like, a registered user's name")]
    LooksLikeUser,
}

impl From<NameError> for ApiError {
    fn from(e: NameError) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "name_not_allowed", e.to_string())
    }
}

/// The lowercase form usernames are unique on (usernames are ASCII).
pub fn username_key(username: &str) -> String {
    username.trim().to_ascii_lowercase()
}

/// A username as given, checked: 3 to 32 ASCII letters, digits, `_` or `-`, not reserved.
pub fn check_username(username: &str) -> Result<String, NameError> {
    let username = username.trim();
    if !(3..=MAX_NAME_CHARS).contains(&username.len())
        || !username
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(NameError::BadUsername);
    }
    if is_reserved(&name_key(username)) {
        return Err(NameError::Reserved);
    }
    Ok(username.to_string())
}

/// A nickname as it will be stored and shown (NFKC, trimmed, single spaces), checked against
/// the character, script and reserved-name rules; whether it looks like a registered user's
/// name is the caller's check (it needs the database), on [`name_key`].
pub fn check_nickname(nickname: &str) -> Result<String, NameError> {
    let nfkc: String = nickname.nfkc().collect();
    let name = nfkc
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let count = name.chars().count();
    if count == 0 || count > MAX_NAME_CHARS {
        return Err(NameError::BadNickname);
    }
    let mut marks = 0;
    let mut previous_mark_base = false;
    for c in name.chars() {
        if c != ' ' && !c.identifier_allowed() {
            return Err(NameError::BadNickname);
        }
        if is_combining_mark(c) {
            marks += 1;
            if !previous_mark_base || marks > 2 {
                return Err(NameError::BadNickname);
            }
        } else {
            marks = 0;
            previous_mark_base = c.is_alphanumeric();
        }
    }
    if !name.chars().any(char::is_alphanumeric) {
        return Err(NameError::BadNickname);
    }
    if !name.is_single_script() {
        return Err(NameError::MixedScripts);
    }
    if is_reserved(&name_key(&name)) {
        return Err(NameError::Reserved);
    }
    Ok(name)
}

/// Whether a name with this key is reserved: a [`RESERVED`] name's key, or beginning with a
/// [`RESERVED_PREFIXES`] key.
pub fn is_reserved(key: &str) -> bool {
    RESERVED.iter().any(|r| name_key(r) == key)
        || RESERVED_PREFIXES
            .iter()
            .any(|p| key.starts_with(&name_key(p)))
}

/// The key names are compared on: NFKC, case folded, the UTS #39 confusable skeleton, case
/// folded again, letters and digits only. Names with one key look alike.
pub fn name_key(name: &str) -> String {
    let folded = fold(&name.nfkc().collect::<String>());
    let skeleton: String = unicode_security::skeleton(&folded).collect();
    fold(&skeleton)
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// Unicode lowercase, with the two full case foldings it lacks that matter for names.
fn fold(s: &str) -> String {
    s.to_lowercase().replace('ß', "ss").replace('ς', "σ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_ascii_and_keyed_by_case() {
        assert_eq!(check_username(" alice ").as_deref(), Ok("alice"));
        assert_eq!(username_key("ADMIN"), username_key("admin"));
        assert_eq!(check_username("al"), Err(NameError::BadUsername));
        assert_eq!(check_username("аlice"), Err(NameError::BadUsername));
        assert_eq!(check_username("Admin"), Err(NameError::Reserved));
        assert_eq!(check_username("Tabula_strong"), Err(NameError::Reserved));
    }

    #[test]
    fn look_alikes_share_a_key() {
        let admin = name_key("admin");
        for n in [
            "Admin",
            "ADMIN",
            "аdmin",
            "аdmіn",
            "ＡＤＭＩＮ",
            "ad min",
            "Ad-min",
        ] {
            assert_eq!(name_key(n), admin, "{n}");
        }
        assert_eq!(name_key("r00t"), name_key("root"));
        assert_eq!(name_key("Tabula-Strong"), name_key("Tabula strong"));
        assert_eq!(name_key("José"), name_key("jose"));
        assert_eq!(name_key("Straße"), name_key("strasse"));
        assert_ne!(name_key("alice"), name_key("bob"));
    }

    #[test]
    fn nicknames() {
        assert_eq!(
            check_nickname("  Bob   the  2nd ").as_deref(),
            Ok("Bob the 2nd")
        );
        assert_eq!(check_nickname("José").as_deref(), Ok("José"));
        assert_eq!(
            check_nickname("日本語テスト").as_deref(),
            Ok("日本語テスト")
        );
        assert_eq!(check_nickname("Ｂｏｂ").as_deref(), Ok("Bob"));
        for bad in [
            "",
            "   ",
            "\u{200b}",
            "bob\u{200b}",
            "x\u{202e}y",
            "\u{3164}",
            "a\u{0301}\u{0301}\u{0301}\u{0301}",
            "\u{0301}a",
            "bob\n",
            "♛ king",
            "...",
            &"x".repeat(33),
        ] {
            assert_eq!(check_nickname(bad), Err(NameError::BadNickname), "{bad:?}");
        }
        assert_eq!(check_nickname("Аlice"), Err(NameError::MixedScripts));
        assert_eq!(check_nickname("аdmіn"), Err(NameError::MixedScripts));
        for reserved in [
            "admin",
            "Tabula strong",
            "tabula random",
            "ＡＤＭＩＮ",
            "r00t",
            "Guest",
        ] {
            assert_eq!(
                check_nickname(reserved),
                Err(NameError::Reserved),
                "{reserved}"
            );
        }
    }
}
