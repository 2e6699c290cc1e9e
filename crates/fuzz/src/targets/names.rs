//! The names people choose, as the server checks them before any database look-up
//! (`tabula_server::names`): usernames, guests' nicknames (NFKC, the UTS #39 identifier,
//! script and confusable rules) and the keys names are compared on. A name accepted is the
//! form stored, so checking it again must accept it unchanged.

use super::text;
use crate::engine::Target;
use tabula_server::names::{check_nickname, check_username, is_reserved, name_key, username_key};

/// The target.
pub const TARGET: Target = Target {
    name: "names",
    about: "usernames, guests' nicknames (NFKC, UTS #39) and name keys",
    run,
    seeds,
    dictionary,
};

fn run(input: &[u8]) -> bool {
    let text = text(input);
    let key = name_key(&text);
    let _ = is_reserved(&key);
    let _ = username_key(&text);
    let mut accepted = false;
    if let Ok(name) = check_nickname(&text) {
        assert_eq!(
            check_nickname(&name).as_deref(),
            Ok(name.as_str()),
            "the stored nickname {name:?} (from {text:?}) is not accepted as is"
        );
        assert!(!is_reserved(&name_key(&name)), "{name:?} is reserved");
        accepted = true;
    }
    if let Ok(name) = check_username(&text) {
        assert_eq!(check_username(&name).as_deref(), Ok(name.as_str()));
        accepted = true;
    }
    accepted
}

fn seeds() -> Vec<Vec<u8>> {
    super::bytes(&[
        "Ann",
        "alice",
        "ann_1",
        "Bob Smith",
        "Zoë",
        "Ελένη",
        "Анна",
        "山田太郎",
        "やまだ",
        "김민준",
        "José",
        "e\u{301}mile",
        "admin",
        "аdmin",
        "Tabula strong",
        "ADMlN",
        "r00t",
        "a\u{202e}b",
        "x\u{200b}y",
        "ﬀ",
        "Ⅻ",
        "  two   spaces  ",
    ])
}

fn dictionary() -> Vec<Vec<u8>> {
    super::bytes(&[
        " ",
        "\u{301}",
        "\u{308}",
        "\u{202e}",
        "\u{200d}",
        "\u{200b}",
        "\u{a0}",
        "\u{3000}",
        "а",
        "о",
        "ß",
        "ς",
        "İ",
        "ﬁ",
        "①",
        "_",
        "-",
        ".",
        "'",
        "Tabula",
        "admin",
        "bot",
        "0",
        "l",
        "I",
        "\u{fe0f}",
        "\u{e0100}",
        "ǅ",
        "\u{345}",
    ])
}
