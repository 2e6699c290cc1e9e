//! Replaying a `.mat` file through the backgammon rules engine: every decision the session
//! asks, in order, with the session before it.
//!
//! - **Options.** A match of the written length, with the Crawford rule as the
//!   `; [Crawford ...]` tag says; without the tag (gnubg writes none) with the rule, and
//!   without it only if that replay fails (a double in the Crawford game); a money session (` 0 point match`) with beavers unless
//!   `; [Beaver "Off"]`, no automatic doubles, and as many games as written when the last one
//!   is finished (else no limit). The Jacoby rule follows `; [Jacoby ...]` where written
//!   (Tabula writes it; gnubg does not); without it the session is replayed with the Jacoby rule
//!   off, and again with it on only if that replay fails on a score (a gammon with the cube
//!   centred that scored 1 point). If both fail, the first error is returned.
//! - **Opening roll.** Each player throws one die: the player of the first play throws the
//!   larger of its dice, the other the smaller.
//! - **Plays.** The written steps are applied to the board (from/to per step or chained, 25 the
//!   bar, 0 off, a checker landing on a lone opposing checker sends it to the bar) and the play
//!   is the legal play reaching that board. A play written where the player could have doubled
//!   is preceded by an [`Action::Roll`] step (the player did not double).
//! - **Resignations.** A `Wins N points` for a game that has not ended by a bear-off or a drop
//!   ended by a resignation of N / cube (1 single, 2 gammon, 3 backgammon) by the other
//!   player, replayed as that player's offer and its acceptance: before rolling where the
//!   player could double (whether the player had rolled is not written), else after a roll
//!   (the first of the 21 rolls that leaves a play: its dice were not written). Refused offers
//!   are not written and not replayed. A ` Takes` written by the doubler after a beaver (Tabula
//!   writes one when the doubler then resigns) is skipped, and dice without a play just before
//!   a resignation (gnubg may write them) are rolled and not played.
//! - **Checks.** Each game's score line must be the score the replay reached, each `Wins` the
//!   winner and points of the game's end, cube values the cube's. One exception: a gammon or
//!   backgammon counted as a single by the Jacoby rule may be written at its full value, as
//!   gnubg writes it when it exports an imported game (the next score line has the point).

use super::error::{MatError, MatErrorKind};
use super::read::{read_mat, MatEntry, MatItem, MatSession};
use crate::backgammon::{Action, Backgammon, Mode, Options, ResignLevel};
use crate::notation::move_text::WrittenMove;
use crate::position::Position;
use tabula_core::{ByColor, Chance, Color, Decision, Dice, DiceRoll, EndReason, Game, Status};

/// One decision of the replayed session.
#[derive(Debug, Clone)]
pub struct ReplayStep {
    /// The session just before the decision.
    pub before: Backgammon,
    /// Who decided.
    pub player: Color,
    /// What they did: [`Action::Roll`] for not doubling, [`Action::Move`] with the position
    /// after the play, cube actions, resignation offers and their acceptance.
    pub action: Action,
    /// The dice played, for a move.
    pub dice: Option<Dice>,
}

/// A replayed `.mat` file.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The match length, 0 for money.
    pub length: u32,
    /// The names of the first game's score line (White first); the colour's name when the
    /// file has no game.
    pub names: ByColor<String>,
    /// Every decision, in order.
    pub steps: Vec<ReplayStep>,
    /// The session at the end.
    pub session: Backgammon,
}

/// Reads a `.mat` file and replays it (see the module documentation).
pub fn replay_mat(text: &str) -> Result<Replay, MatError> {
    replay_session(&read_mat(text)?)
}

/// Replays a session already read with [`read_mat`].
pub fn replay_session(mat: &MatSession) -> Result<Replay, MatError> {
    if mat.length > 0 {
        return match mat.crawford {
            Some(crawford) => replay_with(mat, false, crawford),
            // gnubg writes no Crawford tag: a file that doubles in the Crawford game was
            // played without the rule.
            None => replay_with(mat, false, true)
                .or_else(|first| replay_with(mat, false, false).map_err(|_| first)),
        };
    }
    if let Some(jacoby) = mat.jacoby {
        return replay_with(mat, jacoby, false);
    }
    match replay_with(mat, false, false) {
        Err(first)
            if matches!(
                first.kind,
                MatErrorKind::Score { .. } | MatErrorKind::Result { .. }
            ) =>
        {
            replay_with(mat, true, false).map_err(|_| first)
        }
        other => other,
    }
}

