//! One game of backgammon as a state machine: opening roll, turns, cube, resignations, result.
//!
//! The board is stored from the side of the player whose turn it is and flipped when the turn
//! passes. Match and money bookkeeping (score, Crawford) live one level up, in
//! [`Backgammon`](super::Backgammon); this type knows only whether the cube may be used.

use super::action::{Action, Ending, GameResult, ResignLevel};
use super::cube::Cube;
use super::error::BackgammonError;
use super::options::{Options, MAX_CUBE};
use crate::movegen::MoveGen;
use crate::position::Position;
use tabula_core::{Chance, Color, Decision, Dice, DiceRoll, EndReason, Status};

/// Where the game stands inside a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Waiting for the opening roll (one die each).
    Opening,
    /// The player on turn has not rolled yet.
    StartOfTurn,
    /// The player on turn chose to roll; waiting for the dice.
    Rolling,
    /// The player on turn doubled; the opponent must answer.
    Doubled,
    /// The player on turn must play these dice.
    Moving(Dice),
    /// The player on turn offered to resign; the opponent must answer. `resume` is the phase
    /// to return to if the offer is rejected.
    Resigning {
        /// The level offered.
        level: ResignLevel,
        /// The dice to play if the offer is rejected (`None`: before rolling).
        resume: Option<Dice>,
    },
    /// The game is over.
    Over(GameResult),
}

/// One game of backgammon.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GameState {
    board: Position,
    turn: Color,
    cube: Cube,
    cube_in_play: bool,
    phase: Phase,
    rejected: Option<ResignLevel>,
    auto_doubles: u8,
    options: Options,
}

impl GameState {
    /// A new game from the starting position. `cube_in_play` is false in a Crawford game.
    pub fn new(options: Options, cube_in_play: bool) -> GameState {
        GameState {
            board: Position::START,
            turn: Color::White,
            cube: Cube::CENTRED,
            cube_in_play,
            phase: Phase::Opening,
            rejected: None,
            auto_doubles: 0,
            options,
        }
    }

