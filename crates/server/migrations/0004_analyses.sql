-- Analyses of finished backgammon games (docs/protocol.md, "Analysis"): one job per game,
-- queued by a request, taken by whichever instance claims it first (on PostgreSQL with
-- FOR UPDATE SKIP LOCKED), its progress and its result stored with it.
CREATE TABLE analyses (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    -- queued, running, done or failed
    state TEXT NOT NULL,
    plies BIGINT NOT NULL,
    requested_ms BIGINT NOT NULL,
    -- The instance running it and its last sign of life: a running job whose worker went
    -- silent is taken again by another.
    worker TEXT,
    heartbeat_ms BIGINT,
    done_steps BIGINT NOT NULL DEFAULT 0,
    total_steps BIGINT NOT NULL DEFAULT 0,
    -- The report (JSON) once done; why it failed otherwise.
    result TEXT,
    error TEXT,
    finished_ms BIGINT
);
CREATE INDEX analyses_queue ON analyses (state, requested_ms);
