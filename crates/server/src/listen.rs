//! The accept loop of `tabula serve`: HTTP/1.1 connections served by hyper under the
//! limits that keep one client from holding the server (issue 13).
//!
//! - **Header timeout** ([`Limits::header_timeout`], default [`HEADER_TIMEOUT`]): a client
//!   must send a whole request head within it, or the connection is closed. hyper starts the
//!   same timer when a keep-alive connection goes idle after a response, so it is also the
//!   **idle keep-alive timeout**.
//! - **Request timeout** ([`Limits::request_timeout`], default [`REQUEST_TIMEOUT`]): reading
//!   the body and running the handler; past it the answer is 408 `request_timeout`
//!   ([`crate::guard`]). A WebSocket is not a request once upgraded: its socket lives on in
//!   its own task and no request timeout applies to it.
//! - **Connection cap** ([`Limits::max_connections`], default [`MAX_CONNECTIONS`], and never
//!   more than the open-file limit less [`RESERVED_FDS`]): at the cap the loop stops
//!   accepting, so new connections wait in the kernel's backlog until a slot frees (slow or
//!   idle ones are closed by the header timeout, so one frees within it). A WebSocket keeps
//!   its slot until it closes. At start the soft `RLIMIT_NOFILE` is raised to the hard limit.
//! - **Accept errors** (`EMFILE`, `ENFILE`, ...) are logged and retried after
//!   [`ACCEPT_BACKOFF`]; they never end the loop.
//! - **Buffers**: a connection buffers at most about [`MAX_BUF`] bytes, and a request head
//!   larger than that is refused by hyper with 431, so the cap also bounds the memory of held
//!   connections.
//!
//! Handlers can extract `axum::extract::ConnectInfo<std::net::SocketAddr>` (the peer's
//! address, used by login throttling): [`serve_connections`] inserts it into every request,
//! as `into_make_service_with_connect_info::<SocketAddr>()` does under `axum::serve`.
//!
//! On SIGTERM or Ctrl-C the loop stops accepting, every connection finishes its in-flight
//! request (idle ones close at once), and the server exits when all are done, or after
//! [`SHUTDOWN_GRACE`] at most.

use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// Default time a client has to send a whole request head (and how long a keep-alive
/// connection may stay idle). `TABULA_HEADER_TIMEOUT_MS` overrides it.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Default time to read a request's body and answer it. `TABULA_REQUEST_TIMEOUT_MS`
/// overrides it.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Default cap on open client connections (WebSockets included).
/// `TABULA_MAX_CONNECTIONS` overrides it.
pub const MAX_CONNECTIONS: usize = 4096;
/// File descriptors kept out of the connection cap: the database pool, SQLite's files,
/// PostgreSQL's `LISTEN` connection, the listener, logs.
pub const RESERVED_FDS: u64 = 128;
/// The fewest connections the cap allows, whatever the file limit.
pub const MIN_CONNECTIONS: usize = 16;
/// The largest buffer of one connection and the largest request head, in bytes.
pub const MAX_BUF: usize = 32 * 1024;
/// How long the loop waits after a failed `accept` (out of file descriptors, ...).
pub const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);
/// The longest a shutdown waits for in-flight requests.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// The connection limits of a server. `Limits::default()` has the constants above;
/// the environment may override them ([`crate::config`]; tests use short timeouts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Time to send a request head; also the idle keep-alive timeout.
    pub header_timeout: Duration,
    /// Time to send the body and get the answer.
    pub request_timeout: Duration,
    /// Open connections at most (further capped by the open-file limit).
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_timeout: HEADER_TIMEOUT,
            request_timeout: REQUEST_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
        }
    }
}

/// Raises the soft open-file limit to the hard one where it can, and returns the connection
/// cap: `wanted`, but at most the open-file limit less [`RESERVED_FDS`] (and at least
/// [`MIN_CONNECTIONS`]).
pub fn connection_cap(wanted: usize) -> usize {
    #[cfg(unix)]
    let files = match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => Some(n),
        Err(e) => {
            tracing::warn!(error = %e, "cannot read or raise the open-file limit");
            None
        }
    };
    #[cfg(not(unix))]
    let files: Option<u64> = None;
    let cap = match files {
        Some(n) => {
            let by_files = usize::try_from(n.saturating_sub(RESERVED_FDS)).unwrap_or(usize::MAX);
            wanted.min(by_files)
        }
        None => wanted,
    };
    cap.max(MIN_CONNECTIONS)
}

