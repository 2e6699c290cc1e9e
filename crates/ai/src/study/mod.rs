//! Study tools on top of any [`crate::backgammon::Evaluator`]: n-ply evaluation and play
//! ranking with move filters ([`nply`]), cube decisions in cubeful equity ([`cube`]), and
//! rollouts ([`rollout`]). The command line's `eval`, `hint` and `rollout` are built on them.

pub mod cube;
pub mod nply;
pub mod rollout;

#[cfg(test)]
mod tests;
