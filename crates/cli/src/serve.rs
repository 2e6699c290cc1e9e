//! `tabula serve`: the game server, and `tabula verify-dice`: checking a finished game's
//! dice from its record.

use crate::error::bad_input;
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::net::SocketAddr;
use tabula_core::verifiable::{verify, DiceRecord};

/// Options of `tabula serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// The database: a SQLite file (created on first start) or a postgres:// URL.
    #[arg(long, default_value = "tabula.sqlite3")]
    pub database: String,
}

/// Runs the server until SIGTERM or Ctrl-C.
pub fn run(out: &mut impl Write, args: &ServeArgs) -> Result<()> {
    let addr: SocketAddr = args.addr.parse().map_err(|_| {
        bad_input(format!(
            "--addr {:?} is not an address like 127.0.0.1:8080",
            args.addr
        ))
    })?;
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let config = tabula_server::Config {
        addr,
        database: args.database.clone(),
    };
    let mut announced = Ok(());
    runtime.block_on(tabula_server::serve(config, |bound| {
        announced = writeln!(out, "Tabula is serving at http://{bound}/").and_then(|_| out.flush());
    }))?;
    announced?;
    Ok(())
}

/// Options of `tabula verify-dice`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// A game record: the JSON of `GET /api/games/{id}` (or of `/record`), or its `dice`
    /// object alone; `-` reads standard input.
    pub record: String,
}

/// Recomputes every roll of a finished game from its revealed seed and contributions.
pub fn verify_dice(out: &mut impl Write, args: &VerifyArgs) -> Result<()> {
    let text = if args.record == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(&args.record)
            .map_err(|e| bad_input(format!("cannot read {}: {e}", args.record)))?
    };
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| bad_input(format!("{} is not JSON: {e}", args.record)))?;
    let dice = value
        .get("game")
        .and_then(|g| g.get("dice"))
        .or_else(|| value.get("dice"))
        .unwrap_or(&value);
    let record: DiceRecord = serde_json::from_value(dice.clone())
        .map_err(|e| bad_input(format!("no dice record in {}: {e}", args.record)))?;
    let checked = verify(&record).map_err(|e| bad_input(format!("the dice do not verify: {e}")))?;
    writeln!(
        out,
        "verified: {checked} rolls match the revealed seed (commitment {})",
        record.commitment
    )?;
    Ok(())
}
