/**
 * The scenario predictor's nearest anchor (src/simulation/anchors.ts): bitsets must pick the
 * very anchor the scan of string sets picked (the last among those differing by the fewest
 * ids), on many random anchors and combinations, with ids no anchor holds, more than 32 ids
 * (several words) and anchors added between queries, as the search adds its runs.
 */
import { describe, expect, it } from 'vitest';
import { Anchors, popcount } from '../src/simulation/anchors.js';

/** The former scan: the last anchor at the smallest size of the symmetric difference. */
function nearestBySets(anchors: ReadonlySet<string>[], ids: ReadonlySet<string>): number {
  let best = 0;
  let bestDistance = Infinity;
  anchors.forEach((a, i) => {
    let distance = 0;
    for (const id of ids) if (!a.has(id)) distance++;
    for (const id of a) if (!ids.has(id)) distance++;
    if (distance <= bestDistance) {
      best = i;
      bestDistance = distance;
    }
  });
  return best;
}

/** A small deterministic generator (the test is the same at every run). */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
}

describe('popcount', () => {
  it('counts the bits of 32-bit integers, negative ones included', () => {
    const naive = (x: number) => [...(x >>> 0).toString(2)].filter((b) => b === '1').length;
    const next = random(7);
    const values = [0, 1, -1, 2 ** 31, -(2 ** 31), 0x55555555, 0xaaaaaaaa | 0, 0x7fffffff];
    for (let i = 0; i < 2000; i++) values.push((next() * 2 ** 32) | 0);
    for (const v of values) expect(popcount(v), String(v)).toBe(naive(v));
  });
});

describe('the nearest anchor', () => {
  it('is the one the scan of string sets picked, as anchors are added', () => {
    for (const [seed, universe] of [
      [1, 12],
      [2, 40],
      [3, 90],
    ] as const) {
      const next = random(seed);
      const id = () => `mur:${Math.floor(next() * universe)}|V${Math.floor(next() * 3)}`;
      const pick = (max: number) => new Set(Array.from({ length: Math.floor(next() * max) }, id));
      const sets: ReadonlySet<string>[] = [new Set()];
      const anchors = new Anchors<number>();
      anchors.add(sets[0] as ReadonlySet<string>, 0);
      // single ids first, as the predictor starts
      for (let i = 0; i < universe / 2; i++) {
        const s = new Set([id()]);
        sets.push(s);
        anchors.add(s, sets.length - 1);
      }
      for (let q = 0; q < 400; q++) {
        const ids = pick(9);
        const want = nearestBySets(sets, ids);
        const got = anchors.nearest(ids);
        expect(got?.value, `seed ${seed} query ${q}`).toBe(want);
        expect(got?.ids).toBe(sets[want]);
        if (next() < 0.4) {
          sets.push(ids);
          anchors.add(ids, sets.length - 1);
        }
      }
      expect(anchors.size).toBe(sets.length);
    }
  });
});
