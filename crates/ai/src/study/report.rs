//! The analysis of a session as data for people and programs: one record per decision (the
//! dice, the play made and the best in gnubg's notation, the error, its mark, the luck, the
//! value for the equity graph, the proper cube action) and one per player (error rates and
//! rating). `tabula analyse --json` prints them and the server stores them with the game.

use super::analyse::{rating, Analysis, Decision, Kind, PlayerStats, Step};
use super::hint::HintPlay;
use serde::Serialize;
use tabula_core::{ByColor, Color};
use tabula_tables::notation::{format_play, session_ids};
use tabula_tables::Position;

/// The play from `before` to `after` in gnubg's notation.
pub fn play_text(before: &Position, after: &Position, dice: tabula_core::Dice) -> String {
    before
        .legal_plays(dice)
        .iter()
        .find(|(_, a)| a == after)
        .map(|(play, _)| format_play(play))
        .unwrap_or_else(|| "(no play)".to_string())
}

/// One decision.
#[derive(Debug, Clone, Serialize)]
pub struct DecisionReport {
    /// The game of the session (1 first).
    pub game: u32,
    /// Its index among the session's decisions.
    pub step: usize,
    /// Who decided.
    pub player: Color,
    /// `move`, `double`, `no-double`, `take`, `pass`.
    pub kind: &'static str,
    /// The dice of a play.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
    /// The play made, in gnubg's notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played: Option<String>,
    /// The best play found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The cube's value at the decision.
    pub cube: u32,
    /// EMG given up.
    pub error: f32,
    /// `""`, `doubtful`, `bad`, `very bad`.
    pub mark: &'static str,
    /// Counted in the error rates (an unforced play, an acted-on or close cube decision).
    pub counted: bool,
    /// A play's luck of the roll, EMG, for the mover.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub luck: Option<f32>,
    /// The decider's value with the right choice (EMG): the equity graph.
    pub value: f32,
    /// Cube decisions: the proper cube action, in gnubg's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proper: Option<String>,
    /// Chequer plays: the best plays found (at most five), best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<AlternativeReport>,
    /// The position the decision was made in, as an XGID (cube, score and the dice of a
    /// play included; a double on offer as `D`): to study it with `tabula hint`, on the
    /// analysis board, in gnubg or in XG. Backgammon only (Never-Finishing has no XGID).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xgid: Option<String>,
}

/// One of the best plays of a decision: ranked as a hint ranks it (`equity` and `diff` in
/// EMG), and whether it is the play made.
#[derive(Debug, Clone, Serialize)]
pub struct AlternativeReport {
    /// The play with its rank, value, difference, chances and depth.
    #[serde(flatten)]
    pub choice: HintPlay,
    /// It is the play made.
    pub played: bool,
}

/// One player's totals.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerReport {
    /// The player's name.
    pub name: String,
    /// The colour played.
    pub colour: Color,
    /// Unforced chequer plays.
    pub chequer_decisions: u32,
    /// Chequer play error rate, mEMG per unforced play.
    pub chequer_error_rate: f64,
    /// Cube decisions counted (acted on or close).
    pub cube_decisions: u32,
    /// Cube error rate, mEMG per counted decision.
    pub cube_error_rate: f64,
    /// Overall error rate, mEMG per counted decision.
    pub overall_error_rate: f64,
    /// The rating label of the overall rate (gnubg's table).
    pub rating: &'static str,
    /// Total luck of the player's rolls, EMG.
    pub luck: f64,
    /// Decisions marked doubtful.
    pub doubtful: u32,
    /// Decisions marked bad.
    pub bad: u32,
    /// Decisions marked very bad.
    pub very_bad: u32,
}

/// The report of `s`, the totals of `name` playing `colour`.
pub fn player_report(name: &str, colour: Color, s: &PlayerStats) -> PlayerReport {
    PlayerReport {
        name: name.to_string(),
        colour,
        chequer_decisions: s.moves,
        chequer_error_rate: s.chequer_rate(),
        cube_decisions: s.cube_decisions,
        cube_error_rate: s.cube_rate(),
        overall_error_rate: s.overall_rate(),
        rating: rating(s.overall_rate()),
        luck: s.luck,
        doubtful: s.marks[0],
        bad: s.marks[1],
        very_bad: s.marks[2],
    }
}

/// The report of `d`, one of the decisions of `steps`.
pub fn decision_report(d: &Decision, steps: &[Step]) -> DecisionReport {
    let board = steps[d.step].0.game().board();
    let (kind, dice, played, best) = match d.kind {
        Kind::Move {
            dice, played, best, ..
        } => (
            "move",
            Some(dice.to_string()),
            Some(play_text(&board, &played, dice)),
            Some(play_text(&board, &best, dice)),
        ),
        Kind::Double(true) => ("double", None, None, None),
        Kind::Double(false) => ("no-double", None, None, None),
        Kind::Answer(true) => ("take", None, None, None),
        Kind::Answer(false) => ("pass", None, None, None),
    };
    let best_value = d.alternatives[0].map_or(0.0, |a| a.value);
    let alternatives = match d.kind {
        Kind::Move { dice, played, .. } => d
            .alternatives
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, a)| AlternativeReport {
                choice: HintPlay {
                    rank: i + 1,
                    play: play_text(&board, &a.play.after, dice),
                    equity: a.value,
                    diff: a.value - best_value,
                    chances: (&a.play.chances).into(),
                    plies: a.play.plies,
                    blended: a.play.blended,
                    after: a.play.after,
                },
                played: a.play.after == played,
            })
            .collect(),
        _ => Vec::new(),
    };
    DecisionReport {
        alternatives,
        game: d.game,
        step: d.step,
        player: d.player,
        kind,
        dice,
        played,
        best,
        cube: d.cube,
        error: d.error,
        mark: d.mark.label(),
        counted: d.counted,
        luck: d.luck,
        value: d.value,
        proper: d.cube_analysis.map(|a| a.verdict()),
        xgid: Some(session_ids(&steps[d.step].0).xgid),
    }
}

/// Both players' reports, White's first, under their `names`.
pub fn players(names: &ByColor<String>, analysis: &Analysis) -> [PlayerReport; 2] {
    [
        player_report(&names.white, Color::White, &analysis.white),
        player_report(&names.black, Color::Black, &analysis.black),
    ]
}
