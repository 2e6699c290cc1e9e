//! `tabula verify-dice`: checks a finished server game from its record. Every roll is
//! recomputed from the revealed seed (`docs/dice.md`); when the record is a full one
//! (`GET /api/games/{id}/record`), every event is also replayed through the rules, so that
//! "verified" covers the moves, the rolls they were played with, every state and the result,
//! not only the dice.

use crate::error::bad_input;
use anyhow::{Context, Result};
use clap::Args;
use serde_json::Value;
use std::io::Write;
use tabula_core::verifiable::{verify, DiceRecord};
use tabula_core::ByColor;
use tabula_server::games::{GameOptions, Table};
use tabula_server::service::record_step;
use tabula_server::store::EventRow;

/// Options of `tabula verify-dice`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// A game record: the JSON of `GET /api/games/{id}/record` (dice and moves checked), of
    /// `GET /api/games/{id}` or its `dice` object alone (dice only); `-` reads standard input.
    pub record: String,
}

/// Checks the record named by `args` and says what was verified, or why it does not verify.
pub fn verify_dice(out: &mut impl Write, args: &VerifyArgs) -> Result<()> {
    let text = if args.record == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(&args.record)
            .map_err(|e| bad_input(format!("cannot read {}: {e}", args.record)))?
    };
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| bad_input(format!("{} is not JSON: {e}", args.record)))?;
    let dice = value
        .get("game")
        .and_then(|g| g.get("dice"))
        .or_else(|| value.get("dice"))
        .unwrap_or(&value);
    let record: DiceRecord = serde_json::from_value(dice.clone())
        .map_err(|e| bad_input(format!("no dice record in {}: {e}", args.record)))?;
    let checked = verify(&record).map_err(|e| bad_input(format!("the dice do not verify: {e}")))?;
    if value.get("steps").is_some() {
        let events = replay(&value, &record)
            .map_err(|e| bad_input(format!("the moves do not verify: {e}")))?;
        writeln!(
            out,
            "verified: {checked} rolls match the revealed seed (commitment {}), and all {events} \
             events replay legally with those rolls to the recorded states and result",
            record.commitment
        )?;
    } else {
        writeln!(
            out,
            "verified: {checked} rolls match the revealed seed (commitment {}); the moves were \
             not checked (give the game's /record to check them too)",
            record.commitment
        )?;
    }
    Ok(())
}

/// Replays a full record: each event must be legal, each roll must be the dice record's next
/// roll (dice and nonce), each recorded state must be the replayed one (result sentences
/// aside, as they name the players), and the game's summary must state the replayed result.
/// Returns the number of events.
fn replay(value: &Value, dice: &DiceRecord) -> Result<usize, String> {
    let game = value.get("game").ok_or("no `game` in the record")?;
    let options: GameOptions =
        serde_json::from_value(game.get("options").cloned().unwrap_or_default())
            .map_err(|e| format!("the game's options cannot be read: {e}"))?;
    let mut table =
        Table::new(&options).map_err(|e| format!("the game's options are refused: {e}"))?;
    let names = ByColor {
        white: "White",
        black: "Black",
    };
    let same = |replayed: Value, recorded: Option<&Value>, at: &str| -> Result<(), String> {
        match recorded {
            Some(recorded)
                if without_sentences(recorded.clone()) == without_sentences(replayed) =>
            {
                Ok(())
            }
            _ => Err(format!("the state {at} is not the one the moves lead to")),
        }
    };
    same(
        table.view(names),
        value.get("start"),
        "before the first event",
    )?;
    let steps = value
        .get("steps")
        .and_then(Value::as_array)
        .ok_or("`steps` is not a list")?;
    let mut rolls = dice.rolls.iter();
    let mut ended = None;
    for (i, step) in steps.iter().enumerate() {
        let event: EventRow =
            serde_json::from_value(step.get("event").cloned().unwrap_or_default())
                .map_err(|e| format!("event {} cannot be read: {e}", i + 1))?;
        if event.kind == "roll" {
            let roll = rolls.next().ok_or_else(|| {
                format!("event {} is a roll the dice record does not have", i + 1)
            })?;
            let text = format!("{}-{}", roll.dice[0], roll.dice[1]);
            if event.payload != text || event.nonce.as_deref() != Some(roll.nonce.as_str()) {
                return Err(format!(
                    "event {} rolls {} (nonce {:?}) where the dice record's roll {} is {text} (nonce {})",
                    i + 1,
                    event.payload,
                    event.nonce.unwrap_or_default(),
                    roll.number,
                    roll.nonce
                ));
            }
        }
        let state = record_step(&mut table, &mut ended, &event, names).map_err(|e| {
            format!(
                "event {} ({} {}) is refused: {e}",
                i + 1,
                event.kind,
                event.payload
            )
        })?;
        same(state, step.get("state"), &format!("after event {}", i + 1))?;
    }
    if rolls.next().is_some() {
        return Err("the dice record has rolls that no event used".into());
    }
    let claimed = |key: &str| game.get(key).cloned().unwrap_or(Value::Null);
    let outcome = ended.or_else(|| table.outcome());
    let winner = outcome
        .and_then(|o| o.winner)
        .map(|c| Value::from(tabula_server::service::color_name(c)))
        .unwrap_or(Value::Null);
    let points = outcome
        .map(|o| Value::from(o.points))
        .unwrap_or(Value::Null);
    if outcome.is_none() || claimed("winner") != winner || claimed("points") != points {
        return Err(format!(
            "the summary says winner {} and points {}, the moves give {winner} and {points}",
            claimed("winner"),
            claimed("points")
        ));
    }
    Ok(steps.len())
}

/// `value` without its `sentence` fields (they name the players, which the record's states
/// do with the names of the day).
fn without_sentences(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| k != "sentence")
                .map(|(k, v)| (k, without_sentences(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_sentences).collect()),
        other => other,
    }
}
