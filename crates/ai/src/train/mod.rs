//! Training the backgammon and Never-Finishing nets, apart from the runtime (the bots only
//! read the weights):
//!
//! - [`td`]: TD(lambda) self-play from random weights, games played in parallel with the
//!   weights frozen for a small batch, then one gradient step on every position's
//!   lambda-return;
//! - [`supervised`]: fitting the nets to labelled positions (per-example SGD, mini-batch
//!   Adam), and the 1-ply refinement generations;
//! - [`label`]: positions from exploring self-play labelled by the nets' n-ply chances, in
//!   checksummed chunk files (expert iteration);
//! - [`save_backgammon`]: the atomic write of a weights file every trainer ends with;
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

use crate::backgammon::nn::file::{self, Weights};
use crate::backgammon::NeuralEvaluator;

/// Writes `nets` (contact and race) with `info` to the weights file `path` atomically (a
/// temporary file renamed over it), so that an interrupted run never leaves half a file.
pub fn save_backgammon(
    path: &std::path::Path,
    nets: &NeuralEvaluator,
    info: String,
) -> std::io::Result<()> {
    let bytes = file::write(&Weights {
        info,
        nets: vec![
            ("contact".to_string(), nets.contact.clone()),
            ("race".to_string(), nets.race.clone()),
        ],
    })
    .map_err(std::io::Error::other)?;
    let tmp = path.with_extension("tnn.tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(tmp, path)
}
