/**
 * Ctrl-C (SIGINT) and SIGTERM: every command stops within a second with exit 130 (SIGINT) or
 * 143 (SIGTERM). The engine runs on a worker thread (the engine pool, or
 * batch's pool), so this thread is free to hear the signal at any time, also in the middle of a
 * long `initial`. Writes to the store are made only once a computation is over, so a command
 * stopped while computing has recorded nothing.
 *
 * While a command holds the signals, other listeners are set aside: one of them (when-exit,
 * through conf) kills the process again with the same signal, which would end it without our
 * exit code (its clean-up still runs on `exit`).
 */

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The exit code of a process stopped by a signal: 128 + its number. */
export function exitCodeFor(signal: StopSignal): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/** How long a command may take to stop cleanly before the process exits anyway, ms. */
export const STOP_GRACE_MS = 800;

export interface SignalHold {
  /** the first signal received, if any */
  readonly signal: StopSignal | undefined;
  /** resolves with the first signal */
  readonly received: Promise<StopSignal>;
  /** gives the signals back to the listeners that had them */
  release(): void;
}

/**
 * Takes SIGINT and SIGTERM. On the first, `onStop` runs (default: exit at once with the
 * signal's code); a process still alive `STOP_GRACE_MS` later exits with that code. A second
 * signal exits at once.
 */
export function holdStopSignals(onStop?: (signal: StopSignal) => void): SignalHold {
  let first: StopSignal | undefined;
  let resolveReceived: (s: StopSignal) => void = () => {};
  const received = new Promise<StopSignal>((resolve) => (resolveReceived = resolve));
  const handler = (signal: NodeJS.Signals) => {
    const sig: StopSignal = signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
    if (first !== undefined) process.exit(exitCodeFor(first));
    first = sig;
    process.exitCode = exitCodeFor(sig);
    if (!onStop) process.exit(exitCodeFor(sig));
    // whatever the command does to stop, the process ends within the second
    setTimeout(() => process.exit(exitCodeFor(sig)), STOP_GRACE_MS).unref();
    resolveReceived(sig);
    onStop(sig);
  };
  const saved = STOP_SIGNALS.map((sig) => [sig, process.rawListeners(sig)] as const);
  for (const sig of STOP_SIGNALS) {
    process.removeAllListeners(sig);
    process.on(sig, handler);
  }
  let released = false;
  return {
    get signal() {
      return first;
    },
    received,
    release() {
      if (released) return;
      released = true;
      for (const [sig, listeners] of saved) {
        process.off(sig, handler);
        for (const l of listeners) process.on(sig, l as (s: NodeJS.Signals) => void);
      }
    },
  };
}

/**
 * The default for every command, from the start of the process: SIGINT or SIGTERM exits at
 * once with 130 or 143. Commands that stop in steps (batch, serve) hold the signals meanwhile
 * (`holdStopSignals`); this listener, registered first, runs before any a library adds later.
 */
export function exitOnStopSignals(): void {
  for (const sig of STOP_SIGNALS) process.on(sig, () => process.exit(exitCodeFor(sig)));
}
