//! The browser client, end to end: a real `tabula serve` on a fresh SQLite file, driven by
//! headless Chromium (Debian's `chromium`) through `playwright-core`, by the scenarios in
//! `crates/server/web/tests/e2e.mjs`.
//!
//! Needs `node` and `/usr/bin/chromium` (or `CHROMIUM`); installs `playwright-core` and
//! `axe-core` with npm on first run. Without them the test is skipped, unless
//! `TABULA_REQUIRE_BROWSER` is set (as `.ci/run` does), when it fails instead.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn skip_or_fail(why: &str) {
    if std::env::var_os("TABULA_REQUIRE_BROWSER").is_some() {
        panic!("browser tests required (TABULA_REQUIRE_BROWSER) but {why}");
    }
    eprintln!("skipped: {why}");
}

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/web/tests")
}

#[test]
fn the_browser_client_plays_every_game_end_to_end() {
    let dir = tests_dir();
    if !dir.join("e2e.mjs").exists() {
        return skip_or_fail("crates/server/web/tests/e2e.mjs is missing");
    }
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    if !Path::new(&chromium).exists() {
        return skip_or_fail(&format!(
            "no Chromium at {chromium} (apt-get install chromium)"
        ));
    }
    if Command::new("node").arg("--version").output().is_err() {
        return skip_or_fail("no node on the PATH");
    }
    // package.json's dependencies: playwright-core, and axe-core for scenario 13
    if !dir.join("node_modules/playwright-core").exists()
        || !dir.join("node_modules/axe-core").exists()
    {
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .status();
        if !matches!(status, Ok(s) if s.success()) {
            return skip_or_fail("npm install (playwright-core, axe-core) failed");
        }
    }
    let db = std::env::temp_dir().join(format!("tabula_browser_{}.sqlite3", std::process::id()));
    // Scenario 27 reads exact Grasshopper values: a small endgame table (at most 2 checkers
    // a side, 0.1 s to build) in a cache folder of the test's own.
    let cache = std::env::temp_dir().join(format!("tabula_browser_cache_{}", std::process::id()));
    let built = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["solve", "grasshopper", "--tables", "2"])
        .env("TABULA_CACHE_DIR", &cache)
        .output()
        .expect("tabula solve runs");
    assert!(
        built.status.success(),
        "the endgame table was not built: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    let cache_dir = cache.to_str().expect("a UTF-8 temporary folder");
    let (mut server, base) = serve(&db, &[("TABULA_CACHE_DIR", cache_dir)]);
    // Scenario 25's own server: games against a bot left untouched for 3 s end (its short
    // idle limit would end the other scenarios' idle games on the main server).
    let idle_db = std::env::temp_dir().join(format!(
        "tabula_browser_idle_{}.sqlite3",
        std::process::id()
    ));
    let (mut idle, idle_base) = serve(&idle_db, &[("TABULA_ABANDON_AFTER_SECS", "3")]);
    let mut e2e = Command::new("node");
    e2e.arg("e2e.mjs")
        .current_dir(&dir)
        .env("BASE_URL", &base)
        .env("ABANDON_BASE_URL", &idle_base)
        .env("TABULA_BIN", env!("CARGO_BIN_EXE_tabula"))
        .env("CHROMIUM", &chromium);
    if let Some(shots) = std::env::var_os("TABULA_SCREENSHOTS") {
        e2e.env("SCREENSHOT_DIR", shots);
    }
    // The scenarios' failures go to stderr: echoed as they come, and kept for the panic
    // message (a CI log that shows only part of the output still says which step failed).
    let mut child = e2e.stderr(Stdio::piped()).spawn().expect("node runs");
    let err = child.stderr.take().expect("piped stderr");
    let failures: Vec<String> = BufReader::new(err)
        .lines()
        .map_while(Result::ok)
        .inspect(|line| eprintln!("{line}"))
        .filter(|line| line.starts_with("FAIL"))
        .collect();
    let status = child.wait().expect("node runs");
    for s in [&mut server, &mut idle] {
        let _ = s.kill();
        let _ = s.wait();
    }
    for f in [&db, &idle_db] {
        let _ = std::fs::remove_file(f);
    }
    let _ = std::fs::remove_dir_all(&cache);
    assert!(
        status.success(),
        "the browser scenarios failed ({status:?}):\n{}",
        failures.join("\n")
    );
}

/// Starts `tabula serve` on a fresh SQLite file `db` with `env`; the process and its base URL.
fn serve(db: &Path, env: &[(&str, &str)]) -> (std::process::Child, String) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database"])
        .arg(db)
        .env("RUST_LOG", "warn")
        // The analysis scenario (5c) analyses a played game: at the default 2 plies the
        // debug build takes minutes, so the server looks 0 plies ahead here.
        .env("TABULA_ANALYSIS_PLIES", "0")
        // Bots answer at once (their human-like pause is for people, not for the test).
        .env("TABULA_BOT_DELAY_MS", "0")
        // A trainer exercise answered wrong comes back after 2 s, not 10 minutes (5d).
        .env("TABULA_TRAINER_AGAIN_SECS", "2")
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .spawn()
        .expect("tabula serve starts");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim()
        .trim_start_matches("Tabula is serving at ")
        .trim_end_matches('/')
        .to_string();
    (server, base)
}

/// The client's pure modules (move list, words, hint) under `node --test`
/// (`crates/server/web/tests/unit.mjs`): no browser, no server.
#[test]
fn the_client_modules_pass_their_unit_tests() {
    let dir = tests_dir();
    if Command::new("node").arg("--version").output().is_err() {
        return skip_or_fail("no node on the PATH");
    }
    let status = Command::new("node")
        .args(["--test", "unit.mjs"])
        .current_dir(&dir)
        .status()
        .expect("node runs");
    assert!(
        status.success(),
        "the client's unit tests failed: {status:?}"
    );
}
