-- Accounts, teams, tokens, templates, immutable versions and share links (SQLite).
-- Mirrored in ../postgres/0001_accounts_templates.sql: keep both in step.
-- Times are milliseconds since the Unix epoch (UTC).

CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL UNIQUE,
    display_name  TEXT    NOT NULL,
    password_hash TEXT,
    is_admin      BIGINT  NOT NULL DEFAULT 0,
    created_at    BIGINT  NOT NULL
);

CREATE TABLE teams (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL UNIQUE,
    created_at BIGINT  NOT NULL
);

CREATE TABLE memberships (
    team_id BIGINT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role    TEXT   NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
    PRIMARY KEY (team_id, user_id)
);

-- Personal API tokens, browser sessions and one-time sign-in links share one table: each is a
-- random secret stored only as its SHA-256.
CREATE TABLE credentials (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      BIGINT  NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind         TEXT    NOT NULL CHECK (kind IN ('api_token', 'session', 'signin')),
    name         TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL UNIQUE,
    prefix       TEXT    NOT NULL,
    csrf_token   TEXT,
    created_at   BIGINT  NOT NULL,
    expires_at   BIGINT,
    last_used_at BIGINT,
    revoked_at   BIGINT
);
CREATE INDEX credentials_user ON credentials(user_id, kind);

CREATE TABLE templates (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    team_id      BIGINT  NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    description  TEXT    NOT NULL DEFAULT '',
    tags         TEXT    NOT NULL DEFAULT '[]',
    head_version BIGINT  NOT NULL DEFAULT 0,
    created_by   BIGINT  NOT NULL REFERENCES users(id),
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    UNIQUE (team_id, name)
);

CREATE TABLE versions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    template_id BIGINT  NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
    number      BIGINT  NOT NULL,
    author_id   BIGINT  NOT NULL REFERENCES users(id),
    message     TEXT    NOT NULL,
    config_text TEXT    NOT NULL,
    context     TEXT    NOT NULL,
    diagnostics TEXT    NOT NULL,
    verdict     TEXT    NOT NULL,
    errors      BIGINT  NOT NULL,
    warnings    BIGINT  NOT NULL,
    created_at  BIGINT  NOT NULL,
    UNIQUE (template_id, number)
);

CREATE TABLE shares (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    template_id BIGINT  NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
    number      BIGINT  NOT NULL,
    token_hash  TEXT    NOT NULL UNIQUE,
    prefix      TEXT    NOT NULL,
    created_by  BIGINT  NOT NULL REFERENCES users(id),
    created_at  BIGINT  NOT NULL,
    expires_at  BIGINT,
    revoked_at  BIGINT
);
CREATE INDEX shares_template ON shares(template_id);
