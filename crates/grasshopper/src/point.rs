//! Points 1-24 and the four quadrants A (1-6), B (7-12), C (13-18), D (19-24).
//!
//! Both players move from low to high numbers along the same track, so a point has one number
//! for both sides. Labels `A1`..`D6` (the first seed's diagram) name the same points.

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A quadrant of six points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quadrant {
    /// Points 1-6, where checkers enter.
    A,
    /// Points 7-12.
    B,
    /// Points 13-18.
    C,
    /// Points 19-24, where walls are borne off.
    D,
}

impl Quadrant {
    /// The four quadrants in the order checkers travel.
    pub const ALL: [Quadrant; 4] = [Quadrant::A, Quadrant::B, Quadrant::C, Quadrant::D];

    /// The quadrant after this one; `None` for D.
    pub fn next(self) -> Option<Quadrant> {
        match self {
            Quadrant::A => Some(Quadrant::B),
            Quadrant::B => Some(Quadrant::C),
            Quadrant::C => Some(Quadrant::D),
            Quadrant::D => None,
        }
    }

    /// 0 for A .. 3 for D.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The bitboard mask of the quadrant's six points (bit `n - 1` is point `n`).
    pub fn mask(self) -> u32 {
        0x3f << (6 * self.index())
    }

    /// The letter, `A` to `D`.
    pub fn letter(self) -> char {
        (b'A' + self as u8) as char
    }
}

/// A point of the board, 1..=24.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

/// Text or a number that names no point.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PointError {
    /// A number outside 1..=24.
    #[error("point {0} does not exist (points are 1-24)")]
    OutOfRange(u32),
    /// Neither a number nor a label `A1`..`D6`.
    #[error("{0:?} is not a point (write 1-24 or A1-D6)")]
    Malformed(String),
}

impl Point {
    /// The point numbered `n`, refused outside 1..=24.
    pub fn new(n: u8) -> Result<Point, PointError> {
        if (1..=24).contains(&n) {
            Ok(Point(n))
        } else {
            Err(PointError::OutOfRange(n.into()))
        }
    }

    /// The point at bit `index` (0..24) of a bitboard. Panics outside 0..24, a caller bug.
    pub(crate) fn from_index(index: u32) -> Point {
        assert!(index < 24, "bit {index} is not a point");
        Point(index as u8 + 1)
    }

    /// The number, 1..=24.
    #[inline]
    pub fn number(self) -> u8 {
        self.0
    }

    /// The bit index in a bitboard, 0..24.
    #[inline]
    pub fn index(self) -> u32 {
        u32::from(self.0) - 1
    }

    /// The single-bit mask of this point.
    #[inline]
    pub fn bit(self) -> u32 {
        1 << self.index()
    }

    /// The quadrant holding the point.
    pub fn quadrant(self) -> Quadrant {
        Quadrant::ALL[usize::from((self.0 - 1) / 6)]
    }

    /// The label `A1`..`D6`.
    pub fn label(self) -> String {
        format!("{}{}", self.quadrant().letter(), (self.0 - 1) % 6 + 1)
    }

    /// The point six further on (a build's target), if on the board.
    pub fn plus_six(self) -> Option<Point> {
        Point::new(self.0 + 6).ok()
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Point {
    type Err = PointError;

    /// Accepts `1`..`24` and `A1`..`D6` (any case).
    fn from_str(s: &str) -> Result<Point, PointError> {
        let malformed = || PointError::Malformed(s.to_string());
        let t = s.trim();
        let mut chars = t.chars();
        match chars.next() {
            Some(c @ ('a'..='d' | 'A'..='D')) => {
                let q = (c.to_ascii_uppercase() as u8 - b'A') as u32;
                let rest = chars.as_str();
                let k: u32 = rest.parse().map_err(|_| malformed())?;
                if !(1..=6).contains(&k) || rest.starts_with('+') {
                    return Err(malformed());
                }
                Ok(Point((q * 6 + k) as u8))
            }
            Some('0'..='9') => {
                let n: u32 = t.parse().map_err(|_| malformed())?;
                if (1..=24).contains(&n) {
                    Ok(Point(n as u8))
                } else {
                    Err(PointError::OutOfRange(n))
                }
            }
            _ => Err(malformed()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_same_points_as_numbers() {
        for n in 1..=24u8 {
            let p = Point::new(n).unwrap();
            assert_eq!(p.label().parse::<Point>().unwrap(), p);
            assert_eq!(p.label().to_lowercase().parse::<Point>().unwrap(), p);
            assert_eq!(n.to_string().parse::<Point>().unwrap(), p);
        }
        assert_eq!("A4".parse::<Point>().unwrap().number(), 4);
        assert_eq!("B3".parse::<Point>().unwrap().number(), 9);
        assert_eq!("C5".parse::<Point>().unwrap().number(), 17);
        assert_eq!("D3".parse::<Point>().unwrap().number(), 21);
    }

    #[test]
    fn points_outside_the_board_are_refused_with_the_reason() {
        assert_eq!("25".parse::<Point>(), Err(PointError::OutOfRange(25)));
        assert_eq!("0".parse::<Point>(), Err(PointError::OutOfRange(0)));
        assert!(matches!(
            "E1".parse::<Point>(),
            Err(PointError::Malformed(_))
        ));
        assert!(matches!(
            "A7".parse::<Point>(),
            Err(PointError::Malformed(_))
        ));
        assert!(matches!(
            "A0".parse::<Point>(),
            Err(PointError::Malformed(_))
        ));
        assert!(Point::new(0).is_err() && Point::new(25).is_err());
    }

    #[test]
    fn quadrants_follow_each_other_to_d() {
        assert_eq!(Point::new(6).unwrap().quadrant(), Quadrant::A);
        assert_eq!(Point::new(7).unwrap().quadrant(), Quadrant::B);
        assert_eq!(Point::new(24).unwrap().quadrant(), Quadrant::D);
        assert_eq!(Quadrant::C.next(), Some(Quadrant::D));
        assert_eq!(Quadrant::D.next(), None);
        let all = Quadrant::ALL.iter().fold(0, |m, q| m | q.mask());
        assert_eq!(all, (1 << 24) - 1);
    }
}
