//! The server's outside input: every JSON request body (`serde_json::from_slice` of each
//! type, then the validation that needs no database: a game's options must make a table,
//! a bot level must be a level), and the action text of the four games as
//! `POST /api/games/{id}/actions` reads it ([`Table::apply_text`], which reads the text to
//! the typed action with the game's face and applies that).

use super::text;
use crate::engine::Target;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;
use tabula_ai::Level;
use tabula_core::{ByColor, DiceRoll, Status};
use tabula_server::api::games::{ActionRequest, CreateGame, JoinGame, Opponent, RollRequest};
use tabula_server::api::players::{Credentials, GuestRequest};
use tabula_server::games::{GameOptions, Table};

/// The JSON bodies.
pub const JSON: Target = Target {
    name: "api-json",
    about: "every JSON request body of the API, and the options' validation (Table::new)",
    run: run_json,
    seeds: json_seeds,
    dictionary: json_dictionary,
};

const NAMES: ByColor<&str> = ByColor {
    white: "Ann",
    black: "Bob",
};

/// Options that make a table must survive being stored (serialised, read back) unchanged.
fn check_options(options: &GameOptions) -> bool {
    let Ok(table) = Table::new(options) else {
        return false;
    };
    let resolved = options.resolved();
    let stored = serde_json::to_string(&resolved).expect("options serialise");
    let read: GameOptions = serde_json::from_str(&stored)
        .unwrap_or_else(|e| panic!("stored options {stored} do not read back: {e}"));
    assert_eq!(read, resolved, "options round trip of {options:?}");
    assert!(
        Table::new(&read).is_ok(),
        "resolved options {stored} refused"
    );
    let _ = options.match_length();
    let _ = table.view(NAMES);
    true
}

fn run_json(input: &[u8]) -> bool {
    let mut accepted = false;
    if let Ok(options) = serde_json::from_slice::<GameOptions>(input) {
        accepted |= check_options(&options);
    }
    if let Ok(req) = serde_json::from_slice::<CreateGame>(input) {
        check_options(&req.options);
        if let Opponent::Bot { level } = &req.opponent {
            let _ = level.parse::<Level>();
        }
        let _ = req.client_seed.map(|s| s.chars().count());
        accepted = true;
    }
    accepted |= serde_json::from_slice::<JoinGame>(input).is_ok();
    accepted |= serde_json::from_slice::<ActionRequest>(input).is_ok();
    accepted |= serde_json::from_slice::<RollRequest>(input).is_ok();
    accepted |= serde_json::from_slice::<GuestRequest>(input).is_ok();
    accepted |= serde_json::from_slice::<Credentials>(input).is_ok();
    accepted
}

fn json_seeds() -> Vec<Vec<u8>> {
    super::bytes(&[
        r#"{"game":"backgammon"}"#,
        r#"{"game":"backgammon","match_length":3,"crawford":false}"#,
        r#"{"game":"backgammon","beavers":false,"jacoby":true,"automatic_doubles":2}"#,
        r#"{"game":"never-finishing","match_length":0}"#,
        r#"{"game":"grasshopper","checkers":6}"#,
        r#"{"game":"halma-grasshopper","size":10,"evacuation":50}"#,
        r#"{"game":"halma-grasshopper","evacuation":null}"#,
        r#"{"options":{"game":"backgammon","match_length":5},"opponent":{"kind":"bot","level":"easy"},"color":"black","client_seed":"abc"}"#,
        r#"{"options":{"game":"grasshopper"},"opponent":{"kind":"invite"}}"#,
        r#"{"options":{"game":"halma-grasshopper","size":8},"opponent":{"kind":"open"},"color":"white"}"#,
        r#"{"invite_code":"0123abcd","client_seed":"x"}"#,
        r#"{}"#,
        r#"{"action":"8/3 6/3","version":4}"#,
        r#"{"action":"double"}"#,
        r#"{"nonce":"0123456789abcdef"}"#,
        r#"{"nickname":"Ann"}"#,
        r#"{"username":"ann_1","password":"correct horse"}"#,
    ])
}

fn json_dictionary() -> Vec<Vec<u8>> {
    super::bytes(&[
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"",
        "null",
        "true",
        "false",
        "0",
        "-1",
        "1e999",
        "4294967296",
        "18446744073709551616",
        "255",
        "256",
        "\"game\"",
        "\"backgammon\"",
        "\"never-finishing\"",
        "\"grasshopper\"",
        "\"halma-grasshopper\"",
        "\"match_length\"",
        "\"checkers\"",
        "\"size\"",
        "\"evacuation\"",
        "\"automatic_doubles\"",
        "\"options\"",
        "\"opponent\"",
        "\"kind\"",
        "\"bot\"",
        "\"level\"",
        "\"strong\"",
        "\"color\"",
        "\"white\"",
        "\"black\"",
        "\"client_seed\"",
        "\"nonce\"",
        "\"action\"",
        "\"version\"",
        "\"nickname\"",
        "\"username\"",
        "\"password\"",
        "\"invite_code\"",
        "\\u0000",
        "\\ud800",
        "64",
        "65",
        "10",
        "8",
        "14",
        "15",
        "300",
    ])
}

