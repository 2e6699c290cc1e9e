//! The backgammon bot: an evaluator of cubeless chances, a move search over it, and cube and
//! resignation decisions from the same chances.

pub mod bearoff;
mod bot;
mod chances;
pub mod cube;
pub mod cubeful;
pub mod efficiency;
mod eval;
pub mod match_cube;
pub mod met;
pub mod nn;

pub use bearoff::BearoffDb;
pub use bot::{BackgammonBot, EvalKind};
pub use chances::{ChancesReport, Evaluator, Probabilities};
pub use eval::{Heuristic, Weighted, Weights};
pub use nn::NeuralEvaluator;
