//! The analysis of finished backgammon and Never-Finishing games as jobs (Never-Finishing's
//! chequer plays by `tabula_ai::study::analyse_nf`, in the same report): a request queues one in the database
//! ([`crate::store::analyses`]), a worker on any instance claims it, replays the game's log into its
//! decisions, analyses them on the shipped nets (`tabula_ai::study::analyse`, the same as
//! `tabula analyse`) and stores the report with the game. Progress reaches the game's
//! WebSocket watchers as `{"type": "analysis", ...}` messages, on every instance (PostgreSQL
//! carries them with `NOTIFY tabula_analyses`).
//!
//! Bounds: each instance runs one job at a time on [`Config::threads`] threads (the rest of
//! the machine keeps serving games); at most [`Config::queue`] jobs wait, further requests
//! are answered 503 `busy`; only finished games are analysed, so a job's size is a played
//! game's.

use crate::games::Table;
use crate::service::replay_event;
use crate::store::EventRow;
use crate::AppState;
use serde::Serialize;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_ai::never_finishing::NfEvaluator;
use tabula_ai::study::analyse::{analyse, Settings, Step};
use tabula_ai::study::analyse_nf::{analyse_nf, NfStep};
use tabula_ai::study::race::RaceConfig;
use tabula_ai::study::report::{
    decision_report, player_report, players, DecisionReport, PlayerReport,
};
use tabula_core::{ByColor, Color};

/// How the analysis runs on this instance ([`crate::config`]).
pub use crate::config::AnalysisSettings as Config;

/// One analysed decision with the log entry that made it.
#[derive(Debug, Serialize)]
pub struct DecisionView {
    /// The game's version after the decision (its entry in `/events` and `/record`).
    pub version: i64,
    /// The decision.
    #[serde(flatten)]
    pub decision: DecisionReport,
}

/// The stored report of a game.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Plies of the analysis.
    pub plies: u32,
    /// Seconds it took.
    pub seconds: f64,
    /// The match length, 0 for money.
    pub match_length: u32,
    /// White's totals, then Black's.
    pub players: [PlayerReport; 2],
    /// Every decision, in order.
    pub decisions: Vec<DecisionView>,
}

/// What `read` makes of each action of a game's log, replayed from `options`, with the
/// version each entry made (actions it skips with `None` are left out).
fn read_log<T>(
    options: &crate::games::GameOptions,
    events: &[EventRow],
    read: impl Fn(&Table, &EventRow) -> Result<Option<T>, String>,
) -> Result<(Vec<T>, Vec<i64>), String> {
    let mut table = Table::new(options)?;
    let (mut steps, mut versions) = (Vec::new(), Vec::new());
    for e in events {
        if e.kind == "action" {
            if let Some(step) = read(&table, e)? {
                steps.push(step);
                versions.push(e.version);
            }
        }
        replay_event(&mut table, e).map_err(|e| e.message)?;
    }
    Ok((steps, versions))
}

/// The decisions of a backgammon game's log, each with the version its entry made.
pub fn decisions(
    options: &crate::games::GameOptions,
    events: &[EventRow],
) -> Result<(Vec<Step>, Vec<i64>), String> {
    read_log(options, events, |table, e| {
        table
            .backgammon_decision(&e.payload)
            .map(Some)
            .ok_or_else(|| format!("entry {} is not a backgammon decision", e.version))
    })
}

/// The chequer plays of a Never-Finishing game's log, each with the version its entry made.
pub fn nf_decisions(
    options: &crate::games::GameOptions,
    events: &[EventRow],
) -> Result<(Vec<NfStep>, Vec<i64>), String> {
    read_log(options, events, |table, e| {
        Ok(table.never_finishing_play(&e.payload))
    })
}

/// Tells the game's watchers (on every instance) how the analysis stands.
async fn announce(state: &AppState, game: &str, job_state: &str, done: usize, total: usize) {
    let note = json!({"type": "analysis", "game": game, "state": job_state,
                      "done": done, "total": total});
    state.note_everywhere(game, note).await;
}

/// Starts this instance's worker: it claims jobs until the process ends, waking when a
/// request here queues one and every few seconds for the other instances' requests.
pub fn spawn_worker(state: AppState) {
    if state.analysis.threads == 0 {
        return;
    }
    let worker = crate::auth::new_token();
    tokio::spawn(async move {
        loop {
            match state.db.claim_analysis(&worker).await {
                Ok(Some((game, plies))) => {
                    let outcome = run(&state, &worker, &game, plies).await;
                    let (label, done) = match &outcome {
                        Ok((_, total)) => ("done", *total),
                        Err(_) => ("failed", 0),
                    };
                    if let Err(e) = &outcome {
                        tracing::warn!(game = %game, error = %e, "analysis failed");
                    }
                    let stored = state
                        .db
                        .finish_analysis(&game, &worker, outcome.map(|(r, _)| r))
                        .await;
                    if matches!(stored, Ok(true)) {
                        announce(&state, &game, label, done, done).await;
                    }
                }
                Ok(None) => {
                    let _ = tokio::time::timeout(
                        Duration::from_secs(3),
                        state.analysis_wake.notified(),
                    )
                    .await;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "claiming an analysis failed");
                    tokio::time::sleep(Duration::from_secs(3)).await;
                }
            }
        }
    });
}

