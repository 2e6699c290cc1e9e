//! `tabula moves`: every legal play of a position with given dice.
//!
//! Each game reads its position its own way and makes its entries (the dice-free games from
//! their [`Face`]'s legal actions and canonical text); one [`Listing`] prints them for all
//! four, as JSON or as a numbered list.
//!
//! One entry per distinct resulting position, in the move generator's order (deterministic,
//! and gnubg's own order of generation is not meaningful either). Each result is written in
//! the notation of the input, with the opponent on roll. Never-Finishing positions are read
//! and written in the tables notation, and their plays carry the trap mark (`13/8^`).
//!
//! Grasshopper (Halma) has no dice: its moves are those of the game built from the position
//! (`HalmaGrasshopper::legal_actions`, the draw offers left out), one per (start, end) pair,
//! each written `from-to` with the jump path beside it (`c3:e5:g7`).
//!
//! Grasshopper (the dice-free backgammon variant) has no dice either: its moves are the
//! position's `legal_actions()` in the library's order, written in its move text (`in 3`,
//! `3-9`, `9-15w`, `off 21`, `discard 20`), the pass listed alone when it is the only action.

use crate::error::bad_input;
use crate::input::{
    capitalized, grasshopper_position, halma_position, nf_position, parse_dice, refuse_checkers,
    Setup,
};
use anyhow::Result;
use serde::Serialize;
use std::io::Write;
use tabula_core::{ByColor, Color, Dice, EndReason, Game, GameId, Outcome, Status};
use tabula_games::grasshopper::drawing::status_text;
use tabula_games::Face;
use tabula_grasshopper::{Grasshopper, Position as GrasshopperPosition};
use tabula_halma::{Action, HalmaGrasshopper, HalmaOptions, Position as HalmaPosition};
use tabula_tables::notation::format_play;
use tabula_tables::Position as TablesBoard;
use tabula_tables::{TablesGen, Trapping};

/// One legal play and where it leads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveEntry {
    /// The play in gnubg's notation, e.g. `24/13`.
    #[serde(rename = "move")]
    pub play: String,
    /// The resulting position, in the input's notation, opponent on roll.
    pub position: String,
    /// Grasshopper (Halma) only: the move as a jump path (`c3:e5:g7`, one shortest chain),
    /// or `from-to` for a step (and `pass`). Absent for the backgammon games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// The JSON document `--json` prints.
#[derive(Debug, Serialize)]
struct MovesJson<'a> {
    moves: &'a [MoveEntry],
    /// Present when the position is a finished game: who won and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    end: Option<EndJson>,
}

/// A finished game as `--json` gives it: the winner (`null` for a draw), the stable code of
/// the reason, and the sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EndJson {
    /// The winner, `white` or `black`; `null` for a draw.
    pub winner: Option<Color>,
    /// The reason's stable code (`gammon`, `all-in-camp`, `not-evacuated`, ...).
    pub code: &'static str,
    /// The result in one sentence.
    pub sentence: String,
}

impl EndJson {
    /// The ending of `outcome`, the players named by colour.
    pub fn new(outcome: &Outcome) -> EndJson {
        EndJson {
            winner: outcome.winner,
            code: outcome.code(),
            sentence: outcome.sentence(colour_names()),
        }
    }
}

/// The players as the command line names them: White and Black.
pub fn colour_names() -> ByColor<&'static str> {
    ByColor {
        white: "White",
        black: "Black",
    }
}

/// The ending of a backgammon-family board on which a side has borne off all fifteen (the
/// points are the board's: 1, 2 or 3, without a cube). `on_roll` is the side the board is
/// seen from.
pub fn tables_end(board: &TablesBoard, on_roll: Color, backgammons: bool) -> Option<EndJson> {
    let (mover_won, reason) = board.bore_off_end(backgammons)?;
    let winner = if mover_won { on_roll } else { !on_roll };
    let points = match reason {
        EndReason::BoreOffGammon => 2,
        EndReason::BoreOffBackgammon => 3,
        _ => 1,
    };
    Some(EndJson::new(&Outcome::win(winner, points, reason)))
}

/// Writes the moves (or the ending) as one JSON document.
fn write_json(out: &mut dyn Write, entries: &[MoveEntry], end: Option<EndJson>) -> Result<()> {
    serde_json::to_writer(
        &mut *out,
        &MovesJson {
            moves: entries,
            end,
        },
    )?;
    writeln!(out)?;
    Ok(())
}

