/**
 * The copy of a DPE that works are applied to before an engine run, made cheaply.
 *
 * A works run used to copy the whole DPE (rfdc, ~1 ms on the 28-flat 2535E0426429Q, then the
 * engine's sanitizer copies it again). The engine never writes into its input beyond the
 * collections it creates when missing (its sanitizer copies the rest first), so only what the
 * recipes write needs a copy of its own. `worksCopy` gives a DPE that shares every element with
 * a deep-frozen copy of the original (one per original: `frozenOriginal`), except:
 * - the containers down to each collection's array (the root, `logement`, `enveloppe`, each
 *   `…_collection` and its arrays): new objects holding the same elements;
 * - the ventilations (airtightness.ts), every installation when the works change one (the
 *   system recipes reach across them), the `targets` (apply.ts gives the elements whose recipe
 *   writes into them, not those it replaces by a frozen edited copy): deep copies of their own
 *   (frozen-copy.ts).
 * A recipe edits its envelope element, and the other elements it writes into, with `editShared`
 * (frozen-copy.ts): the wall, roof, floor, window or door it changes (recipes.ts
 * `applyRecipeAt`), the reveals of a wall's openings, the effet-Joule pins (generators.ts), a
 * thermal bridge's declared row (declared-inputs.ts). A shared element is then replaced by a
 * frozen copy of it so edited, made once per element and edit: every run gets the same object,
 * which the engine's sanitizer and element memo know (src/engine/patches/memo/).
 * Anything else a recipe writes is frozen: the write throws, and `applyWorks` starts again on a
 * whole copy (`isFrozenWrite`), so the result is always the one a whole copy gives.
 */
import { elementsOf } from '../dpe/elements.js';
import type { Category } from '../contract/schemas.js';
import type { RawDpe } from '../dpe/raw.js';
import { copyRaw } from '../dpe/raw.js';
import { deepFreeze, ownElements } from './frozen-copy.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object';

const frozen = new WeakMap<RawDpe, RawDpe>();
/** The frozen originals `frozenOriginal` made (deep-frozen all through: nothing in them changes). */
const frozenOriginals = new WeakSet<RawDpe>();

/** Whether `dpe` is a frozen original (`frozenOriginal`): every object in it is frozen. */
export function isFrozenOriginal(dpe: RawDpe): boolean {
  return frozenOriginals.has(dpe);
}

/** A deep-frozen deep copy of `original` (kept per original, which is never modified). */
export function frozenOriginal(original: RawDpe): RawDpe {
  let f = frozen.get(original);
  if (!f) {
    f = deepFreeze(copyRaw(original));
    frozen.set(original, f);
    frozenOriginals.add(f);
  }
  return f;
}

/**
 * `list.slice()` of a plain array (the same length, holes kept), by a loop: V8's `slice`, like
 * `forEach`, `some` or `filter`, takes a slow path on a frozen array (15× slower in Node 20).
 */
function arrayCopy(list: unknown[]): unknown[] {
  if (Object.getPrototypeOf(list) !== Array.prototype) return list.slice();
  const n = list.length;
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) if (i in list) out[i] = list[i];
  return out;
}

/** A collection (`{ mur: [...] }`) with its own arrays, holding the same elements. */
function collectionCopy(c: Obj): Obj {
  const out: Obj = { ...c };
  for (const k of Object.keys(out)) {
    const v = out[k];
    if (Array.isArray(v)) out[k] = arrayCopy(v);
  }
  return out;
}

/** `o` with its own `…_collection` objects and arrays (the elements shared). */
function withCollections(o: Obj): Obj {
  const out: Obj = { ...o };
  for (const k of Object.keys(out)) {
    const v = out[k];
    if (k.endsWith('_collection') && isObj(v) && !Array.isArray(v)) out[k] = collectionCopy(v);
  }
  return out;
}

/** Categories whose recipes reach across all of them (mixed generators, emitters, networks). */
const SYSTEMS: Category[] = ['installation_chauffage', 'installation_ecs'];

/**
 * A copy of `original` for works on the elements `targets` (category, index): see the module's
 * comment. Undefined when the DPE has no `logement` object (the whole copy is used).
 */
export function worksCopy(
  original: RawDpe,
  targets: readonly { category: Category; index: number }[],
): RawDpe | undefined {
  const f = frozenOriginal(original);
  if (!isObj(f.logement)) return undefined;
  const root: Obj = { ...f };
  const logement = withCollections(f.logement as Obj);
  root.logement = logement;
  if (isObj(logement.enveloppe) && !Array.isArray(logement.enveloppe))
    logement.enveloppe = withCollections(logement.enveloppe);
  const dpe = root as RawDpe;
  // the ventilations: airtightness.ts may drop their declared Q4Pa,conv row after any works
  ownElements(elementsOf(dpe, 'ventilation'));
  if (targets.some((t) => SYSTEMS.includes(t.category)))
    for (const category of SYSTEMS) ownElements(elementsOf(dpe, category));
  for (const t of targets) {
    const list = elementsOf(dpe, t.category);
    ownElements(list, [t.index]);
  }
  return dpe;
}

/** Whether `err` is a write into a frozen object (strict mode: a TypeError). */
export function isFrozenWrite(err: unknown): boolean {
  return (
    err instanceof TypeError &&
    /read only|not extensible|Cannot delete property|Cannot (add|define) property|sealed|frozen/i.test(
      err.message,
    )
  );
}
