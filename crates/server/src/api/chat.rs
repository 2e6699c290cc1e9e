//! Chat between the two players of a game (docs/protocol.md, "Chat"): plain text of at most
//! [`MAX_CHARS`] characters, at most [`RATE_MESSAGES`] messages a player in any
//! [`RATE_WINDOW_MS`] (across games) and [`MAX_PER_GAME`] a game, kept with the game. Only
//! games between two people have one, from the moment both are seated, the game over
//! included. Either player may mute the other (their messages are then not shown to the
//! muter, past ones included); spectators read only while both players allow it. A new message
//! or choice is told to the game's watchers as a note (`{"type": "chat"}`) without its text;
//! each client then asks for what it may read.

use crate::auth::{Auth, MaybeAuth};
use crate::error::{ApiError, Json, Query};
use crate::service::{color_name, Loaded};
use crate::store::chat::{ChatRow, ChatSettings};
use crate::store::now_ms;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tabula_core::Color;
use utoipa::{IntoParams, ToSchema};

/// The longest message, in characters (Unicode scalar values).
pub const MAX_CHARS: usize = 300;
/// The most messages a player may write in any [`RATE_WINDOW_MS`], in all games together.
pub const RATE_MESSAGES: usize = 5;
/// The rate limit's window, in milliseconds.
pub const RATE_WINDOW_MS: i64 = 10_000;
/// The most messages a game's chat keeps; more are refused (`chat_full`).
pub const MAX_PER_GAME: i64 = 500;

/// One message as a reader sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChatMessage {
    /// Its number within the game, from 1.
    pub seq: i64,
    /// The writer's seat, `white` or `black`.
    pub seat: String,
    /// The writer's name as results write it (a guest's marked ` (guest)`).
    pub name: String,
    /// The text, plain: clients show it as text, never as markup.
    pub text: String,
    /// When it was written (Unix milliseconds).
    pub at_ms: i64,
}

/// A player's chat choices for one game.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
pub struct ChatChoices {
    /// Hide the opponent's messages from me.
    pub mute: bool,
    /// Let spectators read the chat (they do only while both players allow it).
    pub spectators: bool,
}

/// A game's chat as the caller may see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChatView {
    /// Whether the game has a chat (two people seated); when not, `closed` says why.
    pub open: bool,
    /// Why there is no chat, a sentence (null when `open`).
    pub closed: Option<String>,
    /// Whether the caller may write (a player of an open chat).
    pub can_write: bool,
    /// Whether the caller may read it (a player, or a spectator while both players allow).
    pub readable: bool,
    /// The messages after `after` the caller may read, oldest first (empty when not readable;
    /// without the opponent's while the caller mutes them).
    pub messages: Vec<ChatMessage>,
    /// The caller's own choices (null for a spectator).
    pub mine: Option<ChatChoices>,
    /// Whether spectators read the chat now (both players allow it).
    pub spectators_read: bool,
    /// The limits: characters a message, messages a player per window, the window in seconds.
    pub limits: ChatLimits,
}

/// The chat's limits, for clients to show.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct ChatLimits {
    /// [`MAX_CHARS`].
    pub max_chars: usize,
    /// [`RATE_MESSAGES`].
    pub messages: usize,
    /// [`RATE_WINDOW_MS`] in seconds.
    pub window_secs: i64,
}

const LIMITS: ChatLimits = ChatLimits {
    max_chars: MAX_CHARS,
    messages: RATE_MESSAGES,
    window_secs: RATE_WINDOW_MS / 1000,
};

/// `?after=N`: only the messages numbered above N.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct After {
    /// The last message number the client has (default 0: all).
    #[serde(default)]
    pub after: i64,
}

/// A message to send.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatPost {
    /// Plain text, 1 to 300 characters once runs of white space are made one space.
    pub text: String,
}

/// Choices to change (those left out stay).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatChoicesPost {
    /// Hide the opponent's messages from me.
    pub mute: Option<bool>,
    /// Let spectators read the chat.
    pub spectators: Option<bool>,
}

