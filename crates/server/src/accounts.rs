//! What keeps logins and registrations from hurting the server or its users (issue 13;
//! docs/protocol.md, "Accounts"):
//!
//! - **Bounded password hashing** ([`Hasher`]): every Argon2id hash or check (19 MiB and tens
//!   of milliseconds each) runs on [`Settings::hash_workers`] dedicated threads (default
//!   [`HASH_WORKERS`]), fed by a queue of at most [`Settings::hash_queue`] jobs (default
//!   [`HASH_QUEUE`]) that each wait at most [`Settings::hash_wait`] (default [`HASH_WAIT`]).
//!   A job that finds the queue full, or waits too long, is answered 503 `busy` with
//!   `Retry-After: 1`; so however many logins arrive at once, at most `hash_workers` hashes
//!   hold memory, and the threads' allocator arenas stay as few as the threads.
//! - **Login throttling** ([`Throttle`]): a fixed window of [`Settings::login_window`]
//!   (default [`LOGIN_WINDOW`]) per account name (its lowercase form, whether or not such an
//!   account exists) and per client address (IPv4, or the /64 of IPv6, from the TCP peer).
//!   Every checked attempt counts as a failure when it starts (so concurrent attempts cannot
//!   overshoot) and a success clears the account's count; once an account has
//!   [`Settings::account_failures`] (default [`ACCOUNT_FAILURES`]) or an address
//!   [`Settings::address_failures`] (default [`ADDRESS_FAILURES`]) in the current window,
//!   logins are answered 429 `too_many_attempts` with `Retry-After` until the window that
//!   began with the first failure ends, without a password check and without a look at the
//!   database, so the answer is the same for names that exist and names that do not. Each
//!   map holds at most [`MAX_TRACKED`] entries (expired ones go first, then the oldest).
//!   The counts live in each instance's memory: instances sharing a PostgreSQL database
//!   count separately (N instances behind a balancer allow N times the attempts), and a
//!   restart forgets them.
//! - **Equal-time answers**: a login for a name with no account (or a guest's) checks the
//!   password against a dummy hash made at start with the same parameters, so it takes as
//!   long as a wrong password for an account that exists.
//! - **Lifetimes** of sessions ([`Settings::session_lifetime`], default
//!   [`SESSION_LIFETIME`]) and API tokens ([`Settings::token_lifetime`], default
//!   [`TOKEN_LIFETIME`]); see [`crate::auth`].
//!
//! - **Secure cookies** ([`Settings::secure_cookies`], off by default): behind a reverse
//!   proxy that terminates TLS, `TABULA_SECURE_COOKIES=1` adds `Secure` to the session
//!   cookie so that browsers never send it over plain HTTP (docs/security.md).
//!
//! - **Reverse proxies** ([`Settings::trusted_proxies`], none by default): the throttle's
//!   address is the TCP peer, unless the peer is a listed proxy: then it is the last
//!   `X-Forwarded-For` entry that is not a listed proxy ([`client_address`]). Without the
//!   list, a proxy's own address would be every client's, and 50 failed logins from anyone
//!   would lock everyone out for the window.
//!
//! Every setting can be changed by an environment variable of `tabula serve` (for tests and
//! operators; read once at start by [`crate::config`]): `TABULA_HASH_WORKERS`, `TABULA_HASH_QUEUE`, `TABULA_HASH_WAIT_MS`,
//! `TABULA_LOGIN_WINDOW_SECS`, `TABULA_LOGIN_ACCOUNT_FAILURES`,
//! `TABULA_LOGIN_ADDRESS_FAILURES`, `TABULA_SESSION_LIFETIME_SECS`,
//! `TABULA_TOKEN_LIFETIME_SECS`, `TABULA_SECURE_COOKIES` (`1` or `true`),
//! `TABULA_TRUSTED_PROXIES` (IP addresses separated by commas).

