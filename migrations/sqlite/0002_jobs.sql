-- Runners, jobs and their events (SQLite).
-- Mirrored in ../postgres/0002_jobs.sql: keep both in step.

CREATE TABLE runners (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL UNIQUE,
    hostname      TEXT    NOT NULL,
    backend       TEXT    NOT NULL,
    gpus          TEXT    NOT NULL,
    python        TEXT    NOT NULL,
    version       TEXT    NOT NULL,
    registered_at BIGINT  NOT NULL,
    last_seen     BIGINT  NOT NULL
);

-- A job pins one template version. `spec` holds the launch spec as JSON (workload, env).
CREATE TABLE jobs (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    template_id      BIGINT  NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
    version          BIGINT  NOT NULL,
    created_by       BIGINT  NOT NULL REFERENCES users(id),
    spec             TEXT    NOT NULL,
    gpus             BIGINT  NOT NULL,
    nodes            BIGINT  NOT NULL,
    max_steps        BIGINT  NOT NULL,
    time_limit_s     BIGINT,
    runner_requested TEXT,
    runner_id        BIGINT  REFERENCES runners(id),
    state            TEXT    NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'lost')),
    created_at       BIGINT  NOT NULL,
    started_at       BIGINT,
    finished_at      BIGINT,
    exit_code        BIGINT,
    message          TEXT,
    preflight        TEXT,
    cancel_requested BIGINT  NOT NULL DEFAULT 0,
    last_seq         BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX jobs_state ON jobs(state, id);
CREATE INDEX jobs_template ON jobs(template_id, id);

-- Metric points and log lines, numbered per job by the runner that produced them.
CREATE TABLE job_events (
    job_id BIGINT           NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    seq    BIGINT           NOT NULL,
    kind   TEXT             NOT NULL CHECK (kind IN ('metric', 'log')),
    name   TEXT             NOT NULL,
    step   BIGINT           NOT NULL,
    value  DOUBLE PRECISION NOT NULL,
    text   TEXT             NOT NULL,
    ts     BIGINT           NOT NULL,
    PRIMARY KEY (job_id, seq)
);
