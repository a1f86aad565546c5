/**
 * Engine runs with works, memoised per prepared DPE: the same set of changes (in any order) is
 * computed once. Only the figures are kept, not the engine's whole output document.
 */
import type { CoefMode, EditableChange } from '../contract/schemas.js';
import type { Engine, EngineFigures } from '../engine/engine.js';
import { copyRaw, num, type RawDpe } from '../dpe/raw.js';
import { entryOf } from '../works/memo.js';
import {
  forceAirtightness,
  q4paAreas,
  type Q4paAreas,
  type Q4paCriteria,
} from '../works/airtightness.js';
import {
  applyWorks,
  applyWorksOn,
  resolveChanges,
  type AppliedWork,
  type Resolved,
} from '../works/apply.js';
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

/** The memo key of a run: the changes that count (the last for each target), in any order. */
function runKey(resolved: readonly Resolved[]): string {
  return resolved
    .map((r) => changeKey(r.change))
    .sort()
    .join(';');
}

/** Number of distinct works runs made so far on this DPE (their memo's size: the prepared-DPE cache counts it). */
export function runCount(prep: PreparedDpe): number {
  return caches.get(prep)?.size ?? 0;
}

/**
 * Change objects that `resolveChanges` accepted, with the fields they had then: their memo key.
 * A search asks for the same change objects again and again, most often for a set already run.
 */
const resolvedChanges = new WeakMap<
  EditableChange,
  { r: string; k: string; v: string; key: string }
>();

/**
 * The memo key of `changes` when each of them was accepted before with the same fields, else
 * undefined. Accepted changes hold catalogue values, so equal keys are equal changes: when the
 * memo holds this key (made from changes checked on this DPE), these changes are those, with
 * one per target, and resolve to themselves.
 */
function knownKey(changes: readonly EditableChange[]): string | undefined {
  const ids = new Array<string>(changes.length);
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i] as EditableChange;
    const known = resolvedChanges.get(c);
    if (
      known === undefined ||
      known.r !== c.referenceId ||
      known.k !== c.editableKey ||
      known.v !== c.editableValue
    )
      return undefined;
    ids[i] = known.key;
  }
  return ids.sort().join(';');
}

