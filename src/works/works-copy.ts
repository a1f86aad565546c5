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
 * - the elements the works change, the openings of the walls they insulate (their reveals are
 *   insulated with the wall), every ventilation (airtightness.ts), every installation when the works
 *   change one (the system recipes reach across them): deep copies of their own (frozen-copy.ts;
 *   a recipe that writes elsewhere owns the element first, as generators.ts's effet-Joule pins).
 * Anything else a recipe writes is frozen: the write throws, and `applyWorks` starts again on a
 * whole copy (`isFrozenWrite`), so the result is always the one a whole copy gives.
 */
import { elementsOf } from '../dpe/elements.js';
import type { Category } from '../contract/schemas.js';
import type { RawDpe, RawElement } from '../dpe/raw.js';
import { copyRaw } from '../dpe/raw.js';
import { openingsOfWall } from './recipes.js';
import { ownElements } from './frozen-copy.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object';

function deepFreeze<T>(v: T): T {
  if (isObj(v) && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze(v[k]);
  }
  return v;
}

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

/** A collection (`{ mur: [...] }`) with its own arrays, holding the same elements. */
function collectionCopy(c: Obj): Obj {
  const out: Obj = { ...c };
  for (const k of Object.keys(out)) {
    const v = out[k];
    if (Array.isArray(v)) out[k] = v.slice();
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

/**
 * The positions of the windows and doors in wall `index` of the frozen original `f`
 * (`openingsOfWall`), per original and wall: they depend on the original only.
 */
const openingsAt = new WeakMap<RawDpe, Map<number, Record<'baie_vitree' | 'porte', number[]>>>();

function openingIndexes(f: RawDpe, index: number): Record<'baie_vitree' | 'porte', number[]> {
  let byWall = openingsAt.get(f);
  if (!byWall) {
    byWall = new Map();
    openingsAt.set(f, byWall);
  }
  let at = byWall.get(index);
  if (!at) {
    const wall = elementsOf(f, 'mur')[index];
    const openings = new Set<RawElement>(wall ? openingsOfWall(wall, f) : []);
    const of = (kind: 'baie_vitree' | 'porte') => {
      const list = elementsOf(f, kind);
      return [...list.keys()].filter((i) => openings.has(list[i] as RawElement));
    };
    at = { baie_vitree: of('baie_vitree'), porte: of('porte') };
    byWall.set(index, at);
  }
  return at;
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
    // the openings of a wall: found on the original, whose elements the copy holds at the same
    // positions (or copies of them, equal until the recipes run)
    if (t.category === 'mur' && list[t.index]) {
      const at = openingIndexes(f, t.index);
      for (const kind of ['baie_vitree', 'porte'] as const)
        ownElements(elementsOf(dpe, kind), at[kind]);
    }
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
