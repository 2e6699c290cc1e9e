//! Tests of the session analysis: marks, ratings, luck, and errors of known players.

use super::analyse::*;
use crate::backgammon::{BackgammonBot, NeuralEvaluator};
use crate::Level;
use tabula_core::{ChaChaDice, DiceSource, Game, Status};
use tabula_tables::backgammon::{Action, Backgammon, Options};

/// A 3-point match between bots of `white` and `black`, every decision recorded.
fn play(white: Level, black: Level, seed: u64) -> Vec<Step> {
    let mut s = Backgammon::new(Options::match_to(3).unwrap()).unwrap();
    let mut dice = ChaChaDice::new(seed);
    let mut bots = [
        BackgammonBot::new(white, seed),
        BackgammonBot::new(black, seed + 1),
    ];
    let mut steps = Vec::new();
    for _ in 0..20_000 {
        match s.status() {
            Status::Over(_) => return steps,
            Status::Chance(_) => s.roll(dice.roll()).unwrap(),
            Status::Decide { player, .. } => {
                let a = bots[player.index()].choose(&s);
                let d = match a {
                    Action::Move(_) => s.game().dice(),
                    _ => None,
                };
                steps.push((s.clone(), player, a, d));
                s.apply(&a).unwrap();
            }
        }
    }
    panic!("the match did not end");
}

/// The 0-ply analysis, its cube decisions the search's alone (no rollout: these tests
/// check the analysis's bookkeeping, and the heuristic evaluator's rollouts are slow).
fn zero_ply() -> Settings {
    Settings {
        plies: 0,
        cube_check: None,
        ..Settings::default()
    }
}

/// [`zero_ply`] with the plays raced by `race` on the heuristic evaluator (its cube decisions
/// still the search's alone: the race's `cube` is cleared).
fn zero_ply_raced(race: crate::study::race::RaceConfig) -> Settings {
    Settings {
        race: Some(crate::study::race::RaceConfig { cube: None, ..race }),
        ..zero_ply()
    }
}

#[test]
fn marks_follow_gnubg_thresholds() {
    // GNU Backgammon 1.07's defaults (`show analysis`): 0.030, 0.060, 0.120.
    assert_eq!(Mark::of(0.0299), Mark::None);
    assert_eq!(Mark::of(0.03), Mark::Doubtful);
    assert_eq!(Mark::of(0.0599), Mark::Doubtful);
    assert_eq!(Mark::of(0.06), Mark::Bad);
    assert_eq!(Mark::of(0.1199), Mark::Bad);
    assert_eq!(Mark::of(0.12), Mark::VeryBad);
    assert_eq!(rating(1.9), "Supernatural");
    assert_eq!(rating(4.0), "World class");
    assert_eq!(rating(40.0), "Awful!");
}

#[test]
fn a_zero_ply_analysis_marks_no_play_of_the_zero_ply_bot() {
    // The medium bot plays the nets' 0-ply choice by cubeless money equity; a 0-ply
    // analysis on the same nets ranks by the match's equity (here a 3-point match), so it
    // may prefer another play where gammons count differently at the score, but never by
    // enough to call it a blunder, while the random bot's plays cost equity. (With
    // generation 11 one such play is marked bad: a 6-2 in a bear-off against contact that
    // bears off where the score's gammon value prefers hitting the last blot, 0.065.)
    // The first match from seed 11 on long enough to judge (more than ten plays a side: a
    // quick gammon can end a 3-point match in two games).
    let nets = NeuralEvaluator::shipped();
    let a = (11..41)
        .map(|seed| {
            analyse(
                nets,
                &play(Level::Medium, Level::Random, seed),
                &zero_ply(),
                || {},
            )
        })
        .find(|a| {
            a.stats(tabula_core::Color::White).moves > 10
                && a.stats(tabula_core::Color::Black).moves > 10
        })
        .expect("a match of more than ten plays a side");
    let medium = a.stats(tabula_core::Color::White);
    let random = a.stats(tabula_core::Color::Black);
    // The sum over the match: below 0.02 with generation 2, 0.051 with generation 3, whose gammon
    // chances differ more from the cubeless money choice's at this score (docs/training.md).
    assert!(medium.chequer_error < 0.1, "{}", medium.chequer_error);
    assert!(a
        .decisions
        .iter()
        .filter(|d| d.player == tabula_core::Color::White)
        .all(|d| d.mark < Mark::VeryBad));
    assert!(random.chequer_rate() > 50.0, "{}", random.chequer_rate());
    for d in &a.decisions {
        assert!(d.error >= 0.0);
        assert_eq!(d.mark, Mark::of(d.error));
    }
}

