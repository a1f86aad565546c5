/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimSanitizerModule|__dpeSimMemoMur|__dpeSimMemoPh|__dpeSimMemoBv|__dpeSimMemoPorte|__dpeSimEachBridge)$" }] */
/**
 * Appended to `3_deperdition.js` (marker `__dpeSimElementMemo`): `calc_deperdition` with the
 * element memo (its kit is in sanitizer.js, reached through the sanitizer module's namespace):
 * the anchors send the walls, roofs, windows, doors and thermal bridges of the works copy's
 * collections through the kit's `each`, and the bridges through `__dpeSimEachBridge` below.
 *
 * A thermal bridge also reads the walls, floors, windows and doors it joins and writes their
 * `donnee_utilisateur`. `tv_k` finds them by reference: the first wall whose reference is the
 * bridge's `reference_1` or `reference_2` (cleaned: case, accents and spaces ignored) or, in
 * bug-for-bug mode, whose position is the `reference_paroi` of the first window whose reference
 * is `reference_1`; the first such roof or floor, window or door. So a bridge's key adds, in this
 * run: the position and frozen source of every element under either reference, and the position
 * of that first window with its `reference_paroi` (and the wall there). Those answer every search
 * the same way and give the same elements to read; a bridge one of whose elements the run changed
 * (not a frozen one's copy), or without `reference_1` (found by its description), is computed.
 * The writes into those elements' `donnee_utilisateur` are logged as made (a Proxy during the
 * recorded call) and made again; a write into any other element and nothing is kept.
 */
import { cleanReference as __dpeSimCleanRef } from './utils.js';
import * as __dpeSimSanitizerModule from './dpe-sanitizer.service.js';
const __dpeSimMemoMur = new WeakMap();
const __dpeSimMemoPh = new WeakMap();
const __dpeSimMemoBv = new WeakMap();
const __dpeSimMemoPorte = new WeakMap();
const __dpeSimMemoPt = new WeakMap();
const __dpeSimKinds = ['mur', 'plancher_bas', 'plancher_haut', 'baie_vitree', 'porte'];
/**
 * Each cleaned reference's [kind, index, …] from refs (per kind: its list's length, then its
 * elements' cleaned references): the same Map as the last run's when refs are the same (works
 * runs on one DPE keep every reference in place), not built again at every run.
 */
let __dpeSimLastRefs = null;
let __dpeSimLastByRef = null;
function __dpeSimByRef(refs) {
  const last = __dpeSimLastRefs;
  if (last !== null && last.length === refs.length) {
    let same = true;
    for (let j = 0; same && j < refs.length; j++) same = refs[j] === last[j];
    if (same) return __dpeSimLastByRef;
  }
  const byRef = new Map();
  let j = 0;
  for (const kind of __dpeSimKinds) {
    const n = refs[j++];
    for (let i = 0; i < n; i++) {
      const r = refs[j++];
      const at = byRef.get(r);
      if (at === undefined) byRef.set(r, [kind, i]);
      else at.push(kind, i);
    }
  }
  __dpeSimLastRefs = refs;
  __dpeSimLastByRef = byRef;
  return byRef;
}
/** the run's lists, their frozen sources, and each cleaned reference's [kind, index, …] */
function __dpeSimBridgeRun(kit, logement, pcKey) {
  const env = logement.enveloppe;
  if (env === null || typeof env !== 'object' || pcKey === undefined) return null;
  const lists = {};
  const sources = {};
  const watched = [];
  // each list's length, then its elements' cleaned references
  const refs = [];
  for (const kind of __dpeSimKinds) {
    const list = env[kind + '_collection']?.[kind] || [];
    if (!Array.isArray(list)) return null;
    lists[kind] = list;
    const src = kit.sources(list);
    sources[kind] = src !== undefined && src.length === list.length ? src : null;
    refs.push(list.length);
    for (let i = 0; i < list.length; i++) {
      const el = list[i];
      const de = el !== null && typeof el === 'object' ? el.donnee_entree : undefined;
      if (de === null || typeof de !== 'object') return null;
      watched.push(el);
      refs.push(__dpeSimCleanRef(de.reference));
    }
  }
  const byRef = __dpeSimByRef(refs);
  let firstBv;
  return {
    kit,
    lists,
    sources,
    byRef,
    watched,
    pcKey,
    /** the index of the first window whose reference is ref (as tv_k compares them), or -1 */
    firstBv(ref) {
      if (firstBv === undefined) {
        firstBv = new Map();
        lists.baie_vitree.forEach((bv, i) => {
          const r = bv.donnee_entree.reference;
          if (!firstBv.has(r)) firstBv.set(r, i);
        });
      }
      const i = firstBv.get(ref);
      return i === undefined ? -1 : i;
    },
  };
}
/**
 * A bridge's key in this run (the elements tv_k can find, by position and frozen source), with
 * those elements as [kind, index, element]; undefined when one of them is not a frozen one's copy.
 */
