/**
 * `jsonEqual` (src/works/declared-inputs.ts) decides which elements works changed, as the
 * comparison of their JSON texts did before it: it must say equal exactly when
 * `JSON.stringify` writes the same text, on the values a parsed DPE and the recipes hold, and on
 * the corners of JSON.stringify (omitted keys, `null` for undefined in arrays and for non-finite
 * numbers, key order, -0, toJSON).
 */
import { describe, expect, it } from 'vitest';
import { elementsOf } from '../src/dpe/elements.js';
import { copyRaw, type RawDpe, type RawElement } from '../src/dpe/raw.js';
import { envelopeList } from '../src/works/context.js';
import { followDeclaredInputs, jsonEqual } from '../src/works/declared-inputs.js';
import { frozenOriginal, worksCopy } from '../src/works/works-copy.js';
import { editShared } from '../src/works/frozen-copy.js';

const values: unknown[] = [
  undefined,
  null,
  0,
  -0,
  1,
  1.5,
  '1',
  '',
  'null',
  true,
  false,
  NaN,
  Infinity,
  -Infinity,
  [],
  [null],
  [undefined],
  [NaN],
  [1, 2],
  [2, 1],
  ['1', 2],
  {},
  { a: 1 },
  { a: '1' },
  { a: 1, b: undefined },
  { b: undefined, a: 1 },
  { a: 1, b: 2 },
  { b: 2, a: 1 },
  { a: null },
  { a: NaN },
  { a: 0 },
  { a: -0 },
  { a: Infinity },
  { a: true, b: null, c: 'x', d: 2.5 },
  { a: true, b: null, c: 'x', d: '2.5' },
  { a: 1, b: { toJSON: () => undefined } },
  { a: 2, b: { toJSON: () => undefined } },
  { a: 1, z: undefined, b: { toJSON: () => 'b' } },
  { f: () => 1, a: 1 },
  { a: () => 1 },
  { a: [1, { b: 2 }] },
  { a: [1, { b: '2' }] },
  { a: [1, { b: 2, c: undefined }] },
  { a: { toJSON: () => 'x' } },
  { a: { toJSON: () => undefined } },
  { b: { toJSON: () => undefined }, a: 1 },
  { a: 'x' },
  new Date(0),
  '1970-01-01T00:00:00.000Z',
  {
    reference: 'Mur 1',
    surface_paroi_opaque: '40.94',
    enum_type_adjacence_id: '1',
    ue: 0.3,
  },
  {
    reference: 'Mur 1',
    surface_paroi_opaque: '40.94',
    enum_type_adjacence_id: '1',
  },
  {
    surface_paroi_opaque: '40.94',
    reference: 'Mur 1',
    enum_type_adjacence_id: '1',
  },
];

describe('jsonEqual', () => {
  it('says equal exactly when JSON.stringify writes the same text, on every pair', () => {
    let pairs = 0;
    for (const a of values)
      for (const b of values) {
        expect(jsonEqual(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(
          JSON.stringify(a) === JSON.stringify(b),
        );
        pairs++;
      }
    expect(pairs).toBe(values.length ** 2);
  });

  it('says the same of copies of each value (distinct objects, equal or not)', () => {
    const copy = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(copy)
        : v !== null &&
            typeof v === 'object' &&
            typeof (v as { toJSON?: unknown }).toJSON !== 'function'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]))
          : v;
    for (const a of values)
      for (const b of values)
        expect(jsonEqual(a, copy(b)), `${JSON.stringify(a)} vs copy of ${JSON.stringify(b)}`).toBe(
          JSON.stringify(a) === JSON.stringify(b),
        );
  });

  it('says equal exactly when JSON.stringify does, on random nested values and their edits', () => {
    let seed = 26;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const leaves: unknown[] = [undefined, null, 0, -0, 1, '1', '', NaN, true, () => 1];
    const leaf = () => leaves[Math.floor(next() * leaves.length)];
    const make = (depth: number): unknown => {
      const r = next();
      if (depth > 2 || r < 0.4) return leaf();
      if (r < 0.5) {
        const text = next() < 0.5 ? undefined : 'j';
        return { toJSON: () => text };
      }
      if (r < 0.7) return Array.from({ length: Math.floor(next() * 3) }, () => make(depth + 1));
      const o: Record<string, unknown> = {};
      for (const k of ['a', 'b', 'c', '1'].filter(() => next() < 0.6)) o[k] = make(depth + 1);
      return o;
    };
    /** a copy with, now and then, a value replaced or a key dropped */
    const edit = (v: unknown): unknown => {
      if (next() < 0.08) return leaf();
      if (Array.isArray(v)) return v.map(edit);
      if (v !== null && typeof v === 'object' && !('toJSON' in v)) {
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) if (next() > 0.05) out[k] = edit(x);
        return out;
      }
      return v;
    };
    let equal = 0;
    for (let n = 0; n < 3000; n++) {
      // (inside an object, as the inputs compared are: at the top, a toJSON giving undefined
      // against an omitted value is a corner jsonEqual leaves to its caller)
      const a = { v: make(0) };
      const b = edit(a);
      const same = JSON.stringify(a) === JSON.stringify(b);
      expect(jsonEqual(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(same);
      if (same) equal++;
    }
    expect(equal).toBeGreaterThan(300);
    expect(equal).toBeLessThan(2700);
  });

  it('compares copies of the same data as equal and a changed field as different', () => {
    const de = { reference: 'Baie 3', surface_totale_baie: 2.4, nested: { uw: 1.3, list: [1, 2] } };
    expect(jsonEqual(de, structuredClone(de))).toBe(true);
    expect(jsonEqual(de, { ...de, nested: { uw: 1.3, list: [1, 3] } })).toBe(false);
    const reordered = { surface_totale_baie: 2.4, reference: 'Baie 3', nested: de.nested };
    expect(jsonEqual(de, reordered)).toBe(false);
  });
});