/// The session's options: `jacoby` for money, `crawford` for a match.
fn options(mat: &MatSession, jacoby: bool, crawford: bool) -> Result<Options, MatError> {
    if mat.length == 0 {
        let finished = mat
            .games
            .last()
            .is_some_and(|g| g.entries.iter().any(|e| matches!(e.item, MatItem::Wins(_))));
        let games = u32::try_from(mat.games.len()).ok().filter(|_| finished);
        return Ok(Options {
            mode: Mode::Money {
                beavers: mat.beavers.unwrap_or(true),
                jacoby,
                automatic_doubles: 0,
                games,
            },
            bar_quadruple: false,
        });
    }
    let length = u8::try_from(mat.length)
        .ok()
        .filter(|l| (1..=64).contains(l))
        .ok_or_else(|| MatError::new(1, None, MatErrorKind::MatchLength(mat.length.to_string())))?;
    Ok(Options {
        mode: Mode::Match { length, crawford },
        bar_quadruple: false,
    })
}

fn replay_with(mat: &MatSession, jacoby: bool, crawford: bool) -> Result<Replay, MatError> {
    let options = options(mat, jacoby, crawford)?;
    let session = Backgammon::new(options)
        .map_err(|e| MatError::new(1, None, MatErrorKind::MatchLength(e.to_string())))?;
    let mut r = Replayer {
        session,
        steps: Vec::new(),
        line: 1,
        game: None,
    };
    let mut previous_over = true;
    for game in &mat.games {
        r.line = game.line;
        r.game = Some(game.number);
        if !previous_over {
            return Err(r.err(MatErrorKind::Unfinished));
        }
        if r.session.is_over() {
            return Err(r.err(MatErrorKind::MatchOver));
        }
        if r.session.score() != game.score {
            return Err(r.err(MatErrorKind::Score {
                written: game.score,
                replayed: r.session.score(),
            }));
        }
        let number = r.session.game_number();
        for (i, entry) in game.entries.iter().enumerate() {
            r.line = entry.line;
            r.entry(entry, game.entries.get(i + 1), number)?;
        }
        previous_over = r.session.is_over() || r.session.game_number() != number;
    }
    let names = mat
        .games
        .first()
        .map_or_else(|| ByColor::new_with(|c| c.to_string()), |g| g.names.clone());
    Ok(Replay {
        length: mat.length,
        names,
        steps: r.steps,
        session: r.session,
    })
}

struct Replayer {
    session: Backgammon,
    steps: Vec<ReplayStep>,
    line: usize,
    game: Option<u32>,
}

impl Replayer {
    fn err(&self, kind: MatErrorKind) -> MatError {
        MatError::new(self.line, self.game, kind)
    }

    fn unexpected(&self, entry: &MatEntry, why: impl Into<String>) -> MatError {
        self.err(MatErrorKind::Unexpected {
            entry: entry.item.to_string(),
            why: why.into(),
        })
    }

    /// The error for `entry` when the session waits for something else.
    fn out_of_turn(&self, entry: &MatEntry) -> MatError {
        let (expected, what) = match self.session.status() {
            Status::Chance(Chance::Opening) => return self.unexpected(entry, "the game opens"),
            Status::Chance(Chance::Roll(p)) => (p, "roll"),
            Status::Decide { player, decision } => (
                player,
                match decision {
                    Decision::DoubleOrRoll => "double or roll",
                    Decision::TakeOrDrop => "take or drop",
                    Decision::Move => "play",
                    Decision::ResignationAnswer => "answer a resignation",
                },
            ),
            Status::Over(_) => return self.unexpected(entry, "the session is over"),
        };
        if expected == entry.player {
            return self.unexpected(entry, format!("{expected} must {what}"));
        }
        self.err(MatErrorKind::OutOfTurn {
            entry: entry.item.to_string(),
            found: entry.player,
            expected,
            what,
        })
    }

    fn decide(&mut self, action: Action) -> Result<(), MatError> {
        let Status::Decide { player, .. } = self.session.status() else {
            return Err(self.err(MatErrorKind::Refused {
                action: action.to_string(),
                source: crate::backgammon::BackgammonError::DiceNeeded,
            }));
        };
        let before = self.session.clone();
        let dice = match action {
            Action::Move(_) => self.session.game().dice(),
            _ => None,
        };
        self.session.apply(&action).map_err(|source| {
            self.err(MatErrorKind::Refused {
                action: action.to_string(),
                source,
            })
        })?;
        self.steps.push(ReplayStep {
            before,
            player,
            action,
            dice,
        });
        Ok(())
    }

