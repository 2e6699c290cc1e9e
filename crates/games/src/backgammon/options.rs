//! Backgammon's options as the server takes them in JSON (`{"game": "backgammon",
//! "match_length": 5}`), their defaults, their description in words and the game they make.
//! The documentation of the struct and its fields is the API's (the OpenAPI schema).

use crate::error::OptionsError;
use crate::options::GameOptionsFace;
use serde::{Deserialize, Serialize};
use tabula_core::GameId;
use tabula_tables::backgammon::Backgammon;

/// Backgammon: a match to `match_length` points, or (no length) one money game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = BackgammonOptions))]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Points to win the match, 1 to 64; absent for money play.
    #[serde(default)]
    pub match_length: Option<u32>,
    /// The Crawford rule in a match (default on).
    #[serde(default = "yes")]
    pub crawford: bool,
    /// Money: beavers allowed (default on).
    #[serde(default = "yes")]
    pub beavers: bool,
    /// Money: the Jacoby rule (default on).
    #[serde(default = "yes")]
    pub jacoby: bool,
    /// Money: how many automatic doubles an opening tie may cause (default 0).
    #[serde(default)]
    pub automatic_doubles: u8,
}

fn yes() -> bool {
    true
}

impl GameOptionsFace for Options {
    const ID: GameId = GameId::Backgammon;
    type Game = Backgammon;

    /// `5-point match` (`... without the Crawford rule`), or `money game, beavers, Jacoby
    /// rule, up to 2 automatic doubles` (the rules that apply).
    fn describe(&self) -> String {
        let Some(n) = self.match_length else {
            let mut parts = vec!["money game".to_string()];
            if self.beavers {
                parts.push("beavers".into());
            }
            if self.jacoby {
                parts.push("Jacoby rule".into());
            }
            if self.automatic_doubles > 0 {
                parts.push(format!(
                    "up to {} automatic doubles",
                    self.automatic_doubles
                ));
            }
            return parts.join(", ");
        };
        let crawford = if self.crawford {
            ""
        } else {
            " without the Crawford rule"
        };
        format!("{n}-point match{crawford}")
    }

    fn match_length(&self) -> Option<u32> {
        self.match_length
    }

    fn new_game(&self) -> Result<Backgammon, OptionsError> {
        super::new(
            self.match_length,
            self.crawford,
            self.beavers,
            self.jacoby,
            self.automatic_doubles,
        )
    }
}
