//! The lobby's WebSocket (`/api/lobby/ws`): the lobby at once, then again whenever it may have
//! changed (a game created, joined or finished), at most every [`DEBOUNCE`]; the browser's
//! lobby listens here instead of asking every few seconds. Clients send only
//! `{"type":"ping"}` (answered `{"type":"pong"}`), within the game sockets' size and rate
//! limits.

use super::ws::{WS_MESSAGE_LIMIT, WS_RATE_LIMIT};
use crate::AppState;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;

/// The shortest time between two lobby messages on one socket.
pub const DEBOUNCE: Duration = Duration::from_millis(250);

/// Upgrade to the lobby's WebSocket.
pub async fn upgrade(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    ws.max_message_size(WS_MESSAGE_LIMIT)
        .max_frame_size(WS_MESSAGE_LIMIT)
        .on_upgrade(move |socket| session(socket, state))
}

type Sink = futures_util::stream::SplitSink<WebSocket, Message>;

async fn send_lobby(state: &AppState, sink: &mut Sink) -> bool {
    let Ok(lobby) = super::lobby_now(state).await else {
        return true; // a failed read is tried again at the next change
    };
    let message = json!({"type": "lobby", "lobby": lobby});
    sink.send(Message::Text(message.to_string().into()))
        .await
        .is_ok()
}

async fn session(socket: WebSocket, state: AppState) {
    let mut ticks = state.hub.lobby_updates();
    let (mut sink, mut stream) = socket.split();
    if !send_lobby(&state, &mut sink).await {
        return;
    }
    let (mut window, mut count) = (Instant::now(), 0u32);
    loop {
        tokio::select! {
            tick = ticks.recv() => match tick {
                Ok(()) | Err(RecvError::Lagged(_)) => {
                    // Let a burst of changes settle, then send the lobby once.
                    tokio::time::sleep(DEBOUNCE).await;
                    while ticks.try_recv().is_ok() {}
                    if !send_lobby(&state, &mut sink).await {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            incoming = stream.next() => {
                let Some(Ok(message)) = incoming else { return };
                if window.elapsed() > Duration::from_secs(1) {
                    (window, count) = (Instant::now(), 0);
                }
                count += 1;
                if count > WS_RATE_LIMIT {
                    let _ = sink.send(Message::Close(Some(CloseFrame {
                        code: 1008,
                        reason: "rate limit exceeded".into(),
                    }))).await;
                    return;
                }
                match message {
                    Message::Close(_) => return,
                    Message::Text(text) if text.trim() == r#"{"type":"ping"}"# => {
                        let pong = Message::Text(json!({"type": "pong"}).to_string().into());
                        if sink.send(pong).await.is_err() {
                            return;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}
