//! A player's preferences for the browser client: automatic roll, confirm and pass, the
//! animation's speed, the board's orientation and colours. Stored per player (guests
//! included); the client keeps a visitor's in the browser.

use crate::auth::Auth;
use crate::error::{ApiError, Json};
use crate::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How fast moves are animated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Animation {
    /// No animation.
    Off,
    /// Fast.
    Fast,
    /// Normal (the default).
    #[default]
    Normal,
    /// Slow.
    Slow,
}

/// Where the home board is drawn (backgammon and Never-Finishing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Orientation {
    /// Home board on the right (the default).
    #[default]
    HomeRight,
    /// Home board on the left.
    HomeLeft,
}

/// The board's colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Colours {
    /// The default.
    #[default]
    Classic,
    /// Higher contrast.
    Contrast,
    /// Blue tones.
    Blue,
}

/// A player's preferences. Every field has a default, so a stored value from an older
/// client still reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Preferences {
    /// Roll automatically when no cube decision is possible.
    #[serde(default)]
    pub auto_roll: bool,
    /// Play the only legal play without a Confirm click.
    #[serde(default)]
    pub auto_confirm: bool,
    /// Pass automatically when no move is possible.
    #[serde(default)]
    pub auto_pass: bool,
    /// The animation's speed.
    #[serde(default)]
    pub animation: Animation,
    /// The board's orientation.
    #[serde(default)]
    pub orientation: Orientation,
    /// The board's colours.
    #[serde(default)]
    pub colours: Colours,
    /// Say "Your move" in the tab's title while it is your turn (default on).
    #[serde(default = "on")]
    pub turn_title: bool,
    /// A tone when your turn begins and at 10 s left on your clock (default off).
    #[serde(default)]
    pub turn_sound: bool,
}

fn on() -> bool {
    true
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences {
            auto_roll: false,
            auto_confirm: false,
            auto_pass: false,
            animation: Animation::default(),
            orientation: Orientation::default(),
            colours: Colours::default(),
            turn_title: true,
            turn_sound: false,
        }
    }
}

/// The logged-in player's preferences (the defaults until saved).
#[utoipa::path(get, path = "/api/me/preferences",
    responses((status = 200, body = Preferences), (status = 401, body = crate::error::ErrorBody)))]
pub async fn get(
    State(state): State<AppState>,
    Auth(me): Auth,
) -> Result<Json<Preferences>, ApiError> {
    let stored = state.db.preferences(&me.id).await?;
    let prefs = stored
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    Ok(Json(prefs))
}

/// Saves the logged-in player's preferences; an unknown field or value is refused (400
/// `bad_json`)
/// and changes nothing.
#[utoipa::path(put, path = "/api/me/preferences", request_body = Preferences,
    responses((status = 200, body = Preferences), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody)))]
pub async fn put(
    State(state): State<AppState>,
    Auth(me): Auth,
    Json(prefs): Json<Preferences>,
) -> Result<Json<Preferences>, ApiError> {
    let text = serde_json::to_string(&prefs).map_err(ApiError::internal)?;
    state.db.set_preferences(&me.id, &text).await?;
    Ok(Json(prefs))
}
