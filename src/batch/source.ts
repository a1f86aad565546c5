/**
 * The items of a batch, streamed (never all in memory): the lines of a file or of stdin (blank
 * lines and #comments ignored), or the XML files of a directory.
 */
import { constants, createReadStream, type Dirent } from 'node:fs';
import { open, opendir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Transform } from 'node:stream';
import { DpeSimError } from '../contract/errors.js';
import { specialFileKind } from '../contract/input-file.js';
import { classifyLine, type SourceItem } from './item.js';

export interface BatchSource {
  /** the items, in order; ends early when `signal` aborts (even while waiting for stdin) */
  items(signal: AbortSignal): AsyncGenerator<SourceItem>;
  /** how many items there are (a quick pass; undefined for stdin) */
  count(): Promise<number | undefined>;
  /** how many items there are up to `limit`, from the head only (undefined for stdin) */
  countUpTo(limit: number): Promise<number | undefined>;
  readonly description: string;
}

export async function openSource(source: string): Promise<BatchSource> {
  if (source === '-') return lineSource('-', 'stdin');
  let isDir: boolean;
  try {
    // opened without waiting (a FIFO would block a file thread until a writer comes) and
    // checked on the descriptor: a directory, or a regular file; nothing else is read
    const fh = await open(source, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const st = await fh.stat();
      isDir = st.isDirectory();
      const kind = specialFileKind(st);
      if (!isDir && kind) {
        throw new DpeSimError(
          'invalid-input',
          `the batch source ${source} is ${kind}: give a file of DPE numbers or paths, a directory of DPE XML files, or - to read the list on stdin`,
          { file: source, reason: 'not-a-file' },
        );
      }
    } finally {
      await fh.close();
    }
  } catch (err) {
    if (err instanceof DpeSimError) throw err;
    throw new DpeSimError(
      'invalid-input',
      `cannot read the batch source ${source}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  return isDir ? directorySource(source) : lineSource(source, source);
}

/** The longest line of a batch list (a DPE number or a path is far shorter). */
const MAX_LINE_CHARS = 64 * 1024;

function usefulLine(raw: string): string | undefined {
  const text = raw.trim();
  return text === '' || text.startsWith('#') ? undefined : text;
}

async function* lines(file: string, signal?: AbortSignal): AsyncGenerator<string> {
  const source = file === '-' ? process.stdin : createReadStream(file, { encoding: 'utf8' });
  // a line is an item (a number, a path): one longer than MAX_LINE_CHARS is not one, and
  // readline would hold it whole (stdin from /dev/zero is one endless line)
  let sinceNewline = 0;
  const input = source.pipe(
    new Transform({
      transform(chunk: Buffer | string, _encoding, done) {
        const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
        const nl = text.lastIndexOf('\n');
        sinceNewline = nl < 0 ? sinceNewline + text.length : text.length - nl - 1;
        if (sinceNewline > MAX_LINE_CHARS) {
          done(
            new DpeSimError(
              'invalid-input',
              `the batch source ${file === '-' ? 'on stdin' : file} has a line longer than ${MAX_LINE_CHARS} characters: give one DPE number or path per line`,
            ),
          );
          return;
        }
        done(null, text);
      },
    }),
  );
  const rl = createInterface({ input, crlfDelay: Infinity, ...(signal ? { signal } : {}) });
  try {
    for await (const raw of rl) {
      if (signal?.aborted) return;
      const text = usefulLine(raw);
      if (text !== undefined) yield text;
    }
  } catch (err) {
    if (!signal?.aborted) throw err;
  } finally {
    rl.close();
    source.unpipe(input);
    input.destroy();
    if (source !== process.stdin) source.destroy();
  }
}

function lineSource(file: string, description: string): BatchSource {
  return {
    description,
    async *items(signal) {
      for await (const text of lines(file, signal)) yield classifyLine(text);
    },
    count() {
      return this.countUpTo(Infinity);
    },
    async countUpTo(limit) {
      if (file === '-') return undefined;
      let n = 0;
      for await (const text of lines(file)) if (text && ++n >= limit) break;
      return n;
    },
  };
}

function isXml(name: string): boolean {
  return name.toLowerCase().endsWith('.xml');
}

/** An XML file of the directory, or a link to one (a link to anything else fails as its item). */
function isXmlEntry(entry: Dirent): boolean {
  return (entry.isFile() || entry.isSymbolicLink()) && isXml(entry.name);
}

function directorySource(dir: string): BatchSource {
  return {
    description: `directory ${dir}`,
    async *items(signal) {
      for await (const entry of await opendir(dir)) {
        if (signal.aborted) return;
        if (isXmlEntry(entry)) yield { kind: 'path', ref: path.join(dir, entry.name) };
      }
    },
    count() {
      return this.countUpTo(Infinity);
    },
    async countUpTo(limit) {
      let n = 0;
      for await (const entry of await opendir(dir)) if (isXmlEntry(entry) && ++n >= limit) break;
      return n;
    },
  };
}
