-- A server administrator can disable a user (who then cannot sign in, and whose sessions,
-- tokens and sign-in links stop working) without deleting anything of theirs.
-- Mirrored in the other dialect's 0008_user_disabled.sql: keep both in step.
ALTER TABLE users ADD COLUMN disabled_at BIGINT;
