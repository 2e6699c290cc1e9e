//! Backgammon at the terminal: the session with its cube, the bots, and the [`Table`] the
//! common loop drives.

use super::human::{Command, HELP};
use super::narrate::{score_text, Narrator};
use super::{final_line, names, Table};
use crate::board::{render, BoardView, CubeView, HomeSide, Layout, ScoreView};
use crate::error::bad_input;
use crate::PlayArgs;
use anyhow::Result;
use tabula_ai::{bots, Level};
use tabula_core::{ByColor, Color, Decision, DiceRoll, Game, Outcome, Status};
use tabula_tables::backgammon::{
    Action, Backgammon, BackgammonError, GameState, Mode, Options, Phase,
};
use tabula_tables::notation::{format_play, match_play};

/// The session options from the command line.
pub fn options(args: &PlayArgs, two_bots: bool) -> Result<Options> {
    if !args.money {
        let mut options = Options::match_to(args.match_length.unwrap_or(5))
            .map_err(|e| bad_input(e.to_string()))?;
        if let Mode::Match { crawford, .. } = &mut options.mode {
            *crawford = !args.no_crawford;
        }
        return Ok(options);
    }
    if args.games == Some(0) {
        return Err(bad_input("--games must be at least 1"));
    }
    let automatic_doubles = u8::try_from(args.auto_doubles)
        .ok()
        .filter(|&n| n <= 15)
        .ok_or_else(|| {
            bad_input(format!(
                "--auto-doubles is at most 15, not {}",
                args.auto_doubles
            ))
        })?;
    let options = Options {
        mode: Mode::Money {
            beavers: !args.no_beavers,
            jacoby: !args.no_jacoby,
            automatic_doubles,
            // Bots would play for ever: without --games they play one game.
            games: args.games.or(two_bots.then_some(1)),
        },
        ..Options::money()
    };
    options.validate().map_err(|e| bad_input(e.to_string()))?;
    Ok(options)
}

/// A backgammon session at the terminal.
pub struct BackgammonTable {
    session: Backgammon,
    /// Each side's bot; `None` for a person.
    bots: super::DiceBots<Backgammon>,
    narrator: Narrator,
    /// The game before the last action, to tell which play a move was.
    before: GameState,
    names: ByColor<String>,
}

/// The table for `options`, and the words that open the session ("Match to 5").
pub fn table(
    options: Options,
    levels: ByColor<Option<Level>>,
    seed: u64,
) -> Result<(BackgammonTable, String)> {
    let session = Backgammon::new(options).map_err(|e| bad_input(e.to_string()))?;
    let what = match options.mode {
        Mode::Match { length, crawford } => format!(
            "Match to {length}{}",
            if crawford {
                ""
            } else {
                " without the Crawford rule"
            }
        ),
        Mode::Money { games: Some(1), .. } => "Money play, 1 game".to_string(),
        Mode::Money { games: Some(n), .. } => format!("Money play, {n} games"),
        Mode::Money { games: None, .. } => "Money play".to_string(),
    };
    let names = names();
    let table = BackgammonTable {
        before: session.game().clone(),
        session,
        bots: super::make_bots(levels, seed, bots::backgammon)?,
        narrator: Narrator::new(names.clone()),
        names,
    };
    Ok((table, what))
}

/// Why a person's action was refused, as a sentence.
fn refusal(e: &BackgammonError) -> String {
    let mut s = e.to_string();
    if let Some(first) = s.get(0..1) {
        let upper = first.to_ascii_uppercase();
        s.replace_range(0..1, &upper);
    }
    format!("{s}.")
}

impl BackgammonTable {
    /// The drawing's contents.
    fn view(&self) -> BoardView {
        let session = &self.session;
        let game = session.game();
        let mut view = BoardView::new(game.board(), game.turn());
        view.names = self.names.clone();
        view.cube = Some(if session.is_crawford_game() {
            CubeView::Crawford
        } else {
            match game.cube().owner() {
                Some(owner) => CubeView::Owned(game.cube().value(), owner),
                None => CubeView::Centred(game.cube().value()),
            }
        });
        view.score = Some(ScoreView {
            points: session.score(),
            match_length: session.options().match_length().map(u32::from),
        });
        view.dice = game.dice();
        view.status = Some(self.status_line());
        view
    }
}

impl Table for BackgammonTable {
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
        self.session.apply(&action).map_err(|e| refusal(&e))
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
        let names = &self.names;
        let turn = &names[game.turn()];
        match (self.session.status(), game.phase()) {
            (_, Phase::Resigning { level, .. }) => {
                format!("{turn} offers to resign ({})", level.name())
            }
            (Status::Decide { decision, player }, _) => {
                let name = &names[player];
                match decision {
                    Decision::DoubleOrRoll => format!("{name} to roll or double"),
                    Decision::TakeOrDrop => {
                        format!(
                            "{turn} doubles to {}: take or drop?",
                            game.cube().value() * 2
                        )
                    }
                    Decision::Move => match game.dice() {
                        Some(d) => format!("{name} to play {d}"),
                        None => format!("{name} to move"),
                    },
                    Decision::ResignationAnswer => format!("{name} to accept or reject"),
                }
            }
            _ => format!("{turn} on roll"),
        }
    }

    fn plays(&self) -> Vec<(String, Action)> {
        let game = self.session.game();
        let Some(dice) = game.dice() else {
            return Vec::new();
        };
        game.board()
            .legal_plays(dice)
            .iter()
            .map(|(play, after)| (format_play(play), Action::Move(*after)))
            .collect()
    }

    fn read_play(&self, text: &str) -> Result<Action, String> {
        let game = self.session.game();
        let dice = game
            .dice()
            .ok_or("Illegal move: there are no dice to play")?;
        match_play(&game.board(), dice, text)
            .map(|(_, after)| Action::Move(after))
            .map_err(|e| format!("Illegal move: {e}"))
    }

    fn other(&self, command: &Command) -> Result<Action, String> {
        Ok(match *command {
            Command::Roll => Action::Roll,
            Command::Double => Action::Double,
            Command::Take => Action::Take,
            // `pass` is the other word for dropping a double.
            Command::Drop | Command::Pass => Action::Drop,
            Command::Beaver => Action::Beaver,
            Command::Resign(level) => Action::Resign(level),
            Command::Accept => Action::AcceptResignation,
            Command::Reject => Action::RejectResignation,
            _ => return Err(format!("You cannot do that now: {}.", self.status_line())),
        })
    }

    fn help(&self) -> &'static str {
        HELP
    }

    fn hint(&self, decision: Decision) -> &'static str {
        match decision {
            Decision::DoubleOrRoll => "roll, double",
            Decision::TakeOrDrop => "take, drop",
            Decision::Move => "move",
            Decision::ResignationAnswer => "accept, reject",
        }
    }

    fn progress(&self) -> String {
        format!(
            "in game {}, {}",
            self.session.game_number(),
            score_text(&self.session)
        )
    }

    fn final_line(&self, outcome: &Outcome) -> String {
        final_line(
            self.session.score(),
            self.session.options().match_length().map(u32::from),
            self.session.results().len(),
            outcome.winner,
        )
    }
}
