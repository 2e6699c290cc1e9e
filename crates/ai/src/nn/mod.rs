//! The net library both dice games share: one perceptron shape, its forward pass and its
//! weights file. What differs between the games (which inputs a position gives, how the
//! outputs are made consistent, which nets a file holds) lives in each game's module
//! (`crate::backgammon::nn`, `crate::never_finishing`).
//!
//! - [`inputs`]: the sparse inputs every encoding fills;
//! - [`net`]: one perceptron (one hidden layer of sigmoids, five sigmoid outputs) and its
//!   portable forward pass;
//! - [`simd`]: the forward pass in AVX2/FMA intrinsics, chosen at run time ([`net::Net::forward`]);
//! - [`incremental`]: the forward pass split at the hidden sums, for batches of similar
//!   positions;
//! - [`file`]: the weights file, a small versioned and checksummed format of our own.
//!
//! Training (gradients, self-play, fitting) is not here: it lives in the `tabula-coach`
//! crate, which reads and writes the nets' public weights.

pub mod file;
pub mod incremental;
pub mod inputs;
pub mod net;
pub mod simd;
