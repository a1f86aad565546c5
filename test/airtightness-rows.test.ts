/**
 * The Q4Pa,conv row after works is looked up once per table, period, method and criteria
 * (src/works/airtightness.ts `engineRowOf`): it must be the very row `engineQ4paRow` finds, in
 * any order of questions, on the engine's table and on another table with the same criteria.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Fields } from '../src/dpe/raw.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { engineQ4paRow, engineRowOf, type Q4paCriteria } from '../src/works/airtightness.js';

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine();
});

describe('the Q4Pa,conv row kept per table, period, method and criteria', () => {
  it('is the row engineQ4paRow finds, asked in any order, per table', () => {
    const rows = engine.q4paConvRows();
    expect(rows.length).toBeGreaterThan(5);
    // another table: the same rows in reverse order (other first matches)
    const reversed: readonly Fields[] = [...rows].reverse();
    const values = (key: string) => [
      undefined,
      '',
      'undefined',
      ...new Set(rows.flatMap((r) => String(r[key] ?? '').split('|'))),
    ];
    const periods = values('enum_periode_construction_id');
    const methods = values('enum_methode_application_dpe_log_id');
    const criteria: Q4paCriteria[] = [
      { isolation: '0', joints: '0' },
      { isolation: '0', joints: '1' },
      { isolation: '1', joints: '0' },
      { isolation: '1', joints: '1' },
    ];
    let asked = 0;
    let differ = 0;
    for (let pass = 0; pass < 2; pass++)
      for (const c of pass ? [...criteria].reverse() : criteria)
        for (const method of methods)
          for (const period of periods)
            for (const table of pass ? [reversed, rows] : [rows, reversed]) {
              const want = engineQ4paRow(table, period, method, c);
              expect(engineRowOf(table, period, method, c)).toBe(want);
              if (want !== engineQ4paRow(table === rows ? reversed : rows, period, method, c))
                differ++;
              asked++;
            }
    expect(asked).toBeGreaterThan(100);
    expect(differ).toBeGreaterThan(0);
  });
});
