//! The write path of [`App`]: a change checked on the current game, applied in memory
//! ([`apply`]) and committed optimistically (version `v + 1` only if the stored game is
//! still at `v`, else reload and retry), then published to the game's sockets and the
//! post-commit hook.

use super::*;

impl App {
    /// Runs `decide` on the current game and commits the change it returns, retrying on a
    /// concurrent commit from another instance. Returns the game after the commit.
    ///
    /// Storage faults (crate::storage): a failed write is answered 503 (`storage_full`,
    /// `storage_unavailable`, or `outcome_unknown` when the commit was sent but not
    /// answered), the whole request gives up after [`STORAGE_DEADLINE`], and after any
    /// failure the cached game is dropped, so that the next request reads the truth from the
    /// database.
    pub async fn change<F>(&self, id: &str, decide: F) -> Result<Loaded, ApiError>
    where
        F: FnMut(&Loaded) -> Result<Change, ApiError>,
    {
        check_game_id(id)?;
        let slot = self.cache.slot(id);
        let result = self.change_in(&slot, id, decide).await;
        self.forget_missing(id, &slot, &result);
        result
    }

    /// [`App::change`] under the game's lock `slot`.
    async fn change_in<F>(&self, slot: &Slot, id: &str, mut decide: F) -> Result<Loaded, ApiError>
    where
        F: FnMut(&Loaded) -> Result<Change, ApiError>,
    {
        let deadline = tokio::time::Instant::now() + STORAGE_DEADLINE;
        let in_time = |r: Result<Result<Loaded, ApiError>, _>| {
            r.unwrap_or_else(|_| Err(ApiError::storage_unavailable()))
        };
        let Ok(mut guard) = tokio::time::timeout_at(deadline, slot.lock()).await else {
            return Err(ApiError::storage_unavailable());
        };
        for _ in 0..3 {
            let current =
                in_time(tokio::time::timeout_at(deadline, self.current(guard.take(), id)).await)?;
            let change = match decide(&current) {
                Ok(c) => c,
                Err(e) => {
                    *guard = Some(current);
                    return Err(e);
                }
            };
            let mut next = current.clone();
            let event = match apply(&mut next, change) {
                Ok(event) => event,
                Err(e) => {
                    *guard = Some(current);
                    return Err(e);
                }
            };
            let committing = std::sync::atomic::AtomicBool::new(false);
            let committed = tokio::time::timeout_at(
                deadline,
                self.commit(&current, &next, &event, &committing),
            )
            .await
            .unwrap_or_else(|_| {
                Err(Commit::Failed(
                    if committing.load(std::sync::atomic::Ordering::SeqCst) {
                        tracing::warn!(game = %id, "no answer to a commit in time");
                        ApiError::outcome_unknown()
                    } else {
                        ApiError::storage_unavailable()
                    },
                ))
            });
            match committed {
                Ok(()) => {
                    *guard = Some(next.clone());
                    drop(guard);
                    self.published(&next, event);
                    self.committed(id);
                    return Ok(next);
                }
                Err(Commit::Stale) => {
                    *guard = Some(in_time(
                        tokio::time::timeout_at(deadline, self.load_fresh(id)).await,
                    )?);
                }
                Err(Commit::Failed(e)) => {
                    *guard = None;
                    return Err(e);
                }
            }
        }
        Err(ApiError::conflict(
            "busy",
            "the game changed while the request was handled; try again",
        ))
    }

    /// Appends `event` and moves the game row from `before` to `after` in one transaction,
    /// on a connection that is closed unless the transaction ends cleanly
    /// ([`crate::storage::WriteConn`]); `committing` is set once the `COMMIT` is sent.
    async fn commit(
        &self,
        before: &Loaded,
        after: &Loaded,
        event: &EventRow,
        committing: &std::sync::atomic::AtomicBool,
    ) -> Result<(), Commit> {
        let mut conn = crate::storage::WriteConn::acquire(&self.db.pool)
            .await
            .map_err(Commit::db)?;
        let mut tx = conn.begin().await.map_err(Commit::db)?;
        let inserted = sqlx::query(
            "INSERT INTO game_events (game_id, version, kind, actor, payload, nonce, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&after.row.id)
        .bind(event.version)
        .bind(&event.kind)
        .bind(&event.actor)
        .bind(&event.payload)
        .bind(&event.nonce)
        .bind(event.at_ms)
        .execute(&mut *tx)
        .await;
        match inserted {
            Ok(_) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                tx.rollback().await.map_err(Commit::db)?;
                conn.keep();
                return Err(Commit::Stale);
            }
            Err(e) => return Err(Commit::db(e)),
        }
        let r = &after.row;
        let updated = sqlx::query(
            "UPDATE games SET version = $1, state = $2, finished_ms = $3, winner = $4, \
             points = $5, plies = $6, white_id = $9, black_id = $10, white_client_seed = $11, \
             black_client_seed = $12 WHERE id = $7 AND version = $8",
        )
        .bind(r.version)
        .bind(&r.state)
        .bind(if r.state == "finished" {
            Some(now_ms())
        } else {
            None
        })
        .bind(&r.winner)
        .bind(r.points)
        .bind(after.plies)
        .bind(&r.id)
        .bind(before.row.version)
        .bind(&r.white_id)
        .bind(&r.black_id)
        .bind(&r.white_client_seed)
        .bind(&r.black_client_seed)
        .execute(&mut *tx)
        .await
        .map_err(Commit::db)?;
        if updated.rows_affected() != 1 {
            tx.rollback().await.map_err(Commit::db)?;
            conn.keep();
            return Err(Commit::Stale);
        }
        if r.state == "finished" {
            ratings::record(&mut tx, r).await.map_err(Commit::db)?;
        }
        committing.store(true, std::sync::atomic::Ordering::SeqCst);
        tx.commit()
            .await
            .map_err(|e| Commit::Failed(crate::storage::commit_failure(&e)))?;
        conn.keep();
        Ok(())
    }

