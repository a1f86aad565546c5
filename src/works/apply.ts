/**
 * Works on a DPE: which options an element offers, what they cost; `resolveChanges` validates a
 * list of editable changes, `applyWorks` applies the validated changes to a copy of the DPE.
 */
import { DpeSimError } from '../contract/errors.js';
import type { Category, EditableChange } from '../contract/schemas.js';
import { elementsOf, parseReferenceId } from '../dpe/elements.js';
import type { RawDpe, RawElement, RawEnveloppe } from '../dpe/raw.js';
import { copyRaw, num } from '../dpe/raw.js';
import type { Engine } from '../engine/engine.js';
import { CATALOGUE, optionsFor, type WorksOptionRow } from './catalogue.js';
import { followAirtightness } from './airtightness.js';
import { followDeclaredInputs, keepDeclaredGaps } from './declared-inputs.js';
import { computedOf, makeWorksContext } from './context.js';
import { frozenOriginal, isFrozenWrite, worksCopy } from './works-copy.js';
import type { CostTable } from './costs.js';
import { scopeOf } from '../dpe/building.js';
import { areaOf, priceOption, scopeRefusal, shareRefusal, type Price } from './pricing.js';
import {
  applicability,
  applyRecipeAt,
  editsSharedCopy,
  isInternalInsulation,
  recipeFits,
  type WorksContext,
} from './recipes.js';
import { entryOf } from './memo.js';
import { OTHER_KIND_REFUSALS } from './generator-kinds.js';

export interface AppliedWork {
  change: EditableChange;
  option: WorksOptionRow;
  /** euros */
  cout: number;
  /** how `cout` was obtained ("28 × 4 770 €") */
  coutDetail: string;
  /** the whole building's amount when `cout` is the DPE's share of it (pricing.ts `whole`) */
  coutBatiment?: number;
  /** m² of floor lost */
  perteSurface: number;
}

export interface WorksResult {
  raw: RawDpe;
  applied: AppliedWork[];
  cout: number;
  perteSurface: number;
}

/**
 * A DPE as works see it: the parsed document and the engine's baseline output (the prepared DPE
 * of `simulation/` has both; works never need more of it).
 */
export interface WorksBase {
  raw: RawDpe;
  base: { output: RawDpe };
}

const checkContexts = new WeakMap<WorksBase, WorksContext>();

/**
 * The context to check options on the prepared DPE itself, with the engine's baseline output.
 * Given only a parsed DPE, the values stored in it stand in for the engine's.
 */
function checkContext(source: RawDpe | WorksBase): WorksContext {
  if (!isPrepared(source)) return makeWorksContext(source);
  let ctx = checkContexts.get(source);
  if (!ctx) {
    ctx = makeWorksContext(source.raw, source.base.output, source.raw);
    checkContexts.set(source, ctx);
  }
  return ctx;
}

function isPrepared(source: RawDpe | WorksBase): source is WorksBase {
  return 'base' in source && 'raw' in source && typeof source.base === 'object';
}

/** The options offered on an element of the prepared DPE: those whose recipe makes sense there. */
export function offeredOptions(
  prep: WorksBase,
  category: Category,
  el: RawElement,
): WorksOptionRow[] {
  return offeredIn(checkContext(prep), category, el);
}

/**
 * Why each catalogue option of the category is not offered on the element (the audit says why
 * an item needs no works), of those `only` keeps: the distinct reasons, empty when every such
 * option is offered. The reasons
 * that say only that an option is for another kind of installation (`OTHER_KIND_REFUSALS`) are
 * kept only where the element has no reason of its own.
 */
export function refusalsOn(
  prep: WorksBase,
  category: Category,
  el: RawElement,
  only: (row: WorksOptionRow) => boolean = () => true,
): string[] {
  const ctx = checkContext(prep);
  const reasons = new Set<string>();
  const scope = scopeOf(ctx.dpe);
  const scoped = scopeRefusal(scope, category, el);
  if (scoped) return [scoped];
  for (const row of optionsFor(category)) {
    if (!recipeFits(row.recipe, el) || !only(row)) continue; // (a roof window's option on a façade window)
    // what the element is says why before who would pay a share of it: a collective option
    // that cannot apply to the installation is not offered whatever the flat's share
    const applies = applicability(row.recipe, el, ctx);
    const a = applies === true ? shareRefusal(scope, category, el, row) : applies;
    if (a !== undefined) reasons.add(a);
  }
  const own = [...reasons].filter((r) => !OTHER_KIND_REFUSALS.has(r));
  return own.length ? own : [...reasons];
}

