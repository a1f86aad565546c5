/**
 * Progress of a long command on stderr, one line redrawn in place ("initial: works options
 * 120/323"). Only for a person at a terminal: never with --json, never when stdout or stderr is
 * not a TTY (pipes, files, scripts); nothing is drawn for runs shorter than `delayMs`, and the
 * line is erased when the command ends, before its result is printed.
 */
import type { OnProgress, Progress } from '../contract/progress.js';

const STEP_LABELS: Record<Progress['step'], string> = {
  options: 'works options',
  scenarios: 'scenarios (target classes)',
};

export interface ProgressLine {
  /** undefined when nothing is to be shown: pass it on as is */
  onProgress: OnProgress | undefined;
  /** erases the line, if one was drawn */
  done(): void;
}

export interface ProgressLineOptions {
  json: boolean;
  /** nothing is drawn before this much time has passed, ms (default 500) */
  delayMs?: number;
  /** the line is redrawn at most this often, ms (default 100) */
  intervalMs?: number;
  stdout?: { isTTY?: boolean };
  stderr?: { isTTY?: boolean; write(text: string): unknown };
}

export function progressLine(command: string, opts: ProgressLineOptions): ProgressLine {
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  if (opts.json || !stdout.isTTY || !stderr.isTTY) return { onProgress: undefined, done() {} };
  const started = performance.now();
  const delay = opts.delayMs ?? 500;
  const interval = opts.intervalMs ?? 100;
  let drawnAt = -Infinity;
  let drawn = false;
  let lastStep: Progress['step'] | undefined;
  return {
    onProgress(p) {
      const now = performance.now();
      const last = p.done === p.total;
      if (now - started < delay) return;
      if (!last && p.step === lastStep && now - drawnAt < interval) return;
      stderr.write(`\r\x1b[2K${command}: ${STEP_LABELS[p.step]} ${p.done}/${p.total}`);
      drawn = true;
      drawnAt = now;
      lastStep = p.step;
    },
    done() {
      if (drawn) stderr.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
