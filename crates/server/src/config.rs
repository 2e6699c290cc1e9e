//! The server's one configuration: built once at start from `tabula serve`'s flags and the
//! `TABULA_...` environment variables, and read by nothing else. Every variable that is set
//! must hold a valid value, or the server refuses to start with one line naming the variable
//! and saying what it should hold ([`ConfigError`]); a variable that is unset or empty keeps
//! its default. No other file of the server reads the environment.
//!
//! | Variable | Value | Default |
//! |---|---|---|
//! | `TABULA_HEADER_TIMEOUT_MS`, `TABULA_REQUEST_TIMEOUT_MS`, `TABULA_MAX_CONNECTIONS` | positive whole numbers | [`crate::listen`] |
//! | `TABULA_HASH_WORKERS`, `TABULA_HASH_QUEUE`, `TABULA_HASH_WAIT_MS`, `TABULA_LOGIN_WINDOW_SECS`, `TABULA_LOGIN_ACCOUNT_FAILURES`, `TABULA_LOGIN_ADDRESS_FAILURES`, `TABULA_SESSION_LIFETIME_SECS`, `TABULA_TOKEN_LIFETIME_SECS` | positive whole numbers | [`crate::accounts`] |
//! | `TABULA_SECURE_COOKIES` | `1`, `true`, `yes`, `0`, `false` or `no` | off |
//! | `TABULA_TRUSTED_PROXIES` | IP addresses separated by commas | none |
//! | `TABULA_ANALYSIS_PLIES` | 0 to 3 | 2 |
//! | `TABULA_ANALYSIS_RACE` | `1`, `true`, `yes`, `0`, `false` or `no` | off |
//! | `TABULA_ANALYSIS_THREADS` | 0 to 64 | 1 |
//! | `TABULA_ANALYSIS_QUEUE` | a positive whole number | 64 |
//! | `TABULA_TRAINER_AGAIN_SECS` | 1 to 86,400 | 600 ([`crate::trainer`]) |
//! | `TABULA_BOT_DELAY_MS` | 0 to 10,000 | [`BOT_DELAY_MS`] |
//! | `TABULA_ABANDON_AFTER_SECS` | 1 to 31,536,000 (a year) | [`ABANDON_AFTER_SECS`] (7 days) |
//! | `TABULA_SQLITE_MAX_MB` | a whole number of mebibytes (0: no cap) | no cap |
//! | `TABULA_WEB_DIR` | a folder | the files built into the binary |

use crate::accounts::Settings;
use crate::listen::Limits;
use std::ffi::OsString;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// A bot's default pause before each decision, in milliseconds.
pub const BOT_DELAY_MS: u64 = 700;

/// The longest pause `TABULA_BOT_DELAY_MS` may ask for, in milliseconds.
pub const MAX_BOT_DELAY_MS: u64 = 10_000;

/// How long a game against a bot may stand untouched before the server ends it as the
/// person's resignation ([`crate::abandon`]): 7 days, in seconds.
pub const ABANDON_AFTER_SECS: u64 = 7 * 24 * 3600;

/// How to run the server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The database: a SQLite path or URL, or a `postgres://` URL.
    pub database: String,
    /// Timeouts and the connection cap.
    pub limits: Limits,
    /// Password hashing, login throttling, lifetimes, cookies and proxies.
    pub accounts: Settings,
    /// How analyses run on this instance.
    pub analysis: AnalysisSettings,
    /// How long a bot waits before each decision.
    pub bot_delay: Duration,
    /// How long a game against a bot may stand untouched before it ends ([`crate::abandon`]).
    pub abandon_after: Duration,
    /// A cap on the SQLite file's size, in bytes (`None`: no cap).
    pub sqlite_max_bytes: Option<u64>,
    /// A folder to serve the browser client from instead of the built-in files.
    pub web_dir: Option<PathBuf>,
}

impl Config {
    /// The defaults for `addr` and `database` (no variable set).
    pub fn new(addr: SocketAddr, database: impl Into<String>) -> Config {
        Config {
            addr,
            database: database.into(),
            limits: Limits::default(),
            accounts: Settings::default(),
            analysis: AnalysisSettings::default(),
            bot_delay: Duration::from_millis(BOT_DELAY_MS),
            abandon_after: Duration::from_secs(ABANDON_AFTER_SECS),
            sqlite_max_bytes: None,
            web_dir: None,
        }
    }

