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
import type { Fields, RawDpe, RawElement, RawSortie } from '../dpe/raw.js';
import { cleanRef, envelopeList, type EnvelopeKind } from './context.js';
import { editShared } from './frozen-copy.js';
import { isFrozenOriginal } from './works-copy.js';

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
  // the keys in step, those left out skipped: the texts are the same up to the pair compared,
  // so a different key or value makes them differ whatever follows; a toJSON met (which may
  // leave its key out) hands over to the texts before anything is decided on its pair
  const xk = Object.keys(xo);
  const yk = Object.keys(yo);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < xk.length && isOmitted(xo[xk[i] as string])) i++;
    while (j < yk.length && isOmitted(yo[yk[j] as string])) j++;
    if (i === xk.length || j === yk.length) break;
    const k = xk[i] as string;
    const u = xo[k];
    const v = yo[yk[j] as string];
    if (hasToJson(u) || hasToJson(v)) throw HAS_TO_JSON;
    if (k !== yk[j] || !sameJson(u, v)) return false;
    i++;
    j++;
  }
  // one side is through: the other must have no key left that is written
  for (; i < xk.length; i++) {
    const u = xo[xk[i] as string];
    if (hasToJson(u)) throw HAS_TO_JSON;
    if (!isOmitted(u)) return false;
  }
  for (; j < yk.length; j++) {
    const v = yo[yk[j] as string];
    if (hasToJson(v)) throw HAS_TO_JSON;
    if (!isOmitted(v)) return false;
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

/** The clean reference of an envelope element's inputs, and whether they count as changed. */
interface Verdict {
  ref: string;
  changed: boolean;
}

function verdictOf(before: Map<string, unknown>, inputs: RawElement['donnee_entree']): Verdict {
  const ref = cleanRef(inputs.reference);
  return { ref, changed: ref !== '' && (!before.has(ref) || !jsonEqual(before.get(ref), inputs)) };
}

/**
 * Per frozen original (works-copy.ts `frozenOriginal`): the verdict of each of its envelope
 * elements' inputs, and the clean references of each of its thermal bridges' inputs. A works
 * copy shares most of these very objects; as everything in a frozen original is frozen, what
 * `verdictOf` and `cleanRef` say of them never changes (the inputs by reference they are
 * compared with are the frozen original's too), so they are worked out once per original and
 * only the elements the works copy owns are compared at each run. The frozen edited copies of
 * its elements (frozen-copy.ts `editShared`: deep-frozen too, and kept with the original) have
 * their verdict kept here too, from the first run that meets them.
 */
interface FrozenVerdicts {
  inputs: Map<unknown, Verdict>;
  bridges: Map<unknown, readonly [string, string]>;
}

const frozenVerdicts = new WeakMap<RawDpe, FrozenVerdicts>();

function verdictsOf(original: RawDpe): FrozenVerdicts | undefined {
  if (!isFrozenOriginal(original)) return undefined;
  let known = frozenVerdicts.get(original);
  if (!known) {
    const before = originalInputs(original);
    known = { inputs: new Map(), bridges: new Map() };
    for (const kind of JOINED)
      for (const el of envelopeList(original, kind))
        known.inputs.set(el.donnee_entree, verdictOf(before, el.donnee_entree));
    for (const pt of envelopeList(original, 'pont_thermique')) {
      const d = pt.donnee_entree;
      known.bridges.set(d, [cleanRef(d.reference_1), cleanRef(d.reference_2)]);
    }
    frozenVerdicts.set(original, known);
  }
  return known;
}

/**
 * References of the envelope elements whose inputs differ between `original` and `dpe` (as
 * their JSON texts differ; `original` is never modified: the prepared DPE, or its frozen copy).
 */
function changedReferences(
  original: RawDpe,
  dpe: RawDpe,
  frozen: FrozenVerdicts | undefined,
): Set<string> {
  const before = originalInputs(original);
  const changed = new Set<string>();
  for (const kind of JOINED)
    for (const el of envelopeList(dpe, kind)) {
      const d = el.donnee_entree;
      let v = frozen?.inputs.get(d);
      if (v === undefined) {
        v = verdictOf(before, d);
        // a frozen edited copy's inputs (recipes.ts, frozen-copy.ts): their verdict is as fixed
        if (frozen && Object.isFrozen(d)) frozen.inputs.set(d, v);
      }
      if (v.changed) changed.add(v.ref);
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
  const frozen = verdictsOf(original);
  const changed = changedReferences(original, dpe, frozen);
  if (changed.size === 0) return;
  const bridges = envelopeList(dpe, 'pont_thermique');
  bridges.forEach((pt, i) => {
    const d = pt.donnee_entree;
    const [r1, r2] = frozen?.bridges.get(d) ?? [cleanRef(d.reference_1), cleanRef(d.reference_2)];
    if (changed.has(r1) || changed.has(r2))
      // (a bridge shared with the original: a frozen copy without it, the same at every run)
      editShared(bridges, i, 'tv_pont_thermique_id', (pt) => {
        delete pt.donnee_entree.tv_pont_thermique_id;
      });
  });
}

/**
 * The difference between a declared total of losses the engine kept for the DPE as it is and
 * its elements' sum (the engine's own sums: `Umur`, `Upt` of `3_deperdition.js`, in its order),
 * read from that run's output; 0 where the run's total is the sum.
 */
function keptGaps(base: RawDpe): { mur: number; pont_thermique: number } {
  let out = gaps.get(base);
  if (!out) {
    const dep = base.logement?.sortie?.deperdition as Fields | undefined;
    const walls = envelopeList(base, 'mur');
    const bridges = envelopeList(base, 'pont_thermique');
    const n = (v: unknown) => Number(v);
    const wallSum = walls.reduce(
      (acc, m) =>
        acc +
          n(m.donnee_entree?.surface_paroi_opaque) *
            n(m.donnee_intermediaire?.umur) *
            n(m.donnee_intermediaire?.b) || 0,
      0,
    );
    const bridgeSum = bridges.reduce(
      (acc, pt) =>
        acc +
          n(pt.donnee_entree?.l) *
            n(pt.donnee_intermediaire?.k) *
            (n(pt.donnee_entree?.pourcentage_valeur_pont_thermique) || 1) || 0,
      0,
    );
    const gap = (total: unknown, sum: number) => {
      const g = n(total) - sum;
      return Number.isFinite(g) ? g : 0;
    };
    out = {
      mur: gap(dep?.deperdition_mur, wallSum),
      pont_thermique: gap(dep?.deperdition_pont_thermique, bridgeSum),
    };
    gaps.set(base, out);
  }
  return out;
}
const gaps = new WeakMap<RawDpe, { mur: number; pont_thermique: number }>();

/**
 * Where the engine kept a declared total of wall (thermal-bridge) losses that is not the sum of
 * the DPE's elements, the works copy asks the total computed from its changed elements to keep
 * that difference (the correction `deperdition-ecart-declare`, src/engine/corrections.ts):
 * otherwise the whole difference goes to the first works that touch a wall or a bridge (on
 * 2221E0006033X the bridges' declared 20.1 W/K against their sum of 79.1: any works on a wall
 * added 59 W/K of losses). `base` is the engine's output for the DPE as it is.
 */
export function keepDeclaredGaps(base: RawDpe, dpe: RawDpe): void {
  const g = keptGaps(base);
  const lg = dpe.logement;
  if ((g.mur === 0 && g.pont_thermique === 0) || !lg) return;
  // (own objects: the works copy shares the original's `sortie`, frozen)
  const sortie: RawSortie = { ...lg.sortie };
  sortie.deperdition = {
    ...(sortie.deperdition as Fields | undefined),
    ...(g.mur !== 0 ? { ecart_total_declare_mur: g.mur } : {}),
    ...(g.pont_thermique !== 0 ? { ecart_total_declare_pont_thermique: g.pont_thermique } : {}),
  };
  lg.sortie = sortie;
}
