/**
 * Where DPE XML comes from: a directory of registry files looked up by number (file
 * `<dpeId>.xml`, else the `<numero_dpe>` written inside the files), plus documents a user
 * named by path or piped on stdin.
 */
import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { DpeSimError, xmlTooLarge } from '../contract/errors.js';
import { DPE_ID_REGEX, MAX_DPE_XML_BYTES } from '../contract/constants.js';
import { readInputFile } from '../contract/input-file.js';
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

export class DirectoryDpeSource implements DpeSource {
  private index: Map<string, string> | undefined;
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
    return readDpeFile(file, dpeId);
  }

  private async locate(dpeId: string): Promise<string | undefined> {
    const direct = path.join(this.dir, `${dpeId}.xml`);
    if (await isFile(direct)) return direct;
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
    for (const name of names.filter((n) => n.toLowerCase().endsWith('.xml')).sort()) {
      const file = path.join(this.dir, name);
      try {
        const head = await readHead(file);
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
export async function readDpeFile(file: string, key?: string): Promise<DpeText> {
  let xml: string;
  let version: number;
  try {
    const read = await readInputFile(file, {
      maxBytes: MAX_DPE_XML_BYTES,
      what: 'the DPE file',
      tooLarge: (size, limit, atLeast) => xmlTooLarge(`the file ${file}`, size, limit, atLeast),
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

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The first 4 KiB of a regular file (anything else is skipped: see readInputFile). */
async function readHead(file: string): Promise<string> {
  const fh = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!(await fh.stat()).isFile()) return '';
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
