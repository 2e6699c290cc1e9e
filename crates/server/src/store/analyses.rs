//! The analysis jobs in the database (`migrations/0004_analyses.sql`): queue one, claim the
//! oldest free one, report progress, store the result or the failure, and tell the other
//! instances how one stands ([`crate::analysis`] runs them).
//!
//! Claiming is one `UPDATE ... RETURNING` on the oldest queued job, or a running one whose
//! worker has been silent for [`STALE_MS`] (its instance died). On PostgreSQL the inner
//! `SELECT` takes the row `FOR UPDATE SKIP LOCKED`, so instances that claim at the same
//! moment take different jobs instead of waiting on each other; SQLite serialises writers
//! and serves one instance.

use super::{now_ms, Backend, Db, StoreError};
use serde::Serialize;
use sqlx::any::AnyRow;
use sqlx::Row;
use utoipa::ToSchema;

/// A running job whose worker has not reported for this long is taken again.
pub const STALE_MS: i64 = 60_000;

/// A job as stored.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct JobRow {
    /// The game analysed.
    pub game_id: String,
    /// `queued`, `running`, `done` or `failed`.
    pub state: String,
    /// The search depth of the analysis.
    pub plies: i64,
    /// When it was asked for (ms since the epoch).
    pub requested_ms: i64,
    /// Decisions analysed so far.
    pub done_steps: i64,
    /// Decisions to analyse (0 until a worker has replayed the game).
    pub total_steps: i64,
    /// When it ended (ms since the epoch).
    pub finished_ms: Option<i64>,
    /// Why it failed.
    pub error: Option<String>,
    /// The report, JSON text, once done.
    #[serde(skip)]
    pub result: Option<String>,
}

const COLUMNS: &str =
    "game_id, state, plies, requested_ms, done_steps, total_steps, finished_ms, error, result";

fn job_row(r: &AnyRow) -> Result<JobRow, sqlx::Error> {
    Ok(JobRow {
        game_id: r.try_get("game_id")?,
        state: r.try_get("state")?,
        plies: r.try_get("plies")?,
        requested_ms: r.try_get("requested_ms")?,
        done_steps: r.try_get("done_steps")?,
        total_steps: r.try_get("total_steps")?,
        finished_ms: r.try_get("finished_ms")?,
        error: r.try_get("error")?,
        result: r.try_get("result")?,
    })
}

/// What [`Db::queue_analysis`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queued {
    /// A new job (or a failed one asked for again).
    New,
    /// The game already has a job queued, running or done.
    Existing,
}

