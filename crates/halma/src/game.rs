//! The game: a position plus what the rules need beyond it (the repetition history, the ply
//! limit, a standing draw offer), the end of the game, and [`tabula_core::Game`].
//!
//! After every move (or pass) the game checks, in this order: has the mover won (all pieces
//! in the target camp); has the mover lost by the evacuation rule (a piece in their own camp
//! at or after their deadline move); the same two for the opponent (they matter only for
//! set-up positions); is this the third occurrence of the position with the same side to
//! move; has the ply limit been reached. The first that holds ends the game.

use crate::action::Action;
use crate::moves::IllegalMove;
use crate::notation::MoveText;
use crate::position::{Position, RepetitionKey, WinKind};
use crate::square::BoardSize;
use tabula_core::{Color, Decision, DiceRoll, EndReason, Game, GameId, Outcome, Status};
use thiserror::Error;

/// Game options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct HalmaOptions {
    /// The game is drawn when the ply count reaches this without a winner. `None`: the board's
    /// default, 400 plies on 8x8 and 600 on 10x10.
    pub ply_limit: Option<u32>,
    /// The evacuation deadline, in each player's own moves: a player with a piece in their own
    /// starting camp after this many moves loses, and so does one who moves a piece back into
    /// it later. `None`: the board's default, 30 on 8x8 and 50 on 10x10; `Some(0)`: off.
    pub evacuation: Option<u32>,
}

/// How a draw came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawKind {
    /// The same position with the same side to move occurred for the third time.
    Repetition,
    /// The ply limit was reached without a winner.
    PlyLimit,
    /// A draw offer was accepted.
    Agreement,
}

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// A player won.
    Win {
        /// The winner.
        winner: Color,
        /// How.
        kind: WinKind,
    },
    /// Drawn.
    Draw(DrawKind),
}

/// A refused action; the game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum HalmaError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Dice were offered to a game without dice.
    #[error("Grasshopper (Halma) is played without dice")]
    NoDice,
    /// The move is not legal.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    /// A pass while a move is available.
    #[error("{0} has a legal move and may not pass")]
    MustMove(Color),
    /// A second offer while one stands.
    #[error("{0}'s draw offer already stands")]
    OfferStanding(Color),
    /// An acceptance without an offer from the opponent.
    #[error("{0} has no draw offer to accept")]
    NoOffer(Color),
}

/// A game of Grasshopper (Halma), driven through [`tabula_core::Game`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HalmaGrasshopper {
    position: Position,
    /// Every position of the game so far, the one it began from included, as repetition
    /// compares them.
    history: Vec<RepetitionKey>,
    ply_limit: u32,
    /// The evacuation deadline in each side's own moves; 0: off.
    evacuation: u32,
    /// The player whose draw offer stands.
    draw_offer: Option<Color>,
    end: Option<End>,
}

impl HalmaGrasshopper {
    /// A new game from the start of a board of `size`, default options.
    pub fn new(size: BoardSize) -> HalmaGrasshopper {
        HalmaGrasshopper::from_position(Position::start(size), HalmaOptions::default())
    }

    /// A game from any position (its repetition history begins here). A position where a
    /// player has won or lost (the side that just moved checked first, see
    /// [`Position::winner`]) or whose ply count has reached the limit is a game already over.
    pub fn from_position(position: Position, options: HalmaOptions) -> HalmaGrasshopper {
        let mut game = HalmaGrasshopper {
            position,
            history: vec![position.repetition_key()],
            ply_limit: options
                .ply_limit
                .unwrap_or(position.size().default_ply_limit()),
            evacuation: options
                .evacuation
                .unwrap_or(position.size().default_evacuation()),
            draw_offer: None,
            end: None,
        };
        game.end = game.check_end();
        game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The ply count at which the game is drawn.
    pub fn ply_limit(&self) -> u32 {
        self.ply_limit
    }

    /// The evacuation deadline in each side's own moves; 0 when the rule is off.
    pub fn evacuation(&self) -> u32 {
        self.evacuation
    }

    /// The options this game was made with, resolved (no `None`).
    pub fn options(&self) -> HalmaOptions {
        HalmaOptions {
            ply_limit: Some(self.ply_limit),
            evacuation: Some(self.evacuation),
        }
    }

    /// The result in the shared vocabulary, once over: 1 point to the winner, 0 for a draw,
    /// and the reason.
    pub fn outcome(&self) -> Option<Outcome> {
        self.end.map(|end| match end {
            End::Win { winner, kind } => Outcome::win(winner, 1, kind.reason(self.evacuation)),
            End::Draw(kind) => Outcome::draw(match kind {
                DrawKind::Repetition => EndReason::Repetition,
                DrawKind::PlyLimit => EndReason::PlyLimit {
                    plies: self.ply_limit,
                },
                DrawKind::Agreement => EndReason::Agreement,
            }),
        })
    }

    /// The player whose draw offer stands, if any.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// How many times the current position (with its side to move) has occurred.
    pub fn repetitions(&self) -> usize {
        let key = self.position.repetition_key();
        self.history.iter().filter(|&&k| k == key).count()
    }

    /// The ending that holds now, in the order of the module docs.
    fn check_end(&self) -> Option<End> {
        if let Some((winner, kind)) = self.position.winner(self.evacuation) {
            return Some(End::Win { winner, kind });
        }
        if self.repetitions() >= 3 {
            return Some(End::Draw(DrawKind::Repetition));
        }
        (self.position.ply() >= self.ply_limit).then_some(End::Draw(DrawKind::PlyLimit))
    }

    /// Moves on to `next` (after a move or a pass) and settles the end.
    fn advance(&mut self, next: Position) {
        let mover = self.position.to_move();
        // Moving declines the opponent's standing offer; the mover's own offer now stands.
        if self.draw_offer != Some(mover) {
            self.draw_offer = None;
        }
        self.position = next;
        self.history.push(next.repetition_key());
        self.end = self.check_end();
    }
}

impl Game for HalmaGrasshopper {
    type Action = Action;
    type Error = HalmaError;

