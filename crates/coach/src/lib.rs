//! The coach: training the backgammon and Never-Finishing nets, apart from the runtime
//! (`tabula-ai`, whose bots only read the weights; no runtime crate depends on this one):
//!
//! - [`calibration`]: the nets' chances against the outcomes of their own self-play games,
//!   by phase and pips (a bias a search of the same nets cannot see);
//! - [`checkpoint`]: a TD run with checkpoints that resume, for either game's nets;
//! - [`grad`]: the nets' gradients and SGD step on their public weights;
//! - [`td`]: TD(lambda) self-play from random weights, games played in parallel with the
//!   weights frozen for a small batch, then one gradient step on every position's
//!   lambda-return;
//! - [`supervised`]: fitting the nets to labelled positions (per-example SGD, mini-batch
//!   Adam), and the 1-ply refinement generations;
//! - [`label`]: positions from exploring self-play labelled by the nets' n-ply chances, in
//!   checksummed chunk files (expert iteration);
//! - [`siblings`]: a roll's close candidate plays labelled together, for a fit that learns
//!   to rank them;
//! - [`save`] (and [`save_backgammon`], [`save_never_finishing`]): the atomic write of a
//!   weights file every trainer ends with;
//! - [`measure`]: cubeless duplicate-dice matches between evaluators, the learning curve's
//!   yardstick;
//! - [`outcome_fit`]: a net's output rows refitted to the outcomes of its own games (the
//!   position-dependent sequel of [`calibration`]'s recalibration);
//! - [`nf_td`]: the same TD(lambda) self-play for the Never-Finishing net;
//! - [`rules`]: what differs between the two dice games' rules where self-play and the
//!   yardstick play them (the move generator, the start, the score, dead positions), so that
//!   [`td`] and [`measure`] are written once for both.
//!
//! Everything is seeded: the same seed, batch size and game count give the same weights on
//! any number of threads (games are reduced in order).

#![deny(missing_docs)]

pub mod calibration;
pub mod checkpoint;
pub mod grad;
pub mod kinds;
pub mod label;
pub mod measure;
pub mod nf_td;
pub mod outcome_fit;
pub mod rules;
pub mod siblings;
pub mod supervised;
pub mod td;

use tabula_ai::backgammon::nn::file::{self, Weights};
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_ai::never_finishing::eval::NET_NAME;
use tabula_ai::never_finishing::NfEvaluator;
use tabula_ai::nn::net::Net;

/// Writes `nets` (by name) with `info` to the weights file `path` atomically (a temporary
/// file renamed over it), so that an interrupted run never leaves half a file.
pub fn save(path: &std::path::Path, info: String, nets: &[(&str, &Net)]) -> std::io::Result<()> {
    let weights = Weights {
        info,
        nets: nets
            .iter()
            .map(|(name, net)| (name.to_string(), (*net).clone()))
            .collect(),
    };
    let bytes = file::write(&weights).map_err(std::io::Error::other)?;
    let tmp = path.with_extension("tnn.tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(tmp, path)
}

/// Writes backgammon's `nets` (contact, race, and crashed where there is one) with `info` to
/// `path` ([`save`]).
pub fn save_backgammon(
    path: &std::path::Path,
    nets: &NeuralEvaluator,
    info: String,
) -> std::io::Result<()> {
    save(path, info, &nets.named_nets())
}

/// Writes the Never-Finishing net with `info` to `path` ([`save`]).
pub fn save_never_finishing(
    path: &std::path::Path,
    eval: &NfEvaluator,
    info: String,
) -> std::io::Result<()> {
    save(path, info, &[(NET_NAME, &eval.net)])
}
