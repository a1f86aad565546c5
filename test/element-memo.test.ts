/**
 * The element memo (src/engine/patches/memo/: its kit in sanitizer.js, and element-memo.js
 * appended to 3_deperdition.js): the walls, roofs, windows, doors and thermal
 * bridges a works copy shares with the original (deep-frozen, works-copy.ts) are computed once
 * per frozen element and key, then made again from a record of that call.
 *
 * Every works run here is made twice: on the works copy (its shared elements go through the
 * memo) and on a structured clone of it (nothing frozen: every element computed, as without the
 * memo). The engine's two output documents must be the same: deep-strict equal, and the same
 * text with the keys in their order (NaN, ±Infinity, -0 and undefined written apart). Each set of
 * changes is run three times (a record is made the second time an element and key are met), then
 * once more with the memo's own check on (each replay against the call itself, on copies). With the engine's
 * modules patched as they load (beside the sources); then with the built bundle in its own
 * process, over `initial` (every single option, then the scenario search's runs).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDpeFile } from '../src/dpe/source.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { prepare } from '../src/simulation/prepared.js';
import { optionChanges } from '../src/simulation/structure.js';
import { applyWorks, resolveChanges } from '../src/works/apply.js';
import { defaultCosts } from '../src/works/costs.js';
import type { EditableChange } from '../src/contract/schemas.js';
import { CORPUS, FLAT, HAS_CORPUS, HOUSE, ROOT, STUDIO } from './helpers.js';

if (!HAS_CORPUS)
  console.warn(`element-memo.test.ts: ${CORPUS} is absent: only the fixtures are checked`);

interface Kit {
  check: { on: boolean; replays: number; differ: string[] };
  stats: { replays: number; records: number };
}

let engine: Engine;
let kit: Kit;

beforeAll(async () => {
  engine = await loadEngine();
  const modules = (await import('../src/engine/open3cl-modules.js')) as unknown as {
    sanitizer: { __dpeSimElementMemoKit?: Kit };
  };
  const k = modules.sanitizer.__dpeSimElementMemoKit;
  if (!k) throw new Error('the element memo kit is missing from the patched sanitizer module');
  kit = k;
});

/** A document as text with its keys in order, NaN, ±Infinity, -0 and undefined apart. */
function text(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x === 'number') return Object.is(x, -0) || !Number.isFinite(x) ? `#${x}` : x;
    return x === undefined ? '#undefined' : x;
  });
}

const corpus = (id: string) => path.join(CORPUS, `${id}.xml`);
const FILES = [HOUSE, FLAT, STUDIO];
// a house, a 24-flat and a 28-flat building (62 windows, 75 thermal bridges), a flat
const CORPUS_DPES = HAS_CORPUS ? ['2187E0981996L', '2374E2700849T', '2459E1831723H'] : [];

describe('element memo', () => {
  it.each([...FILES, ...CORPUS_DPES.map(corpus)].map((f) => [path.basename(f, '.xml'), f]))(
    '%s: works runs through the memo give the documents of runs without it',
    async (_id, file) => {
      const prep = prepare(engine, await readDpeFile(file));
      if (!prep.ok) throw new Error(`${file} does not run`);
      const costs = defaultCosts();
      const singles = optionChanges(prep.dpe);
      expect(singles.length).toBeGreaterThan(0);
      // every single option, a wall's and a window's together, and six at once
      const wall = singles.find((c) => c.referenceId.startsWith('mur:'));
      const window = singles.find((c) => c.referenceId.startsWith('baie_vitree:'));
      const sets: EditableChange[][] = [
        ...singles.map((c) => [c]),
        ...(wall && window ? [[wall, window]] : []),
        singles.slice(0, 6),
      ];
      const before = { ...kit.stats };
      const checked = kit.check.replays;
      const runAll = (round: number) => {
        for (const changes of sets) {
          const works = applyWorks(engine, prep.dpe, resolveChanges(prep.dpe, changes), costs);
          const whole = structuredClone(works.raw);
          const memo = engine.run(works.raw, { owned: true }).output;
          const plain = engine.run(whole, { owned: true }).output;
          const what = `round ${round} ${JSON.stringify(changes)}`;
          expect(isDeepStrictEqual(memo, plain), what).toBe(true);
          expect(text(memo), what).toBe(text(plain));
        }
      };
      for (let round = 0; round < 3; round++) runAll(round);
      // the memo was used: records kept, calls made again from them
      expect(kit.stats.records).toBeGreaterThan(before.records);
      expect(kit.stats.replays).toBeGreaterThan(before.replays);
      // and each replay against the call itself
      kit.check.on = true;
      try {
        runAll(3);
      } finally {
        kit.check.on = false;
      }
      expect(kit.check.differ).toEqual([]);
      expect(kit.check.replays).toBeGreaterThan(checked);
    },
  );

  it('built bundle: every works run of `initial` gives the document of a run without the memo', () => {
    const files = [HOUSE, STUDIO, ...(HAS_CORPUS ? [corpus('2374E2700849T')] : [])];
    const dist = (p: string) => JSON.stringify(pathToFileURL(path.join(ROOT, 'dist', p)).href);
    const script = `
import { isDeepStrictEqual } from 'node:util';
const { loadEngine, elementMemoStats } = await import(${dist('engine/engine.js')});
const { readDpeFile } = await import(${dist('dpe/source.js')});
const { prepare } = await import(${dist('simulation/prepared.js')});
const { initialSimulation } = await import(${dist('simulation/initial.js')});
const { defaultCosts } = await import(${dist('works/costs.js')});
const engine = await loadEngine();
const text = (v) => JSON.stringify(v, (_k, x) => {
  if (typeof x === 'number') return Object.is(x, -0) || !Number.isFinite(x) ? '#' + x : x;
  return x === undefined ? '#undefined' : x;
});
const run = engine.run.bind(engine);
let runs = 0;
const differ = [];
engine.run = (dpe, opts) => {
  if (!opts?.owned) return run(dpe, opts);
  runs++;
  const whole = structuredClone(dpe);
  const a = run(dpe, opts);
  const b = run(whole, opts);
  if (!isDeepStrictEqual(a.output, b.output) || text(a.output) !== text(b.output)) differ.push(runs);
  return a;
};
for (const file of ${JSON.stringify(files)}) {
  const prep = prepare(engine, await readDpeFile(file));
  initialSimulation(engine, prep.dpe, { coef: 'activated', forceNormalization: false, simulationId: 't', costs: defaultCosts() });
}
process.stdout.write(JSON.stringify({ bundled: engine.bundled, runs, differ, replays: elementMemoStats().replays }));
`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      bundled: boolean;
      runs: number;
      differ: number[];
      replays: number;
    };
    expect(out.bundled).toBe(true);
    expect(out.runs).toBeGreaterThan(100);
    expect(out.differ).toEqual([]);
    expect(out.replays).toBeGreaterThan(1000);
  });
});
