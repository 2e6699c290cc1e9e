//! Jellyfish `.mat` export checked against GNU Backgammon: whole sessions are played with
//! seeded dice and seeded random choices among the legal actions (cube actions, beavers,
//! resignations and dances included), exported, imported into gnubg (`import mat`) and
//! exported again by gnubg (`export match mat`). gnubg must read the same games, moves and
//! cube actions (compared as the boards after every play, since gnubg may write a play's
//! steps in another order), count the same score, and write every line without a play exactly
//! as Tabula did.
//!
//! gnubg's export is then replayed with `replay_mat`: the same plays (the boards after them)
//! and the same final score. gnubg also saves what it read as SGF (`save match`), which
//! `read_sgf` and `replay_session` must replay to the same plays and score.
//!
//! Skipped (with a note) where gnubg is not installed, unless `TABULA_REQUIRE_GNUBG` is set:
//! `.ci/run` installs gnubg and sets it, so in CI a missing gnubg fails the test.

mod common;

use common::{logged_plays, play_session, Policy};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tabula_core::ByColor;
use tabula_tables::backgammon::{Action, Backgammon, Event, Mode, Options};
use tabula_tables::notation::mat::{export_mat, replay_mat, replay_session};
use tabula_tables::notation::sgf::read_sgf;

const NAMES: ByColor<&str> = ByColor {
    white: "Alice",
    black: "Bob",
};

fn gnubg() -> Option<&'static str> {
    ["/usr/games/gnubg", "/usr/bin/gnubg"]
        .into_iter()
        .find(|p| Path::new(p).exists())
}

/// One thing written in a column, in a form that does not depend on the order of a play's
/// steps.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    /// Dice and the two boards after the play (each side's checkers from its own side: index
    /// 1..=24 the points, 25 the bar, 0 borne off).
    Roll { dice: String, boards: [[i8; 26]; 2] },
    /// `Doubles => 2`, `Takes`, `Drops`, `Beavers => 4`.
    Cube(String),
    /// Who won (the points are checked by the scores that follow).
    Wins,
}

/// A parsed line of a `.mat` file.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Record {
    /// ` 5 point match`, ` Game 2`, or a game's score line: compared as written.
    Text(String),
    /// An entry: move number (0 for a `Wins` line of its own), column, what.
    Entry {
        number: u32,
        column: usize,
        item: Item,
    },
}

fn start_boards() -> [[i8; 26]; 2] {
    let mut side = [0i8; 26];
    side[24] = 2;
    side[13] = 5;
    side[8] = 3;
    side[6] = 5;
    [side, side]
}

/// The words of `text` with their character offsets.
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c == ' ', start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

fn parse_mat(text: &str) -> Vec<Record> {
    let mut records = Vec::new();
    let mut boards = start_boards();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(';') {
            continue;
        }
        if trimmed.starts_with("Game ") {
            boards = start_boards();
        }
        let numbered =
            line.len() >= 5 && &line[3..5] == ") " && line[..3].trim().parse::<u32>().is_ok();
        let (number, body_at) = if numbered {
            (line[..3].trim().parse().unwrap(), 5)
        } else if trimmed.starts_with("Wins") {
            (0, 0)
        } else {
            records.push(Record::Text(line.trim_end().to_string()));
            continue;
        };
        let words = words(&line[body_at..]);
        let mut column = None;
        let mut i = 0;
        while i < words.len() {
            let (at, word) = words[i];
            // The first entry's column is where it starts; the next one is the second column.
            let col = match column {
                None if body_at + at < 33 => 0,
                None => 1,
                Some(c) => c + 1,
            };
            column = Some(col);
            assert!(col < 2, "three entries on a line: {line:?}");
            let item = match word {
                "Doubles" | "Beavers" => {
                    i += 3;
                    Item::Cube(format!("{word} => {}", words[i - 1].1))
                }
                "Takes" | "Drops" => {
                    i += 1;
                    Item::Cube(word.to_string())
                }
                "Wins" => {
                    i += 3;
                    Item::Wins
                }
                dice if dice.len() == 3 && dice.ends_with(':') => {
                    i += 1;
                    while i < words.len() && words[i].1.contains('/') {
                        let step = words[i].1.trim_end_matches('*');
                        let (from, to) = step.split_once('/').unwrap();
                        let (from, to): (usize, usize) =
                            (from.parse().unwrap(), to.parse().unwrap());
                        let (me, them) = (col, 1 - col);
                        boards[me][from] -= 1;
                        boards[me][to] += 1;
                        if to > 0 && boards[them][25 - to] == 1 {
                            boards[them][25 - to] = 0;
                            boards[them][25] += 1;
                        }
                        assert!(boards[me][from] >= 0, "{line:?}");
                        i += 1;
                    }
                    Item::Roll {
                        dice: dice.to_string(),
                        boards,
                    }
                }
                other => panic!("unexpected {other:?} in {line:?}"),
            };
            records.push(Record::Entry {
                number,
                column: col,
                item,
            });
        }
    }
    records
}