/// The text as stored: white space runs made one space and trimmed; refused when empty,
/// longer than [`MAX_CHARS`], or holding control characters or the bidirectional controls
/// that can make a line read other than it is stored.
pub fn clean_text(raw: &str) -> Result<String, String> {
    let text = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return Err("a message needs some text".into());
    }
    let chars = text.chars().count();
    if chars > MAX_CHARS {
        return Err(format!(
            "a message is at most {MAX_CHARS} characters; this one has {chars}"
        ));
    }
    let bidi = |c: char| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    if text.chars().any(|c| c.is_control() || bidi(c)) {
        return Err("a message is plain text: no control characters".into());
    }
    Ok(text)
}

/// Why game `g` has no chat, or `None` when it has one.
fn closed(g: &Loaded) -> Option<&'static str> {
    if [Color::White, Color::Black]
        .into_iter()
        .any(|c| g.row.bot(c).is_some())
    {
        return Some("There is no chat in a game against a bot.");
    }
    match g.row.state.as_str() {
        "waiting" => Some("The chat opens when both players are seated."),
        "aborted" => Some("The game was called off: it has no chat."),
        _ => None,
    }
}

/// The messages after `after` that a viewer sees: none unless `readable`; without the
/// opponent's while `mute_from` is their seat.
fn visible(rows: Vec<ChatRow>, g: &Loaded, mute_from: Option<Color>) -> Vec<ChatMessage> {
    rows.into_iter()
        .filter(|r| mute_from.is_none_or(|c| r.seat != color_name(c)))
        .map(|r| ChatMessage {
            seq: r.seq,
            name: match r.seat.as_str() {
                "white" => g.names.white.clone(),
                _ => g.names.black.clone(),
            },
            seat: r.seat,
            text: r.body,
            at_ms: r.created_ms,
        })
        .collect()
}

/// Both players' choices, White's first (defaults for an empty seat).
async fn choices(state: &AppState, g: &Loaded) -> Result<(ChatSettings, ChatSettings), ApiError> {
    let of = |c: Color| g.row.seat(c).map(str::to_string);
    let mut both = [ChatSettings::default(); 2];
    for (i, c) in [Color::White, Color::Black].into_iter().enumerate() {
        if let Some(p) = of(c) {
            both[i] = state.db.chat_settings(&g.row.id, &p).await?;
        }
    }
    Ok((both[0], both[1]))
}

async fn view_for(
    state: &AppState,
    g: &Loaded,
    viewer: Option<&str>,
    after: i64,
) -> Result<ChatView, ApiError> {
    let seat = viewer.and_then(|p| g.row.color_of(p));
    let (white, black) = choices(state, g).await?;
    let spectators_read = white.spectators && black.spectators;
    let mine = seat.map(|c| match c {
        Color::White => white,
        Color::Black => black,
    });
    let readable = seat.is_some() || spectators_read;
    let messages = if readable {
        let rows = state.db.chat(&g.row.id, after.max(0), MAX_PER_GAME).await?;
        let mute_from = seat.filter(|_| mine.is_some_and(|m| m.mute)).map(|c| !c);
        visible(rows, g, mute_from)
    } else {
        Vec::new()
    };
    let why = closed(g);
    Ok(ChatView {
        open: why.is_none(),
        closed: why.map(str::to_string),
        can_write: why.is_none() && seat.is_some(),
        readable,
        messages,
        mine: mine.map(|m| ChatChoices {
            mute: m.mute,
            spectators: m.spectators,
        }),
        spectators_read,
        limits: LIMITS,
    })
}

/// Tells the game's watchers on every instance that its chat changed (no text: each client
/// asks for what it may read).
async fn announce(state: &AppState, game: &str, seq: Option<i64>) {
    let note = json!({"type": "chat", "game": game, "seq": seq});
    state.note_everywhere(game, note).await;
}

/// A player's seat in `g`, or 403 `not_a_player`.
fn seat_of(g: &Loaded, player: &str) -> Result<Color, ApiError> {
    g.row
        .color_of(player)
        .ok_or_else(|| ApiError::forbidden("not_a_player", "you do not play in this game"))
}

/// Read a game's chat (players; spectators while both players allow it).
#[utoipa::path(get, path = "/api/games/{id}/chat", params(After),
    responses((status = 200, body = ChatView), (status = 404, body = crate::error::ErrorBody)))]