/// Analyses `game`: the report as JSON text and the number of decisions, or why not.
async fn run(
    state: &AppState,
    worker: &str,
    game: &str,
    plies: u32,
) -> Result<(String, usize), String> {
    let loaded = state.load(game).await.map_err(|e| e.message)?;
    if loaded.row.state != "finished" {
        return Err("the game is not finished".into());
    }
    let events = state.db.events(game, 0).await.map_err(|e| e.to_string())?;
    let options = loaded.row.game_options().map_err(|e| e.message)?;
    let names: ByColor<String> = loaded.names.clone();
    let race = state.analysis.race;
    // The game's decisions, and how to analyse them on a worker thread (ticking once per
    // decision) into both players' totals and the decisions' reports.
    let (total, match_length, analyse_all): (usize, u32, Box<Analyser>) =
        if let Some(nf) = loaded.table.never_finishing() {
            let match_length = match nf.options().scoring {
                tabula_tables::never_finishing::Scoring::Match { length } => u32::from(length),
                tabula_tables::never_finishing::Scoring::Money { .. } => 0,
            };
            let (steps, versions) = nf_decisions(&options, &events)?;
            let total = steps.len();
            let analyse_all = move |tick: &(dyn Fn() + Sync)| {
                let a = analyse_nf(NfEvaluator::shipped(), &steps, plies, tick);
                let players = [
                    player_report(&names.white, Color::White, &a.white),
                    player_report(&names.black, Color::Black, &a.black),
                ];
                let decisions = a
                    .decisions
                    .into_iter()
                    .map(|d| DecisionView {
                        version: versions[d.step],
                        decision: d,
                    })
                    .collect();
                (players, decisions)
            };
            (total, match_length, Box::new(analyse_all))
        } else if let Some(session) = loaded.table.backgammon() {
            let match_length = match session.options().mode {
                tabula_tables::backgammon::Mode::Match { length, .. } => u32::from(length),
                tabula_tables::backgammon::Mode::Money { .. } => 0,
            };
            let (steps, versions) = decisions(&options, &events)?;
            let total = steps.len();
            let analyse_all = move |tick: &(dyn Fn() + Sync)| {
                let settings = Settings {
                    plies,
                    race: race.then(RaceConfig::default),
                    ..Settings::default()
                };
                let a = analyse(NeuralEvaluator::shipped(), &steps, &settings, tick);
                let decisions = a
                    .decisions
                    .iter()
                    .map(|d| DecisionView {
                        version: versions[d.step],
                        decision: decision_report(d, &steps),
                    })
                    .collect();
                (players(&names, &a), decisions)
            };
            (total, match_length, Box::new(analyse_all))
        } else {
            return Err("only backgammon and Never-Finishing games are analysed".into());
        };
    let counter = Arc::new(AtomicUsize::new(0));
    let threads = state.analysis.threads;
    let work = {
        let counter = counter.clone();
        tokio::task::spawn_blocking(move || -> Result<String, String> {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| e.to_string())?;
            let started = std::time::Instant::now();
            let tick = || {
                counter.fetch_add(1, Ordering::Relaxed);
            };
            let (players, decisions) = pool.install(|| analyse_all(&tick));
            let report = Report {
                plies,
                seconds: started.elapsed().as_secs_f64(),
                match_length,
                players,
                decisions,
            };
            serde_json::to_string(&report).map_err(|e| e.to_string())
        })
    };
    drive(state, worker, game, total, counter, work).await
}

/// A game's analysis, run on a worker thread: it ticks once per decision analysed and gives
/// both players' totals and every decision's report.
type Analyser = dyn FnOnce(&(dyn Fn() + Sync)) -> ([PlayerReport; 2], Vec<DecisionView>) + Send;

/// Waits for an analysis `work` of `total` decisions, announcing its progress (`counter`)
/// and beating the job's heartbeat every second; the report and the count.
async fn drive(
    state: &AppState,
    worker: &str,
    game: &str,
    total: usize,
    counter: Arc<AtomicUsize>,
    work: tokio::task::JoinHandle<Result<String, String>>,
) -> Result<(String, usize), String> {
    let _ = state.db.analysis_progress(game, worker, 0, total).await;
    announce(state, game, "running", 0, total).await;
    tokio::pin!(work);
    let mut reported = 0;
    loop {
        tokio::select! {
            result = &mut work => {
                return result.map_err(|e| e.to_string())?.map(|r| (r, total));
            }
            _ = tokio::time::sleep(Duration::from_secs(1)) => {
                let done = counter.load(Ordering::Relaxed);
                // The heartbeat goes on even without progress, so the job is not taken over.
                if let Ok(false) = state.db.analysis_progress(game, worker, done, total).await {
                    return Err("another instance took the job over".into());
                }
                if done != reported {
                    reported = done;
                    announce(state, game, "running", done, total).await;
                }
            }
        }
    }
}