function offeredIn(ctx: WorksContext, category: Category, el: RawElement): WorksOptionRow[] {
  // an option whose scope cannot be decided (who pays what share) is not offered
  const scope = scopeOf(ctx.dpe);
  if (scopeRefusal(scope, category, el)) return [];
  return optionsFor(category).filter(
    (row) =>
      shareRefusal(scope, category, el, row) === undefined &&
      applicability(row.recipe, el, ctx) === true,
  );
}

export { areaOf, doorsOf } from './pricing.js';
export { labelOn } from './catalogue.js';

/** The price of an option on an element of `dpe`, with its detail ("28 × 4 770 €"). */
export function priceOn(
  option: WorksOptionRow,
  el: RawElement,
  costs: CostTable,
  dpe: RawDpe,
  computed?: RawElement,
): Price {
  return priceOption(option, el, dpe, costs, computed);
}

export function costOf(
  option: WorksOptionRow,
  el: RawElement,
  costs: CostTable,
  dpe: RawDpe,
  computed?: RawElement,
): number {
  return priceOption(option, el, dpe, costs, computed).eur;
}

/**
 * Floor area lost to internal insulation: the wall's length (area / height) × thickness; in a
 * generated flat, whose walls are the building's, the flat's share of it.
 */
export function perteSurfaceOf(option: WorksOptionRow, el: RawElement, dpe: RawDpe): number {
  if (!option.thickness) return 0;
  const hsp = num(dpe.logement?.caracteristique_generale?.hsp) ?? 2.5;
  const length = areaOf(option.category, el) / (hsp > 0 ? hsp : 2.5);
  return Math.round(length * option.thickness * scopeOf(dpe).envelopeShare * 100) / 100;
}

export interface Resolved {
  change: EditableChange;
  option: WorksOptionRow;
  category: Category;
  index: number;
}

function allowedKeysMessage(
  ctx: WorksContext,
  category: Category,
  el: RawElement,
  ref: string,
): string {
  const offered = offeredIn(ctx, category, el);
  if (offered.length === 0) return `no works are offered on ${ref}`;
  const byKey = new Map<string, string[]>();
  for (const o of offered) byKey.set(o.key, [...(byKey.get(o.key) ?? []), o.code]);
  return `allowed on ${ref}: ${[...byKey].map(([k, codes]) => `${k} (${codes.join(', ')})`).join('; ')}`;
}

/** What checking a change found: its catalogue option and its element. */
type Checked = Omit<Resolved, 'change'>;

/**
 * The changes already checked on each prepared DPE, by referenceId, editableKey and
 * editableValue. A check reads only the change, the catalogue (constant) and the prepared DPE
 * with its baseline (never modified; `checkContext` keeps its context the same way), so a change
 * that passed passes again with the same option and element: `resolveChanges` makes its result
 * from what is kept, with a new change object. Only changes that passed are kept (an error's
 * message names the change's position in its list).
 */
const checkedChanges = new WeakMap<WorksBase, Map<string, Checked>>();

function checkedOn(prep: WorksBase): Map<string, Checked> {
  let checked = checkedChanges.get(prep);
  if (!checked) checkedChanges.set(prep, (checked = new Map()));
  return checked;
}

/**
 * Each change object's last key with the fields it was made of: the search asks again and again
 * for the same changes, and the same string is then found in a Map by its hash, kept with it.
 */
const keyTexts = new WeakMap<object, { r: string; k: string; v: string; key: string }>();

