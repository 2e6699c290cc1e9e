use super::*;
use tabula_core::{ChaChaDice, DiceSource};

fn all_options() -> Vec<GameOptions> {
    let parse = |s: &str| serde_json::from_str::<GameOptions>(s).unwrap();
    vec![
        parse(r#"{"game":"backgammon"}"#),
        parse(r#"{"game":"backgammon","match_length":3}"#),
        parse(r#"{"game":"never-finishing","match_length":1}"#),
        parse(r#"{"game":"grasshopper","checkers":6}"#),
        parse(r#"{"game":"halma-grasshopper"}"#),
    ]
}

enum Entry {
    Action(String),
    Roll(DiceRoll),
}

/// Plays a game to its end with bots, returning the log.
fn play_out(options: &GameOptions, seed: u64) -> (Table, Vec<Entry>) {
    let mut table = Table::new(options).unwrap();
    let mut dice = ChaChaDice::new(seed);
    let mut log = Vec::new();
    for ply in 0..5000 {
        match table.status() {
            Status::Over(_) => return (table, log),
            Status::Chance(_) => {
                let roll = dice.roll();
                table.roll(roll).unwrap();
                log.push(Entry::Roll(roll));
            }
            Status::Decide { .. } => {
                let text = table.bot_action(Level::Easy, seed + ply).unwrap();
                assert!(table.legal().contains(&text), "{text}");
                let canonical = table.apply_text(&text).unwrap();
                assert_eq!(canonical, text);
                log.push(Entry::Action(text));
            }
        }
    }
    panic!("the game did not end");
}

#[test]
fn every_game_plays_to_the_end_through_text_and_replays_from_its_log() {
    for options in all_options() {
        let (table, log) = play_out(&options, 7);
        let mut replayed = Table::new(&options).unwrap();
        for entry in &log {
            match entry {
                Entry::Action(t) => {
                    replayed.apply_text(t).unwrap();
                }
                Entry::Roll(r) => replayed.roll(*r).unwrap(),
            }
        }
        assert_eq!(replayed.view(), table.view(), "{options:?}");
        assert!(matches!(replayed.status(), Status::Over(_)));
    }
}

#[test]
fn an_illegal_or_malformed_action_is_refused_and_changes_nothing() {
    for options in all_options() {
        let mut table = Table::new(&options).unwrap();
        if let Status::Chance(_) = table.status() {
            table.roll(DiceRoll::new(3, 1).unwrap()).unwrap();
        }
        let before = table.view();
        for text in [
            "",
            "nonsense",
            "24/1 24/1 24/1 24/1",
            "j10-a1",
            "double please",
        ] {
            assert!(table.apply_text(text).is_err(), "{text} accepted");
            assert_eq!(table.view(), before);
        }
    }
}

#[test]
fn options_are_checked() {
    for bad in [
        r#"{"game":"backgammon","match_length":0}"#,
        r#"{"game":"backgammon","match_length":65}"#,
        r#"{"game":"grasshopper","checkers":5}"#,
        r#"{"game":"halma-grasshopper","size":9}"#,
        r#"{"game":"never-finishing","match_length":100}"#,
    ] {
        let options: GameOptions = serde_json::from_str(bad).unwrap();
        assert!(Table::new(&options).is_err(), "{bad}");
    }
    assert!(serde_json::from_str::<GameOptions>(r#"{"game":"chess"}"#).is_err());
    assert!(serde_json::from_str::<GameOptions>(r#"{"game":"backgammon","x":1}"#).is_err());
}

#[test]
fn the_view_names_status_legal_actions_and_notation() {
    let table = Table::new(&all_options()[0]).unwrap();
    let view = table.view();
    assert_eq!(view["game"], "backgammon");
    assert_eq!(view["status"]["status"], "chance");
    assert!(view["notation"].is_string());
    assert_eq!(view["board"]["points"].as_array().unwrap().len(), 24);
}
