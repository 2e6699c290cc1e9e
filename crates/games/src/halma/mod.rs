//! Grasshopper (Halma)'s face: moves written with their full path, `a1:c3` for a step or
//! one jump and `c3:e5:e7` for a chain of jumps (the halma crate's notation, which also
//! reads `c3-e7` when the path is unambiguous), `pass`, `offer-draw`, `accept-draw`; the
//! view lists each side's squares. Its terminal face ([`crate::Terminal`]) is `terminal.rs`,
//! its board drawn as text by [`drawing`].

pub mod drawing;
mod terminal;

use crate::error::{ActionError, OptionsError};
use crate::face::Face;
use crate::options::GameOptionsFace;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tabula_ai::{Bot, Level};
use tabula_core::{Color, GameId};
use tabula_halma::notation::{format_move, PathStyle};
use tabula_halma::{Action, BoardSize, HalmaGrasshopper, HalmaOptions};

/// Grasshopper (Halma) on an 8x8 (default) or 10x10 board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = HalmaGrasshopperOptions))]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// 8 or 10.
    #[serde(default = "default_size")]
    pub size: u32,
    /// The evacuation deadline, in each player's own moves: a player with a piece still
    /// in their own starting camp after this move loses, and so does one who moves a
    /// piece back into it later. 0 switches the rule off; otherwise from the number of
    /// pieces (10 on 8x8, 15 on 10x10) to half the ply limit (200 on 8x8, 300 on 10x10).
    /// Absent or null: the board's default, 30 on 8x8 and 50 on 10x10 (a created game
    /// stores the number).
    #[serde(default)]
    pub evacuation: Option<u32>,
}

/// The board of options that name none (the server's and the command line's).
pub const DEFAULT_SIZE: BoardSize = BoardSize::Eight;

fn default_size() -> u32 {
    DEFAULT_SIZE.side().into()
}

impl GameOptionsFace for Options {
    const ID: GameId = GameId::HalmaGrasshopper;
    type Game = HalmaGrasshopper;

    /// The board's default evacuation deadline filled in (none for a size the game
    /// refuses anyway).
    fn resolved(&self) -> Options {
        Options {
            size: self.size,
            evacuation: self.evacuation.or_else(|| default_evacuation(self.size)),
        }
    }

    /// `10×10 board, evacuation after move 50`, `8×8 board, no evacuation rule`, or (not
    /// resolved) `8×8 board`.
    fn describe(&self) -> String {
        let size = self.size;
        match self.evacuation {
            Some(0) => format!("{size}×{size} board, no evacuation rule"),
            Some(n) => format!("{size}×{size} board, evacuation after move {n}"),
            None => format!("{size}×{size} board"),
        }
    }

    fn new_game(&self) -> Result<HalmaGrasshopper, OptionsError> {
        new(self.size, self.evacuation)
    }
}

fn board_size(size: u32) -> Result<BoardSize, OptionsError> {
    Ok(size.to_string().parse::<BoardSize>()?)
}

/// The board's default evacuation deadline (`None` for a size the game refuses anyway).
pub fn default_evacuation(size: u32) -> Option<u32> {
    board_size(size).ok().map(BoardSize::default_evacuation)
}

/// The evacuation deadlines accepted on a board: 0 (off), or from the number of pieces
/// (fewer moves cannot empty the camp, so the first player would always lose) to half the
/// ply limit (each side's moves before the game is drawn).
fn evacuation_range(size: BoardSize) -> std::ops::RangeInclusive<u32> {
    size.pieces()..=size.default_ply_limit() / 2
}

/// A Grasshopper (Halma) game on the `size`x`size` board with this evacuation deadline
/// (`None`: the board's default).
pub fn new(size: u32, evacuation: Option<u32>) -> Result<HalmaGrasshopper, OptionsError> {
    let size = board_size(size)?;
    if let Some(n) = evacuation {
        let range = evacuation_range(size);
        if n != 0 && !range.contains(&n) {
            return Err(OptionsError::Evacuation {
                side: size.side().into(),
                min: *range.start(),
                max: *range.end(),
                given: n,
            });
        }
    }
    let options = HalmaOptions {
        evacuation,
        ..HalmaOptions::default()
    };
    Ok(HalmaGrasshopper::from_position(
        tabula_halma::start(size),
        options,
    ))
}

impl Face for HalmaGrasshopper {
    const DICE: bool = false;

    fn text(&self, action: &Action) -> String {
        match action {
            Action::Move(mv) => format_move(self.position(), *mv, PathStyle::Path),
            other => other.to_string(),
        }
    }

    fn parse(&self, text: &str) -> Result<Action, ActionError> {
        Ok(Action::parse(self.position(), text)?)
    }

    fn view(&self) -> Value {
        let pos = self.position();
        let squares =
            |c: Color| -> Vec<String> { pos.pieces(c).squares().map(|s| s.to_string()).collect() };
        json!({
            "game": "halma-grasshopper",
            "size": pos.size().side(),
            "turn": pos.to_move(),
            "pieces": {"white": squares(Color::White), "black": squares(Color::Black)},
            "ply": pos.ply(),
            "ply_limit": self.ply_limit(),
            "evacuation": self.evacuation(),
            "draw_offer": self.draw_offer(),
        })
    }

    fn notation(&self) -> String {
        self.position().to_string()
    }

    fn bot(level: Level, seed: u64) -> Box<dyn Bot<Self> + Send> {
        tabula_ai::bots::halma(level, seed).unwrap_or_else(|_| {
            Box::new(tabula_ai::RandomBot::<HalmaGrasshopper>::new(seed, |_| {
                true
            }))
        })
    }
}
