//! `tabula external`: a TCP server speaking GNU Backgammon's external-player protocol, so
//! that gnubg can play (and then analyse) Tabula's backgammon bot.
//!
//! gnubg, told `set player 1 external HOST:PORT` (Tabula must sit in seat 1: gnubg labels
//! the scores by seat, see [`fibs_board`]), connects once and then, for each decision of
//! that player, writes one FIBS `board:` line ended by a newline and a NUL byte
//! ([`fibs_board`]). Tabula answers one line: `roll` or `double` before rolling, `take`,
//! `drop` or `beaver` to a double, else the move in gnubg's notation ([`session`]). gnubg
//! answers resignation offers for its external players itself, so `accept` / `reject` never
//! come up. A line Tabula cannot read is logged on stderr and answered `Error: ...`, which
//! gnubg prints before stopping the game: a malformed line never leads to a guessed move.

mod fibs_board;
mod session;

use anyhow::Context;
use fibs_board::FibsBoard;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use tabula_ai::backgammon::BackgammonBot;
use tabula_ai::Level;

/// The options of `tabula external`.
#[derive(Debug, clap::Args)]
pub struct ExternalArgs {
    /// The address to listen on, e.g. 127.0.0.1:4321.
    #[arg(long, value_name = "HOST:PORT")]
    pub listen: String,
    /// The bot's level (random, easy, medium, strong).
    #[arg(long, value_name = "LEVEL", default_value = "strong")]
    pub level: String,
    /// The bot's seed (default: from the clock; printed so that a run can be repeated).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Serve this many connections, then exit (default: serve until killed).
    #[arg(long, value_name = "N")]
    pub connections: Option<u64>,
    /// Log every line received and every answer on stderr.
    #[arg(long)]
    pub verbose: bool,
}

/// Listens and serves gnubg's connections one after the other.
pub fn run(out: &mut impl Write, args: &ExternalArgs) -> anyhow::Result<()> {
    let level: Level = args.level.to_ascii_lowercase().parse().map_err(|_| {
        crate::error::bad_input(format!(
            "unknown level {:?} (random, easy, medium, strong)",
            args.level
        ))
    })?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let listener = TcpListener::bind(&args.listen)
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let address = listener.local_addr()?;
    writeln!(
        out,
        "tabula external: {level} bot, seed {seed}, listening on {address}"
    )?;
    out.flush()?;
    let mut served = 0u64;
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                eprintln!("tabula external: connection failed: {e}");
                continue;
            }
        };
        let peer = stream
            .peer_addr()
            .map(|a| a.to_string())
            .unwrap_or_default();
        eprintln!("tabula external: gnubg connected from {peer}");
        let mut bot = BackgammonBot::new(level, seed.wrapping_add(served));
        if let Err(e) = serve(stream, &mut bot, args.verbose) {
            eprintln!("tabula external: connection from {peer} ended: {e}");
        } else {
            eprintln!("tabula external: connection from {peer} closed");
        }
        served += 1;
        if args.connections.is_some_and(|n| served >= n) {
            break;
        }
    }
    Ok(())
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Answers every board line of one connection until gnubg closes it.
fn serve(stream: TcpStream, bot: &mut BackgammonBot, verbose: bool) -> std::io::Result<()> {
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // gnubg ends each line with "\n\0"; reading to the NUL takes the whole message.
        if reader.read_until(0, &mut buf)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_matches(|c: char| c == '\0' || c.is_whitespace());
        if line.is_empty() {
            continue;
        }
        let reply = reply_to(line, bot);
        if verbose {
            eprintln!("< {line}\n> {reply}");
        }
        writer.write_all(reply.as_bytes())?;
        writer.write_all(b"\n")?;
        writer.flush()?;
    }
}

/// The answer to one line, never failing: errors are logged and answered `Error: ...`.
fn reply_to(line: &str, bot: &mut BackgammonBot) -> String {
    let answer = FibsBoard::parse(line)
        .map_err(session::AnswerError::from)
        .and_then(|board| session::answer(&session::from_seat_one(board), bot));
    match answer {
        Ok(text) => text,
        Err(e) => {
            eprintln!("tabula external: cannot answer {line:?}: {e}");
            session::error_reply(&e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_lines_get_an_error_reply_not_a_panic() {
        let mut bot = BackgammonBot::new(Level::Medium, 3);
        for line in [
            "",
            "board:",
            "hello",
            "board:a:b:1:0:0:x",
            "board:a:b:3:0:0",
        ] {
            assert!(reply_to(line, &mut bot).starts_with("Error: "), "{line}");
        }
    }
}
