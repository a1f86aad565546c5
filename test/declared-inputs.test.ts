/**
 * `jsonEqual` (src/works/declared-inputs.ts) decides which elements works changed, as the
 * comparison of their JSON texts did before it: it must say equal exactly when
 * `JSON.stringify` writes the same text, on the values a parsed DPE and the recipes hold, and on
 * the corners of JSON.stringify (omitted keys, `null` for undefined in arrays and for non-finite
 * numbers, key order, -0, toJSON).
 */
import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../src/works/declared-inputs.js';

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

  it('compares copies of the same data as equal and a changed field as different', () => {
    const de = { reference: 'Baie 3', surface_totale_baie: 2.4, nested: { uw: 1.3, list: [1, 2] } };
    expect(jsonEqual(de, structuredClone(de))).toBe(true);
    expect(jsonEqual(de, { ...de, nested: { uw: 1.3, list: [1, 3] } })).toBe(false);
    const reordered = { surface_totale_baie: 2.4, reference: 'Baie 3', nested: de.nested };
    expect(jsonEqual(de, reordered)).toBe(false);
  });
});
