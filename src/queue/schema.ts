/**
 * The tables of the distributed batch, beside graphile-worker's own schema (its jobs). A run is
 * its settings and its items in input order; a result is one output line per item, keyed by
 * (run, item index): written with ON CONFLICT DO NOTHING, so an item redone after a worker died
 * mid-chunk is in the results once. Migrations only ever appended (see store/pg-migrate.ts).
 */
export const QUEUE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE dpe_sim_batch_runs (
    name        text PRIMARY KEY,
    operation   text NOT NULL,
    settings    jsonb NOT NULL,
    total       integer NOT NULL,
    chunk_size  integer NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE dpe_sim_batch_items (
    run   text NOT NULL REFERENCES dpe_sim_batch_runs(name) ON DELETE CASCADE,
    idx   integer NOT NULL,
    kind  text NOT NULL,
    ref   text NOT NULL,
    file  text,
    PRIMARY KEY (run, idx)
  );
  CREATE TABLE dpe_sim_batch_results (
    run       text NOT NULL REFERENCES dpe_sim_batch_runs(name) ON DELETE CASCADE,
    idx       integer NOT NULL,
    status    text NOT NULL,
    line      text NOT NULL,
    worker    text,
    done_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run, idx)
  );
  `,
];
