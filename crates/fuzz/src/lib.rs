//! Tabula's fuzzing harness, on stable Rust (cargo-fuzz needs nightly): every parser that
//! reads outside input, fed inputs from a seeded mutation engine inside
//! [`std::panic::catch_unwind`], with round-trip checks where they must hold.
//!
//! - [`engine`]: the mutation engine (bit flips, byte inserts and deletes, dictionary tokens,
//!   splices with corpus entries, random bytes; ChaCha-seeded) and the loop that runs a
//!   target for a time or a number of inputs, saving each crash's input;
//! - [`targets`]: the targets, one per parser or group of closely related parsers;
//! - [`fibs_board`]: the CLI's FIBS `board:` line reader, compiled in from
//!   `crates/cli/src/external/fibs_board.rs` (the CLI is a binary crate only).
//!
//! `tabula-fuzz --all --seconds 600` runs each target ten minutes, one after another, on
//! one core; `docs/fuzzing.md` has the figures. The crate's tests run every target for a
//! bounded number of inputs, so the ordinary test suite exercises them.

pub mod engine;
pub mod targets;

#[allow(dead_code, missing_docs)]
#[path = "../../cli/src/external/fibs_board.rs"]
pub mod fibs_board;

pub use engine::{run_one, run_target, Budget, Report, Target};
