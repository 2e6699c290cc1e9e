//! The identifiers of a backgammon session's position as it stands: its XGID and gnubg's
//! Position ID and Match ID, so that a game's position can be shown, copied and studied
//! elsewhere (the analysis board, `tabula hint`, gnubg, XG).
//!
//! White is XG's bottom player and gnubg's player 1 (as [`super::setup`] reads them back).
//! A double on offer is written as XG's `D` and gnubg's double-offered flag, the doubler on
//! roll; dice are written in the order big, small (the order a roll was thrown is not
//! kept). Reading the identifiers back with [`super::session_from_notation`] gives the same
//! position, cube, score and dice.

use super::match_id::{GameState, MatchId};
use super::xgid::{CubeOwner, Side, Xgid, XgidDice};
use crate::backgammon::{Backgammon, Mode};
use tabula_core::{Color, Decision, Dice, DiceRoll, Game, Status};

/// A position's identifiers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionIds {
    /// `XGID=...`.
    pub xgid: String,
    /// gnubg's Position ID (14 characters), from the player on roll.
    pub position_id: String,
    /// gnubg's Match ID (12 characters).
    pub match_id: String,
}

impl PositionIds {
    /// gnubg's `PositionID:MatchID`.
    pub fn gnubg(&self) -> String {
        format!("{}:{}", self.position_id, self.match_id)
    }
}

fn roll_of(dice: Dice) -> DiceRoll {
    match dice {
        Dice::Double(d) => DiceRoll {
            first: d,
            second: d,
        },
        Dice::Mixed { big, small } => DiceRoll {
            first: big,
            second: small,
        },
    }
}

fn gnubg_player(c: Color) -> u8 {
    match c {
        Color::White => 1,
        Color::Black => 0,
    }
}

/// The identifiers of `session`'s position now (see the module docs).
pub fn session_ids(session: &Backgammon) -> PositionIds {
    let game = session.game();
    let on_roll = game.turn();
    let board = game.board();
    let doubled = matches!(
        session.status(),
        Status::Decide {
            decision: Decision::TakeOrDrop,
            ..
        }
    );
    let dice = game.dice().map(roll_of);
    let cube = game.cube();
    let cube_log2 = cube.value().max(1).trailing_zeros() as u8;
    let (jacoby, beavers) = match session.options().mode {
        Mode::Money {
            jacoby, beavers, ..
        } => (jacoby, beavers),
        Mode::Match { .. } => (false, false),
    };
    let length = session.options().match_length().map_or(0, u16::from);
    let score = session.score();
    // XG and gnubg mark the Crawford game only where exactly one player is 1-away (a 1-point
    // match's only game is not written as one: its cube is dead either way).
    let one_away = |c: Color| u32::from(length) == score[c] + 1;
    let crawford = length > 0
        && session.is_crawford_game()
        && one_away(Color::White) != one_away(Color::Black);
    let to_u16 = |p: u32| u16::try_from(p).unwrap_or(u16::MAX);
    let xgid = Xgid {
        position: board,
        on_roll: match on_roll {
            Color::White => Side::Bottom,
            Color::Black => Side::Top,
        },
        cube_log2,
        cube_owner: match cube.owner() {
            None => CubeOwner::Centred,
            Some(c) if c == on_roll => CubeOwner::OnRoll,
            Some(_) => CubeOwner::Opponent,
        },
        dice: match (doubled, dice) {
            (true, _) => XgidDice::Doubled,
            (false, Some(roll)) => XgidDice::Rolled(roll),
            (false, None) => XgidDice::ToRoll,
        },
        score: [to_u16(score[on_roll]), to_u16(score[!on_roll])],
        match_length: length,
        crawford,
        jacoby,
        beavers,
        // XG's usual limit, 2^10, raised where the cube is higher (it can reach 2^15).
        max_cube_log2: cube_log2.max(10),
    };
    let mut id = MatchId::new(length);
    id.cube_log2 = cube_log2;
    id.cube_owner = cube.owner().map(gnubg_player);
    id.on_roll = gnubg_player(on_roll);
    id.turn = gnubg_player(if doubled { !on_roll } else { on_roll });
    id.crawford = crawford;
    id.game_state = GameState::Playing;
    id.double_offered = doubled;
    id.dice = dice.map(|r| (r.first.into(), r.second.into()));
    id.score = [to_u16(score.black), to_u16(score.white)];
    id.jacoby = jacoby;
    PositionIds {
        xgid: xgid.encode(),
        position_id: board.position_id(),
        match_id: id.encode(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::Options;
    use crate::notation::session_from_notation;

    fn same_setup(a: &Backgammon, b: &Backgammon) {
        assert_eq!(a.game().board(), b.game().board());
        assert_eq!(a.game().turn(), b.game().turn());
        assert_eq!(a.game().dice(), b.game().dice());
        assert_eq!(a.game().cube(), b.game().cube());
        assert_eq!(a.score(), b.score());
        assert_eq!(a.options().match_length(), b.options().match_length());
        assert_eq!(a.is_crawford_game(), b.is_crawford_game());
    }

    #[test]
    fn ids_of_a_pasted_position_read_back_to_the_same_position() {
        for text in [
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10",
            "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:2:1:0:5:10",
            "XGID=-a-BBBB-----bC---b-bbb-A--:0:0:-1:31:4:3:1:5:10",
            "XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:3:0:10",
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "start",
        ] {
            let session = session_from_notation(text).expect(text);
            let ids = session_ids(&session);
            for back in [ids.xgid.clone(), ids.gnubg()] {
                let again = session_from_notation(&back).expect(&back);
                same_setup(&session, &again);
                assert_eq!(session_ids(&again), ids, "{text} -> {back}");
            }
        }
    }

    #[test]
    fn a_one_point_match_is_written_so_that_it_reads_back() {
        let session = Backgammon::new(Options::match_to(1).unwrap()).unwrap();
        let ids = session_ids(&session);
        assert!(ids.xgid.ends_with(":0:0:0:1:10"), "{}", ids.xgid);
        for back in [ids.xgid.clone(), ids.gnubg()] {
            session_from_notation(&back).expect(&back);
        }
    }

    #[test]
    fn the_start_of_a_money_session_has_the_known_ids() {
        let session = Backgammon::new(Options::money()).unwrap();
        let ids = session_ids(&session);
        assert_eq!(ids.position_id, "4HPwATDgc/ABMA");
        assert!(ids.xgid.starts_with("XGID=-b----E-C---eE---c-e----B-:0:0:"));
    }
}
