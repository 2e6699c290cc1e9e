//! Study tools on top of any [`crate::backgammon::Evaluator`]: n-ply evaluation and play
//! ranking with move filters ([`nply`]), cube decisions in cubeful equity ([`cube`]), and
//! rollouts, cubeless ([`rollout`]) and cubeful ([`cubeful_rollout`]), resumable from their
//! running sums ([`sums`]), the level above strong (plays raced by rollouts, [`race`]; close
//! cube decisions corrected by a rollout, [`cube_race`]), and the analysis of whole sessions ([`analyse`]; Never-Finishing:
//! [`analyse_nf`]) with its report ([`report`]). The command line's `eval`, `hint` and `rollout` are built on them.

pub mod analyse;
pub mod analyse_nf;
pub mod cube;
pub mod cube_race;
pub mod cube_search;
pub mod cubeful_rollout;
pub mod filter;
pub mod hint;
pub mod nply;
pub mod race;
pub mod report;
pub mod rollout;
pub mod sums;

#[cfg(test)]
mod analyse_tests;
#[cfg(test)]
mod cubeful_tests;
#[cfg(test)]
mod tests;