    /// A game set up mid-way: `board` seen from `turn`, who is about to roll (or, with
    /// `dice`, to play them).
    pub fn from_setup(
        options: Options,
        board: Position,
        turn: Color,
        cube: Cube,
        cube_in_play: bool,
        dice: Option<Dice>,
    ) -> GameState {
        GameState {
            board,
            turn,
            cube,
            cube_in_play,
            phase: dice.map_or(Phase::StartOfTurn, Phase::Moving),
            rejected: None,
            auto_doubles: 0,
            options,
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

    /// The player whose turn it is (before the opening roll: White, by convention).
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The cube.
    pub fn cube(&self) -> Cube {
        self.cube
    }

    /// False in a Crawford game.
    pub fn cube_in_play(&self) -> bool {
        self.cube_in_play
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The dice to play, when a move is due.
    pub fn dice(&self) -> Option<Dice> {
        match self.phase {
            Phase::Moving(d) => Some(d),
            Phase::Resigning { resume, .. } => resume,
            _ => None,
        }
    }

    /// The result, once over.
    pub fn result(&self) -> Option<GameResult> {
        match self.phase {
            Phase::Over(r) => Some(r),
            _ => None,
        }
    }

    /// Whether the player on turn may double now.
    pub fn may_double(&self) -> bool {
        self.phase == Phase::StartOfTurn && self.cube_in_play && self.cube.may_double(self.turn)
    }

    fn may_beaver(&self) -> bool {
        self.options.beavers() && self.cube.value() * 4 <= MAX_CUBE
    }

    /// Whose decision it is and what kind, or that dice are needed.
    pub fn status(&self) -> Status {
        let decide = |player, decision| Status::Decide { player, decision };
        match self.phase {
            Phase::Opening => Status::Chance(Chance::Opening),
            Phase::StartOfTurn if self.may_double() => decide(self.turn, Decision::DoubleOrRoll),
            Phase::StartOfTurn | Phase::Rolling => Status::Chance(Chance::Roll(self.turn)),
            Phase::Doubled => decide(!self.turn, Decision::TakeOrDrop),
            Phase::Moving(_) => decide(self.turn, Decision::Move),
            Phase::Resigning { .. } => decide(!self.turn, Decision::ResignationAnswer),
            Phase::Over(r) => Status::Over(r.outcome()),
        }
    }

    /// Every legal action now. Resignation offers are listed at the player's own decisions
    /// (before rolling when the cube is available, and when moving), at levels above any
    /// offer already rejected this turn.
    pub fn legal_actions(&self, gen: &mut MoveGen) -> Vec<Action> {
        let mut out = Vec::new();
        match self.phase {
            Phase::StartOfTurn if self.may_double() => {
                out.extend([Action::Roll, Action::Double]);
                self.push_resignations(&mut out);
            }
            Phase::Doubled => {
                out.extend([Action::Take, Action::Drop]);
                if self.may_beaver() {
                    out.push(Action::Beaver);
                }
            }
            Phase::Moving(dice) => {
                out.extend(
                    gen.positions(&self.board, dice)
                        .iter()
                        .map(|&p| Action::Move(p)),
                );
                self.push_resignations(&mut out);
            }
            Phase::Resigning { .. } => {
                out.extend([Action::AcceptResignation, Action::RejectResignation])
            }
            _ => {}
        }
        out
    }

    fn push_resignations(&self, out: &mut Vec<Action>) {
        out.extend(
            ResignLevel::ALL
                .into_iter()
                .filter(|&l| self.rejected.is_none_or(|r| l > r))
                .map(Action::Resign),
        );
    }

    /// Applies an action of the deciding player; refused actions change nothing.
    pub fn apply(&mut self, action: &Action, gen: &mut MoveGen) -> Result<(), BackgammonError> {
        let refuse = |reason| {
            Err(BackgammonError::NotNow {
                action: action.to_string(),
                reason,
            })
        };
        match (self.phase, *action) {
            (Phase::Over(_), _) => Err(BackgammonError::GameOver),
            (Phase::Opening | Phase::Rolling, _) => Err(BackgammonError::DiceNeeded),
            (Phase::StartOfTurn, _) if !self.may_double() => Err(BackgammonError::DiceNeeded),
            (Phase::StartOfTurn, Action::Roll) => {
                self.phase = Phase::Rolling;
                Ok(())
            }
            (Phase::StartOfTurn, Action::Double) => {
                self.phase = Phase::Doubled;
                Ok(())
            }
            (Phase::StartOfTurn | Phase::Moving(_), Action::Resign(level)) => {
                if self.rejected.is_some_and(|r| level <= r) {
                    return refuse("an offer at this level was already rejected this turn");
                }
                self.phase = Phase::Resigning {
                    level,
                    resume: self.dice(),
                };
                Ok(())
            }
            (Phase::Doubled, Action::Take) => {
                self.cube = self.cube.taken_by(!self.turn);
                self.phase = Phase::Rolling;
                Ok(())
            }
            (Phase::Doubled, Action::Beaver) if self.may_beaver() => {
                self.cube = self.cube.beavered_by(!self.turn);
                self.phase = Phase::Rolling;
                Ok(())
            }
            (Phase::Doubled, Action::Beaver) => refuse("beavers are not allowed"),
            (Phase::Doubled, Action::Drop) => {
                self.finish(self.turn, 1, Ending::Dropped, EndReason::CubeDropped);
                Ok(())
            }
            (Phase::Moving(dice), Action::Move(result)) => {
                if !gen.positions(&self.board, dice).contains(&result) {
                    return Err(BackgammonError::IllegalMove { dice });
                }
                self.board = result;
                self.end_turn();
                Ok(())
            }
            (Phase::Resigning { level, .. }, Action::AcceptResignation) => {
                let multiplier = if self.jacoby_applies() {
                    1
                } else {
                    level.multiplier()
                };
                let reason = EndReason::Resigned(level.into());
                self.finish(!self.turn, multiplier, Ending::Resigned, reason);
                Ok(())
            }
            (Phase::Resigning { level, resume }, Action::RejectResignation) => {
                self.rejected = Some(level);
                self.phase = resume.map_or(Phase::StartOfTurn, Phase::Moving);
                Ok(())
            }
            (Phase::StartOfTurn, _) => refuse("before rolling you may roll, double or resign"),
            (Phase::Doubled, _) => refuse("facing a double you may take, drop or beaver"),
            (Phase::Moving(_), _) => refuse("the dice must be played"),
            (Phase::Resigning { .. }, _) => refuse("a resignation offer must be answered"),
        }
    }

    /// Supplies dice at a chance node; returns true when the roll left the player on turn
    /// without a legal move (the turn passed).
    pub fn roll(&mut self, roll: DiceRoll, gen: &mut MoveGen) -> Result<bool, BackgammonError> {
        match self.phase {
            Phase::Opening => {
                let (w, b) = (roll.first, roll.second);
                if w == b {
                    // Ties are rolled again; with automatic doubles each tie doubles the
                    // centred cube, up to the agreed number of times.
                    if self.auto_doubles < self.options.automatic_doubles()
                        && self.cube.value() * 2 <= MAX_CUBE
                    {
                        self.auto_doubles += 1;
                        self.cube = self.cube.auto_doubled();
                    }
                    return Ok(false);
                }
                let first = if w > b { Color::White } else { Color::Black };
                self.turn = first;
                self.board = Position::START;
                Ok(self.start_move(roll.dice(), gen))
            }
            Phase::Rolling => Ok(self.start_move(roll.dice(), gen)),
            Phase::StartOfTurn if !self.may_double() => Ok(self.start_move(roll.dice(), gen)),
            Phase::Over(_) => Err(BackgammonError::GameOver),
            _ => Err(BackgammonError::NoDiceNeeded),
        }
    }

    /// Enters the move phase, or passes the turn at once when no checker can move.
    fn start_move(&mut self, dice: Dice, gen: &mut MoveGen) -> bool {
        if gen.positions(&self.board, dice).is_empty() {
            self.end_turn();
            true
        } else {
            self.phase = Phase::Moving(dice);
            false
        }
    }

    fn end_turn(&mut self) {
        if self.board.mover_off() == 15 {
            let (multiplier, reason) = self.gammon_multiplier();
            self.finish(self.turn, multiplier, Ending::BoreOff, reason);
            return;
        }
        self.board = self.board.flip();
        self.turn = !self.turn;
        self.rejected = None;
        self.phase = Phase::StartOfTurn;
    }

    /// Single, gammon or backgammon for the player on turn, who has just borne off: the
    /// multiplier and the reason.
    fn gammon_multiplier(&self) -> (u32, EndReason) {
        let b = &self.board;
        if b.opponent_off() > 0 {
            return (1, EndReason::BoreOffSingle);
        }
        if self.jacoby_applies() {
            return (1, EndReason::JacobySingle);
        }
        let on_bar = b.opponent_on(0) > 0;
        let in_home = (1..=6).any(|p| b.opponent_on(p) > 0);
        match (on_bar, in_home) {
            (true, _) if self.options.bar_quadruple => (4, EndReason::BoreOffBackgammon),
            (true, _) | (_, true) => (3, EndReason::BoreOffBackgammon),
            _ => (2, EndReason::BoreOffGammon),
        }
    }

    /// The Jacoby rule: gammons count as singles while the cube has not been turned (an
    /// automatic double leaves it centred and does not count as turning it).
    fn jacoby_applies(&self) -> bool {
        self.options.jacoby() && self.cube.owner().is_none()
    }

    fn finish(&mut self, winner: Color, multiplier: u32, ending: Ending, reason: EndReason) {
        let cube = self.cube.value();
        self.phase = Phase::Over(GameResult {
            winner,
            multiplier,
            cube,
            points: cube * multiplier,
            ending,
            reason,
        });
    }
}