use crate::error::ApiError;
use axum::http::StatusCode;
use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// Default number of password hashes computed at once.
pub const HASH_WORKERS: usize = 2;
/// Default number of password jobs that may wait for a worker.
pub const HASH_QUEUE: usize = 32;
/// Default longest wait of a password job for a worker.
pub const HASH_WAIT: Duration = Duration::from_secs(2);
/// Default length of a login-throttling window.
pub const LOGIN_WINDOW: Duration = Duration::from_secs(15 * 60);
/// Default failed logins of one account name per window.
pub const ACCOUNT_FAILURES: u32 = 10;
/// Default failed logins from one address per window.
pub const ADDRESS_FAILURES: u32 = 50;
/// Default lifetime of a cookie session (fixed from login; the cookie's `Max-Age`).
pub const SESSION_LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);
/// Default lifetime of an API token.
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(365 * 24 * 3600);
/// The most entries each throttling map holds.
pub const MAX_TRACKED: usize = 65_536;
/// The longest account name the throttle keys on, in characters (longer ones are cut).
const MAX_KEY_CHARS: usize = 64;

/// The account settings (defaults above, or `tabula serve`'s environment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Password hashes computed at once.
    pub hash_workers: usize,
    /// Password jobs that may wait.
    pub hash_queue: usize,
    /// Longest wait of a password job.
    pub hash_wait: Duration,
    /// Login-throttling window.
    pub login_window: Duration,
    /// Failed logins of one account name per window.
    pub account_failures: u32,
    /// Failed logins from one address per window.
    pub address_failures: u32,
    /// Lifetime of a cookie session.
    pub session_lifetime: Duration,
    /// Lifetime of an API token.
    pub token_lifetime: Duration,
    /// Whether the session cookie carries `Secure` (only for a site served over HTTPS).
    pub secure_cookies: bool,
    /// Reverse proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hash_workers: HASH_WORKERS,
            hash_queue: HASH_QUEUE,
            hash_wait: HASH_WAIT,
            login_window: LOGIN_WINDOW,
            account_failures: ACCOUNT_FAILURES,
            address_failures: ADDRESS_FAILURES,
            session_lifetime: SESSION_LIFETIME,
            token_lifetime: TOKEN_LIFETIME,
            secure_cookies: false,
            trusted_proxies: Vec::new(),
        }
    }
}

/// The client's address for throttling: `peer`, unless `peer` is one of the `trusted`
/// proxies; then the last `X-Forwarded-For` address that is not a trusted proxy (each proxy
/// appends the address it received from, so the entries left of the last untrusted one could
/// be forged by the client). A missing or unreadable header leaves the peer.
pub fn client_address(peer: IpAddr, trusted: &[IpAddr], headers: &axum::http::HeaderMap) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let mut last = peer;
    for value in headers.get_all("x-forwarded-for").iter().rev() {
        let Ok(text) = value.to_str() else {
            return last;
        };
        for entry in text.rsplit(',') {
            match entry.trim().parse::<IpAddr>() {
                Ok(ip) if trusted.contains(&ip) => last = ip,
                Ok(ip) => return ip,
                Err(_) => return last,
            }
        }
    }
    last
}

/// The account machinery of one server instance.
pub struct Accounts {
    /// The settings in force.
    pub settings: Settings,
    /// The password workers.
    pub hasher: Hasher,
    /// The login throttle.
    pub throttle: Throttle,
}

impl Accounts {
    /// Starts the password workers and an empty throttle.
    pub fn new(settings: Settings) -> Accounts {
        Accounts {
            hasher: Hasher::new(
                settings.hash_workers,
                settings.hash_queue,
                settings.hash_wait,
            ),
            throttle: Throttle::new(
                settings.login_window,
                settings.account_failures,
                settings.address_failures,
            ),
            settings,
        }
    }
}

/// The 503 answer when the password workers are full.
pub fn busy() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
        "the server is checking too many passwords at once; try again in a moment",
    )
    .retry_after(1)
}

enum Work {
    Hash(String),
    /// Check against the stored hash, or against the dummy hash when there is none.
    Verify(String, Option<String>),
}

enum Done {
    Hashed(Result<String, String>),
    Verified(bool),
}

