/**
 * The engine adapter: its memoised table lookups must not change a single figure. Each DPE is
 * computed through the adapter (memo installed) and, in a separate Node process, by the bare
 * engine (`bench/bare-engine.mjs --corrections`: its own parser, `calcul_3cl`, bug-for-bug mode,
 * dpe-sim's corrections of the engine, no memo); the figures must be equal.
 * On the bundled fixtures always, on the whole corpus when it is present.
 */
import { execFile } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { CORRECTIONS, correctionAppend } from '../src/engine/corrections.js';
import { readDpeFile } from '../src/dpe/source.js';
import { parseDpeXml } from '../src/dpe/xml.js';
import { CORPUS, FIXTURES, HAS_CORPUS, ROOT, tempDir } from './helpers.js';

const run = promisify(execFile);

const BARE_ENGINE = path.join(ROOT, 'bench', 'bare-engine.mjs');

/**
 * The engine as shipped plus dpe-sim's corrections (src/engine/corrections.ts) and nothing else,
 * in its own process: file → [ep 1.9, ep 2.3, GES], or null.
 */
async function bareFigures(files: string[]): Promise<Record<string, number[] | null>> {
  const list = path.join(tempDir(), 'list.txt');
  writeFileSync(list, files.join('\n'));
  const { stdout } = await run(process.execPath, [BARE_ENGINE, '--corrections', list], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(stdout) as { figures: Record<string, number[] | null> }).figures;
}

async function adapterFigures(engine: Engine, file: string): Promise<number[] | null> {
  const doc = await readDpeFile(file);
  try {
    const r = engine.run(parseDpeXml(doc.xml));
    return [r.mode2026.ep, r.mode2025.ep, r.mode2026.ges];
  } catch {
    return null;
  }
}

function xmlIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .map((f) => path.join(dir, f));
}

/**
 * The built engine (dist/: the one-file bundle with its memo patches applied at build time), in
 * its own process: file → [ep 1.9, ep 2.3, GES], or null; and whether it was the bundle.
 */
async function builtFigures(
  files: string[],
  /** the build's code cache as made, or read as bytes V8 rejects, or unreadable */
  cache: 'build' | 'garbage' | 'unreadable' = 'build',
): Promise<{
  bundled: boolean;
  tableMemo: boolean;
  codeCache: string;
  figures: Record<string, number[] | null>;
}> {
  const dir = tempDir();
  const list = path.join(dir, 'list.txt');
  writeFileSync(list, files.join('\n'));
  const script = path.join(dir, 'built.mjs');
  const dist = (p: string) => JSON.stringify(pathToFileURL(path.join(ROOT, 'dist', p)).href);
  writeFileSync(
    script,
    `import fs, { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const CACHE = ${JSON.stringify(cache)};
if (CACHE !== 'build') {
  const read = fs.readFileSync;
  fs.readFileSync = function (p, ...rest) {
    if (!String(p).endsWith('open3cl.bundle.cache')) return read.call(this, p, ...rest);
    if (CACHE === 'garbage') return Buffer.from('not a code cache');
    throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
  };
  syncBuiltinESMExports();
}
const { loadEngine, engineCodeCacheState } = await import(${dist('engine/engine.js')});
const { parseDpeXml } = await import(${dist('dpe/xml.js')});
const engine = await loadEngine();
const figures = {};
for (const f of readFileSync(process.argv[2], 'utf8').split('\\n').filter(Boolean)) {
  try {
    const r = engine.run(parseDpeXml(readFileSync(f, 'utf8')));
    figures[f] = [r.mode2026.ep, r.mode2025.ep, r.mode2026.ges];
  } catch { figures[f] = null; }
}
process.stdout.write(JSON.stringify({ bundled: engine.bundled, tableMemo: engine.tableMemo, codeCache: engineCodeCacheState(), figures }));
`,
  );
  const { stdout } = await run(process.execPath, [script, list], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Awaited<ReturnType<typeof builtFigures>>;
}

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine();
});

/** The bare engine's figures on the fixtures and the corpus: one process, shared by the tests. */
let bareAll: Promise<Record<string, number[] | null>> | undefined;
const bare = () =>
  (bareAll ??= bareFigures([...xmlIn(FIXTURES), ...(HAS_CORPUS ? xmlIn(CORPUS) : [])]));

