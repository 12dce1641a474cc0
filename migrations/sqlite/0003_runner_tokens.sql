-- Runner credentials and runners that belong to a team (SQLite).
-- Mirrored in ../postgres/0003_runner_tokens.sql: keep both in step.

-- A runner token works only on the runner routes, for the runner of one name; with a team it
-- registers that runner for the team's jobs only (no team: every team's). Stored as SHA-256.
CREATE TABLE runner_tokens (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    runner_name TEXT    NOT NULL,
    team_id     BIGINT  REFERENCES teams(id) ON DELETE CASCADE,
    token_hash  TEXT    NOT NULL UNIQUE,
    prefix      TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    last_used_at BIGINT,
    revoked_at  BIGINT
);

-- The team whose jobs the runner takes (NULL: every team's), set from its token at registration.
ALTER TABLE runners ADD COLUMN team_id BIGINT REFERENCES teams(id) ON DELETE SET NULL;