struct Job {
    work: Work,
    deadline: Instant,
    reply: oneshot::Sender<Option<Done>>,
}

/// A small pool of threads that hash and check passwords, with a bounded queue.
pub struct Hasher {
    jobs: SyncSender<Job>,
    wait: Duration,
}

impl Hasher {
    /// `workers` threads (at least 1) behind a queue of `queue` jobs, each waiting at most
    /// `wait`. One worker first makes the dummy hash for unknown names.
    pub fn new(workers: usize, queue: usize, wait: Duration) -> Hasher {
        let (jobs, receiver) = sync_channel::<Job>(queue);
        let receiver = Arc::new(Mutex::new(receiver));
        let dummy = Arc::new(OnceLock::<String>::new());
        for n in 0..workers.max(1) {
            let receiver = receiver.clone();
            let dummy = dummy.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("tabula-password-{n}"))
                .spawn(move || worker(&receiver, &dummy, n == 0));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password worker");
            }
        }
        Hasher { jobs, wait }
    }

    async fn run(&self, work: Work) -> Result<Done, ApiError> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            work,
            deadline: Instant::now() + self.wait,
            reply,
        };
        match self.jobs.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => return Err(busy()),
            Err(TrySendError::Disconnected(_)) => {
                return Err(ApiError::internal("the password workers stopped"))
            }
        }
        match answer.await {
            Ok(Some(done)) => Ok(done),
            Ok(None) => Err(busy()),
            Err(_) => Err(ApiError::internal("a password worker failed")),
        }
    }

    /// The Argon2id hash of `password` (PHC string), or 503 `busy`.
    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        match self.run(Work::Hash(password)).await? {
            Done::Hashed(r) => r.map_err(ApiError::internal),
            Done::Verified(_) => Err(ApiError::internal("a password worker mixed up its jobs")),
        }
    }

    /// Whether `password` matches `hash`; with no hash, a check against the dummy hash that
    /// takes as long and answers `false`. 503 `busy` when full.
    pub async fn verify(&self, password: String, hash: Option<String>) -> Result<bool, ApiError> {
        match self.run(Work::Verify(password, hash)).await? {
            Done::Verified(ok) => Ok(ok),
            Done::Hashed(_) => Err(ApiError::internal("a password worker mixed up its jobs")),
        }
    }
}

/// The most Argon2 memory a worker uses, in 1 KiB blocks (a stored hash asking for more
/// does not verify).
const MAX_BLOCKS: usize = 256 * 1024;

/// One worker's Argon2 memory: allocated once at the size of the largest hash it met, and
/// reused, so that hashing neither allocates nor fragments the allocator's arenas (freeing
/// and reallocating 19 MiB per check grew the server to hundreds of MiB).
struct Memory(Vec<argon2::Block>);

impl Memory {
    fn argon2(
        &mut self,
        argon: &argon2::Argon2<'_>,
        params: &argon2::Params,
        password: &[u8],
        salt: &[u8],
        out: &mut [u8],
    ) -> Result<(), argon2::Error> {
        let blocks = params.block_count();
        if blocks > MAX_BLOCKS {
            return Err(argon2::Error::MemoryTooMuch);
        }
        if self.0.len() < blocks {
            self.0.resize(blocks, argon2::Block::default());
        }
        argon.hash_password_into_with_memory(password, salt, out, &mut self.0[..blocks])
    }