/// The legal plays of `position` (text) with `dice` (text, or the position's own dice).
pub fn legal_moves(position: &str, dice: Option<&str>) -> Result<(Setup, Vec<MoveEntry>)> {
    let setup = Setup::parse(position)?;
    let dice = match (dice, setup.dice) {
        (Some(text), _) => parse_dice(text)?,
        (None, Some(d)) => d,
        (None, None) => {
            return Err(bad_input(
                "--dice is required (the position does not record dice)",
            ))
        }
    };
    if setup.board.bore_off_end(true).is_some() {
        let mut setup = setup;
        setup.dice = Some(dice);
        return Ok((setup, Vec::new()));
    }
    let entries = setup
        .board
        .legal_plays(dice)
        .iter()
        .map(|(play, after)| MoveEntry {
            play: format_play(play),
            position: setup.encode_after(after),
            path: None,
        })
        .collect();
    let mut setup = setup;
    setup.dice = Some(dice);
    Ok((setup, entries))
}

/// The legal Never-Finishing plays of `position` (`start` or tables notation) with `dice`,
/// which the notation does not record, so they are required. Hits are marked `*`, traps `^`;
/// a blot that may be hit or trapped gives two entries, as the two results differ.
pub fn nf_legal_moves(position: &str, dice: Option<&str>) -> Result<(Dice, Vec<MoveEntry>)> {
    let before = nf_position(position)?;
    let Some(text) = dice else {
        return Err(bad_input(
            "--dice is required (a tables position does not record dice)",
        ));
    };
    let dice = parse_dice(text)?;
    if before.position.bore_off_end(false).is_some() {
        return Ok((dice, Vec::new()));
    }
    let mut gen = TablesGen::new();
    let (positions, plays) = gen.plays(&before.position, dice, Trapping::On);
    let entries = positions
        .iter()
        .zip(plays)
        .map(|(after, play)| MoveEntry {
            play: format_play(play),
            position: before.after_move(*after).to_string(),
            path: None,
        })
        .collect();
    Ok((dice, entries))
}

/// The rules a Grasshopper (Halma) game is played under, in words: `ply limit 400,
/// evacuation by move 30` (or `no evacuation rule`).
pub fn halma_rules_text(game: &HalmaGrasshopper) -> String {
    match game.evacuation() {
        0 => format!("ply limit {}, no evacuation rule", game.ply_limit()),
        n => format!("ply limit {}, evacuation by move {n}", game.ply_limit()),
    }
}

/// The legal actions of a game (through its [`Face`]: each with its canonical text), each
/// made an entry by `entry`; the actions it turns down (no move) are left out.
fn face_entries<F: Face>(
    game: &F,
    entry: impl Fn(String, &F::Action) -> Option<MoveEntry>,
) -> Vec<MoveEntry> {
    game.legal()
        .into_iter()
        .filter_map(|(text, action)| entry(text, &action))
        .collect()
}

/// The legal moves of a Grasshopper (Halma) position as the game from that position (with
/// `options`) lists them: each move once, or the single `pass` when the side to move has
/// none. A game already over (a winner, a loss by the evacuation rule, or the ply count at
/// the limit) has none; its outcome comes back to say why.
pub fn halma_legal_moves(
    before: HalmaPosition,
    options: HalmaOptions,
) -> (Option<Outcome>, Vec<MoveEntry>) {
    let game = HalmaGrasshopper::from_position(before, options);
    if let Status::Over(outcome) = game.status() {
        return (Some(outcome), Vec::new());
    }
    // The canonical text of a move is its jump path; the move itself is listed from-to.
    let entries = face_entries(&game, |path, action| match *action {
        Action::Move(mv) => Some(MoveEntry {
            play: mv.to_string(),
            position: before.play_unchecked(mv.from, mv.to).to_string(),
            path: Some(path),
        }),
        Action::Pass => Some(MoveEntry {
            play: path.clone(),
            position: before.pass_unchecked().to_string(),
            path: Some(path),
        }),
        // Offering or accepting a draw is no move: it changes no position.
        Action::OfferDraw | Action::AcceptDraw => None,
    });
    (None, entries)
}

