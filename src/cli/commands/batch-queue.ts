/**
 * The distributed batch from the command line: `batch pre|initial|calc SOURCE --queue URL`
 * enqueues a named run (and with --wait, waits for it and writes its lines like a local batch),
 * `batch status RUN` shows its progress, `batch results RUN` writes its lines in input order.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DpeSimError, EXIT_CODES } from '../../contract/errors.js';
import type { BatchSettings } from '../../batch/item.js';
import { openSink } from '../../batch/output.js';
import { summaryText } from '../../batch/progress.js';
import { openSource } from '../../batch/source.js';
import { openQueue, type QueueDb } from '../../queue/db.js';
import {
  DEFAULT_CHUNK,
  checkRunName,
  enqueueRun,
  generatedRunName,
  resultLines,
  runStatus,
  type RunStatus,
} from '../../queue/runs.js';
import type { Context } from '../context.js';
import { dateTime } from '../format.js';

export interface QueueBatchFlags {
  run?: string;
  wait?: boolean;
  chunk?: string;
  out?: string;
  resume?: string;
}

const POLL_MS = 1000;

function chunkOption(value: string | undefined): number {
  if (value === undefined) return DEFAULT_CHUNK;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 1000) {
    throw new DpeSimError(
      'invalid-input',
      `--chunk must be an integer from 1 to 1000 (got '${value}')`,
    );
  }
  return n;
}

async function withQueue<T>(ctx: Context, fn: (db: QueueDb) => Promise<T>): Promise<T> {
  const db = await openQueue(ctx.settings.queueUrl);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

function statusText(s: RunStatus): string {
  const lines = [
    `run ${s.run} (${s.operation}, queued ${dateTime(s.createdAt)}): ${s.done} of ${s.total} done` +
      ` (${s.ok} ok, ${s.blocked} blocked, ${s.failed} failed), ${s.running} running, ${s.waiting} waiting`,
  ];
  if (s.stuckChunks) {
    lines.push(
      `${s.stuckChunks} chunk(s) ran out of attempts without their lines: see the workers' logs`,
    );
  }
  if (s.finished) lines.push('finished');
  return lines.join('\n');
}

/** Writes the run's lines in input order; returns how many items had no line yet. */
async function writeResults(db: QueueDb, run: string, out: string | undefined): Promise<number> {
  const sink = openSink(out, false, () => {});
  let missing = 0;
  try {
    for await (const line of resultLines(db, run)) {
      if (line === undefined) missing++;
      else sink.write(line);
    }
  } finally {
    sink.close();
  }
  return missing;
}

/** `batch OP SOURCE --queue URL [--run NAME] [--wait]` */
export async function enqueueCommand(
  ctx: Context,
  settings: BatchSettings,
  sourceArg: string,
  flags: QueueBatchFlags,
): Promise<number> {
  if (flags.resume !== undefined) {
    throw new DpeSimError(
      'invalid-input',
      '--resume applies to a local batch; a queued run resumes by itself (dpe-sim batch status RUN)',
    );
  }
  if (flags.out !== undefined && !flags.wait) {
    throw new DpeSimError(
      'invalid-input',
      '--out needs --wait here (or write the lines later: dpe-sim batch results RUN --out FILE)',
    );
  }
  const run =
    flags.run !== undefined ? checkRunName(flags.run) : generatedRunName(settings.operation);
  const chunk = chunkOption(flags.chunk);
  const source = await openSource(sourceArg);
  return withQueue(ctx, async (db) => {
    const started = performance.now();
    const { total, jobs } = await enqueueRun(db, run, settings, source, chunk);
    // the run's name is what a script needs: alone on stdout, unless the lines go there
    if (!flags.wait) process.stdout.write(`${run}\n`);
    ctx.out.note(
      `Queued run ${run}: ${total} item${total === 1 ? '' : 's'} in ${jobs} chunk${jobs === 1 ? '' : 's'} on ${db.location}.` +
        (flags.wait
          ? ' Waiting for the workers (dpe-sim worker --queue URL)…'
          : ` Follow it: dpe-sim batch status ${run}`),
    );
    if (!flags.wait) return EXIT_CODES.ok;
    let status = await runStatus(db, run);
    let lastDone = -1;
    while (!status.finished) {
      if (status.stuckChunks > 0 && status.running === 0 && status.waiting === 0) {
        throw new DpeSimError('runtime', statusText(status), { run });
      }
      if (process.stderr.isTTY && status.done !== lastDone) {
        process.stderr.write(`\r${status.done}/${status.total} done, ${status.running} running   `);
        lastDone = status.done;
      }
      await sleep(POLL_MS);
      status = await runStatus(db, run);
    }
    if (process.stderr.isTTY) process.stderr.write('\n');
    await writeResults(db, run, flags.out);
    const seconds = (performance.now() - started) / 1000;
    ctx.out.note(
      summaryText(
        settings.operation,
        { ok: status.ok, blocked: status.blocked, failed: status.failed, skipped: 0 },
        seconds,
        flags.out ?? 'stdout',
        false,
      ),
    );
    return status.failed > 0 ? EXIT_CODES.runtime : EXIT_CODES.ok;
  });
}

/** `batch status RUN` */
export async function statusCommand(ctx: Context, run: string): Promise<number> {
  const status = await withQueue(ctx, (db) => runStatus(db, checkRunName(run)));
  ctx.out.result(status, () => statusText(status));
  return EXIT_CODES.ok;
}

/** `batch results RUN [--out FILE]`: exit 1 when an item failed or the run is not finished. */
export async function resultsCommand(
  ctx: Context,
  run: string,
  flags: QueueBatchFlags,
): Promise<number> {
  return withQueue(ctx, async (db) => {
    const status = await runStatus(db, checkRunName(run));
    const missing = await writeResults(db, run, flags.out);
    ctx.out.note(
      `run ${run}: ${status.total - missing} of ${status.total} lines written to ${flags.out ?? 'stdout'}` +
        ` (${status.ok} ok, ${status.blocked} blocked, ${status.failed} failed)` +
        (missing ? `; ${missing} not done yet (dpe-sim batch status ${run})` : ''),
    );
    return missing > 0 || status.failed > 0 ? EXIT_CODES.runtime : EXIT_CODES.ok;
  });
}
