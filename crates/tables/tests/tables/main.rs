//! Integration tests of the tables crate, in one binary.

mod gnubg_moves;
mod position_ids;
mod replay;
