//! Training the backgammon and Never-Finishing nets, apart from the runtime (the bots only
//! read the weights):
//!
//! - [`td`]: TD(lambda) self-play from random weights, games played in parallel with the
//!   weights frozen for a small batch, then one gradient step on every position's
//!   lambda-return;
//! - [`supervised`]: refinement generations, the nets fitted to their own 1-ply answers on
//!   positions from their self-play;
//! - [`label`]: positions from exploring self-play labelled by the nets' n-ply chances, in
//!   checksummed chunk files (expert iteration);
//! - [`measure`]: cubeless duplicate-dice matches between evaluators, the learning curve's
//!   yardstick;
//! - [`nf_td`] and [`nf_measure`]: the same TD(lambda) self-play and yardstick for the
//!   Never-Finishing net.
//!
//! Everything is seeded: the same seed, batch size and game count give the same weights on
//! any number of threads (games are reduced in order).

pub mod label;
pub mod measure;
pub mod nf_measure;
pub mod nf_td;
pub mod supervised;
pub mod td;
