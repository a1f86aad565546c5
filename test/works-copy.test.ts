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
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EditableChange } from '../src/contract/schemas.js';
import { copyRaw, type RawDpe, type RawElement } from '../src/dpe/raw.js';
import { readDpeFile } from '../src/dpe/source.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { prepare, type PreparedDpe } from '../src/simulation/prepared.js';
import { optionChanges } from '../src/simulation/structure.js';
import {
  applyWorks,
  applyWorksOn,
  resolveChanges,
  sharedCopyFallbacks,
  type Resolved,
} from '../src/works/apply.js';
import { defaultCosts } from '../src/works/costs.js';
import { copiedFromLiteral, copyOfFrozen } from '../src/works/frozen-copy.js';
import { frozenOriginal } from '../src/works/works-copy.js';
import { openingsOfWall } from '../src/works/recipes.js';
import { elementsOf } from '../src/dpe/elements.js';
import { CATEGORIES } from '../src/contract/constants.js';
import { CORPUS, FLAT, HAS_CORPUS, HOUSE, ownPrototypes, STUDIO } from './helpers.js';

// 2259E2655747L: a heat pump drops the effet-Joule pin of a floor that declares its Ue, which
// the works then drop too (two edits of a shared element: frozen-copy.ts editShared)
const CORPUS_DPES = [
  '2535E0426429Q',
  '2287E0793758O',
  '2187E0981996L',
  '2463E3164679Z',
  '2259E2655747L',
];
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

describe('an envelope element the works change', () => {
  it.each(FILES.map((f) => [path.basename(f, '.xml'), f]))(
    '%s: is the same frozen edited copy at every run (the engine’s element memo knows it)',
    (_id, file) => {
      const prep = prepared.get(file) as PreparedDpe;
      const envelope = optionChanges(prep).filter((c) =>
        /^(mur|plancher_bas|plancher_haut|baie_vitree|porte):/.test(c.referenceId),
      );
      expect(envelope.length).toBeGreaterThan(0);
      for (const change of envelope) {
        const [resolved] = resolveChanges(prep, [change]) as [Resolved];
        const target = (raw: RawDpe) => elementsOf(raw, resolved.category)[resolved.index];
        const first = target(applyWorks(engine, prep, [resolved], defaultCosts()).raw);
        const again = target(applyWorks(engine, prep, [resolved], defaultCosts()).raw);
        expect(again, change.editableValue).toBe(first);
        expect(Object.isFrozen(first)).toBe(true);
        expect(first).not.toBe(target(frozenOriginal(prep.raw)));
      }
    },
  );
});

describe('a wall’s insulation', () => {
  it.each(FILES.map((f) => [path.basename(f, '.xml'), f]))(
    '%s: insulates the reveals of exactly the openings found on the works DPE itself',
    (_id, file) => {
      const prep = prepared.get(file) as PreparedDpe;
      const walls = optionChanges(prep).filter((c) => c.referenceId.startsWith('mur:'));
      expect(walls.length).toBeGreaterThan(0);
      let reveals = 0;
      for (const change of walls) {
        const [resolved] = resolveChanges(prep, [change]) as [Resolved];
        const raw = applyWorks(engine, prep, [resolved], defaultCosts()).raw;
        // found again on the result, as recipes did before positions were kept per wall
        const wall = elementsOf(raw, 'mur')[resolved.index] as RawElement;
        const openings = new Set(openingsOfWall(wall, raw));
        for (const kind of ['baie_vitree', 'porte'] as const) {
          const before = elementsOf(prep.raw, kind);
          elementsOf(raw, kind).forEach((o, j) => {
            const got = o.donnee_entree.presence_retour_isolation;
            if (openings.has(o)) {
              expect(got, `${change.editableValue} ${kind}:${j}`).toBe(1);
              reveals++;
            } else
              expect(got, `${change.editableValue} ${kind}:${j}`).toBe(
                before[j]?.donnee_entree.presence_retour_isolation,
              );
          });
        }
      }
      // the bundled house has windows in its walls (some corpus DPEs link none to a wall)
      if (file === HOUSE) expect(reveals).toBeGreaterThan(0);
    },
  );
});

/** Every object in `v`. */
function objectsIn(v: unknown, into = new Set<unknown>()): Set<unknown> {
  if (typeof v === 'object' && v !== null && !into.has(v)) {
    into.add(v);
    for (const k of Object.keys(v)) objectsIn(v[k as keyof typeof v], into);
  }
  return into;
}

/** Each path with its keys in order (util's strict equality does not look at the order). */
function keyOrder(v: unknown, at = '$', into: string[] = []): string[] {
  if (typeof v !== 'object' || v === null) return into;
  into.push(`${at} ${JSON.stringify(Object.keys(v))} ${Object.isFrozen(v)}`);
  for (const k of Object.keys(v)) keyOrder(v[k as keyof typeof v], `${at}.${k}`, into);
  return into;
}

