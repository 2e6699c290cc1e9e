//! The game server tested over real connections: `tabula serve` processes on loopback ports,
//! on a SQLite file and (where a server is available, which `.ci/run` ensures) PostgreSQL.

mod analysis;
mod bad_input;
mod chat;
mod clocks;
mod common;
mod config;
mod crash;
mod dice;
mod faultload;
mod flows;
mod idempotency;
mod instances;
mod lean;
mod leaving;
mod progress;
mod proxy;
mod rematch_prefs;
mod security_accounts;
mod security_state;
mod security_web;
mod storage_faults;
mod study;
mod study_variants;
mod trainer;
