//! `POST /api/study/rollout`: the analysis board's rollouts, streamed as they run (one JSON
//! object a line, `application/x-ndjson`) and resumable.
//!
//! What is rolled out (docs/protocol.md, "Analysis board"):
//! - **the position** (no `plays`): cubeless, its chances and equity, and the cube decision
//!   read from the rolled-out chances; cubeful, the cube decision itself (no double and
//!   double/take on the same dice, double/pass exact), or the position's cubeful value when
//!   the player on roll cannot double;
//! - **candidate plays** (`dice` and `plays`): each play's resulting position, the opponent
//!   to roll, the results turned to the mover's side. A play's rollout is exactly
//!   `tabula rollout` of the XGID it leaves (`after`), seen from the other side.
//!
//! The items run interleaved, a block of 36 trials each in turn, and every block sends the
//! running results (`partial`) with each item's running sums. A reader that goes away ends
//! the rollout within the trials under way. A stopped rollout keeps the last partial results; sent back as `resume`, the sums are continued from the next
//! trial, and the result is the same, to the last bit, as a rollout run at once
//! ([`tabula_ai::study::sums`]).
//!
//! Bounds: one rollout at a time per instance (then 503 `busy`), on
//! `TABULA_ANALYSIS_THREADS` threads; at most [`MAX_TRIALS`] trials an item, [`MAX_PLAYS`]
//! plays and [`MAX_TOTAL_TRIALS`] trials in all.

use super::study::{after_session, setup};
use super::study_limits::StudyClient;
use crate::error::{ApiError, Json};
use crate::AppState;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use tabula_ai::backgammon::cube::CubeState;
use tabula_ai::backgammon::match_cube::Holder;
use tabula_ai::backgammon::{ChancesReport, NeuralEvaluator, Probabilities};
use tabula_ai::never_finishing::NfEvaluator;
use tabula_ai::study::cube::{CubeAnalysis, Unit};
use tabula_ai::study::cubeful_rollout::{self, CubefulResult};
use tabula_ai::study::rollout::{self, RolloutConfig, RolloutResult};
use tabula_ai::study::sums::Sums;
use tabula_core::Color;
use tabula_tables::backgammon::Backgammon;
use tabula_tables::notation::{match_play, match_play_nf, session_ids, TablesPosition};
use tabula_tables::{MoveGen, Position};
use utoipa::ToSchema;

/// The most trials an item of a rollout may have.
pub const MAX_TRIALS: u32 = 1296;
/// The most candidate plays one rollout may take.
pub const MAX_PLAYS: usize = 6;
/// The most trials of one rollout, all items together.
pub const MAX_TOTAL_TRIALS: u32 = 4 * MAX_TRIALS;
/// Trials an item plays before the next item's turn (one per first roll).
const BLOCK: u32 = 36;

/// A rollout to run.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RolloutRequest {
    /// As for an evaluation; without `plays`, the player on roll is to roll (dice in the
    /// position are ignored).
    pub position: String,
    /// The roll of the candidate `plays` (else the position's own dice).
    #[serde(default)]
    pub dice: Option<String>,
    /// Candidate plays to roll out (gnubg notation, `13/9 4/3`), 1 to 6; none: the position.
    #[serde(default)]
    pub plays: Option<Vec<String>>,
    /// Play with the cube (money or the match's score), else cubeless.
    #[serde(default)]
    pub cubeful: bool,
    /// Games to play out per item, 1 to 1296 (default 324: every first roll nine times).
    #[serde(default)]
    pub trials: Option<u32>,
    /// Stop each game after this many plays and take the nets' judgement (default: play to
    /// the end).
    #[serde(default)]
    pub truncate: Option<u32>,
    /// The seed of the dice (default 1).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The running sums of a stopped rollout of the same request, one per item in order
    /// (as its last `partial` line gave them): the rollout goes on from there.
    #[serde(default)]
    pub resume: Option<Vec<SumsJson>>,
    /// `backgammon` (the default) or `never-finishing` (`position` in the tables notation,
    /// plays written with `^` for a trap; no cube, so cubeless only).
    #[serde(default)]
    pub game: Option<String>,
}

/// An item's running sums, as a rollout sends them and takes them back.
#[derive(Serialize, Deserialize, ToSchema, Clone)]
#[serde(deny_unknown_fields)]
pub struct SumsJson {
    /// Trials summed (the trials `0..trials`).
    pub trials: u32,
    /// The sum of each result (cubeless: the five chances and the equity; cubeful: the
    /// value).
    pub sum: Vec<f64>,
    /// The sum of each result's square.
    pub sum_sq: Vec<f64>,
}

