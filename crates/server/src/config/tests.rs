//! The configuration parser under injected environments: every variable's accepted values,
//! and one refusal (with its one-line message) for each kind of bad value of each variable.

use super::*;
use std::collections::HashMap;

fn addr() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 8080))
}

fn parse(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
    let map: HashMap<String, OsString> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), OsString::from(v)))
        .collect();
    Config::from_vars(addr(), "db.sqlite3", |name| map.get(name).cloned())
}

fn refusal(name: &str, value: &str) -> String {
    match parse(&[(name, value)]) {
        Ok(_) => panic!("{name}={value:?} was accepted"),
        Err(e) => {
            assert_eq!(e.name, name);
            e.to_string()
        }
    }
}

#[test]
fn no_variable_gives_the_defaults() {
    let c = parse(&[]).unwrap();
    assert_eq!(c.limits, Limits::default());
    assert_eq!(c.analysis, AnalysisSettings::default());
    assert_eq!(c.bot_delay, Duration::from_millis(BOT_DELAY_MS));
    assert_eq!(c.sqlite_max_bytes, None);
    assert_eq!(c.web_dir, None);
    assert!(!c.accounts.secure_cookies);
    assert!(c.accounts.trusted_proxies.is_empty());
    assert_eq!(c.accounts.hash_workers, Settings::default().hash_workers);
    assert_eq!(c.database, "db.sqlite3");
}

#[test]
fn empty_variables_keep_the_defaults() {
    let c = parse(&[("TABULA_MAX_CONNECTIONS", ""), ("TABULA_BOT_DELAY_MS", " ")]).unwrap();
    assert_eq!(c.limits, Limits::default());
    assert_eq!(c.bot_delay, Duration::from_millis(BOT_DELAY_MS));
}

#[test]
fn good_values_are_taken() {
    let c = parse(&[
        ("TABULA_HEADER_TIMEOUT_MS", "500"),
        ("TABULA_REQUEST_TIMEOUT_MS", " 1000 "),
        ("TABULA_MAX_CONNECTIONS", "256"),
        ("TABULA_HASH_WORKERS", "3"),
        ("TABULA_HASH_QUEUE", "9"),
        ("TABULA_HASH_WAIT_MS", "250"),
        ("TABULA_LOGIN_WINDOW_SECS", "6"),
        ("TABULA_LOGIN_ACCOUNT_FAILURES", "99999999999"),
        ("TABULA_LOGIN_ADDRESS_FAILURES", "10"),
        ("TABULA_SESSION_LIFETIME_SECS", "2"),
        ("TABULA_TOKEN_LIFETIME_SECS", "3"),
        ("TABULA_SECURE_COOKIES", "Yes"),
        ("TABULA_TRUSTED_PROXIES", "10.0.0.1, ::1,"),
        ("TABULA_ANALYSIS_PLIES", "0"),
        ("TABULA_ANALYSIS_RACE", "yes"),
        ("TABULA_ANALYSIS_THREADS", "0"),
        ("TABULA_ANALYSIS_QUEUE", "1"),
        ("TABULA_TRAINER_AGAIN_SECS", "2"),
        ("TABULA_BOT_DELAY_MS", "0"),
        ("TABULA_SQLITE_MAX_MB", "2"),
        ("TABULA_WEB_DIR", "/srv/web"),
    ])
    .unwrap();
    assert_eq!(c.limits.header_timeout, Duration::from_millis(500));
    assert_eq!(c.limits.request_timeout, Duration::from_millis(1000));
    assert_eq!(c.limits.max_connections, 256);
    let a = &c.accounts;
    assert_eq!((a.hash_workers, a.hash_queue), (3, 9));
    assert_eq!(a.hash_wait, Duration::from_millis(250));
    assert_eq!(a.login_window, Duration::from_secs(6));
    assert_eq!(a.account_failures, u32::MAX);
    assert_eq!(a.address_failures, 10);
    assert_eq!(a.session_lifetime, Duration::from_secs(2));
    assert_eq!(a.token_lifetime, Duration::from_secs(3));
    assert!(a.secure_cookies);
    assert_eq!(a.trusted_proxies.len(), 2);
    assert_eq!(
        c.analysis,
        AnalysisSettings {
            plies: 0,
            threads: 0,
            race: true,
            queue: 1,
            trainer_again: Duration::from_secs(2),
        }
    );
    assert_eq!(c.bot_delay, Duration::ZERO);
    assert_eq!(c.sqlite_max_bytes, Some(2 * 1024 * 1024));
    assert_eq!(c.web_dir, Some(PathBuf::from("/srv/web")));
    assert!(
        !parse(&[("TABULA_SECURE_COOKIES", "0")])
            .unwrap()
            .accounts
            .secure_cookies
    );
    assert_eq!(
        parse(&[("TABULA_SQLITE_MAX_MB", "0")])
            .unwrap()
            .sqlite_max_bytes,
        None
    );
}

