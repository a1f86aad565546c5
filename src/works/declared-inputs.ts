/**
 * Inputs the DPE declares that bug-for-bug mode now follows, after envelope works.
 *
 * The thermal bridges. With the correction `pont-thermique-declared`
 * (src/engine/corrections.ts), bug-for-bug mode uses the row of a tabulated thermal bridge the
 * DPE declares (`tv_pont_thermique_id`) when the stored k is that row's, instead of the row the
 * engine's own criteria pick (insulation of the wall and of the floor, fitting of the window).
 * Works that change one of the two elements a bridge joins must still move its k: the declared
 * id of such a bridge is dropped, so that the engine looks the row up again from the new
 * elements, exactly as it did before the correction. Bridges whose elements the works leave
 * alone keep the DPE's row.
 *
 * The Ue of floors on the ground, a crawl space or an unheated basement: with the correction
 * `plancher-bas-ue-declared` the engine uses the Ue the DPE declares (`donnee_entree.ue`). A
 * floor the works change has its Ue dropped, so that the engine computes it from the new Upb.
 */
import type { RawDpe } from '../dpe/raw.js';
import { cleanRef, envelopeList, type EnvelopeKind } from './context.js';
import { editShared } from './frozen-copy.js';

const JOINED: EnvelopeKind[] = ['mur', 'plancher_bas', 'plancher_haut', 'baie_vitree', 'porte'];

/** A value JSON.stringify leaves out of an object (and writes `null` for in an array). */
function isOmitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** Met a value with a `toJSON` method: the texts are then written and compared. */
const HAS_TO_JSON = Symbol('toJSON');

function hasToJson(v: unknown): boolean {
  return (
    v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function'
  );
}

/** Whether `JSON.stringify(a) === JSON.stringify(b)`, for plain data, without writing the text. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (isOmitted(a) || isOmitted(b)) return isOmitted(a) && isOmitted(b);
  try {
    return sameJson(a, b);
  } catch (e) {
    if (e === HAS_TO_JSON) return JSON.stringify(a) === JSON.stringify(b);
    throw e;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (hasToJson(a) || hasToJson(b)) throw HAS_TO_JSON;
  // non-finite numbers are written `null`
  const x = typeof a === 'number' && !Number.isFinite(a) ? null : a;
  const y = typeof b === 'number' && !Number.isFinite(b) ? null : b;
  if (x === null || typeof x !== 'object' || y === null || typeof y !== 'object') return x === y;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) {
      const u: unknown = x[i];
      const v: unknown = y[i];
      if (!sameJson(isOmitted(u) ? null : u, isOmitted(v) ? null : v)) return false;
    }
    return true;
  }
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  const xk = Object.keys(xo).filter((k) => !isOmitted(xo[k]));
  const yk = Object.keys(yo).filter((k) => !isOmitted(yo[k]));
  // (a toJSON may leave its key out: met before the keys are counted)
  if (xk.some((k) => hasToJson(xo[k])) || yk.some((k) => hasToJson(yo[k]))) throw HAS_TO_JSON;
  if (xk.length !== yk.length) return false;
  for (let i = 0; i < xk.length; i++) {
    const k = xk[i] as string;
    if (k !== yk[i] || !sameJson(xo[k], yo[k])) return false;
  }
  return true;
}

/** Per original DPE: its envelope elements' inputs by reference (the last one of a reference). */
const inputsByRef = new WeakMap<RawDpe, Map<string, unknown>>();

function originalInputs(original: RawDpe): Map<string, unknown> {
  let before = inputsByRef.get(original);
  if (!before) {
    before = new Map();
    for (const kind of JOINED)
      for (const el of envelopeList(original, kind))
        before.set(cleanRef(el.donnee_entree.reference), el.donnee_entree);
    inputsByRef.set(original, before);
  }
  return before;
}

/**
 * References of the envelope elements whose inputs differ between `original` and `dpe` (as
 * their JSON texts differ; `original` is never modified: the prepared DPE).
 */
function changedReferences(original: RawDpe, dpe: RawDpe): Set<string> {
  const before = originalInputs(original);
  const changed = new Set<string>();
  for (const kind of JOINED)
    for (const el of envelopeList(dpe, kind)) {
      const ref = cleanRef(el.donnee_entree.reference);
      if (ref && (!before.has(ref) || !jsonEqual(before.get(ref), el.donnee_entree)))
        changed.add(ref);
    }
  return changed;
}

/**
 * Drops the declared row of every thermal bridge joining an element the works changed, and the
 * declared Ue of every floor they changed.
 */
export function followDeclaredInputs(original: RawDpe, dpe: RawDpe): void {
  const floorsBefore = envelopeList(original, 'plancher_bas');
  const floors = envelopeList(dpe, 'plancher_bas');
  floors.forEach((pb, i) => {
    // by position: the works keep the collections in order (a floor may have no reference)
    const before = floorsBefore[i]?.donnee_entree;
    // (a floor the works copy shares, edited elsewhere: generators.ts's effet-Joule pin)
    if (!jsonEqual(before, pb.donnee_entree))
      editShared(floors, i, 'ue', (x) => {
        delete x.donnee_entree.ue;
      });
  });
  const changed = changedReferences(original, dpe);
  if (changed.size === 0) return;
  const bridges = envelopeList(dpe, 'pont_thermique');
  bridges.forEach((pt, i) => {
    const d = pt.donnee_entree;
    if (changed.has(cleanRef(d.reference_1)) || changed.has(cleanRef(d.reference_2)))
      // (a bridge shared with the original: a frozen copy without it, the same at every run)
      editShared(bridges, i, 'tv_pont_thermique_id', (pt) => {
        delete pt.donnee_entree.tv_pont_thermique_id;
      });
  });
}
