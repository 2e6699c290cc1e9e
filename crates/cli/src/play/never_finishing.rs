//! Never-Finishing backgammon at the terminal: the session (no cube: every decision is a
//! play, and the dice are rolled for the player), the bots, and the [`Table`] the common loop
//! drives. Moves are read and written in the extended notation: `13/8*` hits, `13/8^` traps.

use super::human::{Command, NF_HELP};
use super::nf_narrate::{nf_score_text, NfNarrator};
use super::{final_line, names, Table};
use crate::board::{render, BoardView, HomeSide, Layout, ScoreView};
use crate::error::bad_input;
use crate::PlayArgs;
use anyhow::Result;
use tabula_ai::{bots, Level};
use tabula_core::{ByColor, Color, Decision, DiceRoll, Game, Outcome, Status};
use tabula_tables::never_finishing::{
    Action, BadLength, NeverFinishing, NfGame, NfOptions, Scoring,
};
use tabula_tables::notation::{format_play, match_play_nf};
use tabula_tables::{TablesGen, Trapping};

/// The session options from the command line: a match (3 points unless `--match N`) or money
/// games. The cube and Crawford options are backgammon's and refused here.
pub fn options(args: &PlayArgs, two_bots: bool) -> Result<NfOptions> {
    let cube_flags = [
        (args.no_crawford, "--no-crawford"),
        (args.no_beavers, "--no-beavers"),
        (args.no_jacoby, "--no-jacoby"),
        (args.auto_doubles != 0, "--auto-doubles"),
    ];
    if let Some((_, flag)) = cube_flags.iter().find(|(given, _)| *given) {
        return Err(bad_input(format!(
            "{flag} is a backgammon option: never-finishing has no cube"
        )));
    }
    let scoring = if args.money {
        if args.games == Some(0) {
            return Err(bad_input("--games must be at least 1"));
        }
        // Bots would play for ever: without --games they play one game.
        Scoring::Money {
            games: args.games.or(two_bots.then_some(1)),
        }
    } else {
        let length = args.match_length.unwrap_or(3);
        let length = u8::try_from(length)
            .ok()
            .filter(|n| (1..=64).contains(n))
            .ok_or_else(|| bad_input(BadLength(length).to_string()))?;
        Scoring::Match { length }
    };
    Ok(NfOptions {
        scoring,
        trapping: Trapping::On,
    })
}

/// A Never-Finishing session at the terminal.
pub struct NfTable {
    session: NeverFinishing,
    /// Each side's bot; `None` for a person.
    bots: super::DiceBots<NeverFinishing>,
    narrator: NfNarrator,
    /// The game before the last action, to tell which play a move was.
    before: NfGame,
    names: ByColor<String>,
}

/// The table for `options`, and the words that open the session.
pub fn table(
    options: NfOptions,
    levels: ByColor<Option<Level>>,
    seed: u64,
) -> Result<(NfTable, String)> {
    let what = match options.scoring {
        Scoring::Match { length } => format!("Never-Finishing match to {length}"),
        Scoring::Money { games: Some(1) } => "Never-Finishing money play, 1 game".to_string(),
        Scoring::Money { games: Some(n) } => format!("Never-Finishing money play, {n} games"),
        Scoring::Money { games: None } => "Never-Finishing money play".to_string(),
    };
    let session = NeverFinishing::new(options).map_err(|e| bad_input(e.to_string()))?;
    let names = names();
    let table = NfTable {
        before: session.game().clone(),
        session,
        bots: super::make_bots(levels, seed, bots::never_finishing)?,
        narrator: NfNarrator::new(names.clone()),
        names,
    };
    Ok((table, what))
}

fn match_length(session: &NeverFinishing) -> Option<u32> {
    match session.options().scoring {
        Scoring::Match { length } => Some(length.into()),
        Scoring::Money { .. } => None,
    }
}

impl NfTable {
    /// The drawing's contents.
    fn view(&self) -> BoardView {
        let game = self.session.game();
        let mut view = BoardView::new(game.board(), game.turn());
        view.names = self.names.clone();
        view.score = Some(ScoreView {
            points: self.session.score(),
            match_length: match_length(&self.session),
        });
        view.dice = game.dice();
        view.status = Some(self.status_line());
        view
    }
}

impl Table for NfTable {
    type Action = Action;

    fn status(&self) -> Status {
        self.session.status()
    }

    fn event_count(&self) -> usize {
        self.session.events().len()
    }

    fn roll(&mut self, roll: DiceRoll) -> Result<()> {
        super::roll_dice(&mut self.session, roll)
    }

    fn bot_acts(&mut self, player: Color) -> Result<bool> {
        super::bot_turn(&mut self.session, &mut self.bots, player)
    }

    fn apply(&mut self, action: Action) -> Result<(), String> {
        self.session.apply(&action).map_err(|e| {
            let mut s = e.to_string();
            if let Some(first) = s.get(0..1) {
                let upper = first.to_ascii_uppercase();
                s.replace_range(0..1, &upper);
            }
            format!("{s}.")
        })
    }

