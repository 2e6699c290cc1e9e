//! Group commit: every change to a game on this instance is written by one writer task,
//! which takes all the changes waiting when it becomes free and writes them in one
//! transaction, so that one `COMMIT` (one flush to disk) acknowledges them all.
//!
//! A request hands its change over as a [`Job`] and waits on its [`Ticket`]. Within the
//! batch each change is still optimistic: the game row moves from `v` to `v + 1` only if it
//! is still at `v` (else that change alone is `Stale` and its request reloads and retries);
//! the event row is appended only when the game row moved. The rows are locked in game-id
//! order, so two instances' batches on one PostgreSQL database cannot deadlock.
//!
//! What a request is told when its wait ends first ([`STORAGE_DEADLINE`]): a change the
//! writer had not taken yet is withdrawn and answered `storage_unavailable` (nothing was
//! written); one it had taken may yet be committed, and is answered `outcome_unknown`.
//! A failed batch fails every change in it the same way a single failed commit did: 503 with
//! the storage code, and `outcome_unknown` when the `COMMIT` was sent but not answered.

use crate::db::{now_ms, Backend, EventRow, GameRow};
use crate::error::ApiError;
use crate::ratings;
use crate::storage::{WriteConn, STORAGE_DEADLINE};
use sqlx::AnyPool;
use std::sync::atomic::{AtomicU8, Ordering::SeqCst};
use std::sync::{Arc, OnceLock};
use tokio::sync::{mpsc, oneshot};

/// The most changes one transaction writes.
pub const MAX_BATCH: usize = 64;

/// Why a change was not committed.
pub enum Commit {
    /// The stored game had moved on: reload and decide again.
    Stale,
    /// The storage failed (503 with the storage code, [`crate::storage`]).
    Failed(ApiError),
}

/// A job's progress, shared by the request and the writer.
const PENDING: u8 = 0;
const TAKEN: u8 = 1;
const WITHDRAWN: u8 = 2;

/// One change to write: the game row as it must become, from `before`, and its event.
pub struct Job {
    /// The version the stored row must still have.
    pub before: i64,
    /// The row after the change.
    pub row: GameRow,
    /// Actions after the change.
    pub plies: i64,
    /// The log entry.
    pub event: EventRow,
}

/// A request's claim on the outcome of its [`Job`].
pub struct Ticket {
    progress: Arc<AtomicU8>,
    answer: oneshot::Receiver<Result<(), Commit>>,
}

struct Queued {
    job: Job,
    progress: Arc<AtomicU8>,
    reply: oneshot::Sender<Result<(), Commit>>,
}

/// The instance's writer: started on first use, it runs until the server stops.
pub struct Writer {
    queue: OnceLock<mpsc::UnboundedSender<Queued>>,
    pool: AnyPool,
    backend: Backend,
}

impl Writer {
    /// A writer on `pool` of `backend` (its task starts with the first job).
    pub fn new(pool: AnyPool, backend: Backend) -> Writer {
        Writer {
            queue: OnceLock::new(),
            pool,
            backend,
        }
    }

    /// Queues `job` for the next batch.
    pub fn submit(&self, job: Job) -> Ticket {
        let queue = self.queue.get_or_init(|| {
            let (send, receive) = mpsc::unbounded_channel();
            tokio::spawn(run(self.pool.clone(), self.backend, receive));
            send
        });
        let progress = Arc::new(AtomicU8::new(PENDING));
        let (reply, answer) = oneshot::channel();
        // The writer's task ends only with the runtime; a closed queue answers below.
        let _ = queue.send(Queued {
            job,
            progress: progress.clone(),
            reply,
        });
        Ticket { progress, answer }
    }
}

impl Ticket {
    /// The outcome of the job, or what can be said of it when `deadline` comes first.
    pub async fn outcome(self, deadline: tokio::time::Instant) -> Result<(), Commit> {
        match tokio::time::timeout_at(deadline, self.answer).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(_)) | Err(_) => {
                let withdrawn = self
                    .progress
                    .compare_exchange(PENDING, WITHDRAWN, SeqCst, SeqCst)
                    .is_ok();
                Err(Commit::Failed(if withdrawn {
                    ApiError::storage_unavailable()
                } else {
                    tracing::warn!("no answer to a commit in time");
                    ApiError::outcome_unknown()
                }))
            }
        }
    }
}

