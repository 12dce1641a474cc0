-- Sign-in attempts per user name, counted in the database so that every replica of the
-- server shares one limit (ten wrong passwords in five minutes, not ten per replica).
-- A row is one key's current window; the reaper deletes windows that ended long ago.
-- Mirrored in the other dialect's 0011_attempt_windows.sql: keep both in step.
CREATE TABLE attempt_windows (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL,
    PRIMARY KEY (scope, key)
);
