//! A TCP proxy that a test (or the `faults` example) puts between the server and PostgreSQL,
//! to make the database's outages on demand: [`Proxy::cut`] drops every connection and turns
//! new ones away (the server sees what a stopped PostgreSQL does to it) until
//! [`Proxy::restore`]; [`Proxy::cut_next_commit`] forwards the next `COMMIT` to the database
//! and then drops that connection before the answer comes back (a commit whose outcome the
//! server cannot know).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A `COMMIT` in PostgreSQL's simple query protocol: `Q`, the length 11, the text, a NUL.
const COMMIT: &[u8] = b"Q\x00\x00\x00\x0bCOMMIT\x00";

struct Shared {
    target: SocketAddr,
    up: AtomicBool,
    cut_commit: AtomicBool,
    commits_cut: AtomicU64,
    epoch: tokio::sync::watch::Sender<u64>,
}

/// The proxy; it stops when dropped.
pub struct Proxy {
    /// Where it listens (127.0.0.1).
    pub addr: SocketAddr,
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// A proxy on a free loopback port to `target`, forwarding.
    pub async fn start(target: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("local address");
        let shared = Arc::new(Shared {
            target,
            up: AtomicBool::new(true),
            cut_commit: AtomicBool::new(false),
            commits_cut: AtomicU64::new(0),
            epoch: tokio::sync::watch::channel(0).0,
        });
        let s = shared.clone();
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                if s.up.load(Ordering::SeqCst) {
                    tokio::spawn(forward(s.clone(), client));
                }
                // Down: the connection is dropped at once, as a stopped server's would be.
            }
        });
        Proxy { addr, shared, task }
    }

    /// `url` (a `postgres://user@host:port/db` URL) with this proxy's address instead.
    pub fn url(&self, url: &str) -> String {
        let (scheme, rest) = url.split_once("://").expect("a URL");
        let (user, rest) = rest.split_once('@').map_or(("", rest), |(u, r)| (u, r));
        let path = rest.find('/').map_or("", |i| &rest[i..]);
        let at = if user.is_empty() { "" } else { "@" };
        format!("{scheme}://{user}{at}{}{path}", self.addr)
    }

    /// The outage begins: every connection is dropped, new ones are turned away.
    pub fn cut(&self) {
        self.shared.up.store(false, Ordering::SeqCst);
        self.shared.epoch.send_modify(|e| *e += 1);
    }

    /// The outage ends: new connections are forwarded again.
    pub fn restore(&self) {
        self.shared.up.store(true, Ordering::SeqCst);
    }

    /// The next `COMMIT` reaches the database, its connection is then dropped.
    pub fn cut_next_commit(&self) {
        self.shared.cut_commit.store(true, Ordering::SeqCst);
    }

    /// How many commits were cut so.
    pub fn commits_cut(&self) -> u64 {
        self.shared.commits_cut.load(Ordering::SeqCst)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.cut();
        self.task.abort();
    }
}

/// The `address` of a `postgres://user@host:port/db` URL, resolved.
pub async fn postgres_address(url: &str) -> SocketAddr {
    let rest = url.split_once("://").expect("a URL").1;
    let rest = rest.split_once('@').map_or(rest, |(_, r)| r);
    let host = rest.split('/').next().unwrap_or(rest);
    let host = if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:5432")
    };
    tokio::net::lookup_host(host)
        .await
        .expect("resolve")
        .next()
        .expect("an address")
}

async fn forward(shared: Arc<Shared>, mut client: TcpStream) {
    let mut epoch = shared.epoch.subscribe();
    let Ok(mut server) = TcpStream::connect(shared.target).await else {
        return;
    };
    let (mut from_client, mut from_server) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    loop {
        tokio::select! {
            n = client.read(&mut from_client) => {
                let Ok(n @ 1..) = n else { return };
                let chunk = &from_client[..n];
                if contains(chunk, COMMIT) && shared.cut_commit.swap(false, Ordering::SeqCst) {
                    // The database gets the COMMIT and then the end of the stream (no reset,
                    // which could discard it); the server gets nothing back.
                    if server.write_all(chunk).await.is_ok() {
                        let _ = server.shutdown().await;
                    }
                    drop(client);
                    shared.commits_cut.fetch_add(1, Ordering::SeqCst);
                    let mut sink = vec![0u8; 4096];
                    let _ = tokio::time::timeout(Duration::from_secs(5), async {
                        while matches!(server.read(&mut sink).await, Ok(1..)) {}
                    })
                    .await;
                    return;
                }
                if server.write_all(chunk).await.is_err() {
                    return;
                }
            }
            n = server.read(&mut from_server) => {
                let Ok(n @ 1..) = n else { return };
                if client.write_all(&from_server[..n]).await.is_err() {
                    return;
                }
            }
            _ = epoch.changed() => return,
        }
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
