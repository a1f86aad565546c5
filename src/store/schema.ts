/**
 * The SQLite schema, as ordered migrations (`PRAGMA user_version` says how many ran).
 * A migration is only ever appended, never edited.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE partners (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    key_hash    TEXT UNIQUE,
    key_hint    TEXT,
    created_at  TEXT NOT NULL,
    revoked_at  TEXT
  );
  CREATE TABLE organisations (
    id          INTEGER PRIMARY KEY,
    partner_id  INTEGER NOT NULL REFERENCES partners(id),
    customer_id TEXT NOT NULL,
    name        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    UNIQUE (partner_id, customer_id)
  );
  CREATE TABLE users (
    id              INTEGER PRIMARY KEY,
    organisation_id INTEGER NOT NULL REFERENCES organisations(id),
    user_id         TEXT NOT NULL,
    name            TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    UNIQUE (organisation_id, user_id)
  );
  CREATE TABLE tokens (
    token_hash  TEXT PRIMARY KEY,
    user_ref    INTEGER NOT NULL REFERENCES users(id),
    dpe_id      TEXT,
    show_init   INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    used_at     TEXT
  );
  CREATE TABLE sessions (
    session_hash TEXT PRIMARY KEY,
    user_ref     INTEGER NOT NULL REFERENCES users(id),
    dpe_id       TEXT,
    created_at   TEXT NOT NULL,
    expires_at   TEXT NOT NULL
  );
  CREATE TABLE simulations (
    id          TEXT PRIMARY KEY,
    user_ref    INTEGER NOT NULL REFERENCES users(id),
    dpe_id      TEXT NOT NULL,
    created_at  TEXT NOT NULL
  );
  CREATE TABLE runs (
    id            INTEGER PRIMARY KEY,
    at            TEXT NOT NULL,
    user_ref      INTEGER NOT NULL REFERENCES users(id),
    dpe_id        TEXT NOT NULL,
    operation     TEXT NOT NULL,
    simulation_id TEXT,
    scenario      TEXT,
    works         TEXT NOT NULL DEFAULT '[]',
    class_before  TEXT,
    class_after   TEXT,
    conso_before  REAL,
    conso_after   REAL,
    cout_travaux  REAL,
    coef_mode     TEXT NOT NULL,
    normalized    INTEGER NOT NULL DEFAULT 0,
    blocked       INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX runs_dpe ON runs (dpe_id, at);
  CREATE INDEX runs_user ON runs (user_ref, at);
  `,
];