impl Db {
    /// The analysis job of a game.
    pub async fn analysis(&self, game: &str) -> Result<Option<JobRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM analyses WHERE game_id = $1");
        let row = sqlx::query(&sql)
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(job_row).transpose()?)
    }

    /// Jobs waiting for a worker.
    pub async fn queued_analyses(&self) -> Result<i64, StoreError> {
        Ok(
            sqlx::query("SELECT COUNT(*) AS n FROM analyses WHERE state = 'queued'")
                .fetch_one(&self.pool)
                .await?
                .try_get("n")?,
        )
    }

    /// Queues the analysis of `game` at `plies`, unless it has one that is not failed.
    pub async fn queue_analysis(&self, game: &str, plies: u32) -> Result<Queued, StoreError> {
        let now = now_ms();
        let inserted = sqlx::query(
            "INSERT INTO analyses (game_id, state, plies, requested_ms) \
             SELECT $1, 'queued', $2, $3 WHERE NOT EXISTS \
             (SELECT 1 FROM analyses WHERE game_id = $1)",
        )
        .bind(game)
        .bind(i64::from(plies))
        .bind(now)
        .execute(&self.pool)
        .await;
        match inserted {
            Ok(r) if r.rows_affected() == 1 => return Ok(Queued::New),
            Ok(_) => {}
            // Two requests at once: the other one queued it.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Ok(Queued::Existing)
            }
            Err(e) => return Err(e.into()),
        }
        let retried = sqlx::query(
            "UPDATE analyses SET state = 'queued', plies = $2, requested_ms = $3, worker = NULL, \
             heartbeat_ms = NULL, done_steps = 0, total_steps = 0, result = NULL, error = NULL, \
             finished_ms = NULL WHERE game_id = $1 AND state = 'failed'",
        )
        .bind(game)
        .bind(i64::from(plies))
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(if retried.rows_affected() == 1 {
            Queued::New
        } else {
            Queued::Existing
        })
    }

    /// Takes the oldest job that is queued or whose worker went silent, for `worker`:
    /// the game and the plies.
    pub async fn claim_analysis(&self, worker: &str) -> Result<Option<(String, u32)>, StoreError> {
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let now = now_ms();
        let sql = format!(
            "UPDATE analyses SET state = 'running', worker = $1, heartbeat_ms = $2, \
             done_steps = 0 WHERE game_id = (SELECT game_id FROM analyses \
             WHERE state = 'queued' OR (state = 'running' AND heartbeat_ms < $3) \
             ORDER BY requested_ms, game_id LIMIT 1{lock}) RETURNING game_id, plies"
        );
        let row = sqlx::query(&sql)
            .bind(worker)
            .bind(now)
            .bind(now - STALE_MS)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            let plies: i64 = r.try_get("plies")?;
            Ok((r.try_get("game_id")?, plies.clamp(0, 3) as u32))
        })
        .transpose()
    }

    /// Records progress (and that `worker` is alive); false when the job is no longer
    /// `worker`'s (another instance took it over).
    pub async fn analysis_progress(
        &self,
        game: &str,
        worker: &str,
        done: usize,
        total: usize,
    ) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "UPDATE analyses SET done_steps = $3, total_steps = $4, heartbeat_ms = $5 \
             WHERE game_id = $1 AND worker = $2 AND state = 'running'",
        )
        .bind(game)
        .bind(worker)
        .bind(done as i64)
        .bind(total as i64)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Ends `worker`'s job on `game`: done with `result` (the report, JSON) or failed with
    /// `error`.
    pub async fn finish_analysis(
        &self,
        game: &str,
        worker: &str,
        outcome: Result<String, String>,
    ) -> Result<bool, StoreError> {
        let (state, result, error) = match outcome {
            Ok(result) => ("done", Some(result), None),
            Err(error) => ("failed", None, Some(error)),
        };
        let r = sqlx::query(
            "UPDATE analyses SET state = $3, result = $4, error = $5, finished_ms = $6, \
             done_steps = CASE WHEN $3 = 'done' THEN total_steps ELSE done_steps END \
             WHERE game_id = $1 AND worker = $2 AND state = 'running'",
        )
        .bind(game)
        .bind(worker)
        .bind(state)
        .bind(result)
        .bind(error)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }
}

/// A finished analysis of one of a player's games.
#[derive(Debug, Clone)]
pub struct AnalysedGame {
    /// The game.
    pub game_id: String,
    /// Its seats.
    pub white_id: Option<String>,
    pub black_id: Option<String>,
    /// When it was created (Unix ms).
    pub created_ms: i64,
    /// The stored report (JSON).
    pub report: String,
}

impl Db {
    /// The finished analyses of `player`'s games, oldest game first (at most `limit`, the
    /// latest ones).
    pub async fn analysed_games_of(
        &self,
        player: &str,
        limit: i64,
    ) -> Result<Vec<AnalysedGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.game_id, g.white_id, g.black_id, g.created_ms, a.result FROM analyses a \
             JOIN games g ON g.id = a.game_id WHERE a.state = 'done' AND a.result IS NOT NULL \
             AND (g.white_id = $1 OR g.black_id = $1) ORDER BY g.created_ms DESC, a.game_id \
             LIMIT $2",
        )
        .bind(player)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut games = rows
            .iter()
            .map(|r| {
                Ok(AnalysedGame {
                    game_id: r.try_get("game_id")?,
                    white_id: r.try_get("white_id")?,
                    black_id: r.try_get("black_id")?,
                    created_ms: r.try_get("created_ms")?,
                    report: r.try_get("result")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        games.reverse();
        Ok(games)
    }
}