#[test]
fn the_luck_of_a_roll_averages_to_zero_over_the_rolls() {
    // Every roll of one position, analysed as if played: the rolls' lucks, weighted by
    // their chances, sum to zero, and each player's luck is the sum of their rolls'.
    let steps = play(Level::Medium, Level::Medium, 5);
    let (session, player, _, _) = steps
        .iter()
        .find(|(s, _, a, _)| matches!(a, Action::Move(_)) && s.game().dice().is_some())
        .cloned()
        .unwrap();
    let nets = NeuralEvaluator::shipped();
    let mut total = 0.0;
    for d in tabula_core::Dice::all() {
        let mut gen = tabula_tables::MoveGen::new();
        let board = session.game().board();
        let played = gen.positions(&board, d).first().copied().unwrap_or(board);
        let step: Step = (session.clone(), player, Action::Move(played), Some(d));
        let a = analyse(nets, std::slice::from_ref(&step), &zero_ply(), || {});
        total += a.decisions[0].luck.unwrap() * d.weight() as f32 / 36.0;
    }
    assert!(total.abs() < 1e-4, "{total}");
    let a = analyse(nets, &steps, &zero_ply(), || {});
    let sum: f64 = a
        .decisions
        .iter()
        .filter(|d| d.player == tabula_core::Color::White)
        .filter_map(|d| d.luck)
        .map(f64::from)
        .sum();
    assert!((sum - a.white.luck).abs() < 1e-9);
}

#[test]
fn a_judged_play_keeps_its_best_five_plays_best_first() {
    let steps = play(Level::Medium, Level::Random, 5);
    let nets = NeuralEvaluator::shipped();
    let a = analyse(nets, &steps, &zero_ply(), || {});
    let mut seen = 0;
    for d in a.decisions.iter().filter(|d| d.counted) {
        let crate::study::analyse::Kind::Move { best, played, .. } = d.kind else {
            continue;
        };
        let alts: Vec<_> = d.alternatives.iter().flatten().collect();
        assert!(!alts.is_empty() && alts.len() <= 5);
        assert_eq!(alts[0].play.after, best);
        assert!(alts.windows(2).all(|w| w[0].value >= w[1].value));
        let r = crate::study::report::decision_report(d, &steps);
        assert_eq!(r.alternatives.len(), alts.len());
        assert_eq!(Some(&r.alternatives[0].choice.play), r.best.as_ref());
        assert_eq!(r.alternatives[0].choice.diff, 0.0);
        assert_eq!(
            r.alternatives.iter().any(|x| x.played),
            alts.iter().any(|x| x.play.after == played)
        );
        seen += 1;
    }
    assert!(seen > 10, "{seen} plays judged");
}

#[test]
fn a_raced_analysis_judges_the_played_play_against_the_race_winner() {
    use crate::backgammon::Heuristic;
    use crate::study::race::RaceConfig;
    let steps = play(Level::Medium, Level::Random, 5);
    let steps = &steps[..steps.len().min(16)];
    let settings = zero_ply_raced(RaceConfig {
        within: 1.0,
        keep: 2,
        max_trials: 36,
        ..RaceConfig::default()
    });
    let raced = analyse(&Heuristic, steps, &settings, || {});
    let plain = analyse(&Heuristic, steps, &zero_ply(), || {});
    assert_eq!(raced.decisions.len(), plain.decisions.len());
    let mut seen = 0;
    for (r, p) in raced.decisions.iter().zip(&plain.decisions) {
        assert!(r.error >= 0.0);
        assert_eq!(r.mark, Mark::of(r.error));
        let alts: Vec<_> = r.alternatives.iter().flatten().collect();
        if alts.len() >= 2 {
            // The two best at 0-ply were raced, 36 trials each (or dropped after them).
            assert!(alts[..2].iter().all(|a| a.play.trials == 36), "{alts:?}");
            seen += 1;
        } else {
            assert_eq!(r.error, p.error);
        }
    }
    assert!(seen > 3, "{seen} raced decisions");
}

#[test]
fn the_played_play_meets_every_trial_of_the_race_winner() {
    use crate::backgammon::Heuristic;
    use crate::study::race::RaceConfig;
    let steps = play(Level::Random, Level::Random, 8);
    let steps = &steps[..steps.len().min(24)];
    let settings = zero_ply_raced(RaceConfig {
        within: 10.0,
        keep: 4,
        max_trials: 108,
        budget: 10_000,
        ..RaceConfig::default()
    });
    let raced = analyse(&Heuristic, steps, &settings, || {});
    let mut seen = 0;
    for d in &raced.decisions {
        let Kind::Move { played, .. } = d.kind else {
            continue;
        };
        let alts: Vec<_> = d.alternatives.iter().flatten().collect();
        let Some(mine) = alts
            .iter()
            .find(|a| a.play.after == played && a.play.trials > 0)
        else {
            continue;
        };
        let winner = alts[0];
        // Random play leaves plays far behind the winner, which a race drops after the first
        // block; the played one is kept to the race's end and judged over the same trials.
        assert_eq!(mine.play.trials, winner.play.trials, "{alts:?}");
        assert!((d.error - (winner.value - mine.value).max(0.0)).abs() < 1e-6);
        if mine.play.after != winner.play.after {
            seen += 1;
        }
    }
    assert!(seen > 3, "{seen} raced decisions lost by the played play");
}