    /// The Argon2id hash of `password` with the default parameters and a random salt, as a
    /// PHC string (what `argon2`'s `PasswordHasher` makes).
    fn hash(&mut self, password: &str) -> Result<String, String> {
        use argon2::password_hash::{Output, PasswordHash, SaltString};
        use rand::RngCore;
        let mut salt = [0u8; 16];
        rand::rngs::OsRng.fill_bytes(&mut salt);
        let salt_string = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
        let params = argon2::Params::default();
        let argon = argon2::Argon2::new(
            argon2::Algorithm::Argon2id,
            argon2::Version::V0x13,
            params.clone(),
        );
        let mut out = [0u8; argon2::Params::DEFAULT_OUTPUT_LEN];
        self.argon2(&argon, &params, password.as_bytes(), &salt, &mut out)
            .map_err(|e| e.to_string())?;
        let hash = PasswordHash {
            algorithm: argon2::Algorithm::Argon2id.ident(),
            version: Some(argon2::Version::V0x13.into()),
            params: (&params)
                .try_into()
                .map_err(|e: argon2::password_hash::Error| e.to_string())?,
            salt: Some(salt_string.as_salt()),
            hash: Some(Output::new(&out).map_err(|e| e.to_string())?),
        };
        Ok(hash.to_string())
    }

    /// Whether `password` matches the PHC string `hash` (false when it cannot be read).
    fn verify(&mut self, password: &str, hash: &str) -> bool {
        use argon2::password_hash::{Output, PasswordHash};
        let mut check = || -> Option<bool> {
            let parsed = PasswordHash::new(hash).ok()?;
            let expected = parsed.hash?;
            let algorithm = argon2::Algorithm::try_from(parsed.algorithm).ok()?;
            let version = match parsed.version {
                Some(v) => argon2::Version::try_from(v).ok()?,
                None => argon2::Version::default(),
            };
            let params = argon2::Params::try_from(&parsed).ok()?;
            let mut salt = [0u8; 64];
            let salt = parsed.salt?.decode_b64(&mut salt).ok()?;
            let argon = argon2::Argon2::new(algorithm, version, params.clone());
            let mut out = vec![0u8; expected.len()];
            self.argon2(&argon, &params, password.as_bytes(), salt, &mut out)
                .ok()?;
            // Output's equality is constant-time.
            Some(Output::new(&out).ok()? == expected)
        };
        check().unwrap_or(false)
    }
}

fn worker(receiver: &Mutex<Receiver<Job>>, dummy: &OnceLock<String>, make_dummy: bool) {
    let mut memory = Memory(Vec::new());
    let dummy_hash = |memory: &mut Memory| {
        dummy
            .get_or_init(|| memory.hash(&crate::auth::new_token()).unwrap_or_default())
            .clone()
    };
    if make_dummy {
        dummy_hash(&mut memory);
    }
    loop {
        let job = {
            let receiver = receiver.lock().unwrap_or_else(|e| e.into_inner());
            receiver.recv()
        };
        let Ok(job) = job else { return };
        // The client left, or waited too long: nothing to do, or `busy`.
        if job.reply.is_closed() {
            continue;
        }
        if Instant::now() > job.deadline {
            let _ = job.reply.send(None);
            continue;
        }
        let done = match job.work {
            Work::Hash(password) => Done::Hashed(memory.hash(&password)),
            Work::Verify(password, Some(hash)) => Done::Verified(memory.verify(&password, &hash)),
            Work::Verify(password, None) => {
                let dummy = dummy_hash(&mut memory);
                let _ = memory.verify(&password, &dummy);
                Done::Verified(false)
            }
        };
        let _ = job.reply.send(Some(done));
    }
}

/// A fixed window of failures.
#[derive(Debug, Clone, Copy)]
struct Window {
    start: Instant,
    failures: u32,
}

/// Failure counts per key, at most [`MAX_TRACKED`] keys.
struct Counts<K> {
    limit: u32,
    map: HashMap<K, Window>,
}

impl<K: Hash + Eq + Clone> Counts<K> {
    /// The time left until `key`'s window ends, if it is at its limit.
    fn blocked(&mut self, key: &K, now: Instant, window: Duration) -> Option<Duration> {
        let w = self.map.get(key)?;
        let age = now.saturating_duration_since(w.start);
        if age >= window {
            self.map.remove(key);
            return None;
        }
        (w.failures >= self.limit).then(|| window - age)
    }