/// The lines without a play, the number in `Wins` lines left out (gnubg writes a gammon won
/// under the Jacoby rule with the cube centred as 2 points when it exports an imported game,
/// though it counts 1, as Tabula writes; the scores that follow are compared instead).
fn lines_without_plays(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with(';') && !l.contains('/'))
        .map(|l| match l.find("Wins ") {
            Some(at) => format!("{}Wins #", &l[..at]),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Tabula's text without the ` Takes` it writes after a beaver when the doubler resigns before
/// playing: gnubg needs it to read the game but leaves it out when it writes the game back.
fn without_beaver_takes(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let after_beaver = out.last().is_some_and(|l| l.contains("Beavers => "));
        let numbered = line.len() > 5 && &line[3..5] == ") ";
        if after_beaver && numbered && line[5..].trim() == "Takes" {
            continue;
        }
        match line.strip_suffix(" Takes") {
            Some(rest) if rest.contains("Beavers => ") => out.push(rest.to_string()),
            _ => out.push(line.to_string()),
        }
    }
    out.join("\n") + "\n"
}

/// Imports `text` into gnubg with the session's rules set first, and returns gnubg's
/// `show score` line, its own `.mat` export of what it read, and the same saved as SGF.
fn gnubg_round_trip(
    gnubg: &str,
    session: &Backgammon,
    text: &str,
    tag: &str,
) -> (String, String, String) {
    let dir: PathBuf = std::env::temp_dir().join(format!("tabula-mat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ours = dir.join(format!("{tag}.mat"));
    let theirs = dir.join(format!("{tag}-gnubg.mat"));
    let sgf = dir.join(format!("{tag}-gnubg.sgf"));
    std::fs::write(&ours, text).unwrap();
    let _ = std::fs::remove_file(&theirs);
    let _ = std::fs::remove_file(&sgf);
    let rules = match session.options().mode {
        Mode::Money {
            jacoby, beavers, ..
        } => format!(
            "set jacoby {}\nset beavers {}\n",
            if jacoby { "on" } else { "off" },
            if beavers { 3 } else { 0 }
        ),
        Mode::Match { .. } => String::new(),
    };
    let script = format!(
        "set display off\n{rules}import mat {}\nshow score\nexport match mat {}\nsave match {}\n",
        ours.display(),
        theirs.display(),
        sgf.display()
    );
    let mut child = Command::new(gnubg)
        .args(["-t", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gnubg starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(script.as_bytes()).unwrap();
    }
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let score = stdout
        .lines()
        .rev()
        .find_map(|l| l.find("The score (after").map(|at| l[at..].to_string()))
        .unwrap_or_else(|| panic!("gnubg printed no score:\n{stdout}"));
    let exported = std::fs::read_to_string(&theirs)
        .unwrap_or_else(|e| panic!("gnubg wrote no export ({e}):\n{stdout}"));
    let saved = std::fs::read_to_string(&sgf)
        .unwrap_or_else(|e| panic!("gnubg saved no SGF ({e}):\n{stdout}"));
    let _ = std::fs::remove_file(&ours);
    let _ = std::fs::remove_file(&theirs);
    let _ = std::fs::remove_file(&sgf);
    let _ = std::fs::remove_dir(&dir);
    (score, exported, saved)
}

/// Parses `The score (after N games) is: Alice 3, Bob 5 (...)`.
fn parse_score(line: &str) -> (u32, ByColor<u32>) {
    let after = line["The score (after ".len()..].split(' ').next().unwrap();
    let rest = &line[line.find("is: ").unwrap() + 4..];
    let mut parts = rest.split(", ");
    let points = |part: &str, name: &str| -> u32 {
        let tail = part.strip_prefix(name).unwrap().trim_start();
        tail.split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let white = points(parts.next().unwrap(), NAMES.white);
    let black = points(parts.next().unwrap(), NAMES.black);
    (after.parse().unwrap(), ByColor { white, black })
}

/// Exports `session`, has gnubg read it and write it back, and compares.
fn check_with_gnubg(session: &Backgammon, tag: &str) {
    let text = export_mat(session, NAMES);
    let Some(gnubg) = gnubg() else {
        assert!(
            std::env::var_os("TABULA_REQUIRE_GNUBG").is_none(),
            "gnubg is required (TABULA_REQUIRE_GNUBG is set) but not installed"
        );
        eprintln!("gnubg is not installed; skipping the import check (apt-get install gnubg)");
        return;
    };
    let (score, exported, sgf) = gnubg_round_trip(gnubg, session, &text, tag);
    // gnubg's SGF of the same session replays to the same plays and score.
    let from_sgf = read_sgf(&sgf)
        .map(|s| replay_session(&s))
        .unwrap_or_else(|e| panic!("gnubg's SGF does not read: {e}"))
        .unwrap_or_else(|e| panic!("gnubg's SGF does not replay: {e}\n{sgf}"));
    assert_eq!(from_sgf.session.score(), session.score(), "SGF");
    assert_eq!(
        logged_plays(&from_sgf.session),
        logged_plays(session),
        "SGF"
    );
    // gnubg's own export replays to the same plays and score.
    let replay = replay_mat(&exported)
        .unwrap_or_else(|e| panic!("gnubg's export does not replay: {e}\n{exported}"));
    assert_eq!(replay.session.score(), session.score(), "{exported}");
    assert_eq!(logged_plays(&replay.session), logged_plays(session));
    let (games, points) = parse_score(&score);
    assert_eq!(games as usize, session.results().len(), "{score}");
    assert_eq!(points, session.score(), "{score}");
    let text = without_beaver_takes(&text);
    let (ours, theirs) = (parse_mat(&text), parse_mat(&exported));
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(
            a, b,
            "record {i} differs\n--- Tabula:\n{text}\n--- gnubg:\n{exported}"
        );
    }
    assert_eq!(ours.len(), theirs.len(), "--- gnubg:\n{exported}");
    assert_eq!(
        lines_without_plays(&text),
        lines_without_plays(&exported),
        "--- Tabula:\n{text}\n--- gnubg:\n{exported}"
    );
}

/// How often each thing happened in the session's log.
#[derive(Debug, Default)]
struct Seen {
    doubles: usize,
    takes: usize,
    drops: usize,
    beavers: usize,
    resignations: usize,
    dances: usize,
    crawford_games: usize,
}

fn seen(session: &Backgammon) -> Seen {
    let mut s = Seen::default();
    for event in session.events() {
        match event {
            Event::Acted { action, .. } => match action {
                Action::Double => s.doubles += 1,
                Action::Take => s.takes += 1,
                Action::Drop => s.drops += 1,
                Action::Beaver => s.beavers += 1,
                Action::AcceptResignation => s.resignations += 1,
                _ => {}
            },
            Event::NoMove { .. } => s.dances += 1,
            Event::GameStart { crawford: true, .. } => s.crawford_games += 1,
            _ => {}
        }
    }
    s
}

const POLICY: Policy = Policy {
    double: 0.05,
    resign: 0.004,
};

fn money(beavers: bool, jacoby: bool, games: u32) -> Options {
    Options {
        mode: Mode::Money {
            beavers,
            jacoby,
            automatic_doubles: 0,
            games: Some(games),
        },
        bar_quadruple: false,
    }
}

/// The doubles offered in games begun with a player one point from winning.
fn doubles_at_one_away(session: &Backgammon, length: u32) -> usize {
    let (mut one_away, mut n) = (false, 0);
    let mut score = ByColor::<u32>::default();
    for event in session.events() {
        match event {
            Event::GameStart { .. } => {
                one_away = score.white + 1 == length || score.black + 1 == length;
            }
            Event::GameOver(r) => score[r.winner] += r.points,
            Event::Acted {
                action: Action::Double,
                ..
            } if one_away => n += 1,
            _ => {}
        }
    }
    n
}

#[test]
fn a_match_with_a_crawford_game_reads_the_same_in_gnubg() {
    let session = play_session(Options::match_to(7).unwrap(), 32, &POLICY);
    let s = seen(&session);
    let crawford = session
        .events()
        .iter()
        .filter(|e| matches!(e, Event::GameStart { .. }))
        .position(|e| matches!(e, Event::GameStart { crawford: true, .. }));
    // The Crawford game is followed by post-Crawford games.
    assert!(
        crawford.is_some_and(|c| c + 1 < session.results().len()),
        "{crawford:?}"
    );
    assert!(s.doubles > 0 && s.takes > 0 && s.drops > 0, "{s:?}");
    assert!(s.resignations > 0 && s.dances > 0, "{s:?}");
    check_with_gnubg(&session, "match7");
}

#[test]
fn a_short_match_reads_the_same_in_gnubg() {
    let session = play_session(Options::match_to(3).unwrap(), 12, &POLICY);
    assert_eq!(seen(&session).crawford_games, 1);
    check_with_gnubg(&session, "match3");
}

#[test]
fn a_match_without_the_crawford_rule_reads_the_same_in_gnubg() {
    let options = Options {
        mode: Mode::Match {
            length: 5,
            crawford: false,
        },
        bar_quadruple: false,
    };
    let session = play_session(options, 32, &POLICY);
    // gnubg reads doubles in the game that would have been the Crawford game as written.
    assert!(doubles_at_one_away(&session, 5) > 0);
    check_with_gnubg(&session, "match5-no-crawford");
}

#[test]
fn a_money_session_with_beavers_and_jacoby_reads_the_same_in_gnubg() {
    let session = play_session(money(true, true, 10), 26, &POLICY);
    let s = seen(&session);
    assert!(s.beavers > 0 && s.takes > 0 && s.drops > 0, "{s:?}");
    assert!(s.resignations > 0 && s.dances > 0, "{s:?}");
    // A doubler resigns after a beaver, before playing: written with a ` Takes`.
    let text = export_mat(&session, NAMES);
    assert!(
        text.lines()
            .any(|l| l.contains("Beavers => ") && l.ends_with(" Takes")),
        "{text}"
    );
    check_with_gnubg(&session, "money-beavers");
}

#[test]
fn a_money_session_without_beavers_or_jacoby_reads_the_same_in_gnubg() {
    let session = play_session(money(false, false, 10), 11, &POLICY);
    let s = seen(&session);
    assert!(s.doubles > 0 && s.beavers == 0, "{s:?}");
    check_with_gnubg(&session, "money-plain");
}
