/**
 * The combinations the scenario predictor starts from (scenarios.ts `Predictor`), and the
 * nearest of them to a combination: the one that differs by the fewest options (the size of the
 * symmetric difference of their sets of change ids), the last added among those at the smallest
 * distance.
 *
 * Each id gets a bit the first time it is met; an anchor keeps its ids as a bitset, so a
 * distance is the number of bits set in the XOR of two bitsets, word by word, instead of two
 * scans of string sets. An id of the combination that no anchor holds has a bit no anchor has
 * set: it adds one to every distance, as it did with the sets. The scan stops counting once an
 * anchor is past the smallest distance found (it can no longer be the nearest), as before.
 */

/** The number of bits set in a 32-bit integer. */
export function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  v = (v + (v >>> 4)) & 0x0f0f0f0f;
  return Math.imul(v, 0x01010101) >>> 24;
}

export interface Anchor<T> {
  ids: ReadonlySet<string>;
  value: T;
}

export class Anchors<T> {
  private readonly bitOf = new Map<string, number>();
  private readonly list: { anchor: Anchor<T>; bits: number[] }[] = [];

  get size(): number {
    return this.list.length;
  }

  /** `ids` as a bitset (ids never met get a bit of their own). */
  private bitsOf(ids: ReadonlySet<string>): number[] {
    const bits: number[] = [];
    for (const id of ids) {
      let bit = this.bitOf.get(id);
      if (bit === undefined) {
        bit = this.bitOf.size;
        this.bitOf.set(id, bit);
      }
      const word = bit >>> 5;
      while (bits.length <= word) bits.push(0);
      bits[word] = (bits[word] as number) | (1 << (bit & 31));
    }
    return bits;
  }

  add(ids: ReadonlySet<string>, value: T): void {
    this.list.push({ anchor: { ids, value }, bits: this.bitsOf(ids) });
  }

  /** The last anchor added among those nearest to `ids` (undefined: no anchor). */
  nearest(ids: ReadonlySet<string>): Anchor<T> | undefined {
    const bits = this.bitsOf(ids);
    let best: Anchor<T> | undefined;
    let bestDistance = Infinity;
    for (const { anchor, bits: other } of this.list) {
      const words = Math.max(bits.length, other.length);
      let distance = 0;
      for (let w = 0; w < words && distance <= bestDistance; w++)
        distance += popcount((bits[w] ?? 0) ^ (other[w] ?? 0));
      if (distance <= bestDistance) {
        best = anchor;
        bestDistance = distance;
      }
    }
    return best;
  }
}