    fn count(&mut self, key: K, now: Instant, window: Duration) {
        if !self.map.contains_key(&key) && self.map.len() >= MAX_TRACKED {
            self.map
                .retain(|_, w| now.saturating_duration_since(w.start) < window);
            if self.map.len() >= MAX_TRACKED {
                // Drop the oldest, down to three quarters.
                let mut oldest: Vec<(Instant, K)> =
                    self.map.iter().map(|(k, w)| (w.start, k.clone())).collect();
                oldest.sort_unstable_by_key(|(start, _)| *start);
                let drop = oldest.len() - MAX_TRACKED * 3 / 4;
                for (_, k) in oldest.into_iter().take(drop) {
                    self.map.remove(&k);
                }
            }
        }
        let w = self.map.entry(key).or_insert(Window {
            start: now,
            failures: 0,
        });
        w.failures = w.failures.saturating_add(1);
    }

    fn uncount(&mut self, key: &K) {
        if let Some(w) = self.map.get_mut(key) {
            w.failures = w.failures.saturating_sub(1);
        }
    }
}

/// The client address the throttle counts: IPv4 as is (and IPv4-mapped IPv6), IPv6 by its
/// /64 (one customer's block).
fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
    }
}

/// The account name the throttle counts: lowercase, trimmed, at most 64 characters.
pub fn account_key(username: &str) -> String {
    username
        .trim()
        .chars()
        .take(MAX_KEY_CHARS)
        .collect::<String>()
        .to_lowercase()
}

/// Failed logins per account name and per client address, in fixed windows.
pub struct Throttle {
    window: Duration,
    inner: Mutex<(Counts<String>, Counts<IpAddr>)>,
}

/// A login attempt let through the throttle (already counted as a failure).
#[derive(Debug)]
pub struct Attempt {
    account: String,
    address: Option<IpAddr>,
}

