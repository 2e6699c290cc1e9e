//! Grasshopper's face: actions in the game's move notation as `tabula moves grasshopper`
//! lists them (`in 3`, `3-9`, `pass`, ...), the quadrant labels (`A3`, `B2-C2`) accepted on
//! input; the view lists the 24 points, the hands and the scores. Its terminal face
//! ([`crate::Terminal`]) is `terminal.rs`, its board drawn as text by [`drawing`].

pub mod drawing;
mod terminal;

use crate::error::{ActionError, OptionsError};
use crate::face::Face;
use crate::options::GameOptionsFace;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tabula_ai::{Bot, Level};
use tabula_core::{Color, GameId};
use tabula_grasshopper::notation::format_position;
use tabula_grasshopper::{Action, Cell, Checkers, Grasshopper, Point};

/// A Grasshopper game with `checkers` checkers each.
pub fn new(checkers: u32) -> Result<Grasshopper, OptionsError> {
    Ok(Grasshopper::new(Checkers::new(checkers)?))
}

/// Grasshopper with `checkers` checkers each (even, 2 to 14; default 14).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = GrasshopperOptions))]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Checkers per player.
    #[serde(default = "default_checkers")]
    pub checkers: u32,
}

/// The rules' own default, the full 14.
fn default_checkers() -> u32 {
    u32::from(Checkers::default().get())
}

impl GameOptionsFace for Options {
    const ID: GameId = GameId::Grasshopper;
    type Game = Grasshopper;

    /// `14 checkers each`.
    fn describe(&self) -> String {
        format!("{} checkers each", self.checkers)
    }

    fn new_game(&self) -> Result<Grasshopper, OptionsError> {
        new(self.checkers)
    }
}

fn cell_json(cell: Cell) -> Value {
    match cell {
        Cell::Empty => Value::Null,
        Cell::Single(c) => json!({"color": c, "count": 1}),
        Cell::Wall(c) => json!({"color": c, "count": 2}),
    }
}

impl Face for Grasshopper {
    const DICE: bool = false;

    fn text(&self, action: &Action) -> String {
        action.to_string()
    }

    fn parse(&self, text: &str) -> Result<Action, ActionError> {
        Ok(self.position().parse_move(text)?)
    }

    fn view(&self) -> Value {
        let pos = self.position();
        let points: Vec<Value> = (1..=24)
            .filter_map(|n| Point::new(n).ok())
            .map(|p| cell_json(pos.cell(p)))
            .collect();
        let both =
            |f: &dyn Fn(Color) -> u32| json!({"white": f(Color::White), "black": f(Color::Black)});
        json!({
            "game": "grasshopper",
            "checkers": pos.checkers().get(),
            "turn": pos.turn(),
            "points": points,
            "hand": both(&|c| u32::from(pos.hand(c))),
            "score": both(&|c| u32::from(pos.score(c))),
            "borne_off": both(&|c| pos.borne_off(c)),
            "last_scorer": pos.last_scorer(),
            "passed": pos.passed(),
        })
    }

    fn notation(&self) -> String {
        format_position(self.position())
    }

    fn bot(level: Level, seed: u64) -> Box<dyn Bot<Self> + Send> {
        tabula_ai::bots::grasshopper(level, seed)
            .unwrap_or_else(|_| Box::new(tabula_ai::RandomBot::<Grasshopper>::new(seed, |_| true)))
    }
}