    fn id(&self) -> GameId {
        GameId::HalmaGrasshopper
    }

    fn status(&self) -> Status {
        match self.outcome() {
            Some(outcome) => Status::Over(outcome),
            None => Status::Decide {
                player: self.position.to_move(),
                decision: Decision::Move,
            },
        }
    }

    /// The moves (start square then end square, lowest first), or `Pass` when there is none;
    /// then `OfferDraw` when no offer stands, or `AcceptDraw` when the opponent's does.
    fn legal_actions(&self) -> Vec<Action> {
        if self.end.is_some() {
            return Vec::new();
        }
        let count = self.position.move_count() as usize;
        let mut out = Vec::with_capacity(count.max(1) + 1);
        out.extend(self.position.moves().map(Action::Move));
        if count == 0 {
            out.push(Action::Pass);
        }
        match self.draw_offer {
            None => out.push(Action::OfferDraw),
            Some(c) if c != self.position.to_move() => out.push(Action::AcceptDraw),
            Some(_) => {}
        }
        out
    }

    fn apply(&mut self, action: &Action) -> Result<(), HalmaError> {
        if self.end.is_some() {
            return Err(HalmaError::GameOver);
        }
        let me = self.position.to_move();
        match *action {
            Action::Move(mv) => {
                let mv = self
                    .position
                    .check_move(&MoveText::FromTo([mv.from, mv.to]))?;
                self.advance(self.position.play_unchecked(mv.from, mv.to));
            }
            Action::Pass => {
                if self.position.move_count() > 0 {
                    return Err(HalmaError::MustMove(me));
                }
                self.advance(self.position.pass_unchecked());
            }
            Action::OfferDraw => match self.draw_offer {
                Some(c) => return Err(HalmaError::OfferStanding(c)),
                None => self.draw_offer = Some(me),
            },
            Action::AcceptDraw => {
                if self.draw_offer != Some(me.other()) {
                    return Err(HalmaError::NoOffer(me));
                }
                self.draw_offer = None;
                self.end = Some(End::Draw(DrawKind::Agreement));
            }
        }
        Ok(())
    }

    fn roll(&mut self, _dice: DiceRoll) -> Result<(), HalmaError> {
        Err(HalmaError::NoDice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::position::Setup;
    use crate::{perft, Square};
    use tabula_core::ByColor;

    fn squares(names: &str) -> Bitboard {
        Bitboard(
            names
                .split_whitespace()
                .fold(0, |bb, n| bb | 1 << n.parse::<Square>().unwrap().index()),
        )
    }

    /// White's lone a1 piece is walled in: its three neighbours are taken and so are the
    /// three squares beyond them. Not a legal position (too few pieces): with all its pieces
    /// a side always has a move.
    fn walled_in() -> Position {
        Position::from_setup_unchecked(Setup {
            size: BoardSize::Eight,
            pieces: ByColor {
                white: squares("a1"),
                black: squares("a2 b1 b2 a3 c1 c3"),
            },
            to_move: Color::White,
            ply: 0,
        })
    }

    #[test]
    fn a_player_without_a_legal_move_passes() {
        let mut g = HalmaGrasshopper::from_position(walled_in(), HalmaOptions::default());
        assert_eq!(g.legal_actions(), [Action::Pass, Action::OfferDraw]);
        g.apply(&Action::Pass).unwrap();
        assert_eq!(g.position().to_move(), Color::Black);
        assert_eq!(g.position().ply(), 1);
        assert_eq!(g.position().pieces(Color::White), squares("a1"));
        assert!(!g.legal_actions().contains(&Action::Pass));
    }

    #[test]
    fn a_pass_counts_as_a_move_for_the_evacuation_deadline() {
        // White's lone a1 piece, walled in at home, passes for its 30th move: it is still at
        // home after it, so White loses by the evacuation rule.
        let p = walled_in().with_ply(58);
        let mut g = HalmaGrasshopper::from_position(p, HalmaOptions::default());
        assert_eq!(g.end(), None);
        g.apply(&Action::Pass).unwrap();
        assert_eq!(
            g.end(),
            Some(End::Win {
                winner: Color::Black,
                kind: WinKind::NotEvacuated
            })
        );
    }

    #[test]
    fn perft_counts_a_pass_as_one_move() {
        let p = walled_in();
        assert_eq!(perft(&p, 1), 1);
        assert_eq!(perft(&p, 2), p.pass_unchecked().move_count() as u64);
    }
}