/** Resolves the changes (checked against the DPE: typed errors), then runs them. */
export function runWorks(
  engine: Engine,
  prep: PreparedDpe,
  changes: readonly EditableChange[],
  costs: CostTable,
): WorksRun {
  const key = knownKey(changes);
  const hit = key === undefined ? undefined : caches.get(prep)?.get(key);
  if (hit) return hit;
  const resolved = resolveChanges(prep, changes);
  for (const c of changes)
    if (
      typeof c.referenceId === 'string' &&
      typeof c.editableKey === 'string' &&
      typeof c.editableValue === 'string'
    )
      resolvedChanges.set(c, {
        r: c.referenceId,
        k: c.editableKey,
        v: c.editableValue,
        key: changeKey(c),
      });
  return runResolved(engine, prep, resolved, costs);
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
  const key = runKey(resolved);
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

/**
 * A works run as plain data, to cross to another thread: the changes, the engine's figures and
 * the priced items (their catalogue options are resolved again where the run is seeded).
 */
export interface RunData {
  changes: EditableChange[];
  mode2026: EngineFigures;
  mode2025: EngineFigures;
  items: { cout: number; coutDetail: string; coutBatiment?: number; perteSurface: number }[];
  cout: number;
  perteSurface: number;
}

/** Runs each set of changes (memoised as any run) and gives them back as data. */
export function runsAsData(
  engine: Engine,
  prep: PreparedDpe,
  changeSets: readonly EditableChange[][],
  costs: CostTable,
  tick: () => void = () => undefined,
): RunData[] {
  return changeSets.map((changes) => {
    const run = runWorks(engine, prep, changes, costs);
    tick();
    return {
      changes: run.applied.map((a) => a.change),
      mode2026: run.mode2026,
      mode2025: run.mode2025,
      items: run.applied.map((a) => ({
        cout: a.cout,
        coutDetail: a.coutDetail,
        ...(a.coutBatiment !== undefined ? { coutBatiment: a.coutBatiment } : {}),
        perteSurface: a.perteSurface,
      })),
      cout: run.cout,
      perteSurface: run.perteSurface,
    };
  });
}

/**
 * Puts runs made in another thread on the same DPE into this thread's memo, as if they had been
 * made here (the engine is deterministic: the same changes give the same figures).
 */
export function seedRuns(prep: PreparedDpe, runs: readonly RunData[]): void {
  let cache = caches.get(prep);
  if (!cache) {
    cache = new Map();
    caches.set(prep, cache);
  }
  for (const r of runs) {
    const resolved = resolveChanges(prep, r.changes);
    const key = runKey(resolved);
    if (cache.has(key) || resolved.length !== r.items.length) continue;
    cache.set(key, {
      mode2026: r.mode2026,
      mode2025: r.mode2025,
      applied: resolved.map((x, i) => {
        const item = r.items[i] as RunData['items'][number];
        return {
          change: x.change,
          option: x.option,
          cout: item.cout,
          coutDetail: item.coutDetail,
          ...(item.coutBatiment !== undefined ? { coutBatiment: item.coutBatiment } : {}),
          perteSurface: item.perteSurface,
        };
      }),
      cout: r.cout,
      perteSurface: r.perteSurface,
    });
  }
}

export function figuresOf(run: WorksRun, coef: CoefMode): EngineFigures {
  return coef === 'activated' ? run.mode2026 : run.mode2025;
}

/**
 * The areas the engine's Q4Pa,conv criteria weigh after `changes` (works applied to a copy, no
 * engine run): what each option adds to the insulated walls and ceilings, and to the windows and
 * doors with joints (docs/scenario-search.md, "The Q4Pa,conv thresholds").
 */
export function airtightnessAfter(
  engine: Engine,
  prep: PreparedDpe,
  changes: readonly EditableChange[],
  costs: CostTable,
): Q4paAreas {
  const resolved = resolveChanges(prep, changes);
  const memo = entryOf(areasMemo, prep, () => new Map<string, Q4paAreas>());
  return entryOf(memo, runKey(resolved), () =>
    q4paAreas(applyWorks(engine, prep, resolved, costs).raw, prep.base.output),
  );
}

/**
 * The inertia class the DPE declares after these works (1 très lourde … 4 légère; NaN when it
 * declares none): internal insulation lightens it (works/apply.ts `withInertia`). No engine run.
 */
export function inertiaAfter(
  engine: Engine,
  prep: PreparedDpe,
  changes: readonly EditableChange[],
  costs: CostTable,
): number {
  const raw = applyWorks(engine, prep, resolveChanges(prep, changes), costs).raw;
  return Number(raw.logement?.enveloppe?.inertie?.enum_classe_inertie_id ?? NaN);
}

const inertiaMemo = new WeakMap<PreparedDpe, Map<string, ForcedRun | null>>();

/**
 * The figures of `changes` with the inertia class the DPE declares forced to `cls` (1 très lourde
 * … 4 légère): a probe for the search's bound (what lining walls inside can save through the
 * intermittence, `inertiaAllowance` in proof.ts), never memoised with the works runs.
 */
export function runWithInertia(
  engine: Engine,
  prep: PreparedDpe,
  changes: readonly EditableChange[],
  costs: CostTable,
  cls: number,
): ForcedRun {
  const resolved = resolveChanges(prep, changes);
  const memo = entryOf(inertiaMemo, prep, () => new Map<string, ForcedRun | null>());
  const run = entryOf(memo, `${cls};${runKey(resolved)}`, () =>
    // (the envelope's container is the works copy's own: works-copy.ts)
    forcedRun(engine, prep, resolved, costs, (raw) => {
      const env = raw.logement?.enveloppe;
      if (env) env.inertie = { ...env.inertie, enum_classe_inertie_id: String(cls) };
      return true;
    }),
  );
  // (never null: the class is always set)
  return run as ForcedRun;
}

/** A probe's run: its figures, and the heating's final energy and need the engine computed (kWh/yr). */
export interface ForcedRun extends WorksRun {
  heatingFinal: number;
  heatingNeed: number;
}

/**
 * The works run of `resolved` with `force` applied to its copy before the engine runs (a probe:
 * the caller memoises it apart from the works runs); null when `force` says it changes nothing.
 * The copy is a works copy (works-copy.ts: its containers and what the works write are its own,
 * the rest shared with the frozen original, which the engine's memos know); with no works,
 * applyWorks gives the original itself, so a whole copy then.
 */
function forcedRun(
  engine: Engine,
  prep: PreparedDpe,
  resolved: readonly Resolved[],
  costs: CostTable,
  force: (raw: RawDpe) => boolean,
): ForcedRun | null {
  const works = resolved.length
    ? applyWorks(engine, prep, resolved, costs)
    : applyWorksOn(engine, prep, resolved, costs, copyRaw(prep.raw));
  if (!force(works.raw)) return null;
  const result = engine.run(works.raw, { owned: true });
  return {
    mode2026: result.mode2026,
    mode2025: result.mode2025,
    applied: works.applied,
    cout: works.cout,
    perteSurface: works.perteSurface,
    heatingFinal: num(result.output.logement?.sortie?.ef_conso?.conso_ch) ?? Number.NaN,
    heatingNeed: num(result.output.logement?.sortie?.apport_et_besoin?.besoin_ch) ?? Number.NaN,
  };
}

/** The areas and the forced runs per prepared DPE and works (and criteria): each made once. */
const areasMemo = new WeakMap<PreparedDpe, Map<string, Q4paAreas>>();
const forcedMemo = new WeakMap<PreparedDpe, Map<string, WorksRun | null>>();

/**
 * The figures of `changes` with the Q4Pa,conv row forced to the one `criteria` pick, on the
 * ventilations that follow the envelope (`forceAirtightness`): a probe for the search's bound,
 * never memoised with the works runs. Null when no ventilation follows the envelope.
 */
export function runWithAirtightness(
  engine: Engine,
  prep: PreparedDpe,
  changes: readonly EditableChange[],
  costs: CostTable,
  criteria: Q4paCriteria,
): WorksRun | null {
  const resolved = resolveChanges(prep, changes);
  const memo = entryOf(forcedMemo, prep, () => new Map<string, WorksRun | null>());
  return entryOf(memo, `${criteria.isolation}${criteria.joints};${runKey(resolved)}`, () =>
    // the ventilations are written into: a works copy owns them (works-copy.ts)
    forcedRun(engine, prep, resolved, costs, (raw) =>
      Boolean(forceAirtightness(prep.raw, raw, prep.base.output, engine.q4paConvRows(), criteria)),
    ),
  );
}
