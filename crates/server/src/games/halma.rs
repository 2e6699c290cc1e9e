//! Grasshopper (Halma) on the wire: moves as `c3-e5` (a path `c3-e5-g7` is accepted and
//! written for chains of jumps), `pass`, `offer-draw`, `accept-draw`.

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