/// `tabula moves halma-grasshopper`: no dice, `--size` for `start`, `--evacuation`.
fn run_halma(out: &mut dyn Write, position: &str, options: MovesOptions) -> Result<()> {
    if options.dice.is_some() {
        return Err(bad_input(
            "--dice does not apply: halma-grasshopper is played without dice",
        ));
    }
    let before = halma_position(position, options.size)?;
    let rules = HalmaOptions {
        ply_limit: None,
        evacuation: options.evacuation,
    };
    let (end, entries) = halma_legal_moves(before, rules);
    let listing = Listing {
        end: end.as_ref().map(EndJson::new),
        subject: format!("for {}", capitalized(before.to_move())),
        none: "No legal move.".to_string(),
        column: |e| e.path.as_deref().unwrap_or(&e.play),
        entries,
    };
    listing.print(out, options.json)
}

/// The legal actions of a Grasshopper position, each with its result (opponent to move): the
/// single `pass` when nothing else is legal, none once the game is over.
pub fn grasshopper_legal_moves(before: &GrasshopperPosition) -> Vec<MoveEntry> {
    let game = Grasshopper::from_position(*before);
    face_entries(&game, |play, &action| {
        Some(MoveEntry {
            play,
            position: before
                .play(action)
                .expect("a generated action is legal")
                .to_string(),
            path: None,
        })
    })
}

/// `tabula moves grasshopper`: no dice, `--checkers` for `start`.
fn run_grasshopper(out: &mut dyn Write, position: &str, options: MovesOptions) -> Result<()> {
    if options.dice.is_some() {
        return Err(bad_input(
            "--dice does not apply: grasshopper is played without dice",
        ));
    }
    if options.size.is_some() {
        return Err(bad_input(
            "--size is a halma-grasshopper option: grasshopper is played on the 24 points",
        ));
    }
    let before = grasshopper_position(position, options.checkers)?;
    let names = tabula_games::terminal::names();
    let listing = Listing {
        entries: grasshopper_legal_moves(&before),
        end: before.outcome().as_ref().map(EndJson::new),
        subject: format!("for {}", capitalized(before.turn())),
        none: format!("No legal move: {}.", status_text(&before, &names)),
        column: |e| &e.play,
    };
    listing.print(out, options.json)
}

/// The answer of `tabula moves` for any game: its moves, or how the game ended; printed as
/// JSON or as a numbered list.
struct Listing {
    /// The moves, in the game's order.
    entries: Vec<MoveEntry>,
    /// The ending, when the position is a finished game.
    end: Option<EndJson>,
    /// Whose moves these are, after "legal moves": `with 3-1`, `for White`.
    subject: String,
    /// The line for no move in a game not over.
    none: String,
    /// The text of a move in the list (its path, for Grasshopper (Halma)).
    column: fn(&MoveEntry) -> &str,
}

impl Listing {
    /// Prints the listing: one JSON document, or a header and one numbered line per move,
    /// the move's text padded to the longest, then the position it leads to.
    fn print(self, out: &mut dyn Write, json: bool) -> Result<()> {
        let Listing {
            entries,
            end,
            subject,
            none,
            column,
        } = self;
        if json {
            return write_json(out, &entries, end);
        }
        match (entries.len(), end) {
            (0, Some(end)) => writeln!(out, "No legal move: {}", end.sentence)?,
            (0, None) => writeln!(out, "{none}")?,
            (1, _) => writeln!(out, "1 legal move {subject}:")?,
            (n, _) => writeln!(out, "{n} legal moves {subject}:")?,
        }
        let width = entries.iter().map(|e| column(e).len()).max().unwrap_or(0);
        let digits = entries.len().to_string().len();
        for (i, e) in entries.iter().enumerate() {
            writeln!(
                out,
                "{:>digits$}. {:<width$}  {}",
                i + 1,
                column(e),
                e.position
            )?;
        }
        Ok(())
    }
}

/// What `tabula moves` was asked, beyond the game and the position.
#[derive(Debug, Clone, Copy, Default)]
pub struct MovesOptions<'a> {
    /// The dice (the dice games).
    pub dice: Option<&'a str>,
    /// The board size of `start` (Grasshopper (Halma) only).
    pub size: Option<&'a str>,
    /// The checkers each of `start` (Grasshopper only).
    pub checkers: Option<u32>,
    /// The evacuation deadline (Grasshopper (Halma) only; default by board, 0 off).
    pub evacuation: Option<u32>,
    /// Print JSON.
    pub json: bool,
}

