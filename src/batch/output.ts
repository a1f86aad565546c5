/**
 * The batch output: JSON Lines, one complete line per item written with a single write as the
 * item finishes (a kill never leaves half a line), synced to disk every second and at the end.
 * And the reading side of `--resume`: which items an earlier output already has done.
 */
import {
  closeSync,
  fdatasyncSync,
  ftruncateSync,
  openSync,
  readSync,
  fstatSync,
  writeSync,
} from 'node:fs';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { DpeSimError } from '../contract/errors.js';

export interface LineSink {
  write(line: string): void;
  close(): void;
  readonly description: string;
}

const SYNC_EVERY_MS = 1000;

class FileSink implements LineSink {
  private dirty = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly fd: number,
    readonly description: string,
  ) {
    this.timer = setInterval(() => this.sync(), SYNC_EVERY_MS);
    this.timer.unref();
  }

  write(line: string): void {
    const buf = Buffer.from(`${line}\n`, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
    this.dirty = true;
  }

  private sync(): void {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      fdatasyncSync(this.fd);
    } catch {
      // not every file supports it (a pipe named as --out); the lines are written anyway
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.sync();
    closeSync(this.fd);
  }
}

class StdoutSink implements LineSink {
  readonly description = 'stdout';
  constructor(private readonly beforeWrite: () => void) {}
  write(line: string): void {
    this.beforeWrite();
    process.stdout.write(`${line}\n`);
  }
  close(): void {}
}

/**
 * Opens the output: a file (truncated, or appended to when resuming) or stdout. When appending,
 * a last line left incomplete by a crash is cut off first, so the file stays valid JSON Lines.
 */
export function openSink(
  file: string | undefined,
  append: boolean,
  beforeStdoutWrite: () => void,
): LineSink {
  if (file === undefined || file === '-') return new StdoutSink(beforeStdoutWrite);
  try {
    const fd = openSync(file, append ? 'a+' : 'w');
    if (append) dropPartialLastLine(fd);
    return new FileSink(fd, file);
  } catch (err) {
    throw new DpeSimError(
      'runtime',
      `cannot write the batch output ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
}

function dropPartialLastLine(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const chunk = Buffer.alloc(Math.min(size, 64 * 1024));
  let end = size;
  // look back for the last newline
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const n = readSync(fd, chunk, 0, end - start, start);
    const idx = chunk.subarray(0, n).lastIndexOf(0x0a);
    if (idx >= 0) {
      const keep = start + idx + 1;
      if (keep !== size) ftruncateSync(fd, keep);
      return;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
}

interface DoneLine {
  dpeId?: unknown;
  file?: unknown;
  status?: unknown;
}

/** The items an earlier output has as ok or blocked (by file, else dpeId). */
export async function doneItems(file: string): Promise<Set<string>> {
  const done = new Set<string>();
  const input = createReadStream(file, { encoding: 'utf8' });
  try {
    await new Promise<void>((resolve, reject) => {
      input.once('open', () => resolve());
      input.once('error', reject);
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return done; // nothing done yet: start from scratch
    throw new DpeSimError('invalid-input', `cannot read ${file}: ${code ?? String(err)}`);
  }
  const rl = createInterface({ input, crlfDelay: Infinity });
  for await (const text of rl) {
    if (!text.trim()) continue;
    let line: DoneLine;
    try {
      line = JSON.parse(text) as DoneLine;
    } catch {
      continue; // an incomplete last line: that item is redone
    }
    if (line.status !== 'ok' && line.status !== 'blocked') continue;
    const key = typeof line.file === 'string' ? line.file : line.dpeId;
    if (typeof key === 'string') done.add(key);
  }
  return done;
}
