//! Group commit: every change to a game on this instance is written by one writer task,
//! which takes all the changes waiting when it becomes free and writes them in one
//! transaction, so that one `COMMIT` (one flush to disk) acknowledges them all.
//!
//! A request hands its change over as a [`GameWrite`] and waits on its [`Ticket`]. The batch
//! is written by [`Db::write_batch`] (the SQL is the store's, [`crate::store::batch`]).
//! Within the batch each change is still optimistic: the game row moves from `v` to `v + 1`
//! only if it is still at `v` (else that change alone is `Stale` and its request reloads and
//! retries); the event row is appended only when the game row moved. The writer sorts the
//! batch by game id, so that two instances' batches on one PostgreSQL database lock rows in
//! the same order and cannot deadlock.
//!
//! What a request is told when its wait ends first ([`STORAGE_DEADLINE`]): a change the
//! writer had not taken yet is withdrawn and answered `storage_unavailable` (nothing was
//! written); one it had taken may yet be committed, and is answered `outcome_unknown`.
//! A failed batch fails every change in it the same way a single failed commit did: 503 with
//! the storage code, and `outcome_unknown` when the `COMMIT` was sent but not answered.

use crate::error::ApiError;
use crate::store::{Db, GameWrite, STORAGE_DEADLINE};
use std::sync::atomic::{AtomicU8, Ordering::SeqCst};
use std::sync::{Arc, OnceLock};
use tokio::sync::{mpsc, oneshot};

/// The most changes one transaction writes.
pub const MAX_BATCH: usize = 64;

/// Why a change was not committed.
pub enum Commit {
    /// The stored game had moved on: reload and decide again.
    Stale,
    /// The storage failed (503 with the storage code, [`crate::store::faults`]).
    Failed(ApiError),
}

/// A job's progress, shared by the request and the writer.
const PENDING: u8 = 0;
const TAKEN: u8 = 1;
const WITHDRAWN: u8 = 2;

/// A request's claim on the outcome of its [`GameWrite`].
pub struct Ticket {
    progress: Arc<AtomicU8>,
    answer: oneshot::Receiver<Result<(), Commit>>,
}

struct Queued {
    job: GameWrite,
    progress: Arc<AtomicU8>,
    reply: oneshot::Sender<Result<(), Commit>>,
}

/// The instance's writer: started on first use, it runs until the server stops.
pub struct Writer {
    queue: OnceLock<mpsc::UnboundedSender<Queued>>,
    db: Db,
}

impl Writer {
    /// A writer on `db` (its task starts with the first job).
    pub fn new(db: Db) -> Writer {
        Writer {
            queue: OnceLock::new(),
            db,
        }
    }

    /// Queues `job` for the next batch.
    pub fn submit(&self, job: GameWrite) -> Ticket {
        let queue = self.queue.get_or_init(|| {
            let (send, receive) = mpsc::unbounded_channel();
            tokio::spawn(run(self.db.clone(), receive));
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
async fn run(db: Db, mut queue: mpsc::UnboundedReceiver<Queued>) {
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
        let jobs: Vec<&GameWrite> = batch.iter().map(|q| &q.job).collect();
        let written =
            tokio::time::timeout(STORAGE_DEADLINE, db.write_batch(&jobs, &mut sent)).await;
        let written = match written {
            Ok(written) => written.map_err(ApiError::from),
            Err(_) => Err(if sent {
                ApiError::outcome_unknown()
            } else {
                ApiError::storage_unavailable()
            }),
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A ticket in `progress` whose writer never answers.
    fn unanswered(progress: u8) -> Ticket {
        let (reply, answer) = oneshot::channel();
        drop(reply);
        Ticket {
            progress: Arc::new(AtomicU8::new(progress)),
            answer,
        }
    }

    #[tokio::test]
    async fn a_change_the_writer_never_took_is_withdrawn_and_one_it_took_is_of_unknown_outcome() {
        let now = tokio::time::Instant::now();
        let untaken = unanswered(PENDING);
        let progress = untaken.progress.clone();
        match untaken.outcome(now).await {
            Err(Commit::Failed(e)) => assert_eq!(e, ApiError::storage_unavailable()),
            _ => panic!("an untaken change was not answered storage_unavailable"),
        }
        // Withdrawn: the writer will not take it any more.
        assert_eq!(progress.load(SeqCst), WITHDRAWN);
        match unanswered(TAKEN).outcome(now).await {
            Err(Commit::Failed(e)) => assert_eq!(e, ApiError::outcome_unknown()),
            _ => panic!("a taken change was not answered outcome_unknown"),
        }
    }
}
