//! The cube efficiency of a position by its class, as measured by rollouts (issue 27).
//!
//! Janowski's interpolation ([`super::cubeful`]) needs the cube efficiency `x`: how much of
//! the fully live cube's value real play realises. One value (0.68, the one usually quoted
//! for contact play) used to serve every position. The rollouts of
//! `crates/ai/examples/cube_efficiency.rs` (docs/bots.md) measured it by class: the cube is
//! more live in every race than that, most in a long race, and somewhat more live in contact.
//! Judged by gnubg 2-ply on close money decisions those values did no better than 0.68 (they
//! move errors from early doubles to missed ones: docs/bots.md), so the searched decisions
//! ship with 0.68 ([`Efficiency::SHIPPED`]) and the classes stay for measurement.
//!
//! Classes, as the example measures them: a **race** (no contact) by the pip count of the
//! player on roll; **crashed** (contact, and a side has 8 or more checkers borne off or on
//! its own one- and two-points, a board that has given up its structure); **contact** (the
//! rest).

use super::cubeful::CUBE_EFFICIENCY;
use tabula_tables::Position;

/// The class of a position for its cube efficiency (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionClass {
    /// Contact, neither side crashed.
    Contact,
    /// Contact, a side crashed.
    Crashed,
    /// No contact, the player on roll has more than 90 pips.
    LongRace,
    /// No contact, the player on roll has 46 to 90 pips.
    MiddleRace,
    /// No contact, the player on roll has 45 pips or fewer.
    ShortRace,
}

impl PositionClass {
    /// Every class, in the order the measurements list them (the declaration order, so that
    /// `class as usize` is its index here).
    pub const ALL: [PositionClass; 5] = [
        PositionClass::Contact,
        PositionClass::Crashed,
        PositionClass::LongRace,
        PositionClass::MiddleRace,
        PositionClass::ShortRace,
    ];

    /// The class of `pos` (seen from the player on roll; only the race's split depends on
    /// whose side it is).
    pub fn of(pos: &Position) -> PositionClass {
        if pos.is_race() {
            match pos.mover_pips() {
                p if p > 90 => PositionClass::LongRace,
                p if p > 45 => PositionClass::MiddleRace,
                _ => PositionClass::ShortRace,
            }
        } else if crashed(pos) {
            PositionClass::Crashed
        } else {
            PositionClass::Contact
        }
    }

    /// The class in words.
    pub fn name(self) -> &'static str {
        match self {
            PositionClass::Contact => "contact",
            PositionClass::Crashed => "crashed",
            PositionClass::LongRace => "race, over 90 pips",
            PositionClass::MiddleRace => "race, 46 to 90 pips",
            PositionClass::ShortRace => "race, 45 pips or fewer",
        }
    }

    /// The cube efficiency of the class, measured (docs/bots.md: 200 positions a class, 144
    /// cubeless and cubeful trials each, rounded to the hundredth).
    pub fn efficiency(self) -> f32 {
        match self {
            PositionClass::Contact => 0.75,
            PositionClass::Crashed => 0.71,
            PositionClass::LongRace => 0.91,
            PositionClass::MiddleRace => 0.84,
            PositionClass::ShortRace => 0.75,
        }
    }
}

/// Whether a side of `pos` has crashed: 8 or more of its checkers off or on its own one- and
/// two-points (the player on roll's points 1 and 2, the opponent's 24 and 23). The class of
/// [`PositionClass::Crashed`] where the checkers are still in contact, and the position the
/// crashed net judges (`nn::Phase::Crashed`).
pub fn crashed(pos: &Position) -> bool {
    pos.mover_off() + pos.mover_on(1) + pos.mover_on(2) >= 8
        || pos.opponent_off() + pos.opponent_on(24) + pos.opponent_on(23) >= 8
}

/// Which cube efficiency a cube formula uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Efficiency {
    /// The measured efficiency of each position's class ([`PositionClass::efficiency`]).
    ByClass,
    /// One value for every position (0: the dead cube; 1: the fully live cube).
    Fixed(f32),
}

impl Efficiency {
    /// The efficiency the searched cube decisions use (the bots, `tabula hint`, the
    /// analysis): see docs/bots.md for how it was chosen.
    pub const SHIPPED: Efficiency = Efficiency::Fixed(CUBE_EFFICIENCY);

    /// The efficiency at `pos`.
    pub fn at(self, pos: &Position) -> f32 {
        match self {
            Efficiency::ByClass => PositionClass::of(pos).efficiency(),
            Efficiency::Fixed(x) => x,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position from `(point, checkers)` lists of each side, each from its own side (25:
    /// the bar).
    fn position(mover: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
        let counts = |side: &[(usize, u8)]| {
            let mut c = [0u8; 25];
            for &(point, n) in side {
                c[point - 1] = n;
            }
            c
        };
        Position::from_counts(&counts(mover), &counts(opponent)).expect("a legal position")
    }

    #[test]
    fn every_class_sits_at_its_own_index_of_all() {
        for (i, class) in PositionClass::ALL.into_iter().enumerate() {
            assert_eq!(class as usize, i, "{}", class.name());
        }
    }

    #[test]
    fn the_starting_position_is_contact_at_its_measured_efficiency() {
        assert_eq!(PositionClass::of(&Position::START), PositionClass::Contact);
        assert_eq!(Efficiency::ByClass.at(&Position::START), 0.75);
        assert_eq!(Efficiency::Fixed(0.68).at(&Position::START), 0.68);
    }

    #[test]
    fn a_race_is_split_by_the_pip_count_of_the_player_on_roll() {
        // 15 checkers on the mover's 7-point: 105 pips; on its 6-point: 90; on its 3-point: 45.
        let race = |point| position(&[(point, 15)], &[(6, 15)]);
        assert_eq!(PositionClass::of(&race(7)), PositionClass::LongRace);
        assert_eq!(PositionClass::of(&race(6)), PositionClass::MiddleRace);
        assert_eq!(PositionClass::of(&race(4)), PositionClass::MiddleRace);
        assert_eq!(PositionClass::of(&race(3)), PositionClass::ShortRace);
        // Seen from the other side, the same race is the opponent's 90 pips.
        assert_eq!(
            PositionClass::of(&race(7).flip()),
            PositionClass::MiddleRace
        );
        assert_eq!(Efficiency::ByClass.at(&race(7)), 0.91);
        assert_eq!(Efficiency::ByClass.at(&race(3)), 0.75);
    }

    #[test]
    fn a_crashed_board_on_either_side_makes_a_contact_position_crashed() {
        // The opponent holds the mover's 1-point (its 24-point) behind a mover with six
        // checkers off and two on its two-point: 8 counted, crashed.
        let crashed = position(&[(2, 2), (3, 3), (4, 4)], &[(24, 2), (13, 13)]);
        assert_eq!(PositionClass::of(&crashed), PositionClass::Crashed);
        assert_eq!(PositionClass::of(&crashed.flip()), PositionClass::Crashed);
        // Seven counted (one more checker on the 3-point instead): contact.
        let contact = position(&[(2, 1), (3, 4), (4, 4)], &[(24, 2), (13, 13)]);
        assert_eq!(PositionClass::of(&contact), PositionClass::Contact);
    }
}