/** The key of a change whose three fields are strings (the lengths keep it unambiguous). */
function checkedKey(c: EditableChange): string | undefined {
  const { referenceId: r, editableKey: k, editableValue: v } = c as Record<string, unknown>;
  if (typeof r !== 'string' || typeof k !== 'string' || typeof v !== 'string') return undefined;
  const known = keyTexts.get(c);
  if (known !== undefined && known.r === r && known.k === k && known.v === v) return known.key;
  const key = `${r.length}:${k.length}:${r}${k}${v}`;
  keyTexts.set(c, { r, k, v, key });
  return key;
}

/**
 * Checks every change against the DPE before anything is computed. The last change for a given
 * (referenceId, editableKey) wins, so the same change given twice is the change once. Pass the
 * prepared DPE: options are judged on the engine's baseline values (given only the parsed DPE,
 * on the values stored in it, which can differ).
 */
export function resolveChanges(
  source: RawDpe | WorksBase,
  changes: readonly EditableChange[],
): Resolved[] {
  const ctx = checkContext(source);
  const dpe = ctx.dpe;
  const checked = isPrepared(source) ? checkedOn(source) : undefined;
  const byTarget = new Map<string, Resolved>();
  const add = (change: EditableChange, found: Checked) => {
    const target = `${change.referenceId}|${change.editableKey}`;
    byTarget.delete(target);
    byTarget.set(target, {
      change: {
        referenceId: change.referenceId,
        editableKey: change.editableKey,
        editableValue: change.editableValue,
      },
      option: found.option,
      category: found.category,
      index: found.index,
    });
  };
  for (const [i, change] of changes.entries()) {
    const key = checkedKey(change);
    const known = key === undefined ? undefined : checked?.get(key);
    if (known) {
      add(change, known);
      continue;
    }
    const at = `params.editablesChanges[${i}]`;
    const ref = parseReferenceId(change.referenceId);
    if (!ref) {
      throw new DpeSimError(
        'invalid-input',
        `unknown referenceId '${change.referenceId}': expected <category>:<index> with a category among mur, baie_vitree, plancher_bas, plancher_haut, installation_chauffage, installation_ecs, ventilation, porte`,
        {
          reason: 'unknown-reference',
          field: `${at}.referenceId`,
          value: change.referenceId,
          unknownReferences: [change.referenceId],
          change,
        },
      );
    }
    const list = elementsOf(dpe, ref.category);
    const el = list[ref.index];
    if (!el) {
      const known = list.map((_, i) => `${ref.category}:${i}`);
      throw new DpeSimError(
        'invalid-input',
        `unknown referenceId '${change.referenceId}': this DPE has ${known.length ? known.join(', ') : `no ${ref.category} element`}`,
        {
          reason: 'unknown-reference',
          field: `${at}.referenceId`,
          value: change.referenceId,
          allowed: known,
          unknownReferences: [change.referenceId],
          change,
        },
      );
    }
    const keys = new Set(optionsFor(ref.category).map((o) => o.key));
    if (!keys.has(change.editableKey as WorksOptionRow['key'])) {
      throw new DpeSimError(
        'invalid-input',
        `unknown editableKey '${change.editableKey}' for ${change.referenceId}; ${allowedKeysMessage(ctx, ref.category, el, change.referenceId)}`,
        {
          reason: 'unknown-key',
          field: `${at}.editableKey`,
          value: change.editableKey,
          allowed: [...new Set(offeredIn(ctx, ref.category, el).map((o) => o.key))],
          change,
        },
      );
    }
    const row = CATALOGUE.find(
      (o) =>
        o.category === ref.category &&
        o.key === change.editableKey &&
        o.code === change.editableValue,
    );
    const scope = scopeOf(dpe);
    const why = row
      ? (scopeRefusal(scope, ref.category, el) ??
        shareRefusal(scope, ref.category, el, row) ??
        applicability(row.recipe, el, ctx))
      : 'unknown value';
    if (!row || why !== true) {
      throw new DpeSimError(
        'invalid-input',
        `editableValue '${change.editableValue}' is not allowed for ${change.referenceId} ${change.editableKey}${row ? ` (${String(why)})` : ''}; ${allowedKeysMessage(ctx, ref.category, el, change.referenceId)}`,
        {
          reason: 'value-not-allowed',
          field: `${at}.editableValue`,
          value: change.editableValue,
          allowed: offeredIn(ctx, ref.category, el)
            .filter((o) => o.key === change.editableKey)
            .map((o) => o.code),
          change,
        },
      );
    }
    const found: Checked = { option: row, category: ref.category, index: ref.index };
    if (key !== undefined) checked?.set(key, found);
    add(change, found);
  }
  return [...byTarget.values()];
}

