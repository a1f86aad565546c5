/**
 * A distributed batch run seen from the command line: enqueued (its items stored in input
 * order, one graphile-worker job per chunk of items, all in one transaction), its progress, and
 * its results streamed back in input order.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DpeSimError } from '../contract/errors.js';
import {
  invalidLineOutcome,
  outcomeLine,
  type BatchSettings,
  type SourceItem,
} from '../batch/item.js';
import type { BatchSource } from '../batch/source.js';
import { TASK, type QueueDb } from './db.js';

/** items per job: few enough that a chunk redone after a crash is cheap */
export const DEFAULT_CHUNK = 10;
/** attempts of a chunk before its transient failures are written as failed lines */
export const MAX_ATTEMPTS = 5;
const INSERT_BATCH = 1000;

export function checkRunName(name: string): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
    throw new DpeSimError(
      'invalid-input',
      `invalid run name '${name}': use 1 to 64 letters, digits, '.', '_' or '-'`,
      { run: name },
    );
  }
  return name;
}

export function generatedRunName(operation: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${operation}-${stamp}-${randomBytes(3).toString('hex')}`;
}

interface ItemRow {
  idx: number;
  kind: SourceItem['kind'];
  ref: string;
  file: string | null;
}

/**
 * Stores the run and its items and adds its jobs, in one transaction: workers see the whole
 * run or nothing. Lines that are neither a DPE number nor a path get their failed line now.
 */
export async function enqueueRun(
  db: QueueDb,
  run: string,
  settings: BatchSettings,
  source: BatchSource,
  chunk: number,
): Promise<{ total: number; jobs: number }> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const exists = await client.query('SELECT 1 FROM dpe_sim_batch_runs WHERE name = $1', [run]);
    if (exists.rowCount) {
      throw new DpeSimError('invalid-input', `a run named '${run}' already exists in the queue`, {
        run,
      });
    }
    await client.query(
      `INSERT INTO dpe_sim_batch_runs (name, operation, settings, total, chunk_size)
       VALUES ($1, $2, $3, 0, $4)`,
      [run, settings.operation, JSON.stringify(settings), chunk],
    );
    let total = 0;
    let rows: ItemRow[] = [];
    const flush = async () => {
      if (rows.length === 0) return;
      await client.query(
        `INSERT INTO dpe_sim_batch_items (run, idx, kind, ref, file)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[])`,
        [
          run,
          rows.map((r) => r.idx),
          rows.map((r) => r.kind),
          rows.map((r) => r.ref),
          rows.map((r) => r.file),
        ],
      );
      const invalid = rows.filter((r) => r.kind === 'invalid');
      if (invalid.length) {
        await client.query(
          `INSERT INTO dpe_sim_batch_results (run, idx, status, line)
           SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[])`,
          [
            run,
            invalid.map((r) => r.idx),
            invalid.map(() => 'failed'),
            invalid.map((r) =>
              outcomeLine(null, invalidLineOutcome({ kind: 'invalid', ref: r.ref })),
            ),
          ],
        );
      }
      rows = [];
    };
    for await (const item of source.items(new AbortController().signal)) {
      // a path is run where the worker is: made absolute here, shown as written in the output
      rows.push({
        idx: total++,
        kind: item.kind,
        ref: item.kind === 'path' ? path.resolve(item.ref) : item.ref,
        file: item.kind === 'path' ? item.ref : null,
      });
      if (rows.length >= INSERT_BATCH) await flush();
    }
    await flush();
    await client.query('UPDATE dpe_sim_batch_runs SET total = $2 WHERE name = $1', [run, total]);
    const jobs = await client.query(
      `SELECT graphile_worker.add_job($1, json_build_object('run', $2::text, 'from', f, 'to', least(f + $3, $4)),
         max_attempts := $5, job_key := 'dpe-sim/' || $2::text || '/' || f)
       FROM generate_series(0, $4 - 1, $3) AS f`,
      [TASK, run, chunk, total, MAX_ATTEMPTS],
    );
    await client.query('COMMIT');
    return { total, jobs: jobs.rowCount ?? 0 };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

export interface RunStatus {
  run: string;
  operation: string;
  createdAt: string;
  total: number;
  /** items with their line in the results (ok + blocked + failed) */
  done: number;
  ok: number;
  blocked: number;
  failed: number;
  /** items of chunks a worker holds now */
  running: number;
  /** items of chunks waiting for a worker (some after a failed attempt: retrying) */
  waiting: number;
  /** chunks that ran out of attempts without writing their lines (see the workers' logs) */
  stuckChunks: number;
  finished: boolean;
}

export async function runStatus(db: QueueDb, run: string): Promise<RunStatus> {
  const head = await db.pool.query<{
    operation: string;
    created_at: Date;
    total: number;
    chunk_size: number;
  }>('SELECT operation, created_at, total, chunk_size FROM dpe_sim_batch_runs WHERE name = $1', [
    run,
  ]);
  const info = head.rows[0];
  if (!info) throw new DpeSimError('not-found', `no run named '${run}' in the queue`, { run });
  const counts = await db.pool.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM dpe_sim_batch_results WHERE run = $1 GROUP BY status',
    [run],
  );
  const by = (s: string) => counts.rows.find((r) => r.status === s)?.n ?? 0;
  // the jobs of this run still in graphile-worker's table, and their items not yet done
  const jobs = await db.pool.query<{ state: string; n: number; chunks: number }>(
    `SELECT CASE WHEN j.locked_at IS NOT NULL THEN 'running'
                 WHEN j.attempts >= j.max_attempts THEN 'stuck' ELSE 'waiting' END AS state,
            count(DISTINCT j.id)::int AS chunks,
            count(i.idx)::int AS n
     FROM graphile_worker.jobs j
     JOIN dpe_sim_batch_items i
       ON i.run = $1
      AND i.idx >= split_part(j.key, '/', 3)::int
      AND i.idx < split_part(j.key, '/', 3)::int + $3
     LEFT JOIN dpe_sim_batch_results r ON r.run = i.run AND r.idx = i.idx
     WHERE j.task_identifier = $4 AND j.key LIKE $2 AND r.idx IS NULL
     GROUP BY 1`,
    [run, `dpe-sim/${run.replace(/[\\%_]/g, '\\$&')}/%`, info.chunk_size, TASK],
  );
  const state = (s: string) => jobs.rows.find((r) => r.state === s);
  const done = by('ok') + by('blocked') + by('failed');
  return {
    run,
    operation: info.operation,
    createdAt: info.created_at.toISOString(),
    total: info.total,
    done,
    ok: by('ok'),
    blocked: by('blocked'),
    failed: by('failed'),
    running: state('running')?.n ?? 0,
    waiting: state('waiting')?.n ?? 0,
    stuckChunks: state('stuck')?.chunks ?? 0,
    finished: done === info.total,
  };
}

/**
 * The result lines of a run in input order, read page by page (memory stays bounded); an item
 * not done yet is yielded as `undefined`.
 */
export async function* resultLines(
  db: QueueDb,
  run: string,
  page = 1000,
): AsyncGenerator<string | undefined> {
  let from = 0;
  for (;;) {
    const res = await db.pool.query<{ idx: number; line: string | null }>(
      `SELECT i.idx, r.line FROM dpe_sim_batch_items i
       LEFT JOIN dpe_sim_batch_results r ON r.run = i.run AND r.idx = i.idx
       WHERE i.run = $1 AND i.idx >= $2 ORDER BY i.idx LIMIT $3`,
      [run, from, page],
    );
    for (const row of res.rows) yield row.line ?? undefined;
    if (res.rows.length < page) return;
    from = (res.rows.at(-1)?.idx ?? from) + 1;
  }
}
