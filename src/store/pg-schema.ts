/**
 * The PostgreSQL schema, as ordered migrations. The table `dpe_sim_migrations` says which ran;
 * they are applied on start under an advisory lock (see postgres-store.ts). A migration is only
 * ever appended, never edited.
 *
 * The same tables as the SQLite schema (schema.ts), in PostgreSQL's types: bigint identity
 * keys (read back as JS numbers), timestamptz, boolean, jsonb.
 */
export const PG_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE partners (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    key_hash    text UNIQUE,
    key_hint    text,
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz
  );
  CREATE TABLE organisations (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id  bigint NOT NULL REFERENCES partners(id),
    customer_id text NOT NULL,
    name        text NOT NULL,
    created_at  timestamptz NOT NULL,
    UNIQUE (partner_id, customer_id)
  );
  CREATE TABLE users (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organisation_id bigint NOT NULL REFERENCES organisations(id),
    user_id         text NOT NULL,
    name            text NOT NULL,
    created_at      timestamptz NOT NULL,
    UNIQUE (organisation_id, user_id)
  );
  CREATE TABLE tokens (
    token_hash  text PRIMARY KEY,
    user_ref    bigint NOT NULL REFERENCES users(id),
    dpe_id      text,
    show_init   boolean NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
  );
  CREATE TABLE sessions (
    session_hash text PRIMARY KEY,
    user_ref     bigint NOT NULL REFERENCES users(id),
    dpe_id       text,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL
  );
  CREATE TABLE simulations (
    id          text PRIMARY KEY,
    seq         bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    user_ref    bigint NOT NULL REFERENCES users(id),
    dpe_id      text NOT NULL,
    created_at  timestamptz NOT NULL
  );
  CREATE INDEX simulations_user_dpe ON simulations (user_ref, dpe_id, created_at);
  CREATE TABLE runs (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at            timestamptz NOT NULL,
    user_ref      bigint NOT NULL REFERENCES users(id),
    dpe_id        text NOT NULL,
    operation     text NOT NULL,
    simulation_id text,
    scenario      text,
    works         jsonb NOT NULL DEFAULT '[]',
    class_before  text,
    class_after   text,
    conso_before  double precision,
    conso_after   double precision,
    cout_travaux  double precision,
    coef_mode     text NOT NULL,
    normalized    boolean NOT NULL DEFAULT false,
    blocked       boolean NOT NULL DEFAULT false
  );
  CREATE INDEX runs_dpe ON runs (dpe_id, at);
  CREATE INDEX runs_user ON runs (user_ref, at);
  `,
];
