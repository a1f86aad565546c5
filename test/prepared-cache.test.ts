/**
 * The prepared-DPE cache counts what a prepared DPE keeps: its estimate from the XML's size when
 * prepared, then the works runs made on it (their memo stays with it: an `initial` makes hundreds).
 * A server's engine thread has a heap cap; a cache that counted only the XML grew past it after
 * `initial`s and the thread's requests failed (500 in the 10-minute soak, bench/soak.mjs).
 */
import { describe, expect, it } from 'vitest';
import {
  InProcessEngine,
  PREPARED_BYTES_PER_WORKS_RUN,
  PREPARED_BYTES_PER_XML_CHAR,
} from '../src/backend/engine-runner.js';
import { readDpeFile } from '../src/dpe/source.js';
import { defaultCosts } from '../src/works/costs.js';
import { FLAT, HOUSE } from './helpers.js';

const job = { kind: 'initial', coef: 'activated', forceNormalization: false } as const;

describe('prepared-DPE cache', () => {
  it('counts the works runs an initial leaves, and evicts by that count', async () => {
    const house = await readDpeFile(HOUSE);
    const flat = await readDpeFile(FLAT);
    const xmlBytes = (doc: typeof house) => doc.xml.length * PREPARED_BYTES_PER_XML_CHAR;
    // what each DPE is counted for once its initial is made
    const measure = new InProcessEngine(defaultCosts(), 1e12);
    await measure.run(house, { kind: 'pre', coef: 'activated', forceNormalization: false });
    expect(measure.cachedBytes).toBe(xmlBytes(house));
    await measure.run(house, job);
    const houseEntry = measure.cachedBytes;
    // an initial makes one run per works option and more for its scenarios
    expect(houseEntry).toBeGreaterThan(xmlBytes(house) + 50 * PREPARED_BYTES_PER_WORKS_RUN);
    expect((houseEntry - xmlBytes(house)) % PREPARED_BYTES_PER_WORKS_RUN).toBe(0);
    // a second initial on the same DPE: its runs are memo hits, nothing more is counted
    await measure.run(house, job);
    expect(measure.cachedBytes).toBe(houseEntry);
    await measure.run(flat, job);
    const flatEntry = measure.cachedBytes - houseEntry;
    expect(flatEntry).toBeGreaterThan(xmlBytes(flat) + 50 * PREPARED_BYTES_PER_WORKS_RUN);
    // room for either after its initial, not for both: the house goes when the flat's runs
    // are counted (by the XML alone, both would fit)
    const runner = new InProcessEngine(defaultCosts(), Math.max(houseEntry, flatEntry) + 1);
    await runner.run(house, job);
    expect(runner.cachedBytes).toBe(houseEntry);
    await runner.run(flat, job);
    expect(xmlBytes(house) + xmlBytes(flat)).toBeLessThan(Math.max(houseEntry, flatEntry));
    expect(runner.cachedBytes).toBe(flatEntry);
  });
});
