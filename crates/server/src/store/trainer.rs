//! The trainer's rows (`exercises`, `trainer_games`): the analysed games not yet turned into
//! exercises, the exercises made from one game (stored with the game marked read, in one
//! transaction), the next exercise due, one exercise, an answer recorded, and the score.
//! The schedule itself is [`crate::trainer`].

use super::{Db, StoreError};
use sqlx::any::AnyRow;
use sqlx::Row;

/// An exercise as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct ExerciseRow {
    pub player_id: String,
    pub game_id: String,
    /// The game's version after the decision.
    pub version: i64,
    /// `move`, `double` or `take`.
    pub kind: String,
    /// The XGID before the decision.
    pub position: String,
    /// What the player did in the game.
    pub played: String,
    /// EMG given up in the game, by its analysis.
    pub error: f64,
    /// 0 new, 1 answered wrong, 2 right once since, 3 learned ([`crate::trainer::Stage`]).
    pub stage: i64,
    pub due_ms: i64,
    pub answers: i64,
    pub rights: i64,
    pub created_ms: i64,
    pub answered_ms: Option<i64>,
}

/// A new exercise: the decision and what the game's analysis said of it.
#[derive(Debug, Clone)]
pub struct NewExercise {
    pub version: i64,
    pub kind: &'static str,
    pub position: String,
    pub played: String,
    pub error: f64,
}

/// An analysed game of the player not yet read by the trainer.
#[derive(Debug, Clone)]
pub struct UnreadGame {
    pub game_id: String,
    pub white_id: Option<String>,
    pub black_id: Option<String>,
    /// The stored report (JSON).
    pub report: String,
}

/// A player's counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Score {
    /// Exercises made from the player's analysed games.
    pub exercises: i64,
    /// Learned: answered right (twice, a day apart, after a wrong answer), not asked again.
    pub learned: i64,
    /// Due now.
    pub due: i64,
    /// Coming back later.
    pub waiting: i64,
    /// Answers given, and how many of them were right.
    pub answers: i64,
    pub right: i64,
}

const COLUMNS: &str = "player_id, game_id, version, kind, position, played, error, stage, \
                       due_ms, answers, rights, created_ms, answered_ms";

fn exercise(r: &AnyRow) -> Result<ExerciseRow, sqlx::Error> {
    Ok(ExerciseRow {
        player_id: r.try_get("player_id")?,
        game_id: r.try_get("game_id")?,
        version: r.try_get("version")?,
        kind: r.try_get("kind")?,
        position: r.try_get("position")?,
        played: r.try_get("played")?,
        error: r.try_get("error")?,
        stage: r.try_get("stage")?,
        due_ms: r.try_get("due_ms")?,
        answers: r.try_get("answers")?,
        rights: r.try_get("rights")?,
        created_ms: r.try_get("created_ms")?,
        answered_ms: r.try_get("answered_ms")?,
    })
}

