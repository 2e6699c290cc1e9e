//! Shared fixtures: positions from square lists, a plain reference move generator, random
//! games, and a dice source that must never be used.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeSet, HashSet};
use tabula_core::{ByColor, Color, DiceRoll, DiceSource, Game, Status};
use tabula_halma::{
    Action, Bitboard, BoardSize, HalmaGrasshopper, HalmaOptions, Move, Position, Setup, Square,
};

/// A square from its name.
pub fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// A move from `from-to` text, unchecked.
pub fn mv(text: &str) -> Move {
    let (a, b) = text.split_once('-').unwrap();
    Move {
        from: sq(a),
        to: sq(b),
    }
}

/// A set of squares from names separated by spaces.
pub fn set(names: &str) -> Bitboard {
    Bitboard(
        names
            .split_whitespace()
            .fold(0, |bb, name| bb | 1 << sq(name).index()),
    )
}

/// A position from the squares of each side (names separated by spaces).
pub fn place(size: u8, white: &str, black: &str, to_move: Color) -> Position {
    Position::from_setup(Setup {
        size: BoardSize::try_from(size).unwrap(),
        pieces: ByColor {
            white: set(white),
            black: set(black),
        },
        to_move,
        ply: 0,
    })
    .unwrap()
}

/// The squares of White's 8x8 camp, and of Black's.
pub const WHITE_CAMP_8: &str = "a1 b1 c1 d1 a2 b2 c2 a3 b3 a4";
pub const BLACK_CAMP_8: &str = "e8 f8 g8 h8 f7 g7 h7 g6 h6 h5";

/// A dice source for dice-free games: rolling is a bug.
pub struct NoDice;

impl DiceSource for NoDice {
    fn roll(&mut self) -> DiceRoll {
        panic!("Grasshopper (Halma) never asks for dice")
    }
}

/// Every move of the side to move, found the plain way: lift the piece, try the eight
/// steps, and explore chains of jumps depth first with a visited set.
pub fn reference_moves(p: &Position) -> BTreeSet<(Square, Square)> {
    let n = p.size().side() as i8;
    let at = |f: i8, r: i8| -> Option<Square> {
        ((0..n).contains(&f) && (0..n).contains(&r)).then(|| Square::new(f as u8, r as u8).unwrap())
    };
    let mut out = BTreeSet::new();
    for from in p.pieces(p.to_move()).squares() {
        let occupied = |s: Square| s != from && p.piece_at(s).is_some();
        let (f0, r0) = (from.file() as i8, from.rank() as i8);
        for df in -1..=1 {
            for dr in -1..=1 {
                if let Some(to) = at(f0 + df, r0 + dr) {
                    if to != from && !occupied(to) {
                        out.insert((from, to));
                    }
                }
            }
        }
        let mut seen = HashSet::from([from]);
        let mut stack = vec![from];
        while let Some(s) = stack.pop() {
            let (f, r) = (s.file() as i8, s.rank() as i8);
            for df in -1..=1 {
                for dr in -1..=1 {
                    let (Some(over), Some(land)) = (at(f + df, r + dr), at(f + 2 * df, r + 2 * dr))
                    else {
                        continue;
                    };
                    if (df, dr) != (0, 0) && occupied(over) && !occupied(land) && seen.insert(land)
                    {
                        stack.push(land);
                    }
                }
            }
        }
        out.extend(seen.into_iter().filter(|&s| s != from).map(|s| (from, s)));
    }
    out
}

/// A random game from the start of `size`, each ply a uniformly chosen move (or the pass),
/// until it ends or `max_plies` have been played. Returns the game and its action log.
pub fn random_game(
    size: BoardSize,
    options: HalmaOptions,
    seed: u64,
    max_plies: usize,
) -> (HalmaGrasshopper, Vec<Action>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = HalmaGrasshopper::from_position(Position::start(size), options);
    let mut log = Vec::new();
    while log.len() < max_plies {
        if let Status::Over(_) = game.status() {
            break;
        }
        let moves: Vec<Action> = game
            .legal_actions()
            .into_iter()
            .filter(|a| matches!(a, Action::Move(_) | Action::Pass))
            .collect();
        let action = moves[rng.gen_range(0..moves.len())];
        game.apply(&action).unwrap();
        log.push(action);
    }
    (game, log)
}

/// A position with the pieces scattered at random: any squares, any side to move.
pub fn scattered(seed: u64) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let size = BoardSize::ALL[rng.gen_range(0..2)];
    let squares: Vec<Square> = Bitboard::board(size).squares().collect();
    let n = size.pieces() as usize;
    let mut chosen: Vec<Square> = Vec::new();
    while chosen.len() < 2 * n {
        let s = squares[rng.gen_range(0..squares.len())];
        if !chosen.contains(&s) {
            chosen.push(s);
        }
    }
    let bits = |part: &[Square]| Bitboard(part.iter().fold(0, |b, s| b | 1 << s.index()));
    Position::from_setup(Setup {
        size,
        pieces: ByColor {
            white: bits(&chosen[..n]),
            black: bits(&chosen[n..]),
        },
        to_move: if rng.gen() {
            Color::White
        } else {
            Color::Black
        },
        ply: rng.gen_range(0..1000),
    })
    .unwrap()
}