    fn roll(&mut self, first: u8, second: u8) -> Result<(), MatError> {
        let roll = DiceRoll::new(first, second)
            .map_err(|_| self.err(MatErrorKind::BadDice(format!("{first}{second}"))))?;
        self.session.roll(roll).map_err(|source| {
            self.err(MatErrorKind::Refused {
                action: format!("rolling {roll}"),
                source,
            })
        })
    }

    /// Whether the game begun as session game `number` has ended.
    fn ended(&self, number: u32) -> bool {
        self.session.is_over() || self.session.game_number() != number
    }

    fn entry(
        &mut self,
        entry: &MatEntry,
        next: Option<&MatEntry>,
        number: u32,
    ) -> Result<(), MatError> {
        if let MatItem::Wins(points) = entry.item {
            if !self.ended(number) {
                self.resign(entry, points)?;
            }
            return self.check_result(entry, points);
        }
        if self.ended(number) {
            return Err(self.unexpected(entry, "the game is over"));
        }
        let status = self.session.status();
        let deciding = |d: Decision| matches!(status, Status::Decide { player, decision } if player == entry.player && decision == d);
        match entry.item {
            MatItem::Double(value) if deciding(Decision::DoubleOrRoll) => {
                self.check_cube(entry, value, 2)?;
                self.decide(Action::Double)
            }
            MatItem::Take if deciding(Decision::TakeOrDrop) => self.decide(Action::Take),
            MatItem::Drop if deciding(Decision::TakeOrDrop) => self.decide(Action::Drop),
            MatItem::Beaver(value) if deciding(Decision::TakeOrDrop) => {
                self.check_cube(entry, value, 4)?;
                self.decide(Action::Beaver)
            }
            // The doubler's ` Takes` after a beaver.
            MatItem::Take if self.after_beaver(entry.player) => Ok(()),
            MatItem::Roll {
                dice,
                ref moves,
                ref text,
            } => {
                let resigns_next = next.is_some_and(|n| {
                    matches!(n.item, MatItem::Wins(_)) && n.player != entry.player
                });
                self.play(entry, dice, moves, text, resigns_next)
            }
            _ => Err(self.out_of_turn(entry)),
        }
    }

    /// Whether `player` doubled and was beavered, and is now to roll.
    fn after_beaver(&self, player: Color) -> bool {
        self.session.status() == Status::Chance(Chance::Roll(player))
            && self
                .steps
                .last()
                .is_some_and(|s| s.action == Action::Beaver && s.player != player)
    }

    fn check_cube(&self, entry: &MatEntry, value: u32, factor: u32) -> Result<(), MatError> {
        let cube = self.session.game().cube().value() * factor;
        if value == cube {
            Ok(())
        } else {
            Err(self.err(MatErrorKind::CubeValue {
                entry: entry.item.to_string(),
                value: cube,
            }))
        }
    }