impl Db {
    /// `player`'s analysed games the trainer has not read yet, oldest first (at most
    /// `limit`).
    pub async fn unread_analysed_games(
        &self,
        player: &str,
        limit: i64,
    ) -> Result<Vec<UnreadGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.game_id, g.white_id, g.black_id, a.result FROM analyses a \
             JOIN games g ON g.id = a.game_id WHERE a.state = 'done' AND a.result IS NOT NULL \
             AND (g.white_id = $1 OR g.black_id = $1) AND NOT EXISTS (SELECT 1 FROM \
             trainer_games t WHERE t.player_id = $1 AND t.game_id = a.game_id) \
             ORDER BY g.created_ms, a.game_id LIMIT $2",
        )
        .bind(player)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                Ok(UnreadGame {
                    game_id: r.try_get("game_id")?,
                    white_id: r.try_get("white_id")?,
                    black_id: r.try_get("black_id")?,
                    report: r.try_get("result")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?)
    }

    /// Stores the exercises made from `game` for `player`, due at `now_ms`, and marks the
    /// game read, in one transaction; an exercise already there is kept as it is.
    pub async fn add_exercises(
        &self,
        player: &str,
        game: &str,
        exercises: &[NewExercise],
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for e in exercises {
            sqlx::query(&format!(
                "INSERT INTO exercises ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, 0, \
                 0, $8, NULL) ON CONFLICT (player_id, game_id, version) DO NOTHING"
            ))
            .bind(player)
            .bind(game)
            .bind(e.version)
            .bind(e.kind)
            .bind(&e.position)
            .bind(&e.played)
            .bind(e.error)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "INSERT INTO trainer_games (player_id, game_id) VALUES ($1, $2) \
             ON CONFLICT (player_id, game_id) DO NOTHING",
        )
        .bind(player)
        .bind(game)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The exercise of `player` due first at `now_ms` (the largest error first among those
    /// due at the same time), if any.
    pub async fn next_exercise(
        &self,
        player: &str,
        now_ms: i64,
    ) -> Result<Option<ExerciseRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM exercises WHERE player_id = $1 AND stage < 3 AND due_ms <= $2 \
             ORDER BY due_ms, error DESC, game_id, version LIMIT 1"
        ))
        .bind(player)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(exercise).transpose()?)
    }

    /// When `player`'s next exercise not yet due comes back (Unix ms), if one does.
    pub async fn next_due_ms(&self, player: &str, now_ms: i64) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT MIN(due_ms) AS due FROM exercises WHERE player_id = $1 AND stage < 3 \
             AND due_ms > $2",
        )
        .bind(player)
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("due")?)
    }

    /// One of `player`'s exercises.
    pub async fn exercise(
        &self,
        player: &str,
        game: &str,
        version: i64,
    ) -> Result<Option<ExerciseRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM exercises WHERE player_id = $1 AND game_id = $2 AND version = $3"
        ))
        .bind(player)
        .bind(game)
        .bind(version)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(exercise).transpose()?)
    }

    /// Records an answer to `was` (as read before grading): its new stage and due time, one
    /// more answer, one more right one if `right`. False, with nothing changed, when another
    /// answer was recorded since `was` was read.
    pub async fn record_answer(
        &self,
        was: &ExerciseRow,
        stage: i64,
        due_ms: i64,
        right: bool,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE exercises SET stage = $1, due_ms = $2, answers = answers + 1, \
             rights = rights + $3, answered_ms = $4 WHERE player_id = $5 AND game_id = $6 \
             AND version = $7 AND answers = $8",
        )
        .bind(stage)
        .bind(due_ms)
        .bind(i64::from(right))
        .bind(now_ms)
        .bind(&was.player_id)
        .bind(&was.game_id)
        .bind(was.version)
        .bind(was.answers)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// `player`'s counts at `now_ms`.
    pub async fn trainer_score(&self, player: &str, now_ms: i64) -> Result<Score, StoreError> {
        let r = sqlx::query(
            // PostgreSQL sums BIGINTs as NUMERIC: each sum is cast back.
            "SELECT COUNT(*) AS exercises, \
             CAST(COALESCE(SUM(CASE WHEN stage = 3 THEN 1 ELSE 0 END), 0) AS BIGINT) AS learned, \
             CAST(COALESCE(SUM(CASE WHEN stage < 3 AND due_ms <= $2 THEN 1 ELSE 0 END), 0) \
             AS BIGINT) AS due, \
             CAST(COALESCE(SUM(CASE WHEN stage < 3 AND due_ms > $2 THEN 1 ELSE 0 END), 0) \
             AS BIGINT) AS waiting, \
             CAST(COALESCE(SUM(answers), 0) AS BIGINT) AS answers, \
             CAST(COALESCE(SUM(rights), 0) AS BIGINT) AS rights \
             FROM exercises WHERE player_id = $1",
        )
        .bind(player)
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(Score {
            exercises: r.try_get("exercises")?,
            learned: r.try_get("learned")?,
            due: r.try_get("due")?,
            waiting: r.try_get("waiting")?,
            answers: r.try_get("answers")?,
            right: r.try_get("rights")?,
        })
    }
}
