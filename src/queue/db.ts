/**
 * The queue's database: one PostgreSQL (it may be the store's), holding graphile-worker's jobs
 * and dpe-sim's runs and results. Both schemas are brought up to date on connect, under the
 * migration lock, so workers and the enqueuing command may start in any order.
 */
import { makeWorkerUtils, type WorkerUtils } from 'graphile-worker';
import type pg from 'pg';
import { DpeSimError, errorMessage } from '../contract/errors.js';
import { migrate, openPool } from '../store/pg-migrate.js';
import { isPostgresUrl, redactUrl } from '../store/open.js';
import { QUEUE_MIGRATIONS } from './schema.js';
import { quietLogger } from './log.js';

/** graphile-worker's task name for a chunk of a run */
export const TASK = 'dpe_sim_batch';

export interface QueueDb {
  pool: pg.Pool;
  utils: WorkerUtils;
  location: string;
  close(): Promise<void>;
}

export async function openQueue(url: string | undefined, poolSize = 6): Promise<QueueDb> {
  if (!url || !isPostgresUrl(url)) {
    throw new DpeSimError(
      'invalid-input',
      'the distributed batch needs a queue: --queue postgres://user:password@host:5432/database (or DPE_SIM_QUEUE_URL, or the profile setting queueUrl)',
      { setting: 'queueUrl' },
    );
  }
  const location = redactUrl(url);
  const pool = openPool(url, poolSize);
  // errors of idle clients are reported by the next query (graphile-worker wants both handlers)
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    const utils = await makeWorkerUtils({ pgPool: pool, logger: quietLogger(false) });
    await migrate(pool, 'queue', QUEUE_MIGRATIONS, location, () => utils.migrate());
    return {
      pool,
      utils,
      location,
      async close() {
        await utils.release();
        await pool.end();
      },
    };
  } catch (err) {
    await pool.end().catch(() => {});
    if (err instanceof DpeSimError) throw err;
    throw new DpeSimError(
      'runtime',
      `cannot open the queue ${location}: ${errorMessage(err)}`,
      { queue: location },
      { cause: err },
    );
  }
}