impl<const K: usize> From<&Sums<K>> for SumsJson {
    fn from(s: &Sums<K>) -> SumsJson {
        SumsJson {
            trials: s.trials,
            sum: s.sum.to_vec(),
            sum_sq: s.sum_sq.to_vec(),
        }
    }
}

impl SumsJson {
    fn sums<const K: usize>(&self, trials: u32) -> Result<Sums<K>, ApiError> {
        let bad = || {
            ApiError::bad_request(format!(
                "resume: each item's sums are {K} numbers and {K} squares over at most {trials} trials"
            ))
        };
        let sums = Sums {
            trials: self.trials,
            sum: self.sum.clone().try_into().map_err(|_| bad())?,
            sum_sq: self.sum_sq.clone().try_into().map_err(|_| bad())?,
        };
        if sums.trials > trials || !sums.is_plausible() {
            return Err(bad());
        }
        Ok(sums)
    }
}

/// What one item rolls out.
enum Target {
    /// The position, the player on roll to roll.
    Position,
    /// A candidate play: the position it leaves, seen from the opponent, who rolls.
    Play {
        play: String,
        after: Position,
        /// The position it leaves, as text: an XGID, or the tables notation.
        after_text: String,
        /// Backgammon: the session it leaves (for the cube).
        next: Option<Box<Backgammon>>,
    },
    /// The cube where it is (no double), or doubled and taken.
    NoDouble,
    DoubleTake,
}

/// An item and its running sums.
struct Item {
    target: Target,
    cubeless: Sums<6>,
    cubeful: Sums<1>,
}

impl Item {
    fn done(&self, cubeful: bool) -> u32 {
        if cubeful {
            self.cubeful.trials
        } else {
            self.cubeless.trials
        }
    }
}

/// What a rollout starts from.
enum Root {
    /// A backgammon session.
    Backgammon(Backgammon),
    /// A Never-Finishing position.
    NeverFinishing(TablesPosition),
}

impl Root {
    /// The side to move and the board, seen from it.
    fn board(&self) -> (Color, Position) {
        match self {
            Root::Backgammon(s) => (s.game().turn(), s.game().board()),
            Root::NeverFinishing(p) => (p.to_move, p.position),
        }
    }
}

/// A validated rollout.
struct Job {
    root: Root,
    cubeful: bool,
    config: RolloutConfig,
    items: Vec<Item>,
}

fn holder_for(session: &Backgammon, player: Color) -> Holder {
    Holder::of(session.game().cube().owner(), player)
}

/// Whether the player on roll may double now (the cube in play and not the opponent's).
fn may_double(session: &Backgammon) -> bool {
    let game = session.game();
    game.cube_in_play() && game.cube().may_double(game.turn())
}

fn job(req: RolloutRequest) -> Result<Job, ApiError> {
    let trials = req.trials.unwrap_or(324);
    if !(1..=MAX_TRIALS).contains(&trials) {
        return Err(ApiError::bad_request(format!(
            "trials must be 1 to {MAX_TRIALS}"
        )));
    }
    if req.truncate.is_some_and(|t| t > 1000) {
        return Err(ApiError::bad_request("truncate is at most 1000 plays"));
    }
    let config = RolloutConfig {
        trials,
        truncate: req.truncate,
        seed: req.seed.unwrap_or(1),
        variance_reduction: true,
    };
    let nf = match req.game.as_deref() {
        None | Some("backgammon") => false,
        Some("never-finishing") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "game: backgammon or never-finishing, not {other:?}"
            )))
        }
    };
    let (root, targets) = if nf {
        nf_targets(&req)?
    } else {
        backgammon_targets(&req)?
    };
    let total = trials.saturating_mul(targets.len() as u32);
    if total > MAX_TOTAL_TRIALS {
        return Err(ApiError::bad_request(format!(
            "at most {MAX_TOTAL_TRIALS} trials in all: {} items of {trials} is {total}",
            targets.len()
        )));
    }
    let resume = req.resume.unwrap_or_default();
    if !resume.is_empty() && resume.len() != targets.len() {
        return Err(ApiError::bad_request(format!(
            "resume: {} items' sums for {} items",
            resume.len(),
            targets.len()
        )));
    }
    let mut items = Vec::new();
    for (k, target) in targets.into_iter().enumerate() {
        let mut item = Item {
            target,
            cubeless: Sums::default(),
            cubeful: Sums::default(),
        };
        if let Some(s) = resume.get(k) {
            if req.cubeful {
                item.cubeful = s.sums(trials)?;
            } else {
                item.cubeless = s.sums(trials)?;
            }
        }
        items.push(item);
    }
    Ok(Job {
        root,
        cubeful: req.cubeful,
        config,
        items,
    })
}