    fn narrate(&mut self) -> Vec<String> {
        let lines = self.narrator.narrate(&self.session, &self.before);
        self.before = self.session.game().clone();
        lines
    }

    fn flush(&mut self) -> Option<String> {
        self.narrator.flush()
    }

    fn drawing(&self, viewer: Color) -> String {
        let layout = Layout {
            viewer,
            home: HomeSide::Right,
        };
        render(&self.view(), layout)
    }

    fn status_line(&self) -> String {
        let game = self.session.game();
        let name = &self.names[game.turn()];
        match game.dice() {
            Some(d) => format!("{name} to play {d}"),
            None => format!("{name} on roll"),
        }
    }

    fn plays(&self) -> Vec<(String, Action)> {
        let game = self.session.game();
        let Some(dice) = game.dice() else {
            return Vec::new();
        };
        let mut gen = TablesGen::new();
        let (positions, plays) = gen.plays(&game.board(), dice, game.trapping());
        positions
            .iter()
            .zip(plays)
            .map(|(after, play)| (format_play(play), Action::Move(*after)))
            .collect()
    }

    fn read_play(&self, text: &str) -> Result<Action, String> {
        let game = self.session.game();
        let dice = game
            .dice()
            .ok_or("Illegal move: there are no dice to play")?;
        match_play_nf(&game.board(), dice, text)
            .map(|(_, after)| Action::Move(after))
            .map_err(|e| format!("Illegal move: {e}"))
    }

    fn other(&self, command: &Command) -> Result<Action, String> {
        Err(match command {
            Command::Double | Command::Take | Command::Drop | Command::Pass | Command::Beaver => {
                "There is no cube in Never-Finishing backgammon.".to_string()
            }
            Command::Resign(_) | Command::Accept | Command::Reject => {
                "There is no resigning in Never-Finishing backgammon; type quit to stop."
                    .to_string()
            }
            _ => format!("You cannot do that now: {}.", self.status_line()),
        })
    }

    fn help(&self) -> &'static str {
        NF_HELP
    }

    fn hint(&self, _decision: Decision) -> &'static str {
        "move"
    }

    fn progress(&self) -> String {
        format!(
            "in game {}, {}",
            self.session.game_number(),
            nf_score_text(&self.session)
        )
    }

    fn final_line(&self, outcome: &Outcome) -> String {
        final_line(
            self.session.score(),
            match_length(&self.session),
            self.session.results().len(),
            outcome.winner,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::Dice;
    use tabula_tables::Position;

    /// A table whose game has White to play `dice` with five on its 13-point and a Black blot
    /// on White's 8-point; both sides people.
    fn blot_table(dice: Dice) -> NfTable {
        let mut pips = [0i8; 26];
        pips[13] = 5;
        pips[8] = -1;
        let board = Position::from_parts(pips, 0).unwrap();
        let game = NfGame::from_setup(board, Color::White, Some(dice), Trapping::On);
        let session = NeverFinishing::from_game(NfOptions::default(), game, ByColor::default());
        NfTable {
            before: session.game().clone(),
            session,
            bots: ByColor::default(),
            narrator: NfNarrator::new(names()),
            names: names(),
        }
    }

    #[test]
    fn landing_on_a_blot_without_a_mark_is_ambiguous() {
        let table = blot_table(Dice::new(5, 3).unwrap());
        assert_eq!(
            table.read_play("13/8 13/10").unwrap_err(),
            "Illegal move: 13/8 13/10 is ambiguous: it could be 13/10 13/8* or 13/10 13/8^"
        );
        let hit = table.read_play("13/8* 13/10").unwrap();
        let trap = table.read_play("13/8^ 13/10").unwrap();
        assert_ne!(hit, trap);
        let listed: Vec<String> = table.plays().into_iter().map(|(text, _)| text).collect();
        assert!(listed.contains(&"13/10 13/8^".to_string()), "{listed:?}");
    }

    #[test]
    fn cube_and_resignation_commands_are_refused() {
        let table = blot_table(Dice::new(5, 3).unwrap());
        assert!(table
            .other(&Command::Double)
            .unwrap_err()
            .contains("no cube"));
        let resign = Command::Resign(tabula_tables::backgammon::ResignLevel::Single);
        assert!(table.other(&resign).unwrap_err().contains("no resigning"));
    }

    #[test]
    fn options_default_to_a_three_point_match_and_refuse_cube_flags() {
        use clap::Parser;
        let parse = |extra: &[&str]| {
            let mut argv = vec!["tabula", "play", "never-finishing"];
            argv.extend_from_slice(extra);
            match crate::Cli::try_parse_from(argv).unwrap().command {
                crate::Command::Play(args) => options(&args, false),
                _ => unreachable!("a play command"),
            }
        };
        assert_eq!(parse(&[]).unwrap().scoring, Scoring::Match { length: 3 });
        assert_eq!(
            parse(&["--money"]).unwrap().scoring,
            Scoring::Money { games: None }
        );
        assert!(parse(&["--no-crawford"]).is_err());
        assert!(parse(&["--match", "300"]).is_err());
    }
}