#[test]
fn close_cube_decisions_are_corrected_by_the_race_s_rollout_or_by_default_the_strong_bot_s() {
    use crate::study::cube_race::CubeRaceConfig;
    use crate::study::race::RaceConfig;
    use crate::study::rollout::RolloutConfig;
    let steps = play(Level::Medium, Level::Random, 5);
    let steps = &steps[..steps.len().min(40)];
    // Every cube decision counts as close, so every one is rolled out (36 trials); no play
    // is raced.
    let cube = CubeRaceConfig {
        close: 100.0,
        rollout: RolloutConfig {
            trials: 36,
            ..RolloutConfig::default()
        },
    };
    let race = RaceConfig {
        keep: 0,
        cube: Some(cube),
        ..RaceConfig::default()
    };
    // Through a race's cube configuration, and through the check of the settings (the
    // default one is the strong bot's), the same corrections.
    let by_race = Settings {
        plies: 0,
        race: Some(race),
        ..Settings::default()
    };
    let by_check = Settings {
        plies: 0,
        cube_check: Some(cube),
        ..Settings::default()
    };
    assert_eq!(
        Settings::default().cube_check,
        Some(CubeRaceConfig::strong())
    );
    for settings in [by_race, by_check] {
        assert_corrected_by(steps, &settings, &cube);
    }
}

/// Every cube decision of the analysis of `steps` with `settings` (0 plies, on the heuristic
/// evaluator) is the search's corrected by `cube`'s rollout.
fn assert_corrected_by(
    steps: &[Step],
    settings: &Settings,
    cube: &crate::study::cube_race::CubeRaceConfig,
) {
    use crate::backgammon::cube::CubeState;
    use crate::backgammon::Heuristic;
    use crate::study::cube::CubeAnalysis;
    use crate::study::cube_race;
    use tabula_tables::MoveGen;
    let raced = analyse(&Heuristic, steps, settings, || {});
    let mut seen = 0;
    for d in &raced.decisions {
        let Some(a) = d.cube_analysis else { continue };
        let (session, player, _, _) = &steps[d.step];
        let doubler = match d.kind {
            Kind::Answer(_) => !*player,
            _ => *player,
        };
        let state = CubeState::of(session, doubler);
        let board = session.game().board();
        let searched = CubeAnalysis::search(&Heuristic, &mut MoveGen::new(), &board, &state, 0);
        let want = cube_race::refine(&Heuristic, MoveGen::new, &board, &state, &searched, cube)
            .expect("every decision is close");
        assert_eq!(a, want.analysis);
        assert_eq!(a.chances, want.rollout.chances);
        assert_ne!(a.chances, searched.chances);
        seen += 1;
    }
    assert!(seen > 3, "{seen} cube decisions");
}

#[test]
fn a_play_is_judged_by_the_mean_of_three_and_two_plies_when_the_best_play_was() {
    // The random bot's plays analysed as the strong bot ranks (2 plies, the close plays by
    // the mean of 3 and 2): where the best play was among the close ones and the played one
    // was not, the played play is valued by the same mean, not by the 2-ply search alone.
    use super::analyse::value;
    use crate::backgammon::Probabilities;
    use crate::study::nply;
    use tabula_core::Color;
    use tabula_tables::MoveGen;
    let steps = play(Level::Medium, Level::Random, 5);
    let nets = NeuralEvaluator::shipped();
    let settings = Settings {
        cube_check: None,
        ..Settings::default()
    };
    assert!(settings.plies == 2 && settings.deeper);
    let mut gen = MoveGen::new();
    let mut seen = 0;
    for step in &steps {
        let (session, player, Action::Move(played), Some(dice)) = step.clone() else {
            continue;
        };
        if player != Color::Black {
            continue;
        }
        let board = session.game().board();
        let candidates = gen.positions(&board, dice).to_vec();
        if candidates.len() < 2 {
            continue;
        }
        let score = |p: &Probabilities| value(&session, player, p);
        let ranked = nply::rank_plays_as_strong(
            nets,
            MoveGen::new,
            &candidates,
            2,
            settings.filter,
            true,
            score,
        );
        if !ranked[0].blended || ranked.iter().any(|r| r.after == played && r.blended) {
            continue;
        }
        let blended = score(&nply::chances_blended(nets, &mut gen, &played.flip(), 3).flip());
        let searched = score(&nply::chances(nets, &mut gen, &played.flip(), 2).flip());
        let best = score(&ranked[0].chances);
        let a = analyse(nets, std::slice::from_ref(step), &settings, || {});
        let error = a.decisions[0].error;
        assert!((error - (best - blended).max(0.0)).abs() < 1e-5, "{error}");
        if (blended - searched).abs() > 1e-3 && best > blended {
            assert!((error - (best - searched).max(0.0)).abs() > 1e-4);
            seen += 1;
            if seen == 2 {
                break;
            }
        }
    }
    assert!(
        seen > 0,
        "no decision with a blended best play and a played play apart"
    );
}
