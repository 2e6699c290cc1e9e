//! A game's options as the server takes them in JSON: one struct per game, written in the
//! game's folder beside its face ([`crate::backgammon::Options`], ...), with its defaults,
//! the defaults it fills in when a game is created, its description in words, its match
//! length and the game it makes ([`GameOptionsFace`]). [`AnyOptions`] is any of them behind
//! one object type, so that a front end's list of games (the server's `GameOptions`, tagged
//! by `game`) names each game once and delegates the rest; with the `openapi` feature,
//! [`tagged_schema`] gives one game's shape in that list's OpenAPI schema.

use crate::dynamic::AnyFace;
use crate::error::OptionsError;
use crate::face::Face;
use serde::de::DeserializeOwned;
use serde::Serialize;
use tabula_core::GameId;

/// A game's options: the JSON shape (every field has a default) and what they mean.
pub trait GameOptionsFace: Clone + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The game the options are for; its name (`halma-grasshopper`) tags them in JSON.
    const ID: GameId;

    /// The game the options make.
    type Game: Face;

    /// The options with the defaults that depend on other options filled in, as a created
    /// game stores them (a later change of a default then cannot change how a stored game
    /// replays); unchanged where no default depends on another option.
    fn resolved(&self) -> Self {
        self.clone()
    }

    /// The options in words, as the lobby shows an open seat (`5-point match`).
    fn describe(&self) -> String;

    /// The match length, for the rating formulas of matches (FIBS); `None` for money play
    /// and for the games without matches.
    fn match_length(&self) -> Option<u32> {
        None
    }

    /// A new game with these options, or why they are refused.
    fn new_game(&self) -> Result<Self::Game, OptionsError>;
}

/// Any game's options behind one object type (every [`GameOptionsFace`] is one).
pub trait AnyOptions {
    /// Which game the options are for.
    fn game_id(&self) -> GameId;
    /// [`GameOptionsFace::describe`].
    fn describe(&self) -> String;
    /// [`GameOptionsFace::match_length`].
    fn match_length(&self) -> Option<u32>;
    /// A new game with these options behind [`AnyFace`], or why they are refused.
    fn new_face(&self) -> Result<Box<dyn AnyFace>, OptionsError>;
}

impl<O: GameOptionsFace> AnyOptions for O {
    fn game_id(&self) -> GameId {
        O::ID
    }

    fn describe(&self) -> String {
        GameOptionsFace::describe(self)
    }

    fn match_length(&self) -> Option<u32> {
        GameOptionsFace::match_length(self)
    }

    fn new_face(&self) -> Result<Box<dyn AnyFace>, OptionsError> {
        Ok(Box::new(self.new_game()?))
    }
}

/// One game's shape in the OpenAPI schema of a list of games' options tagged by `game` (as
/// `#[serde(tag = "game")]` writes them): the options' own object, its description the
/// struct's documentation, with the required property `game` whose one value is the game's
/// name: the schema utoipa derives for an enum variant with named fields.
#[cfg(feature = "openapi")]
pub fn tagged_schema<O>() -> utoipa::openapi::Schema
where
    O: GameOptionsFace + utoipa::PartialSchema,
{
    use utoipa::openapi::schema::{Object, Schema, Type};
    use utoipa::openapi::RefOr;
    let RefOr::T(Schema::Object(mut object)) = O::schema() else {
        unreachable!("the options of {} are an inline object", O::ID)
    };
    let tag = Object::builder()
        .schema_type(Type::String)
        .enum_values(Some([O::ID.as_str()]))
        .build();
    object.properties.insert("game".into(), tag.into());
    object.required.push("game".into());
    // The options refuse unknown fields (`deny_unknown_fields`), which the derived object
    // says as `additionalProperties: false`; the schema derived for an enum variant never
    // said it, and the API's document stays as it was.
    object.additional_properties = None;
    Schema::Object(object)
}