/// A backgammon rollout's session and items.
fn backgammon_targets(req: &RolloutRequest) -> Result<(Root, Vec<Target>), ApiError> {
    let targets = match &req.plays {
        None => {
            let session = setup(&req.position, None)?;
            let targets = if !req.cubeful {
                vec![Target::Position]
            } else if may_double(&session) {
                vec![Target::NoDouble, Target::DoubleTake]
            } else {
                vec![Target::NoDouble]
            };
            (session, targets)
        }
        Some(plays) => {
            if plays.is_empty() || plays.len() > MAX_PLAYS {
                return Err(ApiError::bad_request(format!(
                    "plays: 1 to {MAX_PLAYS} candidate plays"
                )));
            }
            let session = setup(&req.position, req.dice.as_deref())?;
            let Some(dice) = session.game().dice() else {
                return Err(ApiError::bad_request(
                    "plays need dice: set the roll (dice) or give a position with its dice",
                ));
            };
            let board = session.game().board();
            let mut targets = Vec::new();
            for text in plays {
                let (_, after) = match_play(&board, dice, text).map_err(|e| {
                    ApiError::bad_request(format!("plays: {text:?} is not a play of {dice}: {e}"))
                })?;
                let next = after_session(&session, &after)?;
                targets.push(Target::Play {
                    play: text.trim().to_string(),
                    after: after.flip(),
                    after_text: session_ids(&next).xgid,
                    next: Some(Box::new(next)),
                });
            }
            (session, targets)
        }
    };
    let (session, targets) = targets;
    Ok((Root::Backgammon(session), targets))
}

/// A Never-Finishing rollout's position and items: the position, or candidate plays.
fn nf_targets(req: &RolloutRequest) -> Result<(Root, Vec<Target>), ApiError> {
    if req.cubeful {
        return Err(ApiError::bad_request(
            "cubeful: Never-Finishing has no cube; its rollouts are cubeless",
        ));
    }
    let pos = super::study_nf::nf_position(&req.position)?;
    let Some(plays) = &req.plays else {
        return Ok((Root::NeverFinishing(pos), vec![Target::Position]));
    };
    if plays.is_empty() || plays.len() > MAX_PLAYS {
        return Err(ApiError::bad_request(format!(
            "plays: 1 to {MAX_PLAYS} candidate plays"
        )));
    }
    let Some(text) = req.dice.as_deref() else {
        return Err(ApiError::bad_request(
            "plays need dice: set the roll (dice)",
        ));
    };
    let dice = super::study::parse_dice(text.trim())?;
    let mut targets = Vec::new();
    for text in plays {
        let (_, after) = match_play_nf(&pos.position, dice, text).map_err(|e| {
            ApiError::bad_request(format!("plays: {text:?} is not a play of {dice}: {e}"))
        })?;
        targets.push(Target::Play {
            play: text.trim().to_string(),
            after: after.flip(),
            after_text: pos.after_move(after).to_string(),
            next: None,
        });
    }
    Ok((Root::NeverFinishing(pos), targets))
}

/// Rolls out a position, candidate plays or the cube, streaming the progress: lines of
/// `{"progress": done, "trials": n}`, `{"partial": report}` after each block, and last
/// `{"result": report}` (or `{"error": ...}`).
#[utoipa::path(post, path = "/api/study/rollout", request_body = RolloutRequest,
    responses((status = 200, description = "application/x-ndjson: progress lines, partial reports, then the result. A report: kind (position, plays or cube), cubeful, unit (cubeless, money or mwc), trials, seed, truncate, seconds, items (each: label, move and after for plays, trials done, equity, equity_std_err, equity_ci95, sums to resume from; cubeless: chances and std_err of the five), and the cube decision (double_drop, proper) where the player on roll may double", content_type = "application/x-ndjson"),
        (status = 400, description = "bad_position, bad_request (trials, truncate, plays, dice, resume), naming the field", body = crate::error::ErrorBody),
        (status = 429, description = "too_many: this client's last rollout is still running", body = crate::error::ErrorBody),
        (status = 503, description = "busy: another rollout is running on this instance", body = crate::error::ErrorBody)))]
