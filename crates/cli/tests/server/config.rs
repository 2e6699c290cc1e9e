//! `tabula serve` refuses a bad configuration at start: one line naming the variable, exit
//! status 2, and nothing created or served.

use std::process::Command;

/// Runs `tabula serve` on a fresh SQLite path with one variable set; its exit status, its
/// standard error, and whether the database file was created.
fn serve_with(name: &str, value: &str) -> (Option<i32>, String, bool) {
    let dir = std::env::temp_dir().join(format!(
        "tabula_config_{}_{}",
        std::process::id(),
        name.to_ascii_lowercase()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("tabula.sqlite3");
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database"])
        .arg(&db)
        .env("RUST_LOG", "warn")
        .env(name, value)
        .output()
        .unwrap();
    let created = db.exists();
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        created,
    )
}

#[test]
fn a_bad_variable_stops_the_server_at_start_with_one_line() {
    let (code, stderr, created) = serve_with("TABULA_SQLITE_MAX_MB", "abc");
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "error: TABULA_SQLITE_MAX_MB: \"abc\" is not a whole number of mebibytes\n"
    );
    assert!(!created, "the database was opened before the check");
    let (code, stderr, _) = serve_with("TABULA_MAX_CONNECTIONS", "0");
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "error: TABULA_MAX_CONNECTIONS: \"0\" is not a positive whole number\n"
    );
}
