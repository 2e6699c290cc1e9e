//! GNU Backgammon plays a whole match against `tabula external`, both real programs: gnubg
//! (0-ply) in seat 0, Tabula in seat 1 over the external-player protocol. The match must reach
//! its end, and gnubg must never have refused one of Tabula's answers (it prints `Error`
//! or a `Warning: badly formed ...` line, and stops, when it cannot use one).
//!
//! Skipped (with a note) where gnubg is not installed, unless `TABULA_REQUIRE_GNUBG` is set:
//! `.ci/run` installs gnubg and sets it, so in CI a missing gnubg fails the test.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The tabula server, killed when the test ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn gnubg() -> Option<&'static str> {
    ["/usr/games/gnubg", "/usr/bin/gnubg"]
        .into_iter()
        .find(|p| Path::new(p).exists())
}

#[test]
fn gnubg_plays_a_match_against_tabula_to_its_end() {
    let Some(gnubg) = gnubg() else {
        assert!(
            std::env::var_os("TABULA_REQUIRE_GNUBG").is_none(),
            "gnubg is required (TABULA_REQUIRE_GNUBG is set) but not installed"
        );
        eprintln!("gnubg is not installed; skipping (apt-get install gnubg)");
        return;
    };
    // A free port: bind to 0, read it, release it for the server.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let address = format!("127.0.0.1:{port}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["external", "--listen", &address, "--level", "medium"])
        .args(["--seed", "7", "--connections", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula starts");
    // The server says where it listens once it does.
    let mut banner = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut banner)
        .unwrap();
    assert!(banner.contains("listening on"), "{banner}");
    let stderr = child.stderr.take().unwrap();
    let _server = Server(child);
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        let mut r = BufReader::new(stderr);
        while r.read_line(&mut text).unwrap_or(0) > 0 {}
        text
    });

    let script = format!(
        "set player 1 external {address}\n\
         set player 0 gnubg\n\
         set player 0 chequerplay evaluation plies 0\n\
         set player 0 cubedecision evaluation plies 0\n\
         set display off\n\
         new match 3\n\
         show score\n"
    );
    let mut gnubg = Command::new(gnubg)
        .args(["-t", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gnubg starts");
    gnubg
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    // gnubg exits at the end of its input; a hung match is killed after 60 s.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while gnubg.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = gnubg.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let output = gnubg.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&output.stdout).to_string()
        + &String::from_utf8_lossy(&output.stderr);
    drop(_server);
    let server_log = log.join().unwrap();

    assert!(
        out.contains("has won the match"),
        "the match did not finish:\n{out}\n--- tabula:\n{server_log}"
    );
    for refusal in ["Error", "Warning: badly formed", "illegal", "Illegal"] {
        assert!(
            !out.contains(refusal),
            "gnubg refused an answer ({refusal}):\n{out}\n--- tabula:\n{server_log}"
        );
    }
    assert!(
        !server_log.contains("cannot answer"),
        "tabula could not answer a line:\n{server_log}"
    );
}
