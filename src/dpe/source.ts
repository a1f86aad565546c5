/**
 * Where DPE XML comes from: a directory of registry files looked up by number (file
 * `<dpeId>.xml`, else the `<numero_dpe>` written inside the files), plus documents a user
 * named by path or piped on stdin.
 */
import { constants } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { DpeSimError, xmlTooLarge } from '../contract/errors.js';
import { DPE_ID_REGEX, MAX_DPE_XML_BYTES } from '../contract/constants.js';
import { isInside, openedPath, readInputFile } from '../contract/input-file.js';
import { osReason } from '../contract/os-errors.js';
import { checkDpeText } from './sniff.js';
import { peekDpeNumber } from './xml.js';

export interface DpeText {
  /** the key the backend knows the DPE by: its registry number, or the file path */
  key: string;
  /** where it was read from (a path, or `-` for stdin) */
  file: string;
  xml: string;
  /** file modification time in ms, to invalidate caches (0 for stdin) */
  version: number;
  /** where the XML came from: a file (or stdin), the local DPE cache, or the national registry */
  origin?: DpeOrigin;
}

export type DpeOrigin = 'file' | 'cache' | 'registry';

export interface DpeSource {
  /** Reads the DPE known by `key`. Throws `not-found` when there is none. */
  read(key: string): Promise<DpeText>;
  /** Human description of where DPEs are looked up, for error messages. */
  readonly description: string;
}

/**
 * The DPE directory (--dpe-dir): `<dpeId>.xml`, else the file whose `<numero_dpe>` is that
 * number. Only regular files inside the directory are read: a symbolic link that leads outside
 * it (to `/etc/passwd`), a named pipe, a link loop or a link to nothing named `<dpeId>.xml` is
 * refused (exit 2; a server's 404) without a word about where it leads, and never falls through
 * to the cache or the registry (the number is there, unreadable); such files do not index.
 */
export class DirectoryDpeSource implements DpeSource {
  private index: Map<string, string> | undefined;
  private realDir: Promise<string> | undefined;
  readonly description: string;

  constructor(readonly dir: string) {
    this.description = `directory ${dir}`;
  }

  async read(dpeId: string): Promise<DpeText> {
    const file = await this.locate(dpeId);
    if (!file) {
      throw new DpeSimError(
        'not-found',
        `DPE ${dpeId} not found in ${this.dir} (no ${dpeId}.xml, and no file there has <numero_dpe>${dpeId}</numero_dpe>)`,
        { reason: 'unknown-dpe', dpeId, directory: this.dir },
      );
    }
    const name = path.basename(file);
    const dir = await this.real();
    const outside = () =>
      new DpeSimError(
        'invalid-input',
        `${name} in the DPE directory ${this.dir} leads outside it (a symbolic link): only regular files inside the DPE directory are read`,
        { reason: 'outside-directory', dpeId, directory: this.dir, file: name },
      );
    try {
      return await readDpeFile(file, dpeId, { dir, outside });
    } catch (err) {
      if (!(err instanceof DpeSimError) || err.kind === 'too-large') throw err;
      if (err.details?.reason === 'outside-directory') throw err;
      // a pipe, a device, a directory, a link loop, a link to nothing: named for what it is
      // (never what a link points to), and not looked for elsewhere
      const what =
        err.kind === 'not-found'
          ? 'a symbolic link to no file'
          : typeof err.details?.kind === 'string'
            ? err.details.kind
            : osLoop(err)
              ? 'a symbolic link loop'
              : 'unreadable';
      throw new DpeSimError(
        'invalid-input',
        `${name} in the DPE directory ${this.dir} is ${what}: only regular files inside the DPE directory are read`,
        { reason: 'not-a-file', dpeId, directory: this.dir, file: name },
        { cause: err },
      );
    }
  }

  /** The directory's real path (every link followed), once. */
  private real(): Promise<string> {
    this.realDir ??= realpath(this.dir).catch(() => path.resolve(this.dir));
    return this.realDir;
  }

  private async locate(dpeId: string): Promise<string | undefined> {
    const direct = path.join(this.dir, `${dpeId}.xml`);
    // whatever is there under that name (a link is not followed): read, or refused, never skipped
    if (await exists(direct)) return direct;
    const index = await this.buildIndex();
    return index.get(dpeId);
  }

  /** numero_dpe → file, over every .xml file of the directory (built once, on first miss). */
  private async buildIndex(): Promise<Map<string, string>> {
    if (this.index) return this.index;
    const index = new Map<string, string>();
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      throw new DpeSimError(
        'invalid-input',
        `cannot read the DPE directory ${this.dir}: ${osReason(err)}`,
      );
    }
    const dir = await this.real();
    for (const name of names.filter((n) => n.toLowerCase().endsWith('.xml')).sort()) {
      const file = path.join(this.dir, name);
      try {
        const head = await readHead(file, dir);
        const id = peekDpeNumber(head);
        if (id && !index.has(id)) index.set(id, file);
      } catch {
        // unreadable files simply do not index
      }
    }
    this.index = index;
    return index;
  }
}

