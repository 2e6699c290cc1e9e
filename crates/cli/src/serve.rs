//! `tabula serve`: the game server.

use crate::error::bad_input;
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::net::SocketAddr;

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
    // Every variable checked before anything starts: a bad one is one line and exit 2.
    let config = tabula_server::Config::from_env(addr, args.database.clone())
        .map_err(|e| bad_input(e.to_string()))?;
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let mut announced = Ok(());
    runtime.block_on(tabula_server::serve(config, |bound| {
        announced = writeln!(out, "Tabula is serving at http://{bound}/").and_then(|_| out.flush());
    }))?;
    announced?;
    Ok(())
}
