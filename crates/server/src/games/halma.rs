//! Grasshopper (Halma) on the wire: moves written with their full path, `a1:c3` for a step
//! or one jump and `c3:e5:e7` for a chain of jumps (the halma crate's notation, which also
//! reads `c3-e7` when the path is unambiguous), `pass`, `offer-draw`, `accept-draw`.

use super::Adapter;
use serde_json::{json, Value};
use tabula_ai::{Bot, Level};
use tabula_core::{Color, Game};
use tabula_halma::notation::{format_move, PathStyle};
use tabula_halma::{Action, BoardSize, HalmaGrasshopper};

pub(super) fn new(size: u32) -> Result<HalmaGrasshopper, String> {
    let size: BoardSize = size
        .to_string()
        .parse()
        .map_err(|e: tabula_halma::BadSize| e.to_string())?;
    Ok(HalmaGrasshopper::new(size))
}

impl Adapter for HalmaGrasshopper {
    fn legal(&self) -> Vec<(String, Action)> {
        let before = self.position();
        self.legal_actions()
            .into_iter()
            .map(|a| {
                let text = match a {
                    Action::Move(mv) => format_move(before, mv, PathStyle::Path),
                    other => other.to_string(),
                };
                (text, a)
            })
            .collect()
    }

    fn parse(&self, text: &str) -> Result<Action, String> {
        Action::parse(self.position(), text).map_err(|e| e.to_string())
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
