/**
 * The DPE cache: one file per DPE, `<dataDir>/cache/dpe/<numero>.xml`, holding the registry's XML
 * as checked when it was fetched. Written through a temporary file and a rename, so a crash never
 * leaves half a file under a DPE's name. A published DPE never changes (a correction is a new
 * number), so a cached file is used as it is, without asking the registry.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DpeSimError } from '../contract/errors.js';
import { DPE_ID_REGEX, MAX_DPE_XML_BYTES } from '../contract/constants.js';
import { readInputFile } from '../contract/input-file.js';
import { osCode } from '../contract/os-errors.js';
import type { DpeText } from '../dpe/source.js';

export interface CacheEntry {
  dpeId: string;
  file: string;
  bytes: number;
  /** when it was cached (file modification time), ISO */
  cachedAt: string;
}

export interface CacheSummary {
  directory: string;
  count: number;
  bytes: number;
  oldest: CacheEntry | null;
  entries: CacheEntry[];
}

export function cacheDirFor(dataDir: string): string {
  return path.join(dataDir, 'cache', 'dpe');
}

const TEMP_SUFFIX = '.tmp';

export class DpeCache {
  constructor(readonly dir: string) {}

  fileFor(dpeId: string): string {
    if (!DPE_ID_REGEX.test(dpeId)) {
      throw new DpeSimError('invalid-input', `'${dpeId}' is not a DPE number`, { dpeId });
    }
    return path.join(this.dir, `${dpeId}.xml`);
  }

  /** The cached DPE, or undefined when it is not cached. */
  async read(dpeId: string): Promise<DpeText | undefined> {
    const file = this.fileFor(dpeId);
    try {
      // a regular file, at most the DPE XML limit (readInputFile)
      const read = await readInputFile(file, {
        what: 'the cached DPE',
        maxBytes: MAX_DPE_XML_BYTES,
      });
      return { key: dpeId, file, xml: read.text, version: read.mtimeMs, origin: 'cache' };
    } catch (err) {
      if (err instanceof DpeSimError && err.kind === 'not-found') return undefined;
      if (err instanceof DpeSimError && err.kind === 'too-large') throw err;
      const code = err instanceof DpeSimError ? err.details?.code : osCode(err);
      throw new DpeSimError(
        'runtime',
        `cannot read the cached DPE ${file}: ${err instanceof DpeSimError ? err.message : String(err)}`,
        { dpeId, file, ...(typeof code === 'string' ? { code } : {}) },
      );
    }
  }

  async has(dpeId: string): Promise<boolean> {
    try {
      return (await stat(this.fileFor(dpeId))).isFile();
    } catch {
      return false;
    }
  }

  /** Writes atomically (temporary file in the same directory, then rename); returns the mtime. */
  async write(dpeId: string, xml: string): Promise<{ file: string; version: number }> {
    const file = this.fileFor(dpeId);
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`;
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFile(temp, xml, { encoding: 'utf8', flush: true });
      await rename(temp, file);
      return { file, version: (await stat(file)).mtimeMs };
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      const code = (err as NodeJS.ErrnoException).code;
      throw new DpeSimError(
        'runtime',
        `cannot write the DPE cache ${file}: ${code ?? String(err)}`,
        { dpeId, file, ...(code ? { code } : {}) },
      );
    }
  }

  async list(): Promise<CacheSummary> {
    const entries: CacheEntry[] = [];
    for (const name of await this.names()) {
      const dpeId = name.slice(0, -'.xml'.length);
      if (!name.endsWith('.xml') || !DPE_ID_REGEX.test(dpeId)) continue;
      const file = path.join(this.dir, name);
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) continue;
      entries.push({ dpeId, file, bytes: st.size, cachedAt: new Date(st.mtimeMs).toISOString() });
    }
    entries.sort((a, b) => a.cachedAt.localeCompare(b.cachedAt) || a.dpeId.localeCompare(b.dpeId));
    return {
      directory: this.dir,
      count: entries.length,
      bytes: entries.reduce((sum, e) => sum + e.bytes, 0),
      oldest: entries[0] ?? null,
      entries,
    };
  }

  /** Removes every cached DPE (and temporary files a crash left); returns what was removed. */
  async clear(): Promise<{ removed: number; bytes: number }> {
    let removed = 0;
    let bytes = 0;
    for (const name of await this.names()) {
      const isDpe = name.endsWith('.xml') && DPE_ID_REGEX.test(name.slice(0, -4));
      if (!isDpe && !name.endsWith(TEMP_SUFFIX)) continue;
      const file = path.join(this.dir, name);
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) continue;
      await unlink(file);
      if (isDpe) {
        removed++;
        bytes += st.size;
      }
    }
    return { removed, bytes };
  }

  private async names(): Promise<string[]> {
    try {
      return await readdir(this.dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return [];
      throw new DpeSimError(
        'runtime',
        `cannot read the DPE cache ${this.dir}: ${code ?? String(err)}`,
        {
          directory: this.dir,
          ...(code ? { code } : {}),
        },
      );
    }
  }
}
