//! Running the real `tabula` binary, shared by every test module.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `tabula` with `args`, feeding `stdin`.
pub fn tabula(args: &[&str], stdin: &str) -> Output {
    // The bots never read a developer's cached endgame tables in these tests.
    tabula_env(args, stdin, &[("TABULA_GRASSHOPPER_TABLES", "off")])
}

/// [`tabula`] with environment variables set.
pub fn tabula_env(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().unwrap();
    // The command may stop reading early (quit); a closed pipe is fine.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().expect("the binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The `{"moves": [...]}` document as (move, position) pairs.
pub fn moves_json(args: &[&str]) -> Vec<(String, String)> {
    let out = tabula(args, "");
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "one JSON object on one line");
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let obj = doc.as_object().unwrap();
    assert_eq!(obj.len(), 1, "only the moves key");
    obj["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["position"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Asserts exit code 2 and a single `error: ...` line on stderr; returns the line.
pub fn input_error(args: &[&str]) -> String {
    let out = tabula(args, "");
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(stdout(&out).is_empty());
    err
}
