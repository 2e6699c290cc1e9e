//! The write path of [`App`]: a change checked on the cached game (on the stored one only
//! when the cached one refuses it), applied in memory ([`apply`]) and committed
//! optimistically (version `v + 1` only if the stored game is still at `v`, else reload and
//! retry), then published to the game's sockets and the post-commit hook.

use super::writer::Commit;
use super::*;

impl App {
    /// Runs `decide` on the current game and commits the change it returns, retrying on a
    /// concurrent commit from another instance. Returns the game after the commit.
    ///
    /// Storage faults (crate::store::faults): a failed write is answered 503 (`storage_full`,
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
        // The cached game is trusted until it refuses the change: only then is it checked
        // against the stored row (another instance may have moved the game on). A commit
        // from a stale cache cannot land either way: it is refused as `Stale` below.
        // `checked`: the game in hand was read from the database during this request.
        let mut checked = false;
        let mut stale = 0;
        while stale < 3 {
            let current = match guard.take() {
                Some(game) => game,
                None => {
                    checked = true;
                    in_time(tokio::time::timeout_at(deadline, self.current(None, id)).await)?
                }
            };
            let decided = match decide(&current) {
                Ok(change) => {
                    let mut next = current.clone();
                    apply(&mut next, change).map(|event| (next, event))
                }
                Err(e) => Err(e),
            };
            let (next, event) = match decided {
                Ok(done) => done,
                Err(_) if !checked => {
                    checked = true;
                    *guard = Some(in_time(
                        tokio::time::timeout_at(deadline, self.current(Some(current), id)).await,
                    )?);
                    continue;
                }
                Err(e) => {
                    *guard = Some(current);
                    return Err(e);
                }
            };
            let ticket = self.writer.submit(crate::store::GameWrite {
                before: current.row.version,
                row: next.row.clone(),
                event: event.clone(),
            });
            let committed = ticket.outcome(deadline).await;
            match committed {
                Ok(()) => {
                    *guard = Some(next.clone());
                    drop(guard);
                    self.published(&next, event);
                    self.committed_game(&next);
                    return Ok(next);
                }
                Err(Commit::Stale) => {
                    stale += 1;
                    checked = true;
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

    /// Tells watchers here (the other instances heard of it from the commit itself, by
    /// `NOTIFY` on PostgreSQL: [`writer`]).
    fn published(&self, game: &Loaded, event: EventRow) {
        if event.kind == "join" || matches!(game.row.state.as_str(), "finished" | "aborted") {
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
    }

    /// Pushes what another instance committed to this instance's watchers of `id`, up to
    /// `version` (nothing is read when this instance pushed that version already: its own
    /// commits come back to it by `NOTIFY` too).
    pub async fn remote_change(&self, id: &str, version: i64) {
        let Some(pushed) = self.hub.watched(id) else {
            // The lobby may have changed (cheap; watchers debounce).
            self.hub.lobby_changed();
            return;
        };
        if pushed >= version {
            return;
        }
        self.hub.lobby_changed();
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

/// Applies `change` to `game` in memory and returns the log row it makes.
fn apply(game: &mut Loaded, change: Change) -> Result<EventRow, ApiError> {
    // The copy's view is worked out afresh (the original keeps its own).
    game.memo = Arc::default();
    let version = game.row.version + 1;
    let at_ms = now_ms();
    // An event by which the server ends the game: its kind, the player and the payload.
    let ending = |game: &Loaded, kind: &str, player: Color, payload: String| {
        if game.ended.is_some() || game.table.outcome().is_some() {
            return Err(ApiError::conflict("game_over", "the game is over"));
        }
        Ok(EventRow {
            version,
            kind: kind.into(),
            actor: Some(color_name(player).into()),
            payload,
            nonce: None,
            at_ms,
        })
    };
    let event = match change {
        Change::TimeOut(loser) => ending(game, "timeout", loser, String::new())?,
        Change::Resign(loser) => ending(game, "resign", loser, String::new())?,
        Change::Abandon(loser, days) => ending(game, "abandon", loser, days.to_string())?,
        Change::Abort(player) => ending(game, "abort", player, String::new())?,
        Change::Action(color, text) => {
            let canonical = game.table.apply_text(&text).map_err(ApiError::illegal)?;
            game.plies += 1;
            game.acted[color] = true;
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
    if let Some(outcome) = server_end(&game.table, &event)? {
        game.ended = Some(outcome);
    }
    game.row.version = version;
    if let Some(outcome) = game.ended.or_else(|| game.table.outcome()) {
        // an aborted game has no result: it leaves the lists, the statistics and the ratings
        game.row.state = if outcome.reason == EndReason::Aborted {
            "aborted"
        } else {
            "finished"
        }
        .into();
        game.row.winner = outcome.winner.map(|c| color_name(c).to_string());
        game.row.points = Some(i64::from(outcome.points));
    }
    game.row.plies = Some(game.plies);
    game.note_game_end(version);
    let waiting = game.waiting();
    game.clocks.advance(waiting, at_ms);
    Ok(event)
}
