/**
 * Reading a file a user named (a DPE, a works file, a list of DPE numbers, a key file, a costs
 * file): only a regular file is read, and never more than a limit.
 *
 * The file is opened with O_NONBLOCK, then `fstat` on the opened descriptor says what it is: a
 * named pipe (FIFO), a socket, a device or a directory is refused before a byte is read. Opening
 * a FIFO without O_NONBLOCK waits for a writer on one of libuv's four file threads; such a
 * thread cannot be interrupted, so the process could not even exit on Ctrl-C (its exit waits
 * for the thread), and four such opens stall every file read of a server. On a regular file
 * O_NONBLOCK changes nothing. The read stops one byte past the limit, whatever the size `fstat`
 * gave (a file may grow while it is read).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { DpeSimError } from './errors.js';
import { formatBytes } from './constants.js';
import { osCode, osReason } from './os-errors.js';

/** Every file dpe-sim reads as input is at most this (the DPE XML limit, 10 MiB). */
export const MAX_INPUT_FILE_BYTES = 10 * 1024 * 1024;

// O_NONBLOCK does not exist on Windows (no FIFOs to open there either)
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export interface InputFileOptions {
  /** the largest size read (default MAX_INPUT_FILE_BYTES) */
  maxBytes?: number;
  /** what the file is, for messages: "the works file", "the DPE file"... (default "the file") */
  what?: string;
  /** builds the error of a file over the limit (default: `tooLargeFile`) */
  tooLarge?: (size: number, limit: number, atLeast: boolean) => DpeSimError;
  /**
   * the real path of a directory the file must be inside (after every symbolic link is
   * followed): a file elsewhere is refused, `outside` builds the error (it names no target)
   */
  inside?: { dir: string; outside: () => DpeSimError };
}

/**
 * Where an opened file really is: the descriptor's own path on Linux (`/proc/self/fd/N`: the
 * file that was opened, whatever a link is changed to afterwards), else its `realpath`.
 */
export async function openedPath(fh: FileHandle, file: string): Promise<string> {
  if (process.platform === 'linux') {
    try {
      return await readlink(`/proc/self/fd/${fh.fd}`);
    } catch {
      // no /proc: below
    }
  }
  return realpath(file);
}

/** Whether `real` (a real path) is `dir` (a real path) or below it. */
export function isInside(real: string, dir: string): boolean {
  const rel = path.relative(dir, real);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

export interface InputFileText {
  text: string;
  /** modification time, ms */
  mtimeMs: number;
}

/** What a file that is not a regular file is, in words; undefined for a regular file. */
export function specialFileKind(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** A file over the limit (exit 2, HTTP 413). */
export function tooLargeFile(
  what: string,
  file: string,
  size: number,
  limit: number,
  atLeast: boolean,
): DpeSimError {
  const bytes = (n: number) => `${n.toLocaleString('en-US')} bytes`;
  return new DpeSimError(
    'too-large',
    `${what} ${file} is ${atLeast ? 'at least ' : ''}${bytes(size)}: larger than the limit, ${bytes(limit)} (${formatBytes(limit)})`,
    { file, size, limit },
  );
}

function notRegular(what: string, file: string, kind: string): DpeSimError {
  const directory = kind === 'a directory';
  return new DpeSimError(
    'invalid-input',
    `${what} ${file} is ${kind}, not a regular file: only regular files are read`,
    {
      file,
      reason: directory ? 'directory' : 'not-a-file',
      kind,
      hint: directory
        ? 'give a file (DPEs are looked up by number in a directory with --dpe-dir DIR)'
        : 'give a regular file, or pipe the content on stdin with -',
    },
  );
}

/** The read failure as a DpeSimError (never quoting the file's content). */
export function inputFileError(what: string, file: string, err: unknown): DpeSimError {
  if (err instanceof DpeSimError) return err;
  const code = osCode(err);
  if (code === 'ENOENT') {
    return new DpeSimError('not-found', `no such file: ${file}`, { file }, { cause: err });
  }
  if (code === 'EISDIR') return notRegular(what, file, 'a directory');
  return new DpeSimError(
    'invalid-input',
    `cannot read ${what} ${file}: ${osReason(err)}`,
    {
      file,
      reason: 'unreadable',
      ...(code ? { code } : {}),
      hint: 'check the file and its permissions',
    },
    { cause: err },
  );
}

function options(opts: InputFileOptions | undefined) {
  const maxBytes = opts?.maxBytes ?? MAX_INPUT_FILE_BYTES;
  const what = opts?.what ?? 'the file';
  return { maxBytes, what };
}

/**
 * Reads a regular file as UTF-8 text, at most `maxBytes`. Refuses anything else (a FIFO, a
 * socket, a device, a directory) without reading it. Errors are DpeSimErrors: `not-found`,
 * `invalid-input` (not a regular file, unreadable), `too-large`.
 */
export async function readInputFile(file: string, opts?: InputFileOptions): Promise<InputFileText> {
  const { maxBytes, what } = options(opts);
  const tooLarge =
    opts?.tooLarge ?? ((s: number, l: number, a: boolean) => tooLargeFile(what, file, s, l, a));
  let fh;
  try {
    fh = await open(file, OPEN_FLAGS);
  } catch (err) {
    throw inputFileError(what, file, err);
  }
  try {
    const st = await fh.stat();
    const kind = specialFileKind(st);
    if (kind) throw notRegular(what, file, kind);
    if (opts?.inside && !isInside(await openedPath(fh, file), opts.inside.dir))
      throw opts.inside.outside();
    if (st.size > maxBytes) throw tooLarge(st.size, maxBytes, false);
    // read until the end, whatever fstat said: a file may grow while it is read
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(total === 0 ? Math.min(st.size, maxBytes) + 1 : 64 * 1024);
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(total, maxBytes, true);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return { text: Buffer.concat(chunks).toString('utf8'), mtimeMs: st.mtimeMs };
  } catch (err) {
    throw inputFileError(what, file, err);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** `readInputFile`, synchronous (for the few places that read a file at start-up). */
export function readInputFileSync(file: string, opts?: InputFileOptions): InputFileText {
  const { maxBytes, what } = options(opts);
  const tooLarge =
    opts?.tooLarge ?? ((s: number, l: number, a: boolean) => tooLargeFile(what, file, s, l, a));
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    throw inputFileError(what, file, err);
  }
  try {
    const st = fstatSync(fd);
    const kind = specialFileKind(st);
    if (kind) throw notRegular(what, file, kind);
    if (st.size > maxBytes) throw tooLarge(st.size, maxBytes, false);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(total === 0 ? Math.min(st.size, maxBytes) + 1 : 64 * 1024);
      const n = readSync(fd, chunk, 0, chunk.length, total);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw tooLarge(total, maxBytes, true);
      chunks.push(chunk.subarray(0, n));
    }
    return { text: Buffer.concat(chunks).toString('utf8'), mtimeMs: st.mtimeMs };
  } catch (err) {
    throw inputFileError(what, file, err);
  } finally {
    closeSync(fd);
  }
}