#[test]
fn the_message_is_one_line_naming_the_variable() {
    assert_eq!(
        refusal("TABULA_SQLITE_MAX_MB", "abc"),
        "TABULA_SQLITE_MAX_MB: \"abc\" is not a whole number of mebibytes"
    );
    assert_eq!(
        refusal("TABULA_MAX_CONNECTIONS", "0"),
        "TABULA_MAX_CONNECTIONS: \"0\" is not a positive whole number"
    );
    assert!(!refusal("TABULA_ANALYSIS_PLIES", "line\nbreak").contains('\n'));
}

#[test]
fn every_positive_number_variable_refuses_zero_negatives_and_words() {
    for name in [
        "TABULA_HEADER_TIMEOUT_MS",
        "TABULA_REQUEST_TIMEOUT_MS",
        "TABULA_MAX_CONNECTIONS",
        "TABULA_HASH_WORKERS",
        "TABULA_HASH_QUEUE",
        "TABULA_HASH_WAIT_MS",
        "TABULA_LOGIN_WINDOW_SECS",
        "TABULA_LOGIN_ACCOUNT_FAILURES",
        "TABULA_LOGIN_ADDRESS_FAILURES",
        "TABULA_SESSION_LIFETIME_SECS",
        "TABULA_TOKEN_LIFETIME_SECS",
        "TABULA_ANALYSIS_QUEUE",
    ] {
        for bad in ["0", "-5", "ten", "1.5", "99999999999999999999999"] {
            assert_eq!(
                refusal(name, bad),
                format!("{name}: {bad:?} is not a positive whole number")
            );
        }
    }
}

#[test]
fn ranged_variables_refuse_values_out_of_range() {
    for (name, bad, range) in [
        ("TABULA_ANALYSIS_PLIES", "4", "0 to 3"),
        ("TABULA_ANALYSIS_PLIES", "two", "0 to 3"),
        ("TABULA_ANALYSIS_THREADS", "65", "0 to 64"),
        ("TABULA_ANALYSIS_THREADS", "-1", "0 to 64"),
        ("TABULA_BOT_DELAY_MS", "10001", "0 to 10000"),
        ("TABULA_BOT_DELAY_MS", "fast", "0 to 10000"),
        ("TABULA_ABANDON_AFTER_SECS", "0", "1 to 31536000"),
        ("TABULA_ABANDON_AFTER_SECS", "a week", "1 to 31536000"),
        ("TABULA_TRAINER_AGAIN_SECS", "0", "1 to 86400"),
        ("TABULA_TRAINER_AGAIN_SECS", "86401", "1 to 86400"),
    ] {
        assert_eq!(
            refusal(name, bad),
            format!("{name}: {bad:?} is not a whole number from {range}")
        );
    }
}

#[test]
fn the_sqlite_cap_refuses_what_is_not_mebibytes() {
    for bad in ["abc", "-1", "2.5", "2MB"] {
        assert_eq!(
            refusal("TABULA_SQLITE_MAX_MB", bad),
            format!("TABULA_SQLITE_MAX_MB: {bad:?} is not a whole number of mebibytes")
        );
    }
}

#[test]
fn secure_cookies_refuses_other_words() {
    for bad in ["on", "2", "maybe"] {
        assert_eq!(
            refusal("TABULA_SECURE_COOKIES", bad),
            format!("TABULA_SECURE_COOKIES: {bad:?} is not 1, true, yes, 0, false or no")
        );
    }
}

#[test]
fn trusted_proxies_refuses_what_is_not_an_address() {
    assert_eq!(
        refusal("TABULA_TRUSTED_PROXIES", "10.0.0.1, proxy.local"),
        "TABULA_TRUSTED_PROXIES: \"proxy.local\" is not a list of IP addresses separated by commas"
    );
    assert!(parse(&[("TABULA_TRUSTED_PROXIES", "10.0.0.256")]).is_err());
}

#[cfg(unix)]
#[test]
fn a_value_that_is_not_utf8_is_refused() {
    use std::os::unix::ffi::OsStringExt;
    let e = Config::from_vars(addr(), "db", |name| {
        (name == "TABULA_HASH_QUEUE").then(|| OsString::from_vec(vec![b'1', 0xff]))
    })
    .unwrap_err();
    assert_eq!(e.name, "TABULA_HASH_QUEUE");
    assert!(e.to_string().ends_with("is not valid UTF-8"), "{e}");
}
