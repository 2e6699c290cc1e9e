//! Move text exactly as GNU Backgammon prints it, over every play gnubg's `hint` listed for
//! the positions of `fixtures/gnubg_move_text.txt`, and the text read back to the same play.

use std::collections::HashMap;
use tabula_core::Dice;
use tabula_tables::notation::{format_move, format_play, match_play};
use tabula_tables::Position;

const FIXTURE: &str = include_str!("../fixtures/gnubg_move_text.txt");

struct Case {
    pos: Position,
    dice: Dice,
    /// Result Position ID -> gnubg's text.
    texts: Vec<(String, String)>,
}

fn cases() -> Vec<Case> {
    let mut order = Vec::new();
    let mut by_key: HashMap<(String, String), Vec<(String, String)>> = HashMap::new();
    for line in FIXTURE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut f = line.splitn(4, ' ');
        let (id, dice, result, text) = (
            f.next().unwrap(),
            f.next().unwrap(),
            f.next().unwrap(),
            f.next().unwrap(),
        );
        let key = (id.to_string(), dice.to_string());
        if !by_key.contains_key(&key) {
            order.push(key.clone());
        }
        by_key
            .entry(key)
            .or_default()
            .push((result.to_string(), text.to_string()));
    }
    order
        .into_iter()
        .map(|key| {
            let texts = by_key.remove(&key).unwrap();
            Case {
                pos: Position::from_position_id(&key.0).unwrap(),
                dice: key.1.parse().unwrap(),
                texts,
            }
        })
        .collect()
}

#[test]
fn format_play_writes_what_gnubg_writes() {
    let mut plays = 0;
    let mut failures = Vec::new();
    let all = cases();
    for case in &all {
        let legal: HashMap<String, _> = case
            .pos
            .legal_plays(case.dice)
            .into_iter()
            .map(|(play, after)| (after.position_id(), (play, after)))
            .collect();
        assert_eq!(
            legal.len(),
            case.texts.len(),
            "{:?} {}",
            case.pos,
            case.dice
        );
        for (result, text) in &case.texts {
            let (play, after) = legal[result];
            let ours = format_play(&play);
            if &ours != text {
                failures.push(format!(
                    "{} {}: gnubg {text:?}, Tabula {ours:?} from {play:?}",
                    case.pos.position_id(),
                    case.dice
                ));
            }
            assert_eq!(
                format_move(&case.pos, &after, case.dice).as_deref(),
                Some(ours.as_str())
            );
            plays += 1;
        }
    }
    assert!(
        all.len() >= 350 && plays >= 5000,
        "{} cases, {plays} plays",
        all.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {plays} texts differ, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(15)].join("\n")
    );
}

#[test]
fn gnubgs_text_reads_back_as_the_same_play() {
    let mut failures = Vec::new();
    for case in cases() {
        for (result, text) in &case.texts {
            match match_play(&case.pos, case.dice, text) {
                Ok((_, after)) if &after.position_id() == result => {}
                other => failures.push(format!(
                    "{} {} {text:?}: {other:?}",
                    case.pos.position_id(),
                    case.dice
                )),
            }
            // Upper case, commas and the moves in reverse order read the same.
            let shuffled: Vec<&str> = text.split(' ').rev().collect();
            let shuffled = shuffled.join(", ").to_uppercase();
            match match_play(&case.pos, case.dice, &shuffled) {
                Ok((_, after)) if &after.position_id() == result => {}
                other => failures.push(format!("{shuffled:?}: {other:?}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(15)].join("\n")
    );
}
