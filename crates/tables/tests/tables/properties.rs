//! Property tests of the board and the move generator over random legal boards and dice.
//!
//! Boards come from three shapes (anything goes, a race, both sides bearing off) so that
//! entering, hitting, blocked points and bearing off are all common. The generator is checked
//! against invariants (checkers and pips are conserved, plays replay to their positions, every
//! play uses as many dice as any) and against a brute-force reference that tries every order
//! of the dice from every point and collects the results in a set: the fast generator has no
//! deduplication table, so this is what guards its canonical enumeration.

use proptest::prelude::*;
use proptest::sample::select;
use std::collections::{BTreeSet, HashSet};
use tabula_core::Dice;
use tabula_tables::{MoveGen, Play, Position, BAR, CHECKERS};

/// A checker's location from its own side: 0 off, 1..=24 a point, 25 the bar.
type Location = u8;

/// Counts (gnubg layout: index 0..=23 the points 1..=24, index 24 the bar) from locations.
fn counts(locations: &[Location]) -> [u8; 25] {
    let mut out = [0u8; 25];
    for &l in locations.iter().filter(|&&l| l > 0) {
        out[l as usize - 1] += 1;
    }
    out
}

/// A location for a checker anywhere: mostly on a point, sometimes on the bar or off.
fn anywhere() -> impl Strategy<Value = Location> {
    prop_oneof![8 => 1..=24u8, 1 => Just(25u8), 1 => Just(0u8)]
}

/// Any legal board: the mover's checkers first, then the opponent's on the points the mover
/// left free (seen from the opponent, the mover's point `p` is `25 - p`).
fn general() -> impl Strategy<Value = Position> {
    prop::collection::vec(anywhere(), CHECKERS as usize).prop_flat_map(|mover| {
        let taken: BTreeSet<u8> = mover
            .iter()
            .copied()
            .filter(|l| (1..=24).contains(l))
            .collect();
        let mut free: Vec<Location> = (1..=24u8).filter(|&k| !taken.contains(&(25 - k))).collect();
        // Weight the bar and off like `anywhere` does, roughly.
        free.extend([0, 25, 0, 25]);
        let mover = counts(&mover);
        prop::collection::vec(select(free), CHECKERS as usize)
            .prop_map(move |opp| Position::from_counts(&mover, &counts(&opp)).unwrap())
    })
}

/// A race: every mover checker on points 1..=`split`, every opponent checker past them.
fn race() -> impl Strategy<Value = Position> {
    (1..=23u8).prop_flat_map(|split| {
        let mover = prop::collection::vec(0..=split, CHECKERS as usize);
        // The opponent's own points 1..=24 - split are the mover's split + 1..=24.
        let opponent = prop::collection::vec(0..=24 - split, CHECKERS as usize);
        (mover, opponent)
            .prop_map(|(m, o)| Position::from_counts(&counts(&m), &counts(&o)).unwrap())
    })
}

/// Both sides bearing off, with up to all 15 checkers each still on the board.
fn bear_off() -> impl Strategy<Value = Position> {
    let side = || prop::collection::vec(prop_oneof![3 => 1..=6u8, 1 => Just(0u8)], 1..=15);
    (side(), side()).prop_map(|(m, o)| Position::from_counts(&counts(&m), &counts(&o)).unwrap())
}

fn position() -> impl Strategy<Value = Position> {
    prop_oneof![3 => general(), 1 => race(), 1 => bear_off()]
}

fn dice() -> impl Strategy<Value = Dice> {
    (1..=6u8, 1..=6u8).prop_map(|(a, b)| Dice::new(a, b).unwrap())
}

/// The mover's checkers, from its own side (index = point - 1, 24 = bar).
fn mover_counts(pos: &Position) -> [u8; 25] {
    pos.to_counts()[0]
}

/// Whether the mover may move a checker from `from` (1..=25) by `d`, by the rules as written
/// in a rule book, over plain counts.
fn legal_step(pos: &Position, from: usize, d: usize) -> bool {
    let mover = mover_counts(pos);
    if mover[from - 1] == 0 || (mover[BAR - 1] > 0 && from != BAR) {
        return false;
    }
    if from > d {
        return pos.opponent_on(from - d) <= 1;
    }
    let all_home = mover[6..].iter().all(|&c| c == 0);
    let none_above = mover[from..].iter().all(|&c| c == 0);
    all_home && (from == d || none_above)
}