/// Runs the command.
pub fn run(out: &mut dyn Write, game: GameId, position: &str, options: MovesOptions) -> Result<()> {
    let MovesOptions {
        dice, size, json, ..
    } = options;
    if game == GameId::Grasshopper {
        return run_grasshopper(out, position, options);
    }
    refuse_checkers(options.checkers, game)?;
    if game != GameId::HalmaGrasshopper && options.evacuation.is_some() {
        return Err(bad_input(format!(
            "--evacuation is a halma-grasshopper option: {game} has no starting camp"
        )));
    }
    let (dice, entries, end) = match game {
        GameId::HalmaGrasshopper => return run_halma(out, position, options),
        GameId::Grasshopper => unreachable!("answered above"),
        _ if size.is_some() => {
            return Err(bad_input(format!(
                "--size is a halma-grasshopper option: {game} has no board size to choose"
            )))
        }
        GameId::Backgammon => {
            let (setup, entries) = legal_moves(position, dice)?;
            let end = tables_end(&setup.board, setup.on_roll, true);
            (setup.dice, entries, end)
        }
        GameId::NeverFinishing => {
            let (dice, entries) = nf_legal_moves(position, dice)?;
            let before = nf_position(position)?;
            let end = tables_end(&before.position, before.to_move, false);
            (Some(dice), entries, end)
        }
    };
    let dice = dice.map(|d| d.to_string()).unwrap_or_default();
    let listing = Listing {
        entries,
        end,
        subject: format!("with {dice}"),
        none: format!("No legal move with {dice}."),
        column: |e| &e.play,
    };
    listing.print(out, json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_finishing_start_with_5_3_runs_or_splits_from_the_24_point() {
        let (dice, entries) = nf_legal_moves("start", Some("5-3")).unwrap();
        assert_eq!(dice.to_string(), "5-3");
        let texts: Vec<&str> = entries.iter().map(|e| e.play.as_str()).collect();
        assert!(texts.contains(&"24/16"), "{texts:?}");
        assert!(texts.contains(&"24/21 24/19"), "{texts:?}");
        assert!(entries.iter().all(|e| e.position.ends_with(":b")));
    }

    #[test]
    fn never_finishing_needs_dice() {
        let err = nf_legal_moves("start", None).unwrap_err();
        assert!(err.to_string().contains("--dice"), "{err}");
    }

    #[test]
    fn halma_start_has_24_moves_each_with_its_result_black_to_move() {
        let (end, entries) = halma_legal_moves(
            halma_position("start", None).unwrap(),
            HalmaOptions::default(),
        );
        assert_eq!(end, None);
        assert_eq!(entries.len(), 24);
        assert!(entries.iter().all(|e| e.position.ends_with(":b:1")));
        // A jump is listed from-to, with its path beside it; a step has no other form.
        let jump = entries.iter().find(|e| e.play == "a3-a5").unwrap();
        assert_eq!(jump.path.as_deref(), Some("a3:a5"));
        let step = entries.iter().find(|e| e.play == "a4-b5").unwrap();
        assert_eq!(step.path.as_deref(), Some("a4-b5"));
    }

    #[test]
    fn grasshopper_moves_are_the_library_actions_with_their_results() {
        let start = grasshopper_position("start", Some(2)).unwrap();
        let entries = grasshopper_legal_moves(&start);
        let texts: Vec<&str> = entries.iter().map(|e| e.play.as_str()).collect();
        assert_eq!(texts, ["in 1", "in 2", "in 3", "in 4", "in 5", "in 6"]);
        assert_eq!(
            entries[2].position,
            "..w.../....../....../...... b 1-2 0-0 - 2"
        );
        // White cannot enter (A is full) and has nothing on the board: the pass alone.
        let stuck = "bbbbbb/....../....../...... w 14-8 0-0 - 14";
        let entries = grasshopper_legal_moves(&grasshopper_position(stuck, None).unwrap());
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].play, "pass");
        assert_eq!(
            entries[0].position,
            "bbbbbb/....../....../...... b 14-8 0-0 p 14"
        );
        let won = grasshopper_position("bb..../....../....../...... b 0-2 2#-0 - 4", None);
        assert!(grasshopper_legal_moves(&won.unwrap()).is_empty());
    }

    #[test]
    fn a_finished_halma_game_has_no_moves_and_says_why() {
        // All White pieces in Black's camp: White has won.
        let won = "8:4wwww/5www/6ww/7w/b7/bb6/bbb5/bbbb4:b:60";
        let (end, entries) =
            halma_legal_moves(halma_position(won, None).unwrap(), HalmaOptions::default());
        assert!(entries.is_empty());
        let end = EndJson::new(&end.unwrap());
        assert_eq!(end.code, "all-in-camp");
        assert_eq!(
            end.sentence,
            "White wins 1 point: all of White's pieces stand in Black's starting camp."
        );
    }
}
