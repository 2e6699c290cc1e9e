//! Invariants over random positions and random games.

use crate::common::*;
use proptest::prelude::*;
use std::collections::BTreeSet;
use tabula_core::{replay, Color, Game};
use tabula_halma::notation::{format_move, PathStyle};
use tabula_halma::{BoardSize, HalmaGrasshopper, HalmaOptions, Position};

fn size_of(index: usize) -> BoardSize {
    BoardSize::ALL[index]
}

/// The positions of a random game, start included.
fn game_positions(size: BoardSize, seed: u64, plies: usize) -> Vec<Position> {
    let (_, log) = random_game(size, HalmaOptions::default(), seed, plies);
    let mut g = HalmaGrasshopper::new(size);
    let mut out = vec![*g.position()];
    for a in &log {
        g.apply(a).unwrap();
        out.push(*g.position());
    }
    out
}

fn check_generator(p: &Position) -> Result<(), TestCaseError> {
    let moves: Vec<_> = p.moves().map(|m| (m.from, m.to)).collect();
    let set: BTreeSet<_> = moves.iter().copied().collect();
    prop_assert_eq!(set.len(), moves.len(), "duplicate moves in {}", p);
    prop_assert_eq!(&set, &reference_moves(p), "{}", p);
    prop_assert_eq!(p.move_count() as usize, moves.len());
    prop_assert_eq!(p.mirrored().move_count(), p.move_count(), "{}", p);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn generated_moves_equal_the_reference_on_scattered_positions(seed in any::<u64>()) {
        check_generator(&scattered(seed))?;
    }

    #[test]
    fn generated_moves_equal_the_reference_along_random_games(
        size in 0..2usize,
        seed in any::<u64>(),
    ) {
        for p in game_positions(size_of(size), seed, 120).iter().step_by(7) {
            check_generator(p)?;
        }
    }

    #[test]
    fn pieces_are_conserved(size in 0..2usize, seed in any::<u64>()) {
        let size = size_of(size);
        for p in game_positions(size, seed, 200) {
            prop_assert_eq!(p.pieces(Color::White).count(), size.pieces());
            prop_assert_eq!(p.pieces(Color::Black).count(), size.pieces());
            prop_assert!((p.pieces(Color::White).0 & p.pieces(Color::Black).0) == 0);
            prop_assert_eq!(Position::from_setup(p.to_setup()), Ok(p));
        }
    }

    #[test]
    fn a_game_replays_from_its_log(
        size in 0..2usize,
        seed in any::<u64>(),
        plies in 0..300usize,
        limit in prop::option::of(1..300u32),
    ) {
        let options = HalmaOptions { ply_limit: limit, evacuation: None };
        let (game, log) = random_game(size_of(size), options, seed, plies);
        let start = HalmaGrasshopper::from_position(Position::start(size_of(size)), options);
        let replayed = replay(start, &log, &mut NoDice).unwrap();
        prop_assert_eq!(replayed, game);
    }

    #[test]
    fn the_position_notation_round_trips(seed in any::<u64>()) {
        let p = scattered(seed);
        let text = p.to_string();
        prop_assert_eq!(text.parse::<Position>(), Ok(p));
        prop_assert_eq!(text.to_uppercase().parse::<Position>(), Ok(p));
        prop_assert!(!text.starts_with('-'));
    }

    #[test]
    fn move_text_round_trips_with_and_without_paths(size in 0..2usize, seed in any::<u64>()) {
        for p in game_positions(size_of(size), seed, 80).iter().step_by(11) {
            for m in p.moves() {
                for style in [PathStyle::FromTo, PathStyle::Path] {
                    let text = format_move(p, m, style);
                    prop_assert_eq!(p.parse_move(&text), Ok(m), "{} in {}", text, p);
                }
            }
        }
    }

    #[test]
    fn winners_are_mirrored(seed in any::<u64>(), ply in 0..120u32, deadline in 0..40u32) {
        let p = scattered(seed).with_ply(ply);
        let flip = |w: Option<(Color, tabula_halma::WinKind)>| w.map(|(c, k)| (c.other(), k));
        prop_assert_eq!(p.mirrored().winner(deadline), flip(p.winner(deadline)));
        prop_assert_eq!(p.mirrored().mirrored(), p);
    }
}