/// Moves a checker from `from` by `d` through the public counts API: what a step means,
/// independently of the generator's own code. Returns the position and whether it hit.
fn step(pos: &Position, from: usize, d: usize) -> (Position, bool) {
    let [mut mover, mut opponent] = pos.to_counts();
    mover[from - 1] -= 1;
    let mut hit = false;
    if from > d {
        let to = from - d;
        mover[to - 1] += 1;
        if opponent[24 - to] == 1 {
            opponent[24 - to] = 0;
            opponent[24] += 1;
            hit = true;
        }
    }
    (Position::from_counts(&mover, &opponent).unwrap(), hit)
}

/// The dice a roll gives, in play order candidates: four of a double, both orders of a mixed
/// roll.
fn orders(dice: Dice) -> Vec<Vec<usize>> {
    let (big, small) = (dice.big() as usize, dice.small() as usize);
    if dice.is_double() {
        vec![vec![big; 4]]
    } else {
        vec![vec![big, small], vec![small, big]]
    }
}

/// Every (dice used, larger die used, position) reachable by playing a prefix of `dice` in
/// order, stopping only where no step is legal.
fn explore(
    pos: &Position,
    dice: &[usize],
    used: usize,
    out: &mut HashSet<(usize, usize, Position)>,
) {
    let mut moved = false;
    if let Some((&d, rest)) = dice.split_first() {
        for from in 1..=BAR {
            if legal_step(pos, from, d) {
                moved = true;
                let first = if used == 0 { d } else { 0 };
                let mut sub = HashSet::new();
                explore(&step(pos, from, d).0, rest, used + 1, &mut sub);
                out.extend(sub.into_iter().map(|(n, f, p)| (n, f.max(first), p)));
            }
        }
    }
    if !moved && used > 0 {
        out.insert((used, 0, *pos));
    }
}

/// The legal resulting positions by brute force: every order of the dice, every point, the
/// most dice, and for a single die of a mixed roll the larger where possible.
fn reference(pos: &Position, dice: Dice) -> BTreeSet<String> {
    let mut all = HashSet::new();
    for order in orders(dice) {
        explore(pos, &order, 0, &mut all);
    }
    let most = all.iter().map(|&(n, _, _)| n).max().unwrap_or(0);
    let mut kept: Vec<_> = all.into_iter().filter(|&(n, _, _)| n == most).collect();
    if most == 1 && !dice.is_double() {
        let larger = kept.iter().map(|&(_, f, _)| f).max().unwrap_or(0);
        kept.retain(|&(_, f, _)| f == larger);
    }
    kept.into_iter().map(|(_, _, p)| p.position_id()).collect()
}

/// The dice values a roll provides, sorted.
fn dice_values(dice: Dice) -> Vec<usize> {
    orders(dice).swap_remove(0)
}

/// Replays `play` from `pos`, checking every step's legality and hit mark.
fn replay(pos: &Position, dice: Dice, play: &Play) -> Result<Position, TestCaseError> {
    let mut unused = dice_values(dice);
    let mut now = *pos;
    for s in play.steps() {
        let (from, to) = (s.from as usize, s.to as usize);
        prop_assert!(from > to, "{s:?} moves backwards");
        // The die the step used: the distance, or for bearing off the smallest die that
        // reaches (a larger die only bears off from the highest point, checked below).
        let die = if to > 0 {
            from - to
        } else {
            let fits = unused.iter().copied().filter(|&d| d >= from).min();
            fits.ok_or_else(|| TestCaseError::fail(format!("{s:?}: no die bears off")))?
        };
        let i = unused.iter().position(|&d| d == die);
        let i = i.ok_or_else(|| TestCaseError::fail(format!("{s:?}: no die {die} left")))?;
        unused.swap_remove(i);
        prop_assert!(legal_step(&now, from, die), "{s:?} illegal in {now:?}");
        let (next, hit) = step(&now, from, die);
        prop_assert_eq!(hit, s.hit, "hit mark of {:?}", s);
        now = next;
    }
    Ok(now)
}