impl Throttle {
    /// An empty throttle: `account_failures` per name and `address_failures` per address
    /// in each `window`.
    pub fn new(window: Duration, account_failures: u32, address_failures: u32) -> Throttle {
        Throttle {
            window,
            inner: Mutex::new((
                Counts {
                    limit: account_failures,
                    map: HashMap::new(),
                },
                Counts {
                    limit: address_failures,
                    map: HashMap::new(),
                },
            )),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (Counts<String>, Counts<IpAddr>)> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Lets a login for `username` from `address` through, counting it as a failure until
    /// [`Throttle::succeeded`]; or 429 `too_many_attempts` with the seconds to wait.
    pub fn begin(&self, username: &str, address: Option<IpAddr>) -> Result<Attempt, ApiError> {
        let now = Instant::now();
        let account = account_key(username);
        let address = address.map(address_key);
        let mut guard = self.lock();
        let (accounts, addresses) = &mut *guard;
        let wait = [
            accounts.blocked(&account, now, self.window),
            address.and_then(|a| addresses.blocked(&a, now, self.window)),
        ]
        .into_iter()
        .flatten()
        .max();
        if let Some(wait) = wait {
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            return Err(too_many_attempts(seconds));
        }
        accounts.count(account.clone(), now, self.window);
        if let Some(a) = address {
            addresses.count(a, now, self.window);
        }
        Ok(Attempt { account, address })
    }

    /// The password was right: the account's failures are forgotten, and this attempt is
    /// not counted against the address.
    pub fn succeeded(&self, attempt: Attempt) {
        let mut guard = self.lock();
        guard.0.map.remove(&attempt.account);
        if let Some(a) = attempt.address {
            guard.1.uncount(&a);
        }
    }

    /// The password was not checked (`busy`): the attempt is not counted.
    pub fn unchecked(&self, attempt: Attempt) {
        let mut guard = self.lock();
        guard.0.uncount(&attempt.account);
        if let Some(a) = attempt.address {
            guard.1.uncount(&a);
        }
    }

    /// How many names and addresses are tracked (for tests).
    pub fn tracked(&self) -> (usize, usize) {
        let guard = self.lock();
        (guard.0.map.len(), guard.1.map.len())
    }
}

/// The 429 answer of a throttled login.
pub fn too_many_attempts(seconds: u64) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_attempts",
        format!(
            "too many failed logins for this name or from this address; try again in {} s",
            seconds.max(1)
        ),
    )
    .retry_after(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_throttled_address_is_the_peer_unless_it_is_a_trusted_proxy() {
        let ip = |t: &str| t.parse::<IpAddr>().unwrap();
        let mut headers = axum::http::HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            "6.6.6.6, 1.2.3.4, 10.0.0.2".parse().unwrap(),
        );
        let proxies = [ip("10.0.0.1"), ip("10.0.0.2")];
        // A client talking to us directly cannot choose its address by a header.
        assert_eq!(
            client_address(ip("9.9.9.9"), &proxies, &headers),
            ip("9.9.9.9")
        );
        // Through the proxies: the last address a trusted proxy received from; the forged
        // entry left of it is not believed.
        assert_eq!(
            client_address(ip("10.0.0.1"), &proxies, &headers),
            ip("1.2.3.4")
        );
        // No list, no belief; no header, the proxy itself.
        assert_eq!(
            client_address(ip("10.0.0.1"), &[], &headers),
            ip("10.0.0.1")
        );
        let empty = axum::http::HeaderMap::new();
        assert_eq!(
            client_address(ip("10.0.0.1"), &proxies, &empty),
            ip("10.0.0.1")
        );
        let mut junk = axum::http::HeaderMap::new();
        junk.insert("x-forwarded-for", "not-an-ip".parse().unwrap());
        assert_eq!(
            client_address(ip("10.0.0.1"), &proxies, &junk),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn worker_hashes_match_the_argon2_crate() {
        let mut memory = Memory(Vec::new());
        let mine = memory.hash("correct horse").unwrap();
        assert!(
            mine.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{mine}"
        );
        assert!(crate::auth::verify_password("correct horse", &mine));
        assert!(!crate::auth::verify_password("wrong horse", &mine));
        let theirs = crate::auth::hash_password("battery staple").unwrap();
        assert!(memory.verify("battery staple", &theirs));
        assert!(!memory.verify("battery stapler", &theirs));
        assert!(!memory.verify("battery staple", "not a hash"));
        assert_eq!(memory.0.len(), argon2::Params::default().block_count());
    }

    #[test]
    fn throttle_blocks_an_account_then_forgets() {
        let t = Throttle::new(Duration::from_millis(200), 3, 100);
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..3 {
            t.begin("Alice", Some(ip)).unwrap();
        }
        let e = t.begin("alice", Some(ip)).unwrap_err();
        assert_eq!((e.status.as_u16(), e.code), (429, "too_many_attempts"));
        assert_eq!(e.retry_after, Some(1));
        // Another name from the same address is let through.
        t.begin("bob", Some(ip)).unwrap();
        std::thread::sleep(Duration::from_millis(250));
        t.begin("alice", Some(ip)).unwrap();
    }

    #[test]
    fn throttle_blocks_an_address_and_a_success_clears_the_account() {
        let t = Throttle::new(Duration::from_secs(60), 2, 3);
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let b: IpAddr = "2001:db8::2".parse().unwrap();
        let first = t.begin("x", Some(a)).unwrap();
        t.succeeded(first);
        t.begin("y", Some(a)).unwrap();
        t.begin("z", Some(b)).unwrap();
        t.begin("w", Some(a)).unwrap();
        // Three failures from the /64: blocked, whatever the name.
        assert!(t.begin("v", Some(b)).is_err());
        assert!(t.begin("u", Some("10.0.0.2".parse().unwrap())).is_ok());
        let busy = t.begin("x", None).unwrap();
        t.unchecked(busy);
        t.begin("x", None).unwrap();
        t.begin("x", None).unwrap();
        assert!(t.begin("x", None).is_err());
    }

    #[test]
    fn counts_are_capped() {
        let mut c = Counts::<u32> {
            limit: 1,
            map: HashMap::new(),
        };
        let now = Instant::now();
        for k in 0..(MAX_TRACKED as u32 + 10) {
            c.count(k, now, Duration::from_secs(60));
        }
        assert!(c.map.len() <= MAX_TRACKED);
    }
}
