/**
 * `resolveChanges` keeps the changes that passed its checks, per prepared DPE
 * (src/works/apply.ts `checkedChanges`): a change resolved again must give what its first check
 * gave (with a change object of its own), an invalid change must still be refused with its
 * position, and a change kept on one DPE must be checked afresh on another.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { EditableChange } from '../src/contract/schemas.js';
import { DpeSimError } from '../src/contract/errors.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import type { PreparedDpe } from '../src/simulation/prepared.js';
import { optionChanges } from '../src/simulation/structure.js';
import { resolveChanges } from '../src/works/apply.js';
import { FLAT, HOUSE } from './helpers.js';
import { preparedFile } from './corpus-engine.js';

let engine: Engine;

const prepared = (file: string) => preparedFile(engine, file);

/** The error `resolveChanges` throws (undefined: none). */
function refusal(prep: PreparedDpe, changes: EditableChange[]): unknown {
  try {
    resolveChanges(prep, changes);
  } catch (err) {
    expect(err).toBeInstanceOf(DpeSimError);
    const e = err as DpeSimError;
    return { message: e.message, details: e.details };
  }
  return undefined;
}

beforeAll(async () => {
  engine = await loadEngine();
});

describe('changes kept once checked', () => {
  it('resolve again to what their first check gave, with changes of their own', async () => {
    const prep = await prepared(HOUSE);
    const changes = optionChanges(prep);
    expect(changes.length).toBeGreaterThan(20);
    // every change alone, then all of them at once (the last per target wins), twice
    const first = changes.map((c) => resolveChanges(prep, [c]));
    const firstAll = resolveChanges(prep, changes);
    const again = changes.map((c) => resolveChanges(prep, [{ ...c }]));
    const againAll = resolveChanges(prep, changes);
    expect(again).toEqual(first);
    expect(againAll).toEqual(firstAll);
    expect(againAll.map((r) => r.option)).toEqual(firstAll.map((r) => r.option)); // (the rows)
    for (const [i, r] of again.entries()) expect(r[0]?.change).not.toBe(first[i]?.[0]?.change);
    expect(againAll[0]?.change).not.toBe(changes[0]);
  });

  it('still refuse an invalid change with its position, after valid ones were kept', async () => {
    const prep = await prepared(HOUSE);
    const [valid] = optionChanges(prep) as [EditableChange];
    resolveChanges(prep, [valid]);
    const bad: EditableChange = { ...valid, editableValue: 'NoSuchOption' };
    const fresh = refusal(await prepared(HOUSE), [valid, bad]);
    expect(fresh).toMatchObject({ details: { field: 'params.editablesChanges[1].editableValue' } });
    expect(refusal(prep, [valid, bad])).toEqual(fresh);
    expect(refusal(prep, [valid, bad])).toEqual(fresh);
    const odd = { ...valid, editableValue: 5 } as unknown as EditableChange;
    expect(refusal(prep, [odd])).toEqual(refusal(await prepared(HOUSE), [odd]));
  });

  it('are checked afresh on another DPE', async () => {
    const house = await prepared(HOUSE);
    const flat = await prepared(FLAT);
    const onFlat = new Set(optionChanges(flat).map((c) => JSON.stringify(c)));
    const houseOnly = optionChanges(house).filter((c) => !onFlat.has(JSON.stringify(c)));
    expect(houseOnly.length).toBeGreaterThan(3);
    for (const c of houseOnly) resolveChanges(house, [c]);
    for (const c of houseOnly) {
      const kept = refusal(flat, [c]);
      expect(kept, JSON.stringify(c)).toBeDefined();
      expect(kept).toEqual(refusal(await prepared(FLAT), [c]));
    }
  });
});
