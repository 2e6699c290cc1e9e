//! The WebSocket of a game (`/api/games/{id}/ws?since=V`): the log since version `V`, the
//! current state, then every new event with the state after it, to players and spectators
//! alike, and the progress of the game's analysis. Messages are listed in docs/protocol.md.

use crate::error::{ApiError, Query};
use crate::live::Push;
use crate::AppState;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;

/// The largest message a client may send, in bytes.
pub const WS_MESSAGE_LIMIT: usize = 4096;
/// The most messages a client may send per second; more closes the socket (code 1008).
pub const WS_RATE_LIMIT: u32 = 20;

/// Upgrade to the game's WebSocket.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<super::records::Since>,
) -> Result<Response, ApiError> {
    crate::service::check_game_id(&id)?;
    state
        .db
        .game(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    Ok(ws
        .max_message_size(WS_MESSAGE_LIMIT)
        .max_frame_size(WS_MESSAGE_LIMIT)
        .on_upgrade(move |socket| session(socket, state, id, q.since)))
}

type Sink = futures_util::stream::SplitSink<WebSocket, Message>;

async fn send(sink: &mut Sink, value: serde_json::Value) -> bool {
    sink.send(Message::Text(value.to_string().into()))
        .await
        .is_ok()
}

/// Sends the events after `*last` and the current state; advances `*last`.
async fn catch_up(state: &AppState, id: &str, last: &mut i64, sink: &mut Sink) -> bool {
    let (Ok(game), Ok(events)) = (state.load(id).await, state.db.events(id, *last).await) else {
        return false;
    };
    for event in events {
        if event.version > game.row.version {
            break;
        }
        *last = event.version;
        let push = Push {
            kind: "event",
            version: event.version,
            event,
            state: None,
            game_state: game.row.state.clone(),
        };
        if !send(sink, serde_json::to_value(&push).unwrap_or_default()).await {
            return false;
        }
    }
    *last = game.row.version;
    send(
        sink,
        json!({"type": "state", "version": game.row.version, "state": game.view(),
               "game_state": game.row.state}),
    )
    .await
}

async fn session(socket: WebSocket, state: AppState, id: String, since: i64) {
    let (mut rx, mut notes) = state.hub.subscribe(&id);
    let (mut sink, mut stream) = socket.split();
    let mut last = since.max(0);
    if !catch_up(&state, &id, &mut last, &mut sink).await {
        return;
    }
    let (mut window, mut count) = (Instant::now(), 0u32);
    loop {
        tokio::select! {
            pushed = rx.recv() => match pushed {
                Ok(push) if push.version <= last => {}
                Ok(push) if push.version == last + 1 && push.state.is_some() => {
                    last = push.version;
                    if !send(&mut sink, serde_json::to_value(&*push).unwrap_or_default()).await {
                        return;
                    }
                }
                Ok(_) | Err(RecvError::Lagged(_)) => {
                    if !catch_up(&state, &id, &mut last, &mut sink).await {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            note = notes.recv() => match note {
                Ok(note) => {
                    if !send(&mut sink, (*note).clone()).await {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            },
            incoming = stream.next() => {
                let Some(Ok(message)) = incoming else { return };
                if window.elapsed() > Duration::from_secs(1) {
                    (window, count) = (Instant::now(), 0);
                }
                count += 1;
                if count > WS_RATE_LIMIT {
                    let _ = send(&mut sink, json!({"type": "error", "code": "rate_limited",
                        "message": format!("more than {WS_RATE_LIMIT} messages a second")})).await;
                    let _ = sink.send(Message::Close(Some(CloseFrame {
                        code: 1008,
                        reason: "rate limit exceeded".into(),
                    }))).await;
                    return;
                }
                match message {
                    Message::Close(_) => return,
                    Message::Text(text) if text.trim() == r#"{"type":"ping"}"# => {
                        if !send(&mut sink, json!({"type": "pong", "version": last})).await {
                            return;
                        }
                    }
                    Message::Ping(_) | Message::Pong(_) => {}
                    _ => {
                        let reply = json!({"type": "error", "code": "bad_message",
                            "message": "clients send only {\"type\":\"ping\"}; actions go through the HTTP API"});
                        if !send(&mut sink, reply).await {
                            return;
                        }
                    }
                }
            }
        }
    }
}