const __dpeSimBridgePlans = new WeakMap();
/** pushes [kind, i, element] onto others and gives its frozen source's id, or -1 */
function __dpeSimBridgeDep(run, kind, i, others) {
  const src = run.sources[kind]?.[i];
  if (src === null || typeof src !== 'object' || !Object.isFrozen(src)) return -1;
  const el = run.lists[kind][i];
  if (!others.some((o) => o[2] === el)) others.push([kind, i, el]);
  return run.kit.sourceId(src);
}
function __dpeSimBridgeKey(run, src, de, others) {
  let plan = __dpeSimBridgePlans.get(src);
  if (plan === undefined || plan.r1 !== de.reference_1 || plan.r2 !== de.reference_2) {
    const c1 = __dpeSimCleanRef(de.reference_1);
    const c2 = __dpeSimCleanRef(de.reference_2);
    plan = {
      r1: de.reference_1,
      r2: de.reference_2,
      c1,
      c2: c2 === c1 ? undefined : c2,
      only1: c2 === c1,
      recent: [],
      next: 0,
    };
    __dpeSimBridgePlans.set(src, plan);
  }
  // [kind, index, source id] of each element under the references, then 'bv', window, paroi
  // (and the wall's source id)
  const parts = [];
  const refs1 = run.byRef.get(plan.c1);
  if (refs1 !== undefined)
    for (let k = 0; k < refs1.length; k += 2) {
      const id = __dpeSimBridgeDep(run, refs1[k], refs1[k + 1], others);
      if (id < 0) return undefined;
      parts.push(refs1[k], refs1[k + 1], id);
    }
  const refs2 = plan.only1 ? undefined : run.byRef.get(plan.c2);
  if (refs2 !== undefined)
    for (let k = 0; k < refs2.length; k += 2) {
      const id = __dpeSimBridgeDep(run, refs2[k], refs2[k + 1], others);
      if (id < 0) return undefined;
      parts.push(refs2[k], refs2[k + 1], id);
    }
  // bug-for-bug: the wall at the reference_paroi of the first window under reference_1
  const b = run.firstBv(de.reference_1);
  if (b >= 0) {
    const paroi = Number(run.lists.baie_vitree[b].donnee_entree.reference_paroi);
    parts.push('bv', b, paroi);
    if (Number.isInteger(paroi) && paroi >= 0 && paroi < run.lists.mur.length) {
      const id = __dpeSimBridgeDep(run, 'mur', paroi, others);
      if (id < 0) return undefined;
      parts.push(id);
    }
  }
  return __dpeSimBridgeKeyText(plan, run.pcKey, parts);
}
/**
 * The key's text: the same string as one of the bridge's last keys when its parts are the same
 * (a Map then finds it by its hash, kept with the string, instead of hashing a new text again)
 */
function __dpeSimBridgeKeyText(plan, pcKey, parts) {
  const recent = plan.recent;
  search: for (let r = 0; r < recent.length; r++) {
    const known = recent[r];
    if (known.pcKey !== pcKey || known.parts.length !== parts.length) continue;
    for (let j = 0; j < parts.length; j++)
      if (!Object.is(known.parts[j], parts[j])) continue search;
    return known.key;
  }
  let key = pcKey;
  for (let j = 0; j < parts.length;) {
    if (parts[j] === 'bv') {
      key += 'bv' + parts[j + 1] + '>' + parts[j + 2] + ';';
      if (j + 3 < parts.length) key += '=' + parts[j + 3] + ';';
      break;
    }
    key += parts[j] + parts[j + 1] + '=' + parts[j + 2] + ';';
    j += 3;
  }
  recent[plan.next] = { pcKey, parts, key };
  plan.next = (plan.next + 1) % 8;
  return key;
}
function __dpeSimEachBridge(kit, pts, logement, pcKey, calc) {
  const sources = kit.sources(pts);
  const run =
    sources === undefined || sources.length !== pts.length
      ? null
      : __dpeSimBridgeRun(kit, logement, pcKey);
  if (run === null) return pts.forEach((pt) => calc(pt));
  for (let i = 0; i < pts.length; i++) {
    if (!(i in pts)) continue;
    const pt = pts[i];
    const src = sources[i];
    const de = pt !== null && typeof pt === 'object' ? pt.donnee_entree : undefined;
    if (
      src === null ||
      typeof src !== 'object' ||
      !Object.isFrozen(src) ||
      de === null ||
      typeof de !== 'object' ||
      !de.reference_1
    ) {
      calc(pt);
      continue;
    }
    const others = [];
    const key = __dpeSimBridgeKey(run, src, de, others);
    if (key === undefined) calc(pt);
    else kit.call(__dpeSimMemoPt, src, key, calc, pt, others, run.lists, run.watched);
  }
}
export const __dpeSimElementMemo = true;