/** A hand-made envelope: two walls under one reference (different inputs), bridges to each. */
function envelope(): RawDpe {
  const wall = (reference: string, surface: string) => ({
    donnee_entree: { reference, surface_paroi_opaque: surface, enum_type_adjacence_id: '1' },
  });
  const bridge = (reference_1: string, reference_2: string, id: string) => ({
    donnee_entree: { reference_1, reference_2, tv_pont_thermique_id: id },
  });
  return {
    logement: {
      enveloppe: {
        mur_collection: {
          mur: [wall('Mur 1', '40'), wall('Mur 1', '12'), wall('Mur 2', '30'), wall('Mûr 3 ', '9')],
        },
        plancher_bas_collection: { plancher_bas: [wall('Plancher', '50')] },
        pont_thermique_collection: {
          pont_thermique: [
            bridge('mur 1', 'Plancher', '11'),
            bridge('Mur 2', 'Plancher', '12'),
            bridge('Plancher', 'mur3', '13'),
          ],
        },
      },
    },
  } as unknown as RawDpe;
}

describe('followDeclaredInputs on a works copy sharing the frozen original', () => {
  it('drops what it drops on a whole copy, run after run (verdicts kept per frozen original)', () => {
    const raw = envelope();
    const whole = copyRaw(raw);
    followDeclaredInputs(raw, whole);
    // (the first 'Mur 1' differs from the last one of that reference: its bridge loses its row)
    const ids = (d: RawDpe) =>
      envelopeList(d, 'pont_thermique').map((p) => p.donnee_entree.tv_pont_thermique_id);
    expect(ids(whole)).toEqual([undefined, '12', '13']);
    // (twice with the wall edited: the second run meets the same frozen edited copy, whose
    // verdict is kept)
    const mur2 = [{ category: 'mur', index: 2 }] as const;
    for (const targets of [[], [], mur2, [], mur2] as const) {
      // as apply.ts makes it for a wall's insulation: the wall not owned, a frozen edited copy
      // put in its place (recipes.ts applyRecipeAt)
      const shared = worksCopy(raw, []) as RawDpe;
      if (targets.length)
        editShared(elementsOf(shared, 'mur'), 2, 'test surface', (x) => {
          x.donnee_entree.surface_paroi_opaque = '31';
        });
      const wholeToo = copyRaw(raw);
      if (targets.length)
        (elementsOf(wholeToo, 'mur')[2] as RawElement).donnee_entree.surface_paroi_opaque = '31';
      followDeclaredInputs(frozenOriginal(raw), shared);
      followDeclaredInputs(raw, wholeToo);
      expect(JSON.stringify(shared)).toBe(JSON.stringify(wholeToo));
      expect(ids(shared)).toEqual(
        targets.length ? [undefined, undefined, '13'] : [undefined, '12', '13'],
      );
    }
    expect(JSON.stringify(raw)).toBe(JSON.stringify(envelope()));
  });
});
