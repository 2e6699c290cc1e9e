//! A game rebuilt from its stored log: the rows replayed through the rules engine
//! ([`replay_event`]), the dice of each roll derived from the game's seeds ([`derive_roll`]),
//! and the texts rolls and colours are stored as.

use super::*;

/// The name shown for an empty seat.
pub(super) fn seat_name(color: Color) -> String {
    match color {
        Color::White => "White".into(),
        Color::Black => "Black".into(),
    }
}

/// A game just created (no log yet) with its seated `players`, built without the database.
pub fn new_game(
    row: GameRow,
    players: ByColor<Option<crate::store::PlayerRow>>,
) -> Result<Loaded, ApiError> {
    replay(row, &[], players)
}

pub(super) fn replay(
    row: GameRow,
    events: &[EventRow],
    players: ByColor<Option<crate::store::PlayerRow>>,
) -> Result<Loaded, ApiError> {
    let names = ByColor::new_with(|c| {
        players[c]
            .as_ref()
            .map_or_else(|| seat_name(c), |p| p.label())
    });
    let table = Table::new(&row.game_options()?).map_err(ApiError::internal)?;
    // A game with a join in its log had an empty seat until then; the others (against a
    // bot) ran from their creation.
    let seated = !events.iter().any(|e| e.kind == "join");
    let mut clocks = Clocks::new(row.time_control()?);
    if seated {
        clocks.advance(Waiting::of(&table.status(), true), row.created_ms);
    }
    let mut game = Loaded {
        row,
        table,
        rolls: 0,
        plies: 0,
        names,
        players,
        game_ends: Vec::new(),
        clocks,
        ended: None,
        acted: ByColor::default(),
        memo: Arc::default(),
    };
    let mut playing = seated;
    for e in events {
        replay_event(&mut game.table, e)?;
        match e.kind.as_str() {
            "roll" => game.rolls += 1,
            "action" => {
                game.plies += 1;
                if let Ok(c) = parse_color(e.actor.as_deref()) {
                    game.acted[c] = true;
                }
            }
            "join" => playing = true,
            _ => {
                if let Some(outcome) = server_end(&game.table, e)? {
                    game.ended = Some(outcome);
                }
            }
        }
        if game.table.games_over() > game.game_ends.len() {
            game.game_ends.push(e.version);
        }
        let waiting = if game.ended.is_some() {
            Waiting::Nobody
        } else {
            Waiting::of(&game.table.status(), playing)
        };
        game.clocks.advance(waiting, e.at_ms);
    }
    Ok(game)
}

/// Steps a replay of the log one entry on: applies `e` to `table` ([`replay_event`]), keeps
/// in `ended` the result of an entry by which the server ended the game ([`server_end`]),
/// and returns the state after it as the record gives it (a [`Table::view`], with that
/// ending). The record (`/record`) and `tabula verify-dice` replay with it.
pub fn record_step(
    table: &mut Table,
    ended: &mut Option<Outcome>,
    e: &EventRow,
    names: ByColor<&str>,
) -> Result<serde_json::Value, ApiError> {
    replay_event(table, e)?;
    if let Some(outcome) = server_end(table, e)? {
        *ended = Some(outcome);
    }
    let mut state = table.view(names);
    if let Some(outcome) = ended {
        ended_view(&mut state, outcome, names);
    }
    Ok(state)
}

/// Makes `view` (a [`Table::view`]) say that the server ended the game with `outcome` (on
/// time, by a resignation, abandoned, aborted): its result and status, and no legal action.
pub fn ended_view(view: &mut serde_json::Value, outcome: &Outcome, names: ByColor<&str>) {
    let end = crate::games::GameEnd::new(outcome, names);
    view["result"] = serde_json::json!(end);
    view["status"] = serde_json::to_value(Status::Over(*outcome)).unwrap_or_default();
    view["legal"] = serde_json::json!([]);
}

/// The result of an event by which the server ends the game, on `table` (its actor is the
/// player who loses or calls it off); `None` for the other events. `timeout`: out of time
/// ([`Table::time_out`]); `resign`: a resignation in a game whose rules have none
/// ([`EndReason::Conceded`]); `abandon`: a game against a bot left untouched for the days
/// its payload gives ([`EndReason::Abandoned`]); `abort`: called off before a move, no
/// result ([`EndReason::Aborted`]).
pub fn server_end(table: &Table, e: &EventRow) -> Result<Option<Outcome>, ApiError> {
    let actor = || parse_color(e.actor.as_deref());
    Ok(Some(match e.kind.as_str() {
        "timeout" => table.time_out(actor()?),
        "resign" => table.forfeit(actor()?, EndReason::Conceded),
        "abandon" => {
            let days = e
                .payload
                .parse()
                .map_err(|_| ApiError::internal("an abandon event without its days"))?;
            table.forfeit(actor()?, EndReason::Abandoned { days })
        }
        "abort" => Outcome::draw(EndReason::Aborted),
        _ => return Ok(None),
    }))
}

pub(super) fn parse_color(name: Option<&str>) -> Result<Color, ApiError> {
    match name {
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        _ => Err(ApiError::internal("an event without its colour")),
    }
}

/// Replays one log entry on `table`: a roll, an action, or a join (a seat taken: the row
/// records it, the rules see nothing).
pub fn replay_event(table: &mut Table, e: &EventRow) -> Result<(), ApiError> {
    match e.kind.as_str() {
        "roll" => {
            let roll = parse_dice(&e.payload).ok_or_else(|| ApiError::internal("bad roll"))?;
            table.roll(roll).map_err(ApiError::internal)
        }
        "join" | "timeout" | "resign" | "abandon" | "abort" => Ok(()),
        _ => table
            .apply_text(&e.payload)
            .map(drop)
            .map_err(ApiError::internal),
    }
}

/// `5-2` as a roll (first die first).
pub fn parse_dice(text: &str) -> Option<DiceRoll> {
    let (a, b) = text.split_once('-')?;
    DiceRoll::new(a.parse().ok()?, b.parse().ok()?).ok()
}

/// A roll as stored.
pub fn dice_text(roll: DiceRoll) -> String {
    format!("{}-{}", roll.first.value(), roll.second.value())
}

/// The roll number `n` of `row`'s game for `nonce`.
pub fn derive_roll(row: &GameRow, n: u64, nonce: &str) -> Result<DiceRoll, ApiError> {
    let seed = ServerSeed::from_hex(&row.server_seed).map_err(ApiError::internal)?;
    Ok(seed.roll(&row.client_seeds(), n, nonce))
}