function osLoop(err: DpeSimError): boolean {
  const cause = err.cause as { code?: unknown } | undefined;
  return err.details?.code === 'ELOOP' || cause?.code === 'ELOOP';
}

/** A source that knows a few documents by key (files named on the command line, stdin) and
 * falls back to another source for the rest. */
export class OverlayDpeSource implements DpeSource {
  private readonly docs = new Map<string, DpeText>();
  constructor(private readonly fallback: DpeSource) {}

  get description(): string {
    return this.fallback.description;
  }

  add(doc: DpeText): void {
    this.docs.set(doc.key, doc);
  }

  async read(key: string): Promise<DpeText> {
    return this.docs.get(key) ?? this.fallback.read(key);
  }
}

/**
 * Reads a DPE file. Only a regular file is read (a FIFO, a socket, a device or a directory is
 * refused by `fstat` on the opened descriptor, before a byte is read), never more than the DPE
 * XML limit; a missing or unreadable file is an input error (exit 2). A file a user named (no
 * `key`: not found by number) is also checked for being empty, not XML or not a DPE
 * (src/dpe/sniff.ts).
 */
export async function readDpeFile(
  file: string,
  key?: string,
  inside?: { dir: string; outside: () => DpeSimError },
): Promise<DpeText> {
  let xml: string;
  let version: number;
  try {
    const read = await readInputFile(file, {
      maxBytes: MAX_DPE_XML_BYTES,
      what: 'the DPE file',
      tooLarge: (size, limit, atLeast) => xmlTooLarge(`the file ${file}`, size, limit, atLeast),
      ...(inside ? { inside } : {}),
    });
    xml = read.text;
    version = read.mtimeMs;
  } catch (err) {
    if (err instanceof DpeSimError && err.details?.reason === 'directory') {
      throw new DpeSimError(
        'invalid-input',
        `${file} is a directory, not a DPE XML file`,
        {
          file,
          reason: 'directory',
          hint: 'give a DPE XML file, or look DPEs up by number in a directory with --dpe-dir DIR',
        },
        { cause: err },
      );
    }
    throw err;
  }
  if (key === undefined) checkDpeText(xml, file);
  return { key: key ?? keyForText(xml, file), file, xml, version, origin: 'file' };
}

/** Refuses a DPE text beyond the limit (stdin, a request): before it is parsed. */
export function checkXmlSize(xml: string, what: string): void {
  // a UTF-8 byte is at most one UTF-16 unit: only a long text needs counting
  if (xml.length * 3 <= MAX_DPE_XML_BYTES) return;
  const size = Buffer.byteLength(xml, 'utf8');
  if (size > MAX_DPE_XML_BYTES) throw xmlTooLarge(what, size, MAX_DPE_XML_BYTES);
}

/** The key of a document read from a path or stdin: its registry number when it has a valid one. */
export function keyForText(xml: string, file: string): string {
  const id = peekDpeNumber(xml);
  if (id && DPE_ID_REGEX.test(id)) return id;
  const base = path.basename(file, '.xml');
  if (DPE_ID_REGEX.test(base)) return base;
  return file;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first 4 KiB of a regular file inside `dir` (a real path); anything else (a pipe, a link
 * that leads outside) is skipped: see readInputFile.
 */
async function readHead(file: string, dir: string): Promise<string> {
  const fh = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!(await fh.stat()).isFile()) return '';
    if (!isInside(await openedPath(fh, file), dir)) return '';
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

/**
 * Several DPE directories looked up in turn (`--dpe-dir`, then the bundled `fixtures/`): the
 * first that has the number wins; not found in any, the first directory's error (issue 38: the
 * README says the fixtures are searched, `--dpe-dir` or not).
 */
export class DirectoriesDpeSource implements DpeSource {
  private readonly sources: DirectoryDpeSource[];
  readonly description: string;

  constructor(readonly dirs: readonly string[]) {
    this.sources = dirs.map((d) => new DirectoryDpeSource(d));
    this.description = this.sources.map((s) => s.description).join(', then ');
  }

  /** the directory named first (--dpe-dir) */
  get dir(): string {
    return this.dirs[0] ?? '';
  }

  async read(key: string): Promise<DpeText> {
    let first: unknown;
    for (const source of this.sources) {
      try {
        return await source.read(key);
      } catch (err) {
        if (!(err instanceof DpeSimError && err.kind === 'not-found')) throw err;
        first ??= err;
      }
    }
    throw first ?? new DpeSimError('not-found', `DPE ${key} not found`, { dpeId: key });
  }
}
