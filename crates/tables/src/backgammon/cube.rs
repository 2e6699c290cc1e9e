//! The doubling cube: its value and who may turn it.

use super::options::MAX_CUBE;
use serde::{Deserialize, Serialize};
use tabula_core::Color;

/// The doubling cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cube {
    value: u32,
    owner: Option<Color>,
}

impl Default for Cube {
    fn default() -> Cube {
        Cube::CENTRED
    }
}

impl Cube {
    /// The cube at the start of a game: 1, in the middle.
    pub const CENTRED: Cube = Cube {
        value: 1,
        owner: None,
    };

    /// A cube of `value` (a power of two up to [`MAX_CUBE`]) owned by `owner` (`None`:
    /// centred). Returns `None` for an impossible value.
    pub fn new(value: u32, owner: Option<Color>) -> Option<Cube> {
        (value.is_power_of_two() && value <= MAX_CUBE).then_some(Cube { value, owner })
    }

    /// The stake multiplier.
    pub fn value(&self) -> u32 {
        self.value
    }

    /// The player who owns the cube, `None` when centred.
    pub fn owner(&self) -> Option<Color> {
        self.owner
    }

    /// Whether `player` holds the right to double (centred, or owned by them) and the cube
    /// can still go higher.
    pub fn may_double(&self, player: Color) -> bool {
        self.owner.is_none_or(|o| o == player) && self.value * 2 <= MAX_CUBE
    }

    /// The cube after `taker` accepted a double.
    pub(crate) fn taken_by(self, taker: Color) -> Cube {
        Cube {
            value: self.value * 2,
            owner: Some(taker),
        }
    }

    /// The cube after `beaverer` beavered a double: turned twice, kept by the beaverer.
    pub(crate) fn beavered_by(self, beaverer: Color) -> Cube {
        Cube {
            value: self.value * 4,
            owner: Some(beaverer),
        }
    }

    /// The centred cube after an automatic double on an opening tie.
    pub(crate) fn auto_doubled(self) -> Cube {
        Cube {
            value: self.value * 2,
            owner: None,
        }
    }
}
