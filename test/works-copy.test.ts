/**
 * Works runs apply their changes to a copy that shares, with a frozen copy of the original, every
 * element the works leave alone (src/works/works-copy.ts). The DPE the engine then gets must be
 * the very one a whole copy gives: for every works option of every element (alone, and all the
 * envelope options of one kind together with one of each system), the works DPE is the same JSON
 * as with a whole copy, no recipe writes into a shared part (no fallback to the whole copy), and
 * the prepared DPE is left as it was. On the fixtures, and on corpus DPEs of each kind (the
 * 28-flat building 2535E0426429Q among them) when the corpus is present.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EditableChange } from '../src/contract/schemas.js';
import { copyRaw } from '../src/dpe/raw.js';
import { readDpeFile } from '../src/dpe/source.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { prepare, type PreparedDpe } from '../src/simulation/prepared.js';
import { optionChanges } from '../src/simulation/structure.js';
import {
  applyWorks,
  applyWorksOn,
  resolveChanges,
  sharedCopyFallbacks,
} from '../src/works/apply.js';
import { defaultCosts } from '../src/works/costs.js';
import { CORPUS, FLAT, HAS_CORPUS, HOUSE, STUDIO } from './helpers.js';

const CORPUS_DPES = ['2535E0426429Q', '2287E0793758O', '2187E0981996L', '2463E3164679Z'];
if (!HAS_CORPUS)
  console.warn(`works-copy.test.ts: ${CORPUS} is absent: the corpus DPEs are not checked`);
const FILES = [
  HOUSE,
  FLAT,
  STUDIO,
  ...(HAS_CORPUS ? CORPUS_DPES.map((id) => path.join(CORPUS, `${id}.xml`)) : []),
];

let engine: Engine;
const prepared = new Map<string, PreparedDpe>();

beforeAll(async () => {
  engine = await loadEngine();
  for (const file of FILES) {
    const prep = prepare(engine, await readDpeFile(file));
    if (!prep.ok) throw new Error(`${file} blocked`);
    prepared.set(file, prep.dpe);
  }
});

/** Every single works option of the DPE, and a few combinations. */
function changeSets(prep: PreparedDpe): EditableChange[][] {
  const singles = optionChanges(prep);
  // per kind of element: the first option of each element of that kind, together, with the
  // first option of every other kind (walls with their windows, a heat pump with insulation)
  const firsts = new Map<string, EditableChange>();
  for (const c of singles)
    firsts.set(
      `${c.referenceId}|${c.editableKey}`,
      firsts.get(`${c.referenceId}|${c.editableKey}`) ?? c,
    );
  const byKind = new Map<string, EditableChange[]>();
  for (const c of firsts.values()) {
    const kind = c.referenceId.split(':')[0] as string;
    byKind.set(kind, [...(byKind.get(kind) ?? []), c]);
  }
  const combos = [...byKind.values()].map((list) => [
    ...list,
    ...[...byKind.values()].filter((l) => l !== list).map((l) => l[0] as EditableChange),
  ]);
  return [...singles.map((c) => [c]), ...combos];
}

describe('works copy', () => {
  it.each(FILES.map((f) => [path.basename(f, '.xml'), f]))(
    '%s: the works DPE of every option is the one a whole copy gives, the original untouched',
    (_id, file) => {
      const prep = prepared.get(file) as PreparedDpe;
      const before = JSON.stringify(prep.raw);
      const fallbacks = sharedCopyFallbacks;
      const sets = changeSets(prep);
      expect(sets.length).toBeGreaterThan(3);
      for (const changes of sets) {
        const resolved = resolveChanges(prep, changes);
        const shared = applyWorks(engine, prep, resolved, defaultCosts());
        const whole = applyWorksOn(engine, prep, resolved, defaultCosts(), copyRaw(prep.raw));
        expect(JSON.stringify(shared.raw), JSON.stringify(changes)).toBe(JSON.stringify(whole.raw));
        expect(shared.applied.map((a) => [a.cout, a.coutDetail])).toEqual(
          whole.applied.map((a) => [a.cout, a.coutDetail]),
        );
      }
      expect(sharedCopyFallbacks).toBe(fallbacks);
      expect(JSON.stringify(prep.raw)).toBe(before);
    },
  );
});
