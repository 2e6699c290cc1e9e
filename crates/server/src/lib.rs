//! Tabula's game server: `tabula serve`.
//!
//! axum on tokio; SQLite in a file by default, PostgreSQL for several instances sharing one
//! database (moves reach every instance's WebSockets through `LISTEN/NOTIFY`). Every game is
//! an append-only log of actions and rolls, committed before the reply; the state is rebuilt
//! by replaying it through the rules engines. Modules:
//!
//! - [`config`]: the one configuration, from flags and the environment, checked at start;
//! - [`games`]: the four games on the wire (options, action text, JSON views, bots);
//! - [`service`]: the authority (who may act, apply, commit, replay);
//! - [`store`]: the one store, every query, transaction and notification on SQLite or
//!   PostgreSQL, with typed errors ([`store::StoreError`]) and the storage faults (full,
//!   unreachable, a commit of unknown outcome), the connections never reused after a
//!   failure; [`ratings`] / [`rating`]: Glicko-2 and FIBS;
//! - [`auth`]: guests, users, sessions, API tokens; [`accounts`]: bounded password hashing,
//!   login throttling, lifetimes; [`names`]: name rules; [`bots`]: bots playing in the server;
//!   [`referee`]: the server's own rolls and time-outs; [`hook`]: the one post-commit hook
//!   that starts both; [`abandon`]: games against a bot left untouched, ended;
//! - [`analysis`]: analysis jobs of finished backgammon games, shared by the instances;
//!   [`trainer`]: a player's marked decisions as exercises on a spaced schedule;
//! - [`live`]: WebSocket fan-out; [`api`]: the HTTP routes and OpenAPI;
//! - [`listen`]: the accept loop (timeouts, connection cap, graceful shutdown);
//!   [`guard`]: the middleware on every route (security headers, request timeout, JSON
//!   errors for bad paths); [`web`]: the browser client's files.

pub mod abandon;
pub mod accounts;
pub mod analysis;
pub mod api;
pub mod auth;
pub mod bots;
pub mod clock;
pub mod config;
pub mod error;
mod game_task;
pub mod games;
pub mod guard;
pub mod hook;
pub mod ids;
pub mod listen;
pub mod live;
pub mod names;
pub mod rating;
pub mod ratings;
pub mod referee;
pub mod service;
pub mod store;
pub mod trainer;
pub mod web;

use std::net::SocketAddr;
use std::sync::Arc;
use store::listen::Notification;

/// The shared state of the handlers.
pub type AppState = Arc<service::App>;

/// The largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 16 * 1024;

pub use config::{Config, ConfigError};

/// Opens the database, resumes bot games, and serves until SIGTERM or Ctrl-C; `ready` gets
/// the bound address once listening.
pub async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let db = store::Db::open(&config.database, config.sqlite_max_bytes).await?;
    let state: AppState = Arc::new(service::App::new(db, &config));
    if state.db.backend == store::Backend::Postgres {
        spawn_listener(state.clone());
    }
    analysis::spawn_worker(state.clone());
    hook::spawn(state.clone());
    let resumed = bots::resume_all(&state).await?;
    tracing::info!(resumed, "bot games resumed");
    let watched = referee::resume_all(&state).await?;
    tracing::info!(watched, "games with clocks or bots watched");
    abandon::spawn(state.clone());
    let app = api::router(state.clone())
        .layer(axum::middleware::from_fn_with_state(
            config.limits.request_timeout,
            guard::limits,
        ))
        .layer(axum::middleware::from_fn(guard::security_headers))
        .layer(tower_http::trace::TraceLayer::new_for_http());
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    // The handlers are installed before anyone is told the address: a SIGTERM sent the
    // moment the server says it listens must stop it cleanly, not kill it.
    let shutdown = shutdown_signal();
    ready(addr);
    tracing::info!(%addr, "listening");
    // Not axum::serve: listen.rs adds the header timeout and the connection cap, and still
    // gives handlers `ConnectInfo<SocketAddr>`.
    listen::serve_connections(listener, app, config.limits, shutdown).await;
    tracing::info!("stopped");
    Ok(())
}

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Opening or migrating the database.
    #[error("{0}")]
    Open(#[from] store::OpenError),
    /// The database.
    #[error("database: {0}")]
    Database(#[from] store::StoreError),
    /// The socket.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Installs the SIGTERM and SIGINT handlers at once (not when first polled) and returns the
/// future that resolves on either.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let (term, int) = {
        use tokio::signal::unix::{signal, SignalKind};
        (
            signal(SignalKind::terminate()).ok(),
            signal(SignalKind::interrupt()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            async fn recv(s: Option<tokio::signal::unix::Signal>) {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            }
            tokio::select! {
                _ = recv(term) => {},
                _ = recv(int) => {},
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
        tracing::info!("shutting down");
    }
}

/// Listens to `NOTIFY tabula_games` and `tabula_analyses` and pushes other instances' moves
/// and analysis progress to this one's sockets.
fn spawn_listener(state: AppState) {
    tokio::spawn(async move {
        loop {
            match state.db.listener().await {
                Ok(mut listener) => {
                    if listener.subscribe().await.is_ok() {
                        while let Ok(n) = listener.recv().await {
                            match n {
                                Notification::Analysis(payload) => {
                                    let note: serde_json::Value =
                                        serde_json::from_str(&payload).unwrap_or_default();
                                    if let Some(game) = note["game"].as_str() {
                                        state.hub.note(game, note.clone());
                                    }
                                }
                                Notification::Games(moved) => {
                                    for (id, version) in moved {
                                        state.remote_change(&id, version).await;
                                    }
                                }
                            }
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "LISTEN connection failed"),
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
    });
}