pub async fn read(
    State(state): State<AppState>,
    MaybeAuth(me): MaybeAuth,
    Path(id): Path<String>,
    Query(q): Query<After>,
) -> Result<Json<ChatView>, ApiError> {
    let g = state.load(&id).await?;
    let viewer = me.as_ref().map(|p| p.id.as_str());
    Ok(Json(view_for(&state, &g, viewer, q.after).await?))
}

/// Write to a game's chat (its two players, in a game between two people).
#[utoipa::path(post, path = "/api/games/{id}/chat", request_body = ChatPost,
    responses((status = 200, body = ChatMessage), (status = 400, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody)))]
pub async fn post(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<String>,
    Json(req): Json<ChatPost>,
) -> Result<Json<ChatMessage>, ApiError> {
    let text = clean_text(&req.text)
        .map_err(|m| ApiError::new(StatusCode::BAD_REQUEST, "bad_message", m))?;
    let g = state.load(&id).await?;
    let seat = seat_of(&g, &me.id)?;
    if let Some(why) = closed(&g) {
        return Err(ApiError::conflict("chat_closed", why));
    }
    let now = now_ms();
    let recent = state
        .db
        .chat_times_since(&me.id, now - RATE_WINDOW_MS)
        .await?;
    if recent.len() >= RATE_MESSAGES {
        // the window frees a place when the oldest of the last RATE_MESSAGES leaves it
        let frees = recent[recent.len() - RATE_MESSAGES] + RATE_WINDOW_MS;
        let wait = ((frees - now).max(1) as u64).div_ceil(1000);
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "chat_rate_limited",
            format!(
                "at most {RATE_MESSAGES} messages in {} seconds: wait {wait} s",
                RATE_WINDOW_MS / 1000
            ),
        )
        .retry_after(wait));
    }
    if state.db.chat_count(&id).await? >= MAX_PER_GAME {
        return Err(ApiError::conflict(
            "chat_full",
            format!("this game's chat holds its {MAX_PER_GAME} messages: no more"),
        ));
    }
    let seq = state
        .db
        .add_chat(&id, &me.id, color_name(seat), &text, now)
        .await?;
    announce(&state, &id, Some(seq)).await;
    Ok(Json(ChatMessage {
        seq,
        seat: color_name(seat).to_string(),
        name: g.names[seat].clone(),
        text,
        at_ms: now,
    }))
}

/// Change one's chat choices in a game (mute the opponent, let spectators read).
#[utoipa::path(post, path = "/api/games/{id}/chat/settings", request_body = ChatChoicesPost,
    responses((status = 200, body = ChatView), (status = 403, body = crate::error::ErrorBody)))]
pub async fn settings(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<String>,
    Json(req): Json<ChatChoicesPost>,
) -> Result<Json<ChatView>, ApiError> {
    let g = state.load(&id).await?;
    seat_of(&g, &me.id)?;
    let now = state.db.chat_settings(&id, &me.id).await?;
    let next = ChatSettings {
        mute: req.mute.unwrap_or(now.mute),
        spectators: req.spectators.unwrap_or(now.spectators),
    };
    if next != now {
        state.db.set_chat_settings(&id, &me.id, next).await?;
        announce(&state, &id, None).await;
    }
    Ok(Json(view_for(&state, &g, Some(&me.id), 0).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_text_is_one_line_of_at_most_300_characters() {
        assert_eq!(clean_text("  good \n luck\t!  ").unwrap(), "good luck !");
        assert!(clean_text(" \n\t ").is_err());
        let full = "é".repeat(MAX_CHARS);
        assert_eq!(clean_text(&full).unwrap(), full, "characters, not bytes");
        assert!(clean_text(&format!("{full}e")).is_err());
    }

    #[test]
    fn chat_text_refuses_control_and_bidirectional_characters() {
        assert!(clean_text("a\u{0007}b").is_err());
        assert!(clean_text("gg \u{202E}olleh").is_err());
        assert!(clean_text("gg \u{2067}x").is_err());
        // markup is text: stored as written, shown as text by the client
        assert_eq!(
            clean_text("<img src=x onerror=alert(1)>").unwrap(),
            "<img src=x onerror=alert(1)>"
        );
    }
}
