//! Integration tests of the tables crate, in one binary.

mod gnubg_cases;
mod gnubg_moves;
mod match_ids;
mod move_text;
mod never_finishing;
mod position_ids;
mod properties;
mod replay;
mod sequences;
mod tables_notation;
mod xgids;
