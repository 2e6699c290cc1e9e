//! The bot interface shared by every game, and a random bot for any of them.
//!
//! A bot answers whatever decision the game asks of it (a move, a cube action, an answer to a
//! resignation offer); the CLI, the self-play harness and the server drive every bot through
//! [`Bot`], built by the per-game factories in [`crate::bots`]. Bots are deterministic for a
//! given level, seed and node budget.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_core::{Game, Status};

/// A player program for game `G`.
pub trait Bot<G: Game> {
    /// The action for the decision the game asks now; `None` when no decision is due (at a
    /// chance node or after the end).
    fn choose(&mut self, game: &G) -> Option<G::Action>;
}

/// How much a search may spend on one decision. Node budgets keep bots deterministic; a time
/// budget depends on the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Budget {
    /// The level's own default.
    Default,
    /// At most this many searched positions per decision.
    Nodes(u64),
    /// At most this long per decision.
    Time(std::time::Duration),
}

/// Uniformly random legal actions among those `keep` accepts (so that, say, draw offers or
/// resignations are not thrown in at random).
pub struct RandomBot<G: Game> {
    rng: ChaCha8Rng,
    keep: fn(&G::Action) -> bool,
}

impl<G: Game> RandomBot<G> {
    /// A random bot seeded with `seed`, choosing among the actions `keep` accepts.
    pub fn new(seed: u64, keep: fn(&G::Action) -> bool) -> RandomBot<G> {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            keep,
        }
    }
}

impl<G: Game> Bot<G> for RandomBot<G> {
    fn choose(&mut self, game: &G) -> Option<G::Action> {
        if !matches!(game.status(), Status::Decide { .. }) {
            return None;
        }
        let actions: Vec<G::Action> = game
            .legal_actions()
            .into_iter()
            .filter(|a| (self.keep)(a))
            .collect();
        if actions.is_empty() {
            return None;
        }
        let i = self.rng.gen_range(0..actions.len());
        actions.into_iter().nth(i)
    }
}