/// The writer's loop: one batch at a time, each of what waited when the last one ended.
async fn run(pool: AnyPool, backend: Backend, mut queue: mpsc::UnboundedReceiver<Queued>) {
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        batch.retain(|q| {
            q.progress
                .compare_exchange(PENDING, TAKEN, SeqCst, SeqCst)
                .is_ok()
        });
        if batch.is_empty() {
            continue;
        }
        batch.sort_by(|a, b| a.job.row.id.cmp(&b.job.row.id));
        let mut sent = false;
        let jobs: Vec<&Job> = batch.iter().map(|q| &q.job).collect();
        let written =
            tokio::time::timeout(STORAGE_DEADLINE, write(&pool, backend, &jobs, &mut sent)).await;
        let written = written.unwrap_or_else(|_| {
            Err(if sent {
                ApiError::outcome_unknown()
            } else {
                ApiError::storage_unavailable()
            })
        });
        match written {
            Ok(moved) => {
                for (q, moved) in batch.into_iter().zip(moved) {
                    let _ = q
                        .reply
                        .send(if moved { Ok(()) } else { Err(Commit::Stale) });
                }
            }
            Err(e) => {
                for q in batch {
                    let _ = q.reply.send(Err(Commit::Failed(e.clone())));
                }
            }
        }
    }
}

/// Writes `jobs` in one transaction; for each, whether its game row moved (`false`: stale).
/// `sent` is set once the `COMMIT` is sent. On PostgreSQL the transaction also notifies the
/// other instances (`NOTIFY tabula_games`, delivered only if it commits) with every game it
/// moved, as `id:version` separated by commas.
async fn write(
    pool: &AnyPool,
    backend: Backend,
    jobs: &[&Job],
    sent: &mut bool,
) -> Result<Vec<bool>, ApiError> {
    let mut conn = WriteConn::acquire(pool).await?;
    let mut tx = conn.begin().await?;
    let mut moved = Vec::with_capacity(jobs.len());
    for job in jobs {
        let r = &job.row;
        let updated = sqlx::query(
            "UPDATE games SET version = $1, state = $2, finished_ms = $3, winner = $4, \
             points = $5, plies = $6, white_id = $9, black_id = $10, white_client_seed = $11, \
             black_client_seed = $12 WHERE id = $7 AND version = $8",
        )
        .bind(r.version)
        .bind(&r.state)
        .bind((r.state == "finished").then(now_ms))
        .bind(&r.winner)
        .bind(r.points)
        .bind(job.plies)
        .bind(&r.id)
        .bind(job.before)
        .bind(&r.white_id)
        .bind(&r.black_id)
        .bind(&r.white_client_seed)
        .bind(&r.black_client_seed)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            moved.push(false);
            continue;
        }
        let event = &job.event;
        sqlx::query(
            "INSERT INTO game_events (game_id, version, kind, actor, payload, nonce, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&r.id)
        .bind(event.version)
        .bind(&event.kind)
        .bind(&event.actor)
        .bind(&event.payload)
        .bind(&event.nonce)
        .bind(event.at_ms)
        .execute(&mut *tx)
        .await?;
        if r.state == "finished" {
            ratings::record(&mut tx, r).await?;
        }
        moved.push(true);
    }
    if backend == Backend::Postgres {
        let payload: Vec<String> = jobs
            .iter()
            .zip(&moved)
            .filter(|(_, &m)| m)
            .map(|(job, _)| format!("{}:{}", job.row.id, job.row.version))
            .collect();
        if !payload.is_empty() {
            sqlx::query("SELECT pg_notify('tabula_games', $1)")
                .bind(payload.join(","))
                .execute(&mut *tx)
                .await?;
        }
    }
    *sent = true;
    tx.commit()
        .await
        .map_err(|e| crate::storage::commit_failure(&e))?;
    conn.keep();
    Ok(moved)
}