fn pip_count(pos: &Position) -> i64 {
    i64::from(pos.mover_pips())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn flipping_twice_is_identity(pos in position()) {
        prop_assert_eq!(pos.flip().flip(), pos);
        prop_assert_eq!(pos.flip().mover_pips(), pos.opponent_pips());
    }

    #[test]
    fn counts_round_trip(pos in position()) {
        let [mover, opponent] = pos.to_counts();
        prop_assert_eq!(Position::from_counts(&mover, &opponent).unwrap(), pos);
    }

    #[test]
    fn position_id_round_trips(pos in position()) {
        prop_assert_eq!(Position::from_position_id(&pos.position_id()).unwrap(), pos);
    }

    #[test]
    fn generator_matches_brute_force_reference(pos in position(), dice in dice()) {
        let got: Vec<String> =
            MoveGen::new().positions(&pos, dice).iter().map(Position::position_id).collect();
        let set: BTreeSet<String> = got.iter().cloned().collect();
        prop_assert_eq!(set.len(), got.len(), "duplicate results");
        prop_assert_eq!(set, reference(&pos, dice), "{:?} {}", pos, dice);
    }

    #[test]
    fn plays_are_legal_distinct_and_conserve_checkers_and_pips(
        pos in position(),
        dice in dice(),
    ) {
        let mut gen = MoveGen::new();
        let fast = gen.positions(&pos, dice).to_vec();
        let (results, plays) = gen.plays(&pos, dice);
        prop_assert_eq!(&fast, results);
        prop_assert_eq!(plays.len(), results.len());
        let distinct: HashSet<Position> = results.iter().copied().collect();
        prop_assert_eq!(distinct.len(), results.len(), "duplicate results");

        let lengths: BTreeSet<usize> = plays.iter().map(|p| p.steps().len()).collect();
        prop_assert!(lengths.len() <= 1, "plays of different lengths {:?}", lengths);

        for (play, after) in plays.iter().zip(results) {
            // Every checker is somewhere: on the board, the bar, or off.
            let [mover, opponent] = after.to_counts();
            let on = |c: [u8; 25]| c.iter().map(|&n| u32::from(n)).sum::<u32>();
            prop_assert_eq!(on(mover) + u32::from(after.mover_off()), 15);
            prop_assert_eq!(on(opponent) + u32::from(after.opponent_off()), 15);
            prop_assert_eq!(after.opponent_off(), pos.opponent_off());

            // The mover's pips drop by each step's distance (the bar is 25, off is 0); the
            // opponent's grow only by hits, a blot on the mover's point `p` being the
            // opponent's point 25 - p, which goes to its bar at 25: `p` pips more.
            let moved: i64 = play.steps().iter().map(|s| i64::from(s.from) - i64::from(s.to)).sum();
            prop_assert_eq!(pip_count(&pos) - pip_count(after), moved);
            let hits: u32 = play.steps().iter().filter(|s| s.hit).map(|s| u32::from(s.to)).sum();
            prop_assert_eq!(after.opponent_pips(), pos.opponent_pips() + hits);

            // The play replays, step by legal step, to its position.
            prop_assert_eq!(replay(&pos, dice, play)?, *after, "{:?}", play);

            // Checkers left on the bar: the play only entered, and no unused die could enter.
            if after.mover_on(BAR) > 0 {
                prop_assert!(play.steps().iter().all(|s| usize::from(s.from) == BAR));
                let mut unused = dice_values(dice);
                for s in play.steps() {
                    let d = usize::from(s.from - s.to);
                    let i = unused.iter().position(|&u| u == d).unwrap();
                    unused.swap_remove(i);
                }
                for d in unused {
                    prop_assert!(after.opponent_on(BAR - d) >= 2, "could enter with {}", d);
                }
            }

            prop_assert_eq!(after.flip().flip(), *after);
            prop_assert_eq!(Position::from_position_id(&after.position_id()).unwrap(), *after);
        }
    }
}