    /// Tells watchers here and, on PostgreSQL, the other instances (in a task of its own:
    /// the reply does not wait for the notification).
    fn published(&self, game: &Loaded, event: EventRow) {
        if event.kind == "join" || game.row.state == "finished" {
            self.hub.lobby_changed();
        }
        // The view is worked out only for watchers here (one subscribing meanwhile catches
        // up from the database, where this version already is).
        if self.hub.watched(&game.row.id).is_some() {
            self.hub.publish(
                &game.row.id,
                Push {
                    kind: "event",
                    version: event.version,
                    event,
                    state: Some(game.view()),
                    game_state: game.row.state.clone(),
                },
            );
        }
        if self.db.backend == crate::db::Backend::Postgres {
            let payload = format!("{}:{}", game.row.id, game.row.version);
            let pool = self.db.pool.clone();
            tokio::spawn(async move {
                if let Err(e) = sqlx::query("SELECT pg_notify('tabula_games', $1)")
                    .bind(payload)
                    .execute(&pool)
                    .await
                {
                    tracing::warn!(error = %e, "NOTIFY failed");
                }
            });
        }
    }

    /// Pushes what another instance committed to this instance's watchers of `id`.
    pub async fn remote_change(&self, id: &str) {
        // Another instance committed: the lobby may have changed (cheap; watchers debounce).
        self.hub.lobby_changed();
        let Some(pushed) = self.hub.watched(id) else {
            return;
        };
        let Ok(game) = self.load(id).await else {
            return;
        };
        let Ok(events) = self.db.events(id, pushed).await else {
            return;
        };
        let last = events.len();
        for (i, event) in events.into_iter().enumerate() {
            self.hub.publish(
                id,
                Push {
                    kind: "event",
                    version: event.version,
                    event,
                    state: (i + 1 == last).then(|| game.view()),
                    game_state: game.row.state.clone(),
                },
            );
        }
    }
}

enum Commit {
    Stale,
    Failed(ApiError),
}

impl Commit {
    /// A failure before the `COMMIT`: nothing was written (503 for a storage fault).
    fn db(e: sqlx::Error) -> Commit {
        Commit::Failed(ApiError::from(e))
    }
}

/// Applies `change` to `game` in memory and returns the log row it makes.
fn apply(game: &mut Loaded, change: Change) -> Result<EventRow, ApiError> {
    // The copy's view is worked out afresh (the original keeps its own).
    game.memo = Arc::default();
    let version = game.row.version + 1;
    let at_ms = now_ms();
    let event = match change {
        Change::TimeOut(loser) => {
            if game.timed_out.is_some() || game.table.outcome().is_some() {
                return Err(ApiError::conflict("game_over", "the game is over"));
            }
            game.timed_out = Some(game.time_out_outcome(loser));
            EventRow {
                version,
                kind: "timeout".into(),
                actor: Some(color_name(loser).into()),
                payload: String::new(),
                nonce: None,
                at_ms,
            }
        }
        Change::Action(color, text) => {
            let canonical = game.table.apply_text(&text).map_err(ApiError::illegal)?;
            game.plies += 1;
            EventRow {
                version,
                kind: "action".into(),
                actor: Some(color_name(color).into()),
                payload: canonical,
                nonce: None,
                at_ms,
            }
        }
        Change::Roll(by, nonce, roll) => {
            game.table.roll(roll).map_err(ApiError::illegal)?;
            game.rolls += 1;
            EventRow {
                version,
                kind: "roll".into(),
                actor: by.map(|c| color_name(c).into()),
                payload: dice_text(roll),
                nonce: Some(nonce),
                at_ms,
            }
        }
        Change::Join {
            color,
            player,
            seed,
        } => {
            game.names[color] = player.label();
            let id = player.id.clone();
            game.players[color] = Some(player);
            let row = &mut game.row;
            match color {
                Color::White => (row.white_id, row.white_client_seed) = (Some(id.clone()), seed),
                Color::Black => (row.black_id, row.black_client_seed) = (Some(id.clone()), seed),
            }
            row.state = "playing".into();
            EventRow {
                version,
                kind: "join".into(),
                actor: Some(color_name(color).into()),
                payload: id,
                nonce: None,
                at_ms,
            }
        }
    };
    game.row.version = version;
    if let Some(outcome) = game.timed_out.or_else(|| game.table.outcome()) {
        game.row.state = "finished".into();
        game.row.winner = outcome.winner.map(|c| color_name(c).to_string());
        game.row.points = Some(i64::from(outcome.points));
    }
    game.row.plies = Some(game.plies);
    game.note_game_end(version);
    let waiting = game.waiting();
    game.clocks.advance(waiting, at_ms);
    Ok(event)
}
