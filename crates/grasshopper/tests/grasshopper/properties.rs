//! Invariants under random play: checker conservation, at most two checkers a point, no wall
//! in A, generation equal to checking every conceivable action, replay from the log, and the
//! end of every game within its bound.

use proptest::prelude::*;
use tabula_core::{replay, Color, DiceRoll, DiceSource, Game, Status};
use tabula_grasshopper::notation::{format_position, parse_position};
use tabula_grasshopper::{Action, Checkers, Grasshopper, Point, Position, Quadrant};

/// A dice source for a game without dice: any call is a bug.
struct NoDice;

impl DiceSource for NoDice {
    fn roll(&mut self) -> DiceRoll {
        panic!("grasshopper never asks for dice")
    }
}

/// Every action that can be written, legal or not.
fn every_action() -> Vec<Action> {
    let points: Vec<Point> = (1..=24).map(|n| Point::new(n).unwrap()).collect();
    let mut all = vec![Action::Pass];
    for &p in &points {
        all.push(Action::Enter { to: p });
        all.push(Action::BearOff { at: p });
        all.push(Action::Discard { at: p });
        if p.quadrant() != Quadrant::D {
            all.push(Action::Build { from: p });
        }
        for &q in &points {
            all.push(Action::Advance { from: p, to: q });
        }
    }
    all
}

/// A game played with `choices` picking among the legal actions, with every position.
fn random_game(checkers: u32, choices: &[u32]) -> (Vec<Position>, Vec<Action>) {
    let mut p = Position::start(Checkers::new(checkers).unwrap());
    let (mut seen, mut log) = (vec![p], Vec::new());
    for &c in choices {
        let legal = p.legal_actions();
        if legal.is_empty() {
            break;
        }
        let a = legal[c as usize % legal.len()];
        p = p.play(a).unwrap();
        seen.push(p);
        log.push(a);
    }
    (seen, log)
}

fn checkers() -> impl Strategy<Value = u32> {
    (1u32..=7).prop_map(|k| 2 * k)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn checkers_are_conserved_in_hand_on_the_board_borne_off_and_discarded(
        n in checkers(), choices in prop::collection::vec(any::<u32>(), 300)
    ) {
        for p in random_game(n, &choices).0 {
            for c in Color::ALL {
                let total = u32::from(p.hand(c)) + p.on_board(c) + p.borne_off(c) + p.discarded(c);
                prop_assert_eq!(total, n);
                prop_assert!(u32::from(p.hand(c)) + p.on_board(c) + p.borne_off(c) <= n);
            }
        }
    }

    #[test]
    fn no_point_holds_three_checkers_or_two_colours(
        n in checkers(), choices in prop::collection::vec(any::<u32>(), 300)
    ) {
        for p in random_game(n, &choices).0 {
            let masks = [
                p.singles(Color::White), p.walls(Color::White),
                p.singles(Color::Black), p.walls(Color::Black),
            ];
            for i in 0..4 {
                for j in i + 1..4 {
                    prop_assert_eq!(masks[i] & masks[j], 0);
                }
            }
        }
    }

    #[test]
    fn no_wall_ever_stands_in_a(
        n in checkers(), choices in prop::collection::vec(any::<u32>(), 300)
    ) {
        for p in random_game(n, &choices).0 {
            let walls = p.walls(Color::White) | p.walls(Color::Black);
            prop_assert_eq!(walls & Quadrant::A.mask(), 0);
        }
    }

    #[test]
    fn generated_actions_are_exactly_those_the_checker_accepts(
        n in checkers(), choices in prop::collection::vec(any::<u32>(), 200)
    ) {
        let all = every_action();
        for p in random_game(n, &choices).0 {
            let legal = p.legal_actions();
            let accepted: Vec<Action> =
                all.iter().copied().filter(|&a| p.check(a).is_ok()).collect();
            let mut generated = legal.to_vec();
            generated.sort();
            let mut accepted_sorted = accepted;
            accepted_sorted.sort();
            prop_assert_eq!(generated, accepted_sorted, "{}", format_position(&p));
        }
    }

    #[test]
    fn a_game_replays_from_its_log(
        n in checkers(), choices in prop::collection::vec(any::<u32>(), 300)
    ) {
        let (seen, log) = random_game(n, &choices);
        let start = Grasshopper::new(Checkers::new(n).unwrap());
        let end = replay(start, &log, &mut NoDice).unwrap();
        prop_assert_eq!(end.position(), seen.last().unwrap());
    }

    #[test]
    fn random_games_end_within_twenty_turns_per_checker(
        n in checkers(), choices in prop::collection::vec(any::<u32>(), 300)
    ) {
        // Per player at most n entries, 3n moves and n removals; passes alternate with
        // moves.
        let (seen, log) = random_game(n, &choices);
        let bound = 20 * n as usize + 2;
        prop_assert!(log.len() <= bound);
        let end = *seen.last().unwrap();
        prop_assert!(log.len() < choices.len() || end.is_over());
        prop_assert!(end.is_over(), "{} turns, not over", log.len());
        let g = Grasshopper::from_position(end);
        prop_assert!(matches!(g.status(), Status::Over(_)));
    }

    #[test]
    fn every_position_text_reads_back(
        n in checkers(), choices in prop::collection::vec(any::<u32>(), 300)
    ) {
        for p in random_game(n, &choices).0 {
            prop_assert_eq!(parse_position(&format_position(&p)).unwrap(), p);
        }
    }
}