/// A client socket holding its slot under the connection cap: the slot is given back when
/// the socket is dropped, also after an upgrade to a WebSocket.
struct Counted {
    stream: TcpStream,
    _slot: OwnedSemaphorePermit,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// Accept errors that concern one connection only (the loop goes on at once).
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Serves `app` on `listener` under `limits` until `shutdown` resolves, then lets in-flight
/// requests finish (at most [`SHUTDOWN_GRACE`]).
///
/// Every request carries `ConnectInfo<SocketAddr>` (the peer's address) in its extensions,
/// so handlers may extract `axum::extract::ConnectInfo<std::net::SocketAddr>`.
pub async fn serve_connections(
    listener: TcpListener,
    app: axum::Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let cap = connection_cap(limits.max_connections);
    tracing::info!(
        max_connections = cap,
        header_timeout_ms = limits.header_timeout.as_millis() as u64,
        request_timeout_ms = limits.request_timeout.as_millis() as u64,
        "connection limits"
    );
    let slots = Arc::new(Semaphore::new(cap));
    // Every connection task holds a receiver: `close_tx.closed()` resolves when all ended.
    let (close_tx, close_rx) = watch::channel(());
    // Tells the connections to shut down gracefully.
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    let mut full_logged = false;
    loop {
        // At the cap, wait for a slot before accepting: the connection waits in the backlog.
        let slot = match slots.clone().try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                if !full_logged {
                    tracing::warn!(cap, "connection cap reached; new connections wait");
                    full_logged = true;
                }
                tokio::select! {
                    slot = slots.clone().acquire_owned() => match slot {
                        Ok(slot) => slot,
                        Err(_) => break,
                    },
                    _ = &mut shutdown => break,
                }
            }
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    if !is_connection_error(&e) {
                        tracing::warn!(error = %e, "accept failed; retrying");
                        tokio::select! {
                            _ = tokio::time::sleep(ACCEPT_BACKOFF) => {},
                            _ = &mut shutdown => break,
                        }
                    }
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        if slots.available_permits() > 0 {
            full_logged = false;
        }
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Counted {
            stream,
            _slot: slot,
        });
        // The peer's address for `ConnectInfo<SocketAddr>` extractors (login throttling).
        let service =
            app.clone()
                .map_request(move |req: axum::http::Request<hyper::body::Incoming>| {
                    let mut req = req.map(axum::body::Body::new);
                    req.extensions_mut().insert(ConnectInfo(peer));
                    req
                });
        let service = hyper_util::service::TowerToHyperService::new(service);
        let close_rx = close_rx.clone();
        let mut stop_rx = stop_rx.clone();
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .max_buf_size(MAX_BUF)
                .max_header_size(MAX_BUF)
                .keep_alive(true);
            let conn = builder.serve_connection(io, service).with_upgrades();
            let mut conn = std::pin::pin!(conn);
            let result = tokio::select! {
                r = conn.as_mut() => r,
                _ = async { stop_rx.wait_for(|stop| *stop).await.map(|_| ()) } => {
                    conn.as_mut().graceful_shutdown();
                    conn.await
                }
            };
            if let Err(e) = result {
                tracing::debug!(%peer, error = %e, "connection ended with an error");
            }
            drop(close_rx);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(close_rx);
    if tokio::time::timeout(SHUTDOWN_GRACE, close_tx.closed())
        .await
        .is_err()
    {
        tracing::warn!("connections still open after the shutdown grace period; closing");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_stays_within_the_file_limit() {
        assert!(connection_cap(usize::MAX) < usize::MAX);
        assert_eq!(connection_cap(1), MIN_CONNECTIONS);
        assert_eq!(Limits::default().header_timeout, HEADER_TIMEOUT);
    }

    /// Handlers get the peer's address (login throttling depends on it).
    #[tokio::test]
    async fn handlers_can_extract_the_peer_address() {
        use axum::routing::get;
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let app = axum::Router::new().route(
            "/peer",
            get(
                |ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>| async move {
                    peer.ip().to_string()
                },
            ),
        );
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(serve_connections(
            listener,
            app,
            Limits::default(),
            async move {
                let _ = stopped.await;
            },
        ));
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /peer HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.ends_with("127.0.0.1"), "{answer}");
        stop.send(()).unwrap();
        server.await.unwrap();
    }
}
