/**
 * The batch loop: items streamed from the source, at most `executor.capacity` in flight, each
 * outcome written as one line as soon as it is known and then forgotten (memory stays bounded
 * whatever the list's length). Ctrl-C stops taking new items and lets the running ones finish;
 * a second Ctrl-C drops them; a third exits at once. The output stays valid JSON Lines.
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
}

export { emptyTally };

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export async function runBatch(run: BatchRun): Promise<BatchResult> {
  const { source, executor, sink, progress, tally, done } = run;
  const started = performance.now();
  let stopping = false;
  const stop = new AbortController();
  let dropped = false;
  let sourceRead: boolean;
  let writeError: unknown;
  let signals = 0;
  const onSignal = () => {
    signals++;
    stopping = true;
    stop.abort();
    if (signals === 1) {
      progress.clear();
      process.stderr.write(
        'Stopping: letting the running items finish (Ctrl-C again to drop them)…\n',
      );
    } else if (signals === 2) {
      dropped = true;
      wake();
      void executor.abort();
    } else {
      process.exit(130);
    }
  };
  // The batch owns Ctrl-C while it runs. Other listeners are set aside meanwhile: one of them
  // (when-exit, through conf) kills the process again with the same signal, which would read as
  // a second Ctrl-C.
  const saved = STOP_SIGNALS.map((sig) => [sig, process.rawListeners(sig)] as const);
  for (const sig of STOP_SIGNALS) {
    process.removeAllListeners(sig);
    process.on(sig, onSignal);
  }

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
    if (dropped) return; // dropped items are not reported: --resume runs them again
    sink.write(outcomeLine(item.kind === 'path' ? item.ref : null, o));
    tally[o.status]++;
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
    for (const [sig, listeners] of saved) {
      process.off(sig, onSignal);
      for (const l of listeners) process.on(sig, l as (s: NodeJS.Signals) => void);
    }
    progress.finish();
  }
  return {
    tally,
    seconds: (performance.now() - started) / 1000,
    interrupted: dropped || (stopping && !sourceRead),
  };
}