pub async fn rollout(
    State(state): State<AppState>,
    StudyClient(client): StudyClient,
    Json(req): Json<RolloutRequest>,
) -> Result<Response, ApiError> {
    let job = job(req)?;
    let mine = super::study_limits::one_per_client(&state, "rollout", &client)?;
    let permit = state.rollouts.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "another rollout is running on this server; try again when it ends",
        )
        .retry_after(5)
    })?;
    let threads = state.analysis.threads.max(1);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    tokio::task::spawn_blocking(move || {
        let last = run(job, threads, &tx);
        // The place is free before the result is sent: a client that starts its next
        // rollout as soon as this one ends is not told this one is still running.
        drop(permit);
        drop(mine);
        if let Some(last) = last {
            let _ = tx.send(last.to_string());
        }
    });
    let stream = futures_util::stream::poll_fn(move |cx| {
        rx.poll_recv(cx)
            .map(|line| line.map(|l| Ok::<_, std::convert::Infallible>(Bytes::from(l + "\n"))))
    });
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response())
}

/// Runs `job`, sending its progress and partial reports; the last line to send (the result
/// or an error), none when the reader has gone. The thread pool is gone when it returns.
fn run(
    mut job: Job,
    threads: usize,
    tx: &tokio::sync::mpsc::UnboundedSender<String>,
) -> Option<Value> {
    let cancel = AtomicBool::new(false);
    let send = |v: Value| {
        if tx.send(v.to_string()).is_err() {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => return Some(json!({"error": e.to_string()})),
    };
    let trials = job.config.trials;
    let total = trials * job.items.len() as u32;
    let done = AtomicU32::new(job.items.iter().map(|i| i.done(job.cubeful)).sum());
    let step = (total / 50).max(1);
    let progress = || {
        // A reader gone (Stop in the browser) ends the rollout within the trials under way,
        // not at the next line sent.
        if tx.is_closed() {
            cancel.store(true, Ordering::Relaxed);
        }
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(step) || n == total {
            send(json!({"progress": n, "trials": total}));
        }
    };
    let start = std::time::Instant::now();
    pool.install(|| {
        while job.items.iter().any(|i| i.done(job.cubeful) < trials) {
            for k in 0..job.items.len() {
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                let until = (job.items[k].done(job.cubeful) + BLOCK).min(trials);
                if job.items[k].done(job.cubeful) < until {
                    step_item(&mut job, k, until, &progress, &cancel);
                    let report = report(&job, start.elapsed().as_secs_f64(), false);
                    send(json!({ "partial": report }));
                }
            }
        }
    });
    drop(pool);
    (!cancel.load(Ordering::Relaxed))
        .then(|| json!({"result": report(&job, start.elapsed().as_secs_f64(), true)}))
}

/// Plays item `k`'s trials up to `until`.
fn step_item(
    job: &mut Job,
    k: usize,
    until: u32,
    progress: &(impl Fn() + Sync),
    cancel: &AtomicBool,
) {
    let nets = NeuralEvaluator::shipped();
    let config = RolloutConfig {
        trials: until,
        ..job.config
    };
    let item = &mut job.items[k];
    let (player, board) = job.root.board();
    if !job.cubeful {
        let root = match &item.target {
            Target::Play { after, .. } => *after,
            _ => board,
        };
        let from = (item.cubeless, BLOCK);
        item.cubeless = match &job.root {
            Root::Backgammon(_) => rollout::rollout_resume(
                nets,
                MoveGen::new,
                NeuralEvaluator::exact,
                &root,
                &config,
                from,
                progress,
                cancel,
                |_| {},
            ),
            Root::NeverFinishing(_) => rollout::rollout_resume(
                NfEvaluator::shipped(),
                super::study_nf::gen,
                |_: &Position| None,
                &root,
                &config,
                from,
                progress,
                cancel,
                |_| {},
            ),
        };
        return;
    }
    // Cubeful rollouts are backgammon's only (a Never-Finishing one is refused in `job`).
    let Root::Backgammon(session) = &job.root else {
        return;
    };
    let state = CubeState::of(session, player);
    let holder = holder_for(session, player);
    let (root, state, start) = match &item.target {
        Target::Play {
            after,
            next: Some(next),
            ..
        } => {
            let them = !player;
            (
                *after,
                CubeState::of(next, them),
                (state.cube, holder_for(next, them)),
            )
        }
        Target::DoubleTake => (board, state, (2 * state.cube, Holder::Opponent)),
        _ => (board, state, (state.cube, holder)),
    };
    item.cubeful = cubeful_rollout::rollout_cubeful_resume(
        nets,
        MoveGen::new,
        &root,
        &state,
        start,
        &config,
        (item.cubeful, BLOCK),
        progress,
        cancel,
        |_| {},
    );
}

/// Chances seen from the other side: the standard errors of the five follow their outputs.
fn flip_err(se: [f64; 5]) -> [f64; 5] {
    [se[0], se[3], se[4], se[1], se[2]]
}

fn ci(equity: f64, se: f64) -> [f64; 2] {
    [equity - 1.96 * se, equity + 1.96 * se]
}

/// The running or final report of a job.
fn report(job: &Job, seconds: f64, last: bool) -> Value {
    // Never-Finishing has no cube: its rollouts are cubeless.
    let state = match &job.root {
        Root::Backgammon(session) => Some(CubeState::of(session, session.game().turn())),
        Root::NeverFinishing(_) => None,
    };
    let unit = state.as_ref().map_or(Unit::Money, |s| Unit::of(&s.stakes));
    let items: Vec<Value> = job
        .items
        .iter()
        .map(|item| {
            let (label, play, after) = match &item.target {
                Target::Position => ("the position".to_string(), None, None),
                Target::Play {
                    play, after_text, ..
                } => (play.clone(), Some(play.clone()), Some(after_text.clone())),
                Target::NoDouble => ("no double".to_string(), None, None),
                Target::DoubleTake => ("double, take".to_string(), None, None),
            };
            let mut v = if job.cubeful {
                let r = CubefulResult::of(&item.cubeful);
                let value = match (&item.target, unit) {
                    (Target::Play { .. }, Unit::Money) => -r.value,
                    (Target::Play { .. }, Unit::MatchWinningChance) => 1.0 - r.value,
                    _ => r.value,
                };
                json!({
                    "trials": r.trials,
                    "equity": value,
                    "equity_std_err": r.std_err,
                    "equity_ci95": ci(value, r.std_err),
                    "sums": SumsJson::from(&item.cubeful),
                })
            } else {
                let r = RolloutResult::of(&item.cubeless);
                let (chances, se, equity) = match item.target {
                    Target::Play { .. } => (r.chances.flip(), flip_err(r.std_err), -r.equity),
                    _ => (r.chances, r.std_err, r.equity),
                };
                json!({
                    "trials": r.trials,
                    "chances": ChancesReport::from(&chances),
                    "std_err": se,
                    "equity": equity,
                    "equity_std_err": r.equity_std_err,
                    "equity_ci95": ci(equity, r.equity_std_err),
                    "sums": SumsJson::from(&item.cubeless),
                })
            };
            v["label"] = json!(label);
            if let (Some(play), Some(after)) = (play, after) {
                v["move"] = json!(play);
                v["after"] = json!(after);
            }
            v
        })
        .collect();
    let kind = match job.items.first().map(|i| &i.target) {
        Some(Target::Play { .. }) => "plays",
        Some(Target::NoDouble | Target::DoubleTake) => "cube",
        _ => "position",
    };
    let verdict = match (&job.root, &state) {
        (Root::Backgammon(session), Some(state)) if last => cube_verdict(job, session, state),
        _ => None,
    };
    let cube = verdict.map(|a| {
        json!({
            "unit": super::analysis::unit_name(a.unit),
            "no_double": a.no_double,
            "double_take": a.double_take,
            "double_drop": a.double_drop,
            "proper": a.verdict(),
        })
    });
    json!({
        "kind": kind,
        "cubeful": job.cubeful,
        "unit": if job.cubeful { super::analysis::unit_name(unit) } else { "cubeless" },
        "trials": job.config.trials,
        "seed": job.config.seed,
        "truncate": job.config.truncate,
        "seconds": seconds,
        "items": items,
        "cube": cube,
    })
}

/// The cube decision a finished rollout of the position gives, where the player on roll
/// may double: from the rolled-out chances (cubeless), or the rolled-out cube actions.
fn cube_verdict(job: &Job, session: &Backgammon, state: &CubeState) -> Option<CubeAnalysis> {
    if !may_double(session) {
        return None;
    }
    let player = session.game().turn();
    match job.items.as_slice() {
        [Item {
            target: Target::Position,
            cubeless,
            ..
        }] => Some(CubeAnalysis::at(
            &session.game().board(),
            &RolloutResult::of(cubeless).chances,
            state,
        )),
        [nd, dt] if job.cubeful => {
            let no_double = CubefulResult::of(&nd.cubeful);
            let double_take = CubefulResult::of(&dt.cubeful);
            let holder = holder_for(session, player);
            let double_drop = cubeful_rollout::dropped_value(state, holder);
            let d = cubeful_rollout::CubeRollout {
                no_double,
                double_take,
                double_drop,
            };
            Some(CubeAnalysis {
                chances: Probabilities::default(),
                unit: Unit::of(&state.stakes),
                no_double: no_double.value as f32,
                double_take: double_take.value as f32,
                double_drop: double_drop as f32,
                double: d.double(),
                take: d.take(),
                beaver: false,
                redouble: holder == Holder::Player,
            })
        }
        _ => None,
    }
}
