//! Reading back Tabula's own `.mat` export: seeded random sessions (matches with and without
//! the Crawford rule, money with and without beavers and the Jacoby rule; cube actions,
//! beavers, resignations and dances), exported with `export_mat` and replayed with
//! `replay_mat`, must give the original session's decisions in order (as the file keeps them:
//! see `common::normalize`), the same dice for every play, the same results and final score.

mod common;

use common::{logged_decisions, play_session, replayed_decisions, Policy};
use tabula_core::{ByColor, EndReason, Game};
use tabula_tables::backgammon::{Action, Backgammon, Event, Mode, Options};
use tabula_tables::notation::mat::{export_mat, replay_mat};

const NAMES: ByColor<&str> = ByColor {
    white: "Alice",
    black: "Bob Smith",
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

fn no_crawford(length: u8) -> Options {
    Options {
        mode: Mode::Match {
            length,
            crawford: false,
        },
        bar_quadruple: false,
    }
}

/// Replays `text` without its `;` rule tags (as gnubg writes it): the Crawford and Jacoby
/// rules are inferred. Returns whether the Jacoby rule had to be inferred from a gammon.
fn replay_untagged(session: &Backgammon, text: &str, what: &str) -> bool {
    let untagged: String = text
        .lines()
        .filter(|l| !l.starts_with(';'))
        .map(|l| format!("{l}\n"))
        .collect();
    let replay = replay_mat(&untagged).unwrap_or_else(|e| panic!("{what}, untagged: {e}"));
    assert_eq!(replay.session.score(), session.score(), "{what}, untagged");
    let jacoby_singles = session
        .results()
        .iter()
        .any(|r| r.reason == EndReason::JacobySingle);
    let jacoby = matches!(
        replay.session.options().mode,
        Mode::Money { jacoby: true, .. }
    );
    assert_eq!(jacoby, jacoby_singles, "{what}, untagged");
    jacoby_singles
}

/// Exports, replays and compares; returns how many decisions were compared.
fn round_trip(session: &Backgammon, what: &str) -> usize {
    let text = export_mat(session, NAMES);
    replay_untagged(session, &text, what);
    let replay = replay_mat(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    assert_eq!(replay.names.white, NAMES.white);
    assert_eq!(replay.names.black, NAMES.black);
    assert_eq!(
        u32::from(session.options().match_length().unwrap_or(0)),
        replay.length
    );
    let (ours, theirs) = (logged_decisions(session), replayed_decisions(&replay));
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(a, b, "{what}: decision {i} differs\n{text}");
    }
    assert_eq!(ours.len(), theirs.len(), "{what}\n{text}");
    let results = |s: &Backgammon| -> Vec<_> {
        s.results()
            .iter()
            .map(|r| (r.winner, r.points, r.ending))
            .collect()
    };
    assert_eq!(results(session), results(&replay.session), "{what}");
    assert_eq!(session.score(), replay.session.score(), "{what}");
    assert!(replay.session.is_over(), "{what}");
    // Each step's session is the one the next step starts from (rolls and dances between them
    // change no board).
    for pair in replay.steps.windows(2) {
        let mut s = pair[0].before.clone();
        s.apply(&pair[0].action).unwrap();
        let next = &pair[1].before;
        if s.game_number() == next.game_number() {
            let white = |s: &Backgammon| s.game().board_for(tabula_core::Color::White);
            assert_eq!(white(&s), white(next), "{what}");
            assert_eq!(s.game().cube(), next.game().cube(), "{what}");
        }
        assert_eq!(s.score(), next.score(), "{what}");
    }
    ours.len()
}

const POLICY: Policy = Policy {
    double: 0.08,
    resign: 0.01,
};

#[test]
fn matches_replay_to_the_same_decisions_and_score() {
    let mut compared = 0;
    for (length, seed) in [
        (1, 1),
        (3, 2),
        (5, 3),
        (7, 4),
        (9, 5),
        (11, 6),
        (3, 7),
        (5, 8),
    ] {
        let options = Options::match_to(length).unwrap();
        let session = play_session(options, seed, &POLICY);
        compared += round_trip(&session, &format!("{length}-point match, seed {seed}"));
    }
    assert!(compared > 500, "{compared}");
}

#[test]
fn matches_without_the_crawford_rule_replay_without_it() {
    for seed in 10..14 {
        let session = play_session(no_crawford(5), seed, &POLICY);
        round_trip(&session, &format!("no Crawford, seed {seed}"));
    }
}

#[test]
fn money_sessions_with_every_combination_of_beavers_and_jacoby_replay_exactly() {
    let mut beavers = 0;
    for (i, (b, j)) in [(true, true), (true, false), (false, true), (false, false)]
        .into_iter()
        .enumerate()
    {
        for seed in 0..3 {
            let seed = 100 + 10 * i as u64 + seed;
            let session = play_session(money(b, j, 8), seed, &POLICY);
            beavers += session
                .events()
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        Event::Acted {
                            action: Action::Beaver,
                            ..
                        }
                    )
                })
                .count();
            round_trip(
                &session,
                &format!("money beavers {b} jacoby {j}, seed {seed}"),
            );
        }
    }
    assert!(beavers > 0);
}

#[test]
fn an_untagged_money_session_with_a_jacoby_gammon_is_replayed_with_the_jacoby_rule() {
    // Seeds whose sessions end a game by a gammon counted as a single.
    let policy = Policy {
        double: 0.0,
        resign: 0.0,
    };
    let inferred = (300..320)
        .filter(|&seed| {
            let session = play_session(money(true, true, 4), seed, &policy);
            let text = export_mat(&session, NAMES);
            replay_untagged(&session, &text, &format!("Jacoby seed {seed}"))
        })
        .count();
    assert!(inferred > 0);
}

#[test]
fn sessions_full_of_resignations_replay_them_at_the_right_level() {
    let policy = Policy {
        double: 0.1,
        resign: 0.05,
    };
    let mut resigned = 0;
    for seed in 0..6 {
        let options = if seed % 2 == 0 {
            Options::match_to(7).unwrap()
        } else {
            money(true, seed % 3 == 0, 10)
        };
        let session = play_session(options, 200 + seed, &policy);
        resigned += session
            .results()
            .iter()
            .filter(|r| r.ending == tabula_tables::backgammon::Ending::Resigned)
            .count();
        round_trip(&session, &format!("resigning, seed {seed}"));
    }
    assert!(resigned > 10, "{resigned}");
}
