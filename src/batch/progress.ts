/**
 * Batch progress on stderr: a bar on a terminal (done/total, rate, ETA, failures), nothing
 * otherwise; and the summary every run ends with.
 */
export interface Tally {
  ok: number;
  blocked: number;
  failed: number;
  /** already done in the output being resumed */
  skipped: number;
  /**
   * items that took more than one attempt (the remote backend's retries, a local thread out of
   * memory); unknown where the runner does not count them (a queued run)
   */
  retried?: number;
}

export function emptyTally(): Tally {
  return { ok: 0, blocked: 0, failed: 0, skipped: 0, retried: 0 };
}

export function processed(t: Tally): number {
  return t.ok + t.blocked + t.failed;
}

const REDRAW_MS = 100;
const BAR_WIDTH = 20;

export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export class Progress {
  private total: number | undefined;
  private last = 0;
  private shown = false;
  private finished = false;
  private readonly started = performance.now();

  constructor(
    private readonly tally: Tally,
    readonly enabled: boolean,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  setTotal(total: number | undefined): void {
    this.total = total;
    this.draw(true);
  }

  update(): void {
    this.draw(false);
  }

  /** Removes the bar for good (the summary follows). */
  finish(): void {
    this.clear();
    this.finished = true;
  }

  /** Removes the bar (before a line goes to the same terminal, and at the end). */
  clear(): void {
    if (!this.enabled || !this.shown) return;
    this.stream.write('\r\x1b[2K');
    this.shown = false;
  }

  private draw(force: boolean): void {
    if (!this.enabled || this.finished) return;
    const now = performance.now();
    if (!force && now - this.last < REDRAW_MS) return;
    this.last = now;
    const t = this.tally;
    const done = processed(t) + t.skipped;
    const secs = (now - this.started) / 1000;
    const rate = secs > 0 ? processed(t) / secs : 0;
    const total = this.total;
    let bar = '';
    let eta = '';
    if (total !== undefined && total > 0) {
      const frac = Math.min(1, done / total);
      const full = Math.round(frac * BAR_WIDTH);
      bar = `[${'█'.repeat(full)}${'░'.repeat(BAR_WIDTH - full)}] ${Math.floor(frac * 100)}\u00a0% `;
      eta = rate > 0 ? ` · ETA ${duration((total - done) / rate)}` : '';
    }
    const failures = t.failed ? ` · ${t.failed} failed` : '';
    const text = `${bar}${done}/${total ?? '?'} · ${rate.toFixed(1)} DPE/s${eta}${failures}`;
    const cols = this.stream.columns ?? 80;
    this.stream.write(`\r\x1b[2K${text.slice(0, cols - 1)}`);
    this.shown = true;
  }
}

export function summaryText(
  operation: string,
  t: Tally,
  seconds: number,
  output: string,
  interrupted: boolean,
): string {
  const n = processed(t);
  const rate = seconds > 0 ? n / seconds : 0;
  const parts = [`${t.ok} ok`, `${t.blocked} blocked`, `${t.failed} failed`];
  if (t.skipped) parts.push(`${t.skipped} skipped (already done)`);
  const lines = [
    `batch ${operation}: ${n} item${n === 1 ? '' : 's'} in ${seconds.toFixed(1)} s (${rate.toFixed(1)} DPE/s): ${parts.join(', ')}`,
  ];
  if (t.retried) {
    const who = `${t.retried} item${t.retried === 1 ? '' : 's'} took more than one attempt`;
    lines.push(
      output === 'stdout'
        ? `${who} (their lines' attempts)`
        : `${who}: jq -c 'select(.attempts > 1)' ${output}`,
    );
  }
  if (interrupted) {
    lines.push(
      output === 'stdout'
        ? 'Interrupted: the remaining items were not run.'
        : `Interrupted: the remaining items were not run; finish with --resume ${output}`,
    );
  } else if (t.failed && output !== 'stdout') {
    lines.push(`Failed items: jq -c 'select(.status == "failed")' ${output}`);
  }
  return lines.join('\n');
}