/// The action text.
pub const ACTIONS: Target = Target {
    name: "server-actions",
    about: "the action text of the four games as the server reads it (Table::apply_text)",
    run: run_actions,
    seeds: action_seeds,
    dictionary: action_dictionary,
};

const OPTIONS: &[&str] = &[
    r#"{"game":"backgammon"}"#,
    r#"{"game":"backgammon","match_length":3}"#,
    r#"{"game":"backgammon","match_length":1}"#,
    r#"{"game":"never-finishing","match_length":1}"#,
    r#"{"game":"never-finishing","match_length":0}"#,
    r#"{"game":"grasshopper","checkers":6}"#,
    r#"{"game":"grasshopper"}"#,
    r#"{"game":"halma-grasshopper"}"#,
    r#"{"game":"halma-grasshopper","size":10}"#,
];

/// A random roll.
fn roll(rng: &mut ChaCha8Rng) -> DiceRoll {
    let (a, b) = (rng.gen_range(1..=6), rng.gen_range(1..=6));
    DiceRoll::new(a, b).expect("dice 1 to 6")
}

/// Plays `steps` random plies (rolls included) of `table`.
fn walk(table: &mut Table, steps: usize, rng: &mut ChaCha8Rng) {
    for _ in 0..steps {
        match table.status() {
            Status::Over(_) => return,
            Status::Chance(_) => {
                let _ = table.roll(roll(rng));
            }
            Status::Decide { .. } => {
                let legal = table.legal();
                if legal.is_empty() {
                    return;
                }
                let text = &legal[rng.gen_range(0..legal.len())];
                if table.apply_text(text).is_err() {
                    return;
                }
            }
        }
    }
}

/// Tables at the start and along random walks, each deciding (a roll made when due).
fn tables() -> &'static [Table] {
    static T: OnceLock<Vec<Table>> = OnceLock::new();
    T.get_or_init(|| {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        let mut out = Vec::new();
        for options in OPTIONS {
            let Ok(options) = serde_json::from_str::<GameOptions>(options) else {
                continue;
            };
            for steps in [0, 3, 12, 40, 120] {
                let Ok(mut table) = Table::new(&options) else {
                    continue;
                };
                walk(&mut table, steps, &mut rng);
                if matches!(table.status(), Status::Chance(_)) {
                    let _ = table.roll(roll(&mut rng));
                }
                out.push(table);
            }
        }
        out
    })
}

fn run_actions(input: &[u8]) -> bool {
    let [t, r, rest @ ..] = input else {
        return false;
    };
    let tables = tables();
    let mut table = tables[usize::from(*t) % tables.len()].clone();
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(*r));
    let text = text(rest);
    let mut accepted = false;
    for line in text.split('\n').take(8) {
        match table.status() {
            Status::Over(_) => break,
            Status::Chance(_) => {
                let _ = table.roll(roll(&mut rng));
                continue;
            }
            Status::Decide { .. } => {}
        }
        let before = table.clone();
        let legal = before.legal();
        if let Ok(canonical) = table.apply_text(line) {
            assert!(
                legal.contains(&canonical),
                "{canonical:?} (read from {line:?}) is not among the legal texts"
            );
            let mut again = before.clone();
            assert_eq!(
                again.apply_text(&canonical),
                Ok(canonical.clone()),
                "the canonical text of {line:?} does not replay"
            );
            let _ = table.notation();
            accepted = true;
        }
    }
    accepted
}

fn action_seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (i, table) in tables().iter().enumerate() {
        for text in table.legal().iter().take(6) {
            let mut s = vec![i as u8, 0];
            s.extend_from_slice(text.as_bytes());
            out.push(s);
        }
    }
    out
}

fn action_dictionary() -> Vec<Vec<u8>> {
    super::bytes(&[
        "\n",
        "/",
        "*",
        "^",
        "(2)",
        "bar",
        "off",
        "24/18",
        "13/8",
        "8/3 6/3",
        "double",
        "take",
        "drop",
        "beaver",
        "resign",
        "pass",
        "offer-draw",
        "accept-draw",
        "c3-e5",
        "c3:e5:g7",
        "in 3",
        "3-9",
        "9-15w",
        "off 21",
        "discard 20",
        "roll",
        " ",
        "-",
        ":",
    ])
}
