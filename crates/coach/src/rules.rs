//! What differs between the two dice games' rules where the trainers and the yardstick play
//! them: the move generator, the start, how a measured game scores and whether a position is
//! dead. Backgammon and Never-Finishing are the same game under another rule, so the rest of
//! self-play and measurement is written once over [`Rules`].

use tabula_ai::search::Plays;
use tabula_core::Dice;
use tabula_tables::never_finishing::start_position;
use tabula_tables::{MoveGen, Position, TablesGen, Trapping};

/// Plies after which a Never-Finishing game is scored a draw (never seen in practice; kept so
/// that a pathological game cannot stall a run).
pub const NF_MAX_PLIES: usize = 2_000;

/// One dice game's rules, as self-play needs them.
pub trait Rules {
    /// The legal plays under these rules.
    type Gen: Plays;
    /// Plies after which a measured game is scored 0.
    const MEASURE_PLIES: usize;

    /// A fresh move generator.
    fn gen() -> Self::Gen;
    /// The starting position, the first mover on roll.
    fn start() -> Position;
    /// Whether no roll moves either side of `pos`: the game can never change (a draw).
    fn is_dead(gen: &mut Self::Gen, pos: &Position) -> bool;
    /// The points the mover of `after` wins, having just borne off the last checker
    /// (cubeless: a single game 1, a gammon 2, a backgammon 3).
    fn points(after: &Position) -> i32;
}

/// Backgammon: every game ends, gammons and backgammons count.
#[derive(Debug, Clone, Copy)]
pub struct BackgammonRules;

impl Rules for BackgammonRules {
    type Gen = MoveGen;
    const MEASURE_PLIES: usize = 10_000;

    fn gen() -> MoveGen {
        MoveGen::new()
    }

    fn start() -> Position {
        Position::START
    }

    fn is_dead(_: &mut MoveGen, _: &Position) -> bool {
        false
    }

    fn points(after: &Position) -> i32 {
        match after.bore_off_end(true) {
            Some((_, reason)) => match reason.code() {
                "gammon" => 2,
                "backgammon" => 3,
                _ => 1,
            },
            None => 1,
        }
    }
}

/// Never-Finishing: backgammon's moves with trapping, fifteen checkers a side on the
/// opponent's one-point at the start, a gammon when the loser bore off none, no backgammons,
/// and a dead position a draw.
#[derive(Debug, Clone, Copy)]
pub struct NfRules;

impl Rules for NfRules {
    type Gen = (TablesGen, Trapping);
    const MEASURE_PLIES: usize = NF_MAX_PLIES;

    fn gen() -> (TablesGen, Trapping) {
        (TablesGen::new(), Trapping::On)
    }

    fn start() -> Position {
        start_position()
    }

    fn is_dead(gen: &mut (TablesGen, Trapping), pos: &Position) -> bool {
        [*pos, pos.flip()]
            .iter()
            .all(|p| Dice::all().all(|d| gen.plays(p, d).is_empty()))
    }

    fn points(after: &Position) -> i32 {
        if after.opponent_off() == 0 {
            2
        } else {
            1
        }
    }
}
