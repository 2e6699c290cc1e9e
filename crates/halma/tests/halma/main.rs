//! Integration tests of Grasshopper (Halma), one binary: the rules one test each
//! (`rules`), perft against the committed table (`perft`), notation (`notation`) and
//! property tests (`properties`).

mod common;
mod notation;
mod perft;
mod properties;
mod rules;