/** Each frozen element met by `computedInertia`: its number (never reused). */
const elementNumbers = new WeakMap<object, number>();
let nextElementNumber = 1;
/**
 * The class by the walls, floors and roofs it was computed on, when every one of them is frozen
 * (the frozen original's, or a frozen edited copy: frozen-copy.ts), as their numbers: the
 * engine's `calculateInertie` reads nothing but those elements' inputs, which cannot change.
 * Internal insulation asks it twice per works run (before and after). Bounded: a long-lived
 * server meets many DPEs.
 */
const inertiaByElements = new Map<string, number>();

/** The key of the envelope's walls, floors and roofs when all of them are frozen, else undefined. */
function frozenElementsKey(env: RawEnveloppe): string | undefined {
  let key = '';
  for (const kind of ['mur', 'plancher_bas', 'plancher_haut'] as const) {
    const list = (env[`${kind}_collection`] as Record<string, unknown> | undefined)?.[kind];
    if (!Array.isArray(list)) return undefined;
    for (let i = 0; i < list.length; i++) {
      const el: unknown = list[i];
      if (el === null || typeof el !== 'object' || !Object.isFrozen(el)) return undefined;
      let n = elementNumbers.get(el);
      if (n === undefined) elementNumbers.set(el, (n = nextElementNumber++));
      key += `${n},`;
    }
    key += ';';
  }
  return key;
}

/** The inertia class the engine computes from the envelope (1 très lourde … 4 légère), or NaN. */
function computedInertia(engine: Engine, env: RawEnveloppe): number {
  const key = frozenElementsKey(env);
  const known = key === undefined ? undefined : inertiaByElements.get(key);
  if (known !== undefined) return known;
  const inertia = engineInertia(engine, env);
  if (key !== undefined) {
    if (inertiaByElements.size >= 10_000) inertiaByElements.clear();
    inertiaByElements.set(key, inertia);
  }
  return inertia;
}

function engineInertia(engine: Engine, env: RawEnveloppe): number {
  try {
    return num(engine.inertiaOf(env).enum_classe_inertie_id) ?? NaN;
  } catch (err) {
    // a write into the shared original (works-copy.ts) is not a missing collection
    if (isFrozenWrite(err)) throw err;
    return NaN; // an envelope without one of the collections
  }
}

/**
 * Runs internal-insulation works and moves the DPE's declared inertia class towards "lighter" by
 * as many classes as the engine's computed class loses because of them (ITI on a heavy wall makes
 * it light). The declared class is an engine input that often disagrees with the computed one
 * (65 of the 194 corpus DPEs): it is never replaced by it, which would move the baseline rather
 * than measure the works. External insulation, floors, windows and systems leave it alone.
 */
function withInertia(engine: Engine, raw: RawDpe, mutate: () => void): void {
  const env = raw.logement?.enveloppe;
  if (!env) return mutate();
  const before = computedInertia(engine, env);
  mutate();
  const after = computedInertia(engine, env);
  const declared = num(env.inertie?.enum_classe_inertie_id) ?? NaN;
  if (!(after > before) || !(declared > 0)) return;
  const next = Math.min(4, declared + (after - before));
  if (next !== declared) env.inertie = { ...env.inertie, enum_classe_inertie_id: String(next) };
}

interface Priced {
  price: Price;
  perteSurface: number;
}

/**
 * The price and floor loss of each option already priced, per DPE, cost table, option, element
 * of the DPE and its baseline counterpart: `priceOption` and `perteSurfaceOf` read nothing else
 * (the DPE, its elements and the engine's baseline output are never modified: the prepared DPE;
 * no code modifies a cost table once made: costs.ts), so a kept price is the one they would
 * give again. The costs are a key of their own: a price never crosses cost tables or DPEs.
 */