    /// The configuration of `addr` and `database` under this process's environment.
    pub fn from_env(addr: SocketAddr, database: impl Into<String>) -> Result<Config, ConfigError> {
        Config::from_vars(addr, database, |name| std::env::var_os(name))
    }

    /// The configuration of `addr` and `database` under the environment `var` gives (the
    /// value of a variable, `None` when unset).
    pub fn from_vars(
        addr: SocketAddr,
        database: impl Into<String>,
        var: impl Fn(&str) -> Option<OsString>,
    ) -> Result<Config, ConfigError> {
        let env = Env { var: &var };
        let mut c = Config::new(addr, database);
        let l = &mut c.limits;
        if let Some(ms) = env.positive("TABULA_HEADER_TIMEOUT_MS")? {
            l.header_timeout = Duration::from_millis(ms);
        }
        if let Some(ms) = env.positive("TABULA_REQUEST_TIMEOUT_MS")? {
            l.request_timeout = Duration::from_millis(ms);
        }
        if let Some(n) = env.positive("TABULA_MAX_CONNECTIONS")? {
            l.max_connections = saturate(n);
        }
        let a = &mut c.accounts;
        if let Some(n) = env.positive("TABULA_HASH_WORKERS")? {
            a.hash_workers = saturate(n);
        }
        if let Some(n) = env.positive("TABULA_HASH_QUEUE")? {
            a.hash_queue = saturate(n);
        }
        if let Some(ms) = env.positive("TABULA_HASH_WAIT_MS")? {
            a.hash_wait = Duration::from_millis(ms);
        }
        if let Some(s) = env.positive("TABULA_LOGIN_WINDOW_SECS")? {
            a.login_window = Duration::from_secs(s);
        }
        if let Some(n) = env.positive("TABULA_LOGIN_ACCOUNT_FAILURES")? {
            a.account_failures = u32::try_from(n).unwrap_or(u32::MAX);
        }
        if let Some(n) = env.positive("TABULA_LOGIN_ADDRESS_FAILURES")? {
            a.address_failures = u32::try_from(n).unwrap_or(u32::MAX);
        }
        if let Some(s) = env.positive("TABULA_SESSION_LIFETIME_SECS")? {
            a.session_lifetime = Duration::from_secs(s);
        }
        if let Some(s) = env.positive("TABULA_TOKEN_LIFETIME_SECS")? {
            a.token_lifetime = Duration::from_secs(s);
        }
        if let Some(on) = env.switch("TABULA_SECURE_COOKIES")? {
            a.secure_cookies = on;
        }
        if let Some(list) = env.proxies("TABULA_TRUSTED_PROXIES")? {
            a.trusted_proxies = list;
        }
        let n = &mut c.analysis;
        if let Some(p) = env.between("TABULA_ANALYSIS_PLIES", 0, 3)? {
            n.plies = p as u32;
        }
        if let Some(on) = env.switch("TABULA_ANALYSIS_RACE")? {
            n.race = on;
        }
        if let Some(t) = env.between("TABULA_ANALYSIS_THREADS", 0, 64)? {
            n.threads = t as usize;
        }
        if let Some(q) = env.positive("TABULA_ANALYSIS_QUEUE")? {
            n.queue = i64::try_from(q).unwrap_or(i64::MAX);
        }
        if let Some(s) = env.between("TABULA_TRAINER_AGAIN_SECS", 1, 24 * 3600)? {
            n.trainer_again = Duration::from_secs(s);
        }
        if let Some(ms) = env.between("TABULA_BOT_DELAY_MS", 0, MAX_BOT_DELAY_MS)? {
            c.bot_delay = Duration::from_millis(ms);
        }
        if let Some(s) = env.between("TABULA_ABANDON_AFTER_SECS", 1, 365 * 24 * 3600)? {
            c.abandon_after = Duration::from_secs(s);
        }
        if let Some(mb) = env.mebibytes("TABULA_SQLITE_MAX_MB")? {
            c.sqlite_max_bytes = (mb > 0).then(|| mb.saturating_mul(1024 * 1024));
        }
        c.web_dir = var("TABULA_WEB_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        Ok(c)
    }
}

/// How analyses run on this instance (`crate::analysis`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnalysisSettings {
    /// Plies of the analysis (`TABULA_ANALYSIS_PLIES`, 0 to 3, default 2).
    pub plies: u32,
    /// Threads of one job (`TABULA_ANALYSIS_THREADS`, default 1); 0 runs no worker on this
    /// instance (it queues and serves analyses, others do the work).
    pub threads: usize,
    /// Race the close plays of each chequer decision by rollouts after the search
    /// (`TABULA_ANALYSIS_RACE`, default off; `tabula_ai::study::race`): the level above
    /// strong, seconds a decision.
    pub race: bool,
    /// Jobs that may wait (`TABULA_ANALYSIS_QUEUE`, default 64).
    pub queue: i64,
    /// How long a trainer exercise answered wrong waits before it comes back
    /// (`TABULA_TRAINER_AGAIN_SECS`, default 10 minutes; [`crate::trainer`]).
    pub trainer_again: Duration,
}

