use super::*;
use tabula_core::{ChaChaDice, DiceSource, EndReason};

const NAMES: ByColor<&str> = ByColor {
    white: "Ann",
    black: "Bob",
};

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
        assert_eq!(replayed.view(NAMES), table.view(NAMES), "{options:?}");
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
        let before = table.view(NAMES);
        for text in [
            "",
            "nonsense",
            "24/1 24/1 24/1 24/1",
            "j10-a1",
            "double please",
        ] {
            assert!(table.apply_text(text).is_err(), "{text} accepted");
            assert_eq!(table.view(NAMES), before);
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
        r#"{"game":"halma-grasshopper","evacuation":9}"#,
        r#"{"game":"halma-grasshopper","evacuation":201}"#,
        r#"{"game":"halma-grasshopper","size":10,"evacuation":14}"#,
        r#"{"game":"halma-grasshopper","size":10,"evacuation":301}"#,
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
    let view = table.view(NAMES);
    assert_eq!(view["game"], "backgammon");
    assert_eq!(view["status"]["status"], "chance");
    assert!(view["notation"].is_string());
    assert_eq!(view["board"]["points"].as_array().unwrap().len(), 24);
}

#[test]
fn a_finished_game_gives_its_result_as_a_code_and_a_sentence_naming_the_players() {
    let codes = |c: &str| EndReason::CODES.contains(&c) || c == "match-won";
    for options in all_options() {
        let (table, _) = play_out(&options, 11);
        let view = table.view(NAMES);
        let result = &view["result"];
        let code = result["code"].as_str().unwrap();
        assert!(codes(code), "{options:?}: {result}");
        let sentence = result["sentence"].as_str().unwrap();
        assert!(
            sentence.contains("Ann") || sentence.contains("Bob") || sentence.starts_with("Drawn"),
            "{sentence}"
        );
        let Status::Over(outcome) = table.status() else {
            panic!("not over")
        };
        assert_eq!(result["winner"], json!(outcome.winner));
        assert_eq!(result["points"], outcome.points);
        assert_eq!(view["status"]["status"], "over");
        assert_eq!(view["games"].is_array(), table.has_dice(), "{options:?}");
    }
}

#[test]
fn one_money_game_ends_with_its_own_reason_not_a_session() {
    let options = all_options()[0].clone();
    let (table, _) = play_out(&options, 3);
    let view = table.view(NAMES);
    assert_ne!(view["result"]["code"], "session-complete", "{view}");
    assert_eq!(view["games"].as_array().unwrap().len(), 1);
    assert_eq!(view["games"][0]["code"], view["result"]["code"]);
    assert_eq!(view["games"][0]["sentence"], view["result"]["sentence"]);
}

#[test]
fn every_game_of_a_match_is_listed_with_its_reason_score_and_final_board() {
    let options: GameOptions =
        serde_json::from_str(r#"{"game":"backgammon","match_length":5}"#).unwrap();
    // A seed whose match takes several games (the easy bots double freely).
    let (table, _) = (1..40)
        .map(|seed| play_out(&options, seed))
        .find(|(t, _)| t.games_over() >= 3)
        .expect("a match of three games or more");
    let view = table.view(NAMES);
    assert_eq!(view["result"]["code"], "match-won");
    let games = view["games"].as_array().unwrap();
    let mut total = 0;
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["number"], i + 1);
        let winner = g["winner"].as_str().unwrap();
        total += g["points"].as_u64().unwrap();
        assert_eq!(
            g["score"]["white"].as_u64().unwrap() + g["score"]["black"].as_u64().unwrap(),
            total
        );
        let code = g["code"].as_str().unwrap();
        assert!(EndReason::CODES.contains(&code), "{code}");
        assert!(g["sentence"].as_str().unwrap().contains(" wins "), "{g}");
        if ["single", "gammon", "backgammon"].contains(&code) {
            assert_eq!(g["board"]["off"][winner], 15, "game {}: {g}", i + 1);
        }
    }
    assert_eq!(games.last().unwrap()["score"], view["score"]);
    // Never-Finishing lists its games the same way.
    let options: GameOptions =
        serde_json::from_str(r#"{"game":"never-finishing","match_length":3}"#).unwrap();
    let (table, _) = play_out(&options, 5);
    let view = table.view(NAMES);
    let games = view["games"].as_array().unwrap();
    assert!(!games.is_empty());
    for g in games {
        if let Some(w) = g["winner"].as_str() {
            assert_eq!(g["board"]["off"][w], 15, "{g}");
        }
    }
}

#[test]
fn the_halma_evacuation_deadline_is_an_option_shown_in_the_view() {
    let parse = |s: &str| serde_json::from_str::<GameOptions>(s).unwrap();
    for (json, want) in [
        (r#"{"game":"halma-grasshopper"}"#, 30),
        (r#"{"game":"halma-grasshopper","size":10}"#, 50),
        (r#"{"game":"halma-grasshopper","evacuation":0}"#, 0),
        (r#"{"game":"halma-grasshopper","evacuation":10}"#, 10),
        (r#"{"game":"halma-grasshopper","evacuation":200}"#, 200),
        (
            r#"{"game":"halma-grasshopper","size":10,"evacuation":300}"#,
            300,
        ),
        (r#"{"game":"halma-grasshopper","evacuation":null}"#, 30),
    ] {
        let options = parse(json);
        let table = Table::new(&options).unwrap();
        assert_eq!(table.view(NAMES)["evacuation"], want, "{json}");
        let resolved = options.resolved();
        let stored = serde_json::to_value(&resolved).unwrap();
        assert_eq!(stored["evacuation"], want, "{json}");
        assert_eq!(
            Table::new(&resolved).unwrap().view(NAMES),
            table.view(NAMES)
        );
    }
    for bad in [
        r#"{"game":"halma-grasshopper","evacuation":-1}"#,
        r#"{"game":"halma-grasshopper","evacuation":"30"}"#,
        r#"{"game":"halma-grasshopper","evacuation":1.5}"#,
    ] {
        assert!(serde_json::from_str::<GameOptions>(bad).is_err(), "{bad}");
    }
}