/** copyOfFrozen(v), called `times` times, each equal to copyRaw(v) and made of new objects. */
function expectCopies(v: unknown, times: number, what: string): void {
  const want = copyRaw(v);
  const wantProtos = ownPrototypes(want);
  const before = objectsIn(v);
  for (let i = 0; i < times; i++) {
    const got = copyOfFrozen(v);
    expect(isDeepStrictEqual(ownPrototypes(got), wantProtos), `${what} #${i}`).toBe(true);
    expect(isDeepStrictEqual(got, want), `${what} #${i}`).toBe(true);
    expect(keyOrder(got), `${what} #${i}`).toEqual(keyOrder(want));
    for (const o of objectsIn(got)) expect(before.has(o), `${what} #${i}: shared`).toBe(false);
    // written into as a recipe would: the next copy must not see it
    if (typeof got === 'object' && got !== null) (got as Record<string, unknown>).written = 1;
  }
}

describe('works that write into elements they do not target', () => {
  it.skipIf(!HAS_CORPUS)(
    '2459E1831723H: heat pumps on both installations (effet-Joule pins dropped from every wall) own the walls, no whole copy',
    async () => {
      const prep = prepare(engine, await readDpeFile(path.join(CORPUS, '2459E1831723H.xml')));
      if (!prep.ok) throw new Error('2459E1831723H blocked');
      const changes: EditableChange[] = [0, 1].map((i) => ({
        referenceId: `installation_chauffage:${i}`,
        editableKey: 'ReplaceGEN',
        editableValue: 'PACAirAir',
      }));
      const resolved = resolveChanges(prep.dpe, changes);
      const before = JSON.stringify(prep.dpe.raw);
      const fallbacks = sharedCopyFallbacks;
      const shared = applyWorks(engine, prep.dpe, resolved, defaultCosts());
      const whole = applyWorksOn(engine, prep.dpe, resolved, defaultCosts(), copyRaw(prep.dpe.raw));
      expect(sharedCopyFallbacks).toBe(fallbacks);
      expect(JSON.stringify(shared.raw)).toBe(JSON.stringify(whole.raw));
      // the pins were there, and are gone
      expect(before).toContain('tv_umur_id');
      expect(JSON.stringify(shared.raw)).not.toContain('tv_umur_id');
      expect(JSON.stringify(prep.dpe.raw)).toBe(before);
    },
  );
});

describe('copies of the frozen original’s elements', () => {
  it('are rfdc’s copies on hand-made values, kept as a literal or not', () => {
    const freeze = <T>(v: T): T => {
      if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
        Object.freeze(v);
        for (const k of Object.keys(v)) freeze(v[k as keyof typeof v]);
      }
      return v;
    };
    const cases: [string, unknown][] = [
      [
        'values',
        freeze({
          a: '12.5',
          b: '',
          c: null,
          d: undefined,
          e: true,
          n: NaN,
          m: -0,
          i: Infinity,
          s: 'line\nbreak \u2028 \ud800 "q" é',
          2: 'two',
          10: 'ten',
          list: [1, '2', [3, { x: -0 }], null, undefined],
          deep: { e: [], o: {} },
        }),
      ],
      ['a hole', freeze({ h: [, '1'] })], // eslint-disable-line no-sparse-arrays
      ['a __proto__ key', freeze(JSON.parse('{"a": "1", "__proto__": {"z": "3"}}') as object)],
      ['a function', freeze({ f: () => 1 })],
      ['a part not frozen', Object.freeze({ open: { a: '1' } })],
      [
        'an accessor',
        Object.freeze(Object.defineProperty({}, 'g', { get: () => 'x', enumerable: true })),
      ],
      ['not frozen', { a: '1' }],
    ];
    for (const [what, v] of cases) expectCopies(v, 4, what);
    const kept = cases.filter(([, v]) => copiedFromLiteral(v as object)).map(([what]) => what);
    expect(kept).toEqual(['values']);
  });

  it.each(FILES.map((f) => [path.basename(f, '.xml'), f]))(
    '%s: every element of the frozen original, copied again and again, is rfdc’s copy',
    (_id, file) => {
      const f = frozenOriginal((prepared.get(file) as PreparedDpe).raw);
      let n = 0;
      let kept = 0;
      for (const category of CATEGORIES)
        for (const el of elementsOf(f, category)) {
          expectCopies(el, 3, `${category} ${n}`);
          n++;
          if (copiedFromLiteral(el)) kept++;
        }
      expect(n).toBeGreaterThan(3);
      expect(kept).toBe(n);
    },
  );
});
