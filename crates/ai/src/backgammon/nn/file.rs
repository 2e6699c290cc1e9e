//! Backgammon's weights files: the shared format ([`crate::nn::file`]) holding the contact
//! and race nets, on either backgammon encoding.

pub use crate::nn::file::{read_for, Weights, WeightsError, MAGIC, VERSION};

use super::encode::{INPUTS, INPUTS_EXTENDED, INPUTS_WITH_FEATURES};

/// The bytes of a weights file; with no nets, the header names the per-point encoding.
pub fn write(weights: &Weights) -> Result<Vec<u8>, WeightsError> {
    crate::nn::file::write_for(weights, INPUTS)
}

/// Reads a backgammon weights file (nets on the per-point encoding, or on it and the
/// hand-crafted features), checking magic, version, input count, checksum and shapes.
pub fn read(bytes: &[u8]) -> Result<Weights, WeightsError> {
    crate::nn::file::read_one_of(bytes, &[INPUTS, INPUTS_WITH_FEATURES, INPUTS_EXTENDED])
}
