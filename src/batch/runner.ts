/**
 * The batch loop: items streamed from the source, at most `executor.capacity` in flight, each
 * outcome written as one line as soon as it is known and then forgotten (memory stays bounded
 * whatever the list's length). Ctrl-C or SIGTERM stops taking new items, lets the running ones
 * finish within RUNNING_GRACE_MS and drops the others (left to --resume); a second one exits at
 * once. Each line is written whole, with one write: the output stays valid JSON Lines.
 */
import {
  failure,
  invalidLineOutcome,
  outcomeLine,
  resumeKey,
  type ItemOutcome,
  type SourceItem,
} from './item.js';
import type { LineSink } from './output.js';
import type { Executor } from './executors.js';
import type { BatchSource } from './source.js';
import { emptyTally, type Progress, type Tally } from './progress.js';
import { holdStopSignals, type StopSignal } from '../process/stop-signals.js';

export interface BatchRun {
  source: BatchSource;
  executor: Executor;
  sink: LineSink;
  progress: Progress;
  tally: Tally;
  /** items already done (ok or blocked) in the output being resumed */
  done?: Set<string>;
}

export interface BatchResult {
  tally: Tally;
  seconds: number;
  interrupted: boolean;
  /** the signal that stopped the batch (SIGINT: exit 130, SIGTERM: 143) */
  signal?: StopSignal;
}

export { emptyTally };

/** How long items running at a Ctrl-C may take to finish before they are dropped, ms. */
export const RUNNING_GRACE_MS = 400;

export async function runBatch(run: BatchRun): Promise<BatchResult> {
  const { source, executor, sink, progress, tally, done } = run;
  const started = performance.now();
  let stopping = false;
  const stop = new AbortController();
  let dropped = false;
  let sourceRead: boolean;
  let writeError: unknown;
  let signal: StopSignal | undefined;
  const onStop = (sig: StopSignal) => {
    signal = sig;
    stopping = true;
    stop.abort();
    progress.clear();
    process.stderr.write(
      `Stopping: the running items may finish within ${RUNNING_GRACE_MS} ms, the others are left to --resume (Ctrl-C again exits at once)…\n`,
    );
    // items still running after the grace are dropped: their workers stop, nothing of them is
    // written, and --resume runs them again
    setTimeout(() => {
      if (inFlight === 0) return;
      dropped = true;
      wake();
      void executor.abort();
    }, RUNNING_GRACE_MS).unref();
  };
  // The batch owns Ctrl-C and SIGTERM while it runs; a second one exits at once.
  const hold = holdStopSignals(onStop);

  // bounded in-flight set; `wake` resolves whoever waits for a free slot or for the end
  let inFlight = 0;
  let waiter: (() => void) | undefined;
  const wake = () => {
    const w = waiter;
    waiter = undefined;
    w?.();
  };
  const waitForSlot = (limit: number) =>
    new Promise<void>((resolve) => {
      if (inFlight < limit || dropped) resolve();
      else waiter = resolve;
    });

  const record = (item: SourceItem, o: ItemOutcome) => {
    // once running items are dropped, only those that completed (and so were recorded) are
    // written; the others (stopped workers) are left to --resume
    if (dropped && o.status === 'failed') return;
    sink.write(outcomeLine(item.kind === 'path' ? item.ref : null, o));
    tally[o.status]++;
    if (o.attempts > 1) tally.retried = (tally.retried ?? 0) + 1;
    progress.update();
  };

  try {
    if (progress.enabled)
      void source.count().then(
        (n) => progress.setTotal(n),
        () => undefined,
      );
    for await (const item of source.items(stop.signal)) {
      if (done?.has(resumeKey(item))) {
        tally.skipped++;
        progress.update();
        continue;
      }
      if (item.kind === 'invalid') {
        record(item, invalidLineOutcome(item));
        continue;
      }
      await waitForSlot(executor.capacity);
      if (stopping) break;
      inFlight++;
      void executor
        .run(item)
        .catch((err: unknown) => failure(item.ref, err, 0, 0))
        .then((o) => {
          inFlight--;
          try {
            record(item, o);
          } catch (err) {
            // the output cannot be written (disk full…): stop, report it once the rest is in
            writeError ??= err;
            stopping = true;
            stop.abort();
          }
          wake();
        });
    }
    // every item was handed over: a Ctrl-C from now on only waits for the last ones
    sourceRead = !stopping;
    while (inFlight > 0 && !dropped) await waitForSlot(1);
    if (writeError !== undefined) throw writeError;
  } finally {
    hold.release();
    progress.finish();
  }
  return {
    tally,
    seconds: (performance.now() - started) / 1000,
    interrupted: dropped || (stopping && !sourceRead) || signal !== undefined,
    ...(signal ? { signal } : {}),
  };
}
