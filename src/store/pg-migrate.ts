/**
 * Versioned migrations for PostgreSQL: a small table `dpe_sim_migrations` records, per component
 * (the store, the batch queue), which migrations ran. They run on start under a session advisory
 * lock, so several processes starting at once (two `serve`, twenty workers) apply each migration
 * once and none of them sees a half-made schema.
 */
import pg from 'pg';
import { DpeSimError } from '../contract/errors.js';
export { redactUrl } from '../config/keys.js';

/** The advisory lock key of dpe-sim's migrations (any constant; 'dpesim' in ASCII). */
const MIGRATION_LOCK = 0x64706573696d;

/** int8 as JS numbers (identity keys and counts stay far below 2^53), no global type change. */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** A pool to `url` in UTC, int8 read as numbers. */
export function openPool(url: string, max = 10): pg.Pool {
  return new pg.Pool({
    connectionString: url,
    max,
    types,
    options: '-c TimeZone=UTC',
    application_name: 'dpe-sim',
    connectionTimeoutMillis: 15_000,
  });
}

/** Applies the migrations of `component` not yet applied; concurrent callers wait their turn. */
export async function migrate(
  pool: pg.Pool,
  component: string,
  migrations: readonly string[],
  location: string,
  /** run first, under the same lock (another tool's migrations, on its own connection) */
  before?: () => Promise<void>,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await before?.();
      await client.query(`CREATE TABLE IF NOT EXISTS dpe_sim_migrations (
        component  text NOT NULL,
        version    integer NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (component, version)
      )`);
      const res = await client.query<{ v: number | null }>(
        'SELECT max(version) AS v FROM dpe_sim_migrations WHERE component = $1',
        [component],
      );
      const version = res.rows[0]?.v ?? 0;
      if (version > migrations.length) {
        throw new DpeSimError(
          'runtime',
          `the ${component} schema in ${location} was written by a newer dpe-sim (version ${version}); upgrade dpe-sim`,
        );
      }
      for (let i = version; i < migrations.length; i++) {
        await client.query('BEGIN');
        try {
          await client.query(migrations[i] as string);
          await client.query(
            'INSERT INTO dpe_sim_migrations (component, version) VALUES ($1, $2)',
            [component, i + 1],
          );
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