impl Default for AnalysisSettings {
    fn default() -> AnalysisSettings {
        AnalysisSettings {
            plies: 2,
            threads: 1,
            race: false,
            queue: 64,
            trainer_again: Duration::from_secs(600),
        }
    }
}

/// A variable set to a value the server cannot use: the one line `tabula serve` prints
/// before it exits with status 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {value:?} is not {expected}")]
pub struct ConfigError {
    /// The variable.
    pub name: &'static str,
    /// Its value (lossily decoded).
    pub value: String,
    /// What it should hold, e.g. `a whole number of mebibytes`.
    pub expected: String,
}

fn saturate(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// The environment being read.
struct Env<'a> {
    var: &'a dyn Fn(&str) -> Option<OsString>,
}

impl Env<'_> {
    /// The trimmed text of `name`, `None` when unset or empty.
    fn text(&self, name: &'static str) -> Result<Option<String>, ConfigError> {
        let Some(raw) = (self.var)(name) else {
            return Ok(None);
        };
        let Some(text) = raw.to_str() else {
            return Err(refused(name, &raw.to_string_lossy(), "valid UTF-8"));
        };
        let text = text.trim();
        Ok((!text.is_empty()).then(|| text.to_string()))
    }

    /// A whole number of at least 1.
    fn positive(&self, name: &'static str) -> Result<Option<u64>, ConfigError> {
        let Some(text) = self.text(name)? else {
            return Ok(None);
        };
        match text.parse::<u64>() {
            Ok(n) if n > 0 => Ok(Some(n)),
            _ => Err(refused(name, &text, "a positive whole number")),
        }
    }

    /// A whole number from `low` to `high`.
    fn between(&self, name: &'static str, low: u64, high: u64) -> Result<Option<u64>, ConfigError> {
        let Some(text) = self.text(name)? else {
            return Ok(None);
        };
        match text.parse::<u64>() {
            Ok(n) if (low..=high).contains(&n) => Ok(Some(n)),
            _ => Err(refused(
                name,
                &text,
                &format!("a whole number from {low} to {high}"),
            )),
        }
    }

    /// A whole number of mebibytes.
    fn mebibytes(&self, name: &'static str) -> Result<Option<u64>, ConfigError> {
        let Some(text) = self.text(name)? else {
            return Ok(None);
        };
        text.parse::<u64>()
            .map(Some)
            .map_err(|_| refused(name, &text, "a whole number of mebibytes"))
    }

    /// On or off.
    fn switch(&self, name: &'static str) -> Result<Option<bool>, ConfigError> {
        let Some(text) = self.text(name)? else {
            return Ok(None);
        };
        match text.to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" => Ok(Some(true)),
            "0" | "false" | "no" => Ok(Some(false)),
            _ => Err(refused(name, &text, "1, true, yes, 0, false or no")),
        }
    }

    /// IP addresses separated by commas.
    fn proxies(&self, name: &'static str) -> Result<Option<Vec<IpAddr>>, ConfigError> {
        let Some(text) = self.text(name)? else {
            return Ok(None);
        };
        text.split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<IpAddr>()
                    .map_err(|_| refused(name, t, "a list of IP addresses separated by commas"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }
}

fn refused(name: &'static str, value: &str, expected: &str) -> ConfigError {
    ConfigError {
        name,
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

#[cfg(test)]
mod tests;