describe('engine adapter', () => {
  it('memoises the table lookups', () => {
    expect(engine.tableMemo).toBe(true);
  });

  it('gives the bare engine’s figures on the fixtures', async () => {
    const files = xmlIn(FIXTURES);
    const figures = await bare();
    for (const f of files) {
      const mine = await adapterFigures(engine, f);
      expect(mine, f).not.toBeNull();
      expect(mine, f).toEqual(figures[f]);
    }
  });

  it('built: the one-file bundle, memo on, compiled with the build’s V8 code cache, gives the bare engine’s figures on the fixtures and corpus', async () => {
    const files = [...xmlIn(FIXTURES), ...(HAS_CORPUS ? xmlIn(CORPUS) : [])];
    const [built, figures] = await Promise.all([builtFigures(files), bare()]);
    expect(built.bundled).toBe(true);
    expect(built.tableMemo).toBe(true);
    // a fresh process loads the script form with the cache the build made, and V8 takes it
    expect(built.codeCache).toBe('accepted');
    let compared = 0;
    for (const f of files) {
      expect(f in figures, path.basename(f)).toBe(true);
      expect(built.figures[f], path.basename(f)).toEqual(figures[f]);
      if (built.figures[f]) compared++;
    }
    expect(compared).toBeGreaterThan(HAS_CORPUS ? 180 : 2);
  });

  it.each([
    ['garbage', 'rejected'],
    ['unreadable', 'none'],
  ] as const)(
    'built, with a code cache V8 rejects or that cannot be read (%s): the same figures on the fixtures',
    async (cache, state) => {
      const files = xmlIn(FIXTURES);
      const [built, figures] = await Promise.all([builtFigures(files, cache), bare()]);
      expect(built.codeCache).toBe(state);
      for (const f of files) {
        expect(built.figures[f], path.basename(f)).not.toBeNull();
        expect(built.figures[f], path.basename(f)).toEqual(figures[f]);
      }
    },
  );

  it.skipIf(!HAS_CORPUS)('gives the bare engine’s figures on every corpus DPE', async () => {
    const files = xmlIn(CORPUS);
    const figures = await bare();
    let compared = 0;
    for (const f of files) {
      const mine = await adapterFigures(engine, f);
      expect(f in figures, path.basename(f)).toBe(true);
      expect(mine, path.basename(f)).toEqual(figures[f]);
      if (mine) compared++;
    }
    expect(compared).toBeGreaterThan(180);
  });

  it('a correction that reads the software logiciel-dpe-kept keeps declares it, and run alone (the dashboard’s “moved by”) is applied with it', async () => {
    const reads = CORRECTIONS.filter(
      (c) =>
        c.id !== 'logiciel-dpe-kept' &&
        (c.replace.some(([, to]) => to.includes('logiciel_dpe')) ||
          correctionAppend(c).includes('logiciel_dpe')),
    );
    expect(reads.map((c) => c.id).sort()).toEqual([
      'cet-air-ambiant-liciel',
      'charbon-k-liciel',
      'materiaux-anciens-criteria',
    ]);
    for (const c of reads) expect(c.needs, c.id).toContain('logiciel-dpe-kept');
    const ids = new Set(CORRECTIONS.map((c) => c.id));
    for (const c of CORRECTIONS) for (const n of c.needs ?? []) expect(ids.has(n), n).toBe(true);
  });

  it.skipIf(!HAS_CORPUS)(
    'the bare engine with materiaux-anciens-criteria alone computes 3752’s DPE with the method’s criteria (2275E3186431Z: its primary energy moves), as with every correction',
    async () => {
      const file = path.join(CORPUS, '2275E3186431Z.xml');
      const list = path.join(tempDir(), 'list.txt');
      writeFileSync(list, file);
      const figures = async (args: string[]) => {
        const { stdout } = await run(process.execPath, [BARE_ENGINE, ...args, list], {
          cwd: ROOT,
          maxBuffer: 64 * 1024 * 1024,
        });
        return (JSON.parse(stdout) as { figures: Record<string, number[] | null> }).figures[file];
      };
      const bare = await figures([]);
      const alone = await figures(['--correction', 'materiaux-anciens-criteria']);
      const kept = await figures(['--correction', 'logiciel-dpe-kept']);
      expect(bare?.[1]).toBeGreaterThan(0);
      // the software kept alone changes no figure; the criteria with it do
      expect(kept).toEqual(bare);
      expect(Math.abs((alone?.[1] ?? 0) / (bare?.[1] ?? 1) - 1)).toBeGreaterThan(0.001);
    },
  );
});