    /// Rolls `dice` for the entry's player (doubling declined where it was possible) and
    /// plays the written moves.
    fn play(
        &mut self,
        entry: &MatEntry,
        dice: Dice,
        moves: &[WrittenMove],
        text: &str,
        resigns_next: bool,
    ) -> Result<(), MatError> {
        let player = entry.player;
        let (big, small) = (dice.big(), dice.small());
        match self.session.status() {
            Status::Chance(Chance::Opening) if dice.is_double() => {
                return Err(self.unexpected(entry, "an opening roll cannot be a double"));
            }
            Status::Chance(Chance::Opening) => match player {
                Color::White => self.roll(big, small)?,
                Color::Black => self.roll(small, big)?,
            },
            Status::Decide {
                player: p,
                decision: Decision::DoubleOrRoll,
            } if p == player => {
                self.decide(Action::Roll)?;
                self.roll(big, small)?;
            }
            Status::Chance(Chance::Roll(p)) if p == player => self.roll(big, small)?,
            _ => return Err(self.out_of_turn(entry)),
        }
        let illegal = |reason: &str| MatErrorKind::IllegalMove {
            dice,
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let must_move = self.session.status()
            == Status::Decide {
                player,
                decision: Decision::Move,
            };
        match (must_move, moves.is_empty()) {
            (false, true) => Ok(()),
            (false, false) => Err(self.err(illegal("the roll cannot be played"))),
            (true, true) if resigns_next => Ok(()),
            (true, true) => Err(self.err(illegal("a play is possible but none is written"))),
            (true, false) => {
                let board = self.session.game().board();
                let after = apply_moves(&board, moves).map_err(|why| self.err(illegal(&why)))?;
                let legal = self.session.legal_actions();
                if !legal.contains(&Action::Move(after)) {
                    return Err(self.err(illegal("no legal play reaches that board")));
                }
                self.decide(Action::Move(after))
            }
        }
    }

    /// The entry's opponent resigns the game for `points`, and the entry's player accepts.
    fn resign(&mut self, entry: &MatEntry, points: u32) -> Result<(), MatError> {
        let loser = !entry.player;
        let cube = self.session.game().cube().value();
        let level = match (points % cube, points / cube) {
            (0, 1) => ResignLevel::Single,
            (0, 2) => ResignLevel::Gammon,
            (0, 3) => ResignLevel::Backgammon,
            _ => {
                return Err(self.unexpected(
                    entry,
                    format!("the game has not ended and no resignation wins {points} with the cube at {cube}"),
                ))
            }
        };
        let cannot = |r: &Self| {
            r.unexpected(
                entry,
                format!("the game has not ended and {loser} cannot resign now"),
            )
        };
        match self.session.status() {
            Status::Decide { player, decision }
                if player == loser
                    && matches!(decision, Decision::DoubleOrRoll | Decision::Move) => {}
            Status::Chance(Chance::Opening) => match loser {
                Color::White => self.roll(2, 1)?,
                Color::Black => self.roll(1, 2)?,
            },
            Status::Chance(Chance::Roll(p)) if p == loser => {
                // The first roll that leaves a play (its dice are not written).
                let dice = Dice::all().find(|d| {
                    let mut s = self.session.clone();
                    DiceRoll::new(d.big(), d.small()).is_ok_and(|roll| {
                        s.roll(roll).is_ok()
                            && s.status()
                                == Status::Decide {
                                    player: loser,
                                    decision: Decision::Move,
                                }
                    })
                });
                let Some(dice) = dice else {
                    return Err(cannot(self));
                };
                self.roll(dice.big(), dice.small())?;
            }
            _ => return Err(cannot(self)),
        }
        self.decide(Action::Resign(level))?;
        self.decide(Action::AcceptResignation)
    }

    fn check_result(&self, entry: &MatEntry, points: u32) -> Result<(), MatError> {
        let Some(result) = self.session.results().last() else {
            return Err(self.unexpected(entry, "no game has ended"));
        };
        // gnubg's export of an imported game won by a gammon under the Jacoby rule writes the
        // gammon's (or backgammon's) value; the next score line shows the point it counted.
        let jacoby_gammon = result.reason == EndReason::JacobySingle
            && points.is_multiple_of(result.cube)
            && [2, 3].contains(&(points / result.cube));
        if result.winner == entry.player && (result.points == points || jacoby_gammon) {
            return Ok(());
        }
        Err(self.err(MatErrorKind::Result {
            written: format!("{} by {}", entry.item, entry.player),
            replayed: format!(
                "{} winning {} point{}",
                result.winner,
                result.points,
                if result.points == 1 { "" } else { "s" }
            ),
        }))
    }
}

/// The board after the written moves, seen from the mover: each step moves a checker from its
/// point to the next written point, hitting a lone opposing checker there.
fn apply_moves(board: &Position, moves: &[WrittenMove]) -> Result<Position, String> {
    let mut pips = board.pips();
    for m in moves {
        for _ in 0..m.count {
            let mut from = usize::from(m.from);
            for landing in &m.landings {
                let to = usize::from(landing.point);
                if from > 25 || pips[from] <= 0 {
                    return Err(format!("no checker to move on {from}"));
                }
                if to >= from {
                    return Err(format!("{from}/{to} does not move forward"));
                }
                pips[from] -= 1;
                if to > 0 {
                    match pips[to] {
                        -1 => {
                            pips[to] = 0;
                            pips[0] -= 1;
                        }
                        n if n < -1 => return Err(format!("the point {to} is held")),
                        _ => {}
                    }
                    pips[to] += 1;
                }
                from = to;
            }
        }
    }
    Position::from_parts(pips, 0).map_err(|e| e.to_string())
}
