/**
 * Engine runs with works, memoised per prepared DPE: the same set of changes (in any order) is
 * computed once. Only the figures are kept, not the engine's whole output document.
 */
import type { CoefMode, EditableChange } from '../contract/schemas.js';
import type { Engine, EngineFigures } from '../engine/engine.js';
import { applyWorks, resolveChanges, type AppliedWork, type Resolved } from '../works/apply.js';
import type { CostTable } from '../works/costs.js';
import type { PreparedDpe } from './prepared.js';

export interface WorksRun {
  mode2026: EngineFigures;
  mode2025: EngineFigures;
  applied: AppliedWork[];
  cout: number;
  perteSurface: number;
}

const caches = new WeakMap<PreparedDpe, Map<string, WorksRun>>();

export function changeKey(c: EditableChange): string {
  return `${c.referenceId}|${c.editableKey}|${c.editableValue}`;
}

/** Number of distinct works runs made so far on this DPE (for the benchmarks). */
export function runCount(prep: PreparedDpe): number {
  return caches.get(prep)?.size ?? 0;
}

/** Resolves the changes (checked against the DPE: typed errors), then runs them. */
export function runWorks(
  engine: Engine,
  prep: PreparedDpe,
  changes: readonly EditableChange[],
  costs: CostTable,
): WorksRun {
  return runResolved(engine, prep, resolveChanges(prep, changes), costs);
}

/** Runs changes already resolved by `resolveChanges`; the same set in any order runs once. */
export function runResolved(
  engine: Engine,
  prep: PreparedDpe,
  resolved: readonly Resolved[],
  costs: CostTable,
): WorksRun {
  let cache = caches.get(prep);
  if (!cache) {
    cache = new Map();
    caches.set(prep, cache);
  }
  // the key is that of the changes that count (the last for each target)
  const key = resolved
    .map((r) => changeKey(r.change))
    .sort()
    .join(';');
  const hit = cache.get(key);
  if (hit) return hit;
  const works = applyWorks(engine, prep, resolved, costs);
  // the works were applied to a private copy: the engine may run on it as it is
  const result = works.applied.length ? engine.run(works.raw, { owned: true }) : prep.base;
  const run: WorksRun = {
    mode2026: result.mode2026,
    mode2025: result.mode2025,
    applied: works.applied,
    cout: works.cout,
    perteSurface: works.perteSurface,
  };
  cache.set(key, run);
  return run;
}

export function figuresOf(run: WorksRun, coef: CoefMode): EngineFigures {
  return coef === 'activated' ? run.mode2026 : run.mode2025;
}
