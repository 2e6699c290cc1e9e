//! One game of Never-Finishing backgammon: opening roll, turns, passes, the dead-position
//! draw, and the result.

use crate::movegen::{TablesGen, Trapping};
use crate::position::Position;
use tabula_core::{Chance, Color, Decision, Dice, DiceRoll, EndReason, Outcome, Status};
use thiserror::Error;

/// A player's action: playing the dice, given as the resulting position seen from the mover
/// before the turn passes (a hit and a trap on the same blot are different positions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Play the dice.
    Move(Position),
}

/// A refused action or roll; the game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum NfError {
    /// The game or session is over.
    #[error("the game is over")]
    GameOver,
    /// Dice are needed first.
    #[error("the dice must be rolled first")]
    DiceNeeded,
    /// A move is due, not dice.
    #[error("no dice are needed now")]
    NoDiceNeeded,
    /// The position is not reachable with the dice.
    #[error("that move is not legal with {dice}")]
    IllegalMove {
        /// The dice being played.
        dice: Dice,
    },
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NfResult {
    /// The winner; `None` for a dead position, drawn.
    pub winner: Option<Color>,
    /// 1 for a win, 2 for a gammon (the loser bore off none), 0 for a draw.
    pub points: u32,
    /// Why: a single game, a gammon, or a dead position.
    pub reason: EndReason,
}

impl NfResult {
    /// The result as a shared [`Outcome`] of one game.
    pub fn outcome(&self) -> Outcome {
        Outcome {
            winner: self.winner,
            points: self.points,
            reason: self.reason,
            session: None,
        }
    }
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NfPhase {
    /// Waiting for the opening roll (one die each, ties again).
    Opening,
    /// The player on turn is to roll.
    Rolling,
    /// The player on turn must play these dice.
    Moving(Dice),
    /// Over.
    Over(NfResult),
}

/// The start: each side's fifteen checkers on its own 24-point (the opponent's one-point).
pub fn start_position() -> Position {
    let mut pips = [0i8; 26];
    pips[24] = 15;
    pips[1] = -15;
    Position::from_parts(pips, 0).expect("the start position is valid")
}

/// One game of Never-Finishing backgammon.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NfGame {
    board: Position,
    turn: Color,
    phase: NfPhase,
    trapping: Trapping,
}

impl NfGame {
    /// A new game from the start. With `first`, that player begins with a fresh roll (the
    /// previous game's winner); without, the opening roll decides.
    pub fn new(first: Option<Color>, trapping: Trapping) -> NfGame {
        NfGame {
            board: start_position(),
            turn: first.unwrap_or(Color::White),
            phase: if first.is_some() {
                NfPhase::Rolling
            } else {
                NfPhase::Opening
            },
            trapping,
        }
    }

    /// A game set up mid-way: `board` seen from `turn`, who is to roll (or to play `dice`).
    pub fn from_setup(
        board: Position,
        turn: Color,
        dice: Option<Dice>,
        trapping: Trapping,
    ) -> NfGame {
        NfGame {
            board,
            turn,
            phase: dice.map_or(NfPhase::Rolling, NfPhase::Moving),
            trapping,
        }
    }

    /// The board seen from the player on turn.
    pub fn board(&self) -> Position {
        self.board
    }

    /// The board seen from `color`.
    pub fn board_for(&self, color: Color) -> Position {
        if color == self.turn {
            self.board
        } else {
            self.board.flip()
        }
    }

    /// The player on turn.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The phase.
    pub fn phase(&self) -> NfPhase {
        self.phase
    }

    /// The dice to play, when a move is due.
    pub fn dice(&self) -> Option<Dice> {
        match self.phase {
            NfPhase::Moving(d) => Some(d),
            _ => None,
        }
    }

    /// Whether trapping is on (it is, unless switched off for comparison with backgammon).
    pub fn trapping(&self) -> Trapping {
        self.trapping
    }

    /// The result once over.
    pub fn result(&self) -> Option<NfResult> {
        match self.phase {
            NfPhase::Over(r) => Some(r),
            _ => None,
        }
    }

    /// Whose decision it is, or that dice are needed, or the result.
    pub fn status(&self) -> Status {
        match self.phase {
            NfPhase::Opening => Status::Chance(Chance::Opening),
            NfPhase::Rolling => Status::Chance(Chance::Roll(self.turn)),
            NfPhase::Moving(_) => Status::Decide {
                player: self.turn,
                decision: Decision::Move,
            },
            NfPhase::Over(r) => Status::Over(r.outcome()),
        }
    }

    /// The legal actions: one per distinct resulting position.
    pub fn legal_actions(&self, gen: &mut TablesGen) -> Vec<Action> {
        match self.phase {
            NfPhase::Moving(dice) => gen
                .positions(&self.board, dice, self.trapping)
                .iter()
                .map(|&p| Action::Move(p))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Plays the dice; refused moves change nothing.
    pub fn apply(&mut self, action: &Action, gen: &mut TablesGen) -> Result<(), NfError> {
        let NfPhase::Moving(dice) = self.phase else {
            return Err(match self.phase {
                NfPhase::Over(_) => NfError::GameOver,
                _ => NfError::DiceNeeded,
            });
        };
        let Action::Move(result) = *action;
        if !gen
            .positions(&self.board, dice, self.trapping)
            .contains(&result)
        {
            return Err(NfError::IllegalMove { dice });
        }
        self.board = result;
        if self.board.mover_off() == 15 {
            let gammon = self.board.opponent_off() == 0;
            self.phase = NfPhase::Over(NfResult {
                winner: Some(self.turn),
                points: if gammon { 2 } else { 1 },
                reason: if gammon {
                    EndReason::BoreOffGammon
                } else {
                    EndReason::BoreOffSingle
                },
            });
        } else {
            self.pass_turn();
        }
        Ok(())
    }

    /// Supplies dice; returns true when the player could not move and the turn passed.
    pub fn roll(&mut self, roll: DiceRoll, gen: &mut TablesGen) -> Result<bool, NfError> {
        match self.phase {
            NfPhase::Opening => {
                if roll.first != roll.second {
                    // The higher die goes first and rolls both dice again.
                    self.turn = if roll.first > roll.second {
                        Color::White
                    } else {
                        Color::Black
                    };
                    self.phase = NfPhase::Rolling;
                }
                Ok(false)
            }
            NfPhase::Rolling => {
                let dice = roll.dice();
                if gen.positions(&self.board, dice, self.trapping).is_empty() {
                    self.pass_turn();
                    if is_dead(&self.board, self.trapping, gen) {
                        self.phase = NfPhase::Over(NfResult {
                            winner: None,
                            points: 0,
                            reason: EndReason::DeadPosition,
                        });
                    }
                    Ok(true)
                } else {
                    self.phase = NfPhase::Moving(dice);
                    Ok(false)
                }
            }
            NfPhase::Moving(_) => Err(NfError::NoDiceNeeded),
            NfPhase::Over(_) => Err(NfError::GameOver),
        }
    }

    fn pass_turn(&mut self) {
        self.board = self.board.flip();
        self.turn = !self.turn;
        self.phase = NfPhase::Rolling;
    }
}

/// A dead position: no roll gives either player a legal move, so it can never change.
pub(crate) fn is_dead(pos: &Position, trapping: Trapping, gen: &mut TablesGen) -> bool {
    [*pos, pos.flip()]
        .iter()
        .all(|p| Dice::all().all(|d| gen.positions(p, d, trapping).is_empty()))
}