const priced = new WeakMap<
  RawDpe,
  WeakMap<CostTable, Map<WorksOptionRow, Map<RawElement, Map<RawElement | undefined, Priced>>>>
>();

function pricedOn(
  dpe: RawDpe,
  costs: CostTable,
  option: WorksOptionRow,
  el: RawElement,
  computed: RawElement | undefined,
): Priced {
  const byCosts = entryOf(priced, dpe, () => new WeakMap());
  const byElement = entryOf(
    entryOf(byCosts, costs, () => new Map()),
    option,
    () => new Map(),
  );
  return entryOf(
    entryOf(byElement, el, () => new Map<RawElement | undefined, Priced>()),
    computed,
    () => ({
      price: priceOption(option, el, dpe, costs, computed),
      perteSurface: perteSurfaceOf(option, el, dpe),
    }),
  );
}

/** Applies changes already checked by `resolveChanges` to a copy of the DPE. */
export function applyWorks(
  engine: Engine,
  prep: WorksBase,
  resolved: readonly Resolved[],
  costs: CostTable,
): WorksResult {
  if (resolved.length === 0) return { raw: prep.raw, applied: [], cout: 0, perteSurface: 0 };
  // on a copy sharing what the works leave alone (works-copy.ts); a recipe that writes into a
  // shared part throws, and the works are applied again on a whole copy: the same result
  const shared = worksCopy(
    prep.raw,
    resolved.filter((r) => !editsSharedCopy(r.option.recipe)),
  );
  if (shared) {
    try {
      return applyWorksOn(engine, prep, resolved, costs, shared);
    } catch (err) {
      if (!isFrozenWrite(err)) throw err;
      sharedCopyFallbacks++;
    }
  }
  return applyWorksOn(engine, prep, resolved, costs, copyRaw(prep.raw));
}

/** Times a works copy met a write into a shared part (the benchmarks print it). */
export let sharedCopyFallbacks = 0;

/** Applies the changes to `raw`, a copy of the DPE (whole, or from `worksCopy`). */
export function applyWorksOn(
  engine: Engine,
  prep: WorksBase,
  resolved: readonly Resolved[],
  costs: CostTable,
  raw: RawDpe,
): WorksResult {
  const ctx = makeWorksContext(raw, prep.base.output, prep.raw);
  const applied: AppliedWork[] = new Array<AppliedWork>(resolved.length);
  const applyAt = (i: number): void => {
    const r = resolved[i] as Resolved;
    const original = elementsOf(prep.raw, r.category)[r.index] as RawElement;
    const list = elementsOf(raw, r.category);
    const el = list[r.index] as RawElement;
    applyRecipeAt(r.option.recipe, list, r.index, ctx);
    const { price, perteSurface } = pricedOn(
      prep.raw,
      costs,
      r.option,
      original,
      computedOf(el, ctx),
    );
    applied[i] = {
      change: r.change,
      option: r.option,
      cout: price.eur,
      coutDetail: price.detail,
      ...(price.whole !== undefined ? { coutBatiment: price.whole } : {}),
      perteSurface,
    };
  };
  // the other works first, then every internal insulation in one step of the inertia class
  // (`withInertia`): the class moves by what the linings change of the class the engine computes
  // with the other works done, whatever the order the works were given in (one step per lining,
  // between the others, made the same works give two classes: 2336E3121993D's lined walls with
  // its attic insulated gave 22,120 or 21,843 kWh/yr by the order of the list)
  const internal: number[] = [];
  resolved.forEach((r, i) => {
    if (isInternalInsulation(r.option.recipe)) internal.push(i);
    else applyAt(i);
  });
  if (internal.length) withInertia(engine, raw, () => internal.forEach(applyAt));
  followAirtightness(prep.raw, raw, prep.base.output, engine.q4paConvRows());
  // (against the frozen copy of the original: the elements the works copy shares are its own)
  followDeclaredInputs(frozenOriginal(prep.raw), raw);
  keepDeclaredGaps(prep.base.output, raw);
  return {
    raw,
    applied,
    cout: applied.reduce((s, a) => s + a.cout, 0),
    perteSurface: Math.round(applied.reduce((s, a) => s + a.perteSurface, 0) * 100) / 100,
  };
}
