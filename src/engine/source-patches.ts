/**
 * Memoisation patches applied to the engine's own modules as they load (a module-load hook, see
 * engine.ts). Each patch caches a pure function of its arguments over the engine's constant
 * tables; results are the very values the unpatched code computes (checked on the whole corpus
 * by test/engine.test.ts and the figures snapshot). A patch whose source text is not found (an
 * engine other than the pinned version) leaves the module as it is, and the module then lacks
 * its `__dpeSim…` marker export, which `loadEngine` reports as `tableMemo: false`.
 *
 * Measured on the largest corpus DPE (2535E0426429Q, 62 windows, `initial`: 464 engine runs),
 * before these patches: the Ug-values scan of `tv_uw` was 1.5 s of 5.8 s of engine time and
 * `cleanReference` (thermal bridges matching walls and windows by reference) 0.35 s.
 */
import { CORRECTIONS, correctionPatch, type SourcePatch } from './corrections.js';

export type { SourcePatch };

/**
 * `utils.js`: `tv(table, matcher)` scans every row of a table and matches each criterion with a
 * regular expression (or `eval`) on every call: about 40% of a run. The module's exported
 * function declarations are rebound (importers see the new binding) to memoised wrappers that
 * return what the scan returns (the same row object). `cleanReference` (lower case, accents and
 * spaces removed) runs twice per wall × thermal bridge pair; its cache is cleared past 20,000
 * strings so that a long batch stays bounded. `tvColumnIDs(table, field)` (the distinct ids of a
 * column) is computed once per pair; each call gets its own copy.
 */
const UTILS_SNIPPET = `
;{
  const scan = tv;
  // a trie: table, then per criterion (in the matcher's order) its name and its value (strings
  // and numbers as themselves, other values as type and text): no key text is built per call
  const node = () => ({ keys: new Map(), done: false, row: undefined });
  const tables = new Map();
  tv = function tv(filePath, matcher) {
    const table = String(filePath);
    let at = tables.get(table);
    if (at === undefined) {
      at = node();
      tables.set(table, at);
    }
    for (const k in matcher) {
      const v = matcher[k];
      let values = at.keys.get(k);
      if (values === undefined) {
        values = { s: new Map(), n: new Map(), o: new Map() };
        at.keys.set(k, values);
      }
      let map, key;
      if (typeof v === 'string') {
        map = values.s;
        key = v;
      } else if (typeof v === 'number') {
        map = values.n;
        key = v;
      } else {
        map = values.o;
        key = typeof v + '\\u0002' + String(v);
      }
      let next = map.get(key);
      if (next === undefined) {
        next = node();
        map.set(key, next);
      }
      at = next;
    }
    if (at.done) return at.row;
    const row = scan(filePath, matcher);
    at.done = true;
    at.row = row;
    return row;
  };
}
;{
  const clean = cleanReference;
  const memo = new Map();
  cleanReference = function cleanReference(reference) {
    if (typeof reference !== 'string') return clean(reference);
    let v = memo.get(reference);
    if (v === undefined) {
      if (memo.size >= 20000) memo.clear();
      v = clean(reference);
      memo.set(reference, v);
    }
    return v;
  };
}
;{
  const columnIds = tvColumnIDs;
  const memo = new Map();
  tvColumnIDs = function tvColumnIDs(filePath, field) {
    const key = String(filePath) + '\\u0001' + String(field);
    let ids = memo.get(key);
    if (ids === undefined) {
      ids = columnIds(filePath, field);
      memo.set(key, ids);
    }
    return ids.slice();
  };
}
export const __dpeSimTvMemo = true;
`;

/**
 * `3.3_baie_vitree.js`, `tv_uw`: for every window, the Ug values of the Uw table for its type and
 * frame material are found by splitting and scanning every row of the table. The list depends on
 * those two ids only: it is computed once per pair and each call gets its own copy (the engine's
 * `getRange` sorts it in place).
 */
const UG_VALUES_FROM = 'const ugValues = tvs.uw';
const UG_VALUES_TO =
  'const ugValues = __dpeSimUgValues(enum_type_baie_id, enum_type_materiaux_menuiserie_id, () => tvs.uw';
const UG_VALUES_END_FROM = '.map((row) => parseFloat(row.ug));';
const UG_VALUES_END_TO = '.map((row) => parseFloat(row.ug)));';
const BAIE_SNIPPET = `
const __dpeSimUgMemo = new Map();
function __dpeSimUgValues(baie, materiau, compute) {
  const key = typeof baie + '\\u0002' + String(baie) + '\\u0001' + typeof materiau + '\\u0002' + String(materiau);
  let values = __dpeSimUgMemo.get(key);
  if (values === undefined) {
    // sorted once as getRange sorts it (default sort, stable): its own sort then finds it in order
    values = compute().sort();
    __dpeSimUgMemo.set(key, values);
  }
  return values.slice();
}
export const __dpeSimUgMemoOn = true;
`;

/**
 * `utils.js`, more of the same (measured on 2535E0426429Q, 2287E0793758O, 2206E1133029I and
 * 2374E2700849T, `initial`: about 4,000 engine runs):
 * - `requestInputID` / `requestInput` write the list of an enum's ids (`Object.keys` of its table,
 *   ~100 strings for some) into the element's `donnee_utilisateur` on every call, ~5% of a run:
 *   the list is built once per enum and the same array is written (nothing reads or changes it).
 * - `tvColumnLines(table, column, matcher)` scans and matches every row of the boiler table on
 *   each generator and each run (`criterePn`), ~4% of a run: its result is kept per table object
 *   (a table swapped for another is another key), column, matcher and matching mode; each call
 *   gets its own copy.
 */
const ENUM_NAME_ID_FROM =
  'export function requestInputID(de, du, field, type) {\n  // enums\n  const enum_name = `enum_${field}_id`;';
const ENUM_NAME_ID_TO =
  'export function requestInputID(de, du, field, type) {\n  // enums\n  const enum_name = __dpeSimEnumName(field);';
const ENUM_NAME_FROM = '    // enums\n    const enum_name = `enum_${field}_id`;';
const ENUM_NAME_TO = '    // enums\n    const enum_name = __dpeSimEnumName(field);';
const ENUM_IDS_FROM_ID =
  '\n  else du[enum_name] = Object.keys(enums[field]);\n  return de[enum_name];';
const ENUM_IDS_TO_ID = '\n  else du[enum_name] = __dpeSimEnumIds(field);\n  return de[enum_name];';
const ENUM_IDS_FROM =
  '    else du[enum_name] = Object.keys(enums[field]);\n    return enums[field][de[enum_name]];';
const ENUM_IDS_TO =
  '    else du[enum_name] = __dpeSimEnumIds(field);\n    return enums[field][de[enum_name]];';
const UTILS_MORE_SNIPPET = `
const __dpeSimEnumNames = new Map();
/** \`enum_\${field}_id\`, the same text for a field (its hash known) */
function __dpeSimEnumName(field) {
  let name = __dpeSimEnumNames.get(field);
  if (name === undefined) {
    name = \`enum_\${field}_id\`;
    if (typeof field === 'string') __dpeSimEnumNames.set(field, name);
  }
  return name;
}
const __dpeSimEnumIdsMemo = new Map();
function __dpeSimEnumIds(field) {
  let ids = __dpeSimEnumIdsMemo.get(field);
  if (ids === undefined) {
    ids = Object.keys(enums[field]);
    __dpeSimEnumIdsMemo.set(field, ids);
    // one array for every caller: the element memo's replays refer to it (source-patches.ts)
    (globalThis[Symbol.for('dpe-sim.shared-values')] ??= new WeakSet()).add(ids);
  }
  return ids;
}
;{
  const scanLines = tvColumnLines;
  const memo = new WeakMap();
  tvColumnLines = function tvColumnLines(filePath, column, matcher) {
    const list = tvs[filePath];
    if (list === null || typeof list !== 'object') return scanLines(filePath, column, matcher);
    let key = String(tv_match_new_version) + '\\u0001' + typeof column + '\\u0002' + String(column);
    for (const k in matcher) {
      const v = matcher[k];
      key += '\\u0001' + k + '\\u0002' + typeof v + '\\u0002' + String(v);
    }
    let byKey = memo.get(list);
    if (byKey === undefined) {
      byKey = new Map();
      memo.set(list, byKey);
    }
    let lines = byKey.get(key);
    if (lines === undefined) {
      if (byKey.size >= 20000) byKey.clear();
      lines = scanLines(filePath, column, matcher);
      byKey.set(key, lines);
    }
    return lines.slice();
  };
}
export const __dpeSimEnumIdsOn = true;
`;

/**
 * `3.1_b.js`, `b()` (the reduction coefficient of every wall, floor, ceiling, window and door):
 * - its first line writes the list of adjacency ids into `donnee_utilisateur`, which
 *   `requestInputID` overwrites on the next line with the same list: the first write goes;
 * - for an unheated space, the bounds of the Aiu/Aue ratio are written with
 *   `toLocaleString(undefined, {2 digits})` (an Intl formatter built on each call: most of b's own
 *   time): the text of each bound (one of findRanges's 15 numbers) is kept per number.
 */
const B_ADJACENCE_FROM = '  du.enum_type_adjacence_id = Object.keys(enums.type_adjacence);\n';
const B_BOUND_FORMATS: [string, string][] = [
  [
    "'≤ ' +\n              ranges[0]\n                .toLocaleString(undefined, {",
    "'≤ ' +\n              __dpeSimBound(ranges[0], {",
  ],
  [
    'matcher.aiu_aue_min =\n              ranges[0]\n                .toLocaleString(undefined, {',
    'matcher.aiu_aue_min =\n              __dpeSimBound(ranges[0], {',
  ],
  [
    "'≤ ' +\n            ranges[1]\n              .toLocaleString(undefined, {",
    "'≤ ' +\n            __dpeSimBound(ranges[1], {",
  ],
];
const B_SNIPPET = `
const __dpeSimBoundMemo = new Map();
/** x.toLocaleString(undefined, options), the options being the same at every call site */
function __dpeSimBound(x, options) {
  if (typeof x !== 'number' || Object.is(x, -0)) return x.toLocaleString(undefined, options);
  let text = __dpeSimBoundMemo.get(x);
  if (text === undefined) {
    if (__dpeSimBoundMemo.size >= 1000) __dpeSimBoundMemo.clear();
    text = x.toLocaleString(undefined, options);
    __dpeSimBoundMemo.set(x, text);
  }
  return text;
}
export const __dpeSimBAdjacence = true;
`;

/**
 * `3.4_pont_thermique.js`, `tv_k`: finding the wall of a thermal bridge, bug-for-bug mode looks,
 * for every wall that does not match, for the window whose reference is the bridge's first one
 * (walls × windows per bridge: 28 dwellings' bridges on 62 windows): the window is the same for
 * every wall of that search, so it is looked for once per search.
 */
const PT_WALL_SEARCH_FROM = '  let mur = mur_list.find((mur, murIndex) => {';
const PT_WALL_SEARCH_TO =
  '  let __dpeSimBvPtKnown = false;\n  let __dpeSimBvPt;\n  let mur = mur_list.find((mur, murIndex) => {';
const PT_WINDOW_FROM =
  '      const bvPt = bv_list.find((bv) => bv.donnee_entree.reference === de.reference_1);';
const PT_WINDOW_TO =
  '      const bvPt = __dpeSimBvPtKnown\n        ? __dpeSimBvPt\n        : ((__dpeSimBvPtKnown = true),\n          (__dpeSimBvPt = bv_list.find((bv) => bv.donnee_entree.reference === de.reference_1)));';
/**
 * The same searches (the bridge's wall, floor, window or door) compare each element's reference
 * with the bridge's two, each side cleaned (`compareReferences`) at every comparison: the
 * element's reference is cleaned once per element and the bridge's two once per bridge (kept
 * while the bridge and its two references are the ones of the last call; the second only when
 * needed, as before).
 */
const PT_REF_MUR_FROM =
  '      compareReferences(mur.donnee_entree.reference, de.reference_1) ||\n      compareReferences(mur.donnee_entree.reference, de.reference_2)';
const PT_REF_MUR_TO = '      __dpeSimRefOf(mur.donnee_entree.reference, de)';
const PT_REF_PLANCHER_FROM =
  '          compareReferences(plancher.donnee_entree.reference, de.reference_1) ||\n          compareReferences(plancher.donnee_entree.reference, de.reference_2)';
const PT_REF_PLANCHER_TO = '          __dpeSimRefOf(plancher.donnee_entree.reference, de)';
const PT_REF_MEN_FROM =
  '          compareReferences(men.donnee_entree.reference, de.reference_1) ||\n          compareReferences(men.donnee_entree.reference, de.reference_2)';
const PT_REF_MEN_TO = '          __dpeSimRefOf(men.donnee_entree.reference, de)';
const PT_SNIPPET = `
import { cleanReference as __dpeSimClean } from './utils.js';
let __dpeSimRefDe;
let __dpeSimRefRaw1;
let __dpeSimRefRaw2;
let __dpeSimRef1;
let __dpeSimRef2;
let __dpeSimRef2Known = false;
/** compareReferences(reference, de.reference_1) || compareReferences(reference, de.reference_2) */
function __dpeSimRefOf(reference, de) {
  if (de !== __dpeSimRefDe || de.reference_1 !== __dpeSimRefRaw1 || de.reference_2 !== __dpeSimRefRaw2) {
    __dpeSimRefDe = de;
    __dpeSimRefRaw1 = de.reference_1;
    __dpeSimRefRaw2 = de.reference_2;
    __dpeSimRef1 = __dpeSimClean(__dpeSimRefRaw1);
    __dpeSimRef2Known = false;
  }
  const r = __dpeSimClean(reference);
  if (r === __dpeSimRef1) return true;
  if (!__dpeSimRef2Known) {
    __dpeSimRef2 = __dpeSimClean(__dpeSimRefRaw2);
    __dpeSimRef2Known = true;
  }
  return r === __dpeSimRef2;
}
export const __dpeSimBvPtOnce = true;
`;

/**
 * `3_deperdition.js`, `calc_deperdition`: the walls and the thermal bridges are copied whole
 * (\`structuredClone\`) before they are computed, to compare the declared totals with the computed
 * ones; that comparison reads three fields of a wall (surface_paroi_opaque, umur, b) and one of a
 * bridge (k): only those are copied, each element and each of its two parts kept as it is when
 * absent (the reads then fail or give undefined as they did). A value that is not an object is
 * its own copy (\`structuredClone\` gives it back): the native call is left for objects.
 */
const DECLARED_MURS_FROM = '  const declaredMurs = structuredClone(mur_list);';
const DECLARED_MURS_TO = '  const declaredMurs = __dpeSimDeclaredMurs(mur_list);';
const DECLARED_PT_FROM = '  const declaredPontsThermiques = structuredClone(pt_list);';
const DECLARED_PT_TO = '  const declaredPontsThermiques = __dpeSimDeclaredPts(pt_list);';
const DEPERDITION_SNIPPET = `
/** structuredClone(v); a primitive is its own copy (the native call costs a microsecond) */
function __dpeSimClone(v) {
  return (v !== null && typeof v === 'object') || typeof v === 'function' || typeof v === 'symbol'
    ? structuredClone(v)
    : v;
}
function __dpeSimDeclaredMurs(list) {
  return list.map((mur) => {
    if (mur === null || typeof mur !== 'object') return __dpeSimClone(mur);
    const de = mur.donnee_entree;
    const di = mur.donnee_intermediaire;
    return {
      donnee_entree:
        de === null || typeof de !== 'object'
          ? __dpeSimClone(de)
          : { surface_paroi_opaque: __dpeSimClone(de.surface_paroi_opaque) },
      donnee_intermediaire:
        di === null || typeof di !== 'object'
          ? __dpeSimClone(di)
          : { umur: __dpeSimClone(di.umur), b: __dpeSimClone(di.b) }
    };
  });
}
function __dpeSimDeclaredPts(list) {
  return list.map((pt) => {
    if (pt === null || typeof pt !== 'object') return __dpeSimClone(pt);
    const di = pt.donnee_intermediaire;
    return {
      donnee_intermediaire:
        di === null || typeof di !== 'object' ? __dpeSimClone(di) : { k: __dpeSimClone(di.k) }
    };
  });
}
export const __dpeSimDeclaredCopies = true;
`;

/**
 * `6.2_surface_sud_equivalente.js`, \`getSsd\` (each window, each month, several times a run):
 * the table key "orientation inclinaison" is written once per pair of labels and the same text
 * used again (its hash is then known).
 */
const SSD_KEY_FROM = '  let oi = `${orientation} ${inclinaison}`;';
const SSD_KEY_TO = '  let oi = __dpeSimOi(orientation, inclinaison);';
const SSD_SNIPPET = `
const __dpeSimOiMemo = new Map();
function __dpeSimOi(orientation, inclinaison) {
  let byInclinaison = __dpeSimOiMemo.get(orientation);
  if (byInclinaison === undefined) {
    byInclinaison = new Map();
    __dpeSimOiMemo.set(orientation, byInclinaison);
  }
  let oi = byInclinaison.get(inclinaison);
  if (oi === undefined) {
    oi = \`\${orientation} \${inclinaison}\`;
    byInclinaison.set(inclinaison, oi);
  }
  return oi;
}
export const __dpeSimOiOn = true;
`;

/**
 * `3.3_baie_vitree.js`, `tv_uw`: `getRange(ug, ugValues)` sorts the Ug values (a default sort:
 * as text) on every window of every run, ~2% of a run; the two Ug values found depend on the
 * window's type, frame material and Ug only: kept per triple (a Ug other than a number or
 * undefined is not kept).
 */
const UG_RANGE_FROM = '[ug1, ug2] = getRange(di.ug, ugValues);';
const UG_RANGE_TO =
  '[ug1, ug2] = __dpeSimUgRange(enum_type_baie_id, enum_type_materiaux_menuiserie_id, di.ug, ugValues);';
const UG_RANGE_SNIPPET = `
const __dpeSimUgRangeMemo = new Map();
function __dpeSimUgRange(baie, materiau, ug, values) {
  if (ug !== undefined && typeof ug !== 'number') return getRange(ug, values);
  const key = typeof baie + '\\u0002' + String(baie) + '\\u0001' + typeof materiau + '\\u0002' + String(materiau) + '\\u0001' + (Object.is(ug, -0) ? '-0' : String(ug));
  let range = __dpeSimUgRangeMemo.get(key);
  if (range === undefined) {
    if (__dpeSimUgRangeMemo.size >= 20000) __dpeSimUgRangeMemo.clear();
    range = getRange(ug, values);
    __dpeSimUgRangeMemo.set(key, range);
  }
  // read by a destructuring only
  return range;
}
export const __dpeSimUgRangeOn = true;
`;

/**
 * `9_generateur_ch.js` and `14_generateur_ecs.js`: a generator for heating and hot water
 * ("chauffage + ecs") lists the generator types common to both enums (each type's label looked
 * for among the other enum's ~130 labels, `Object.values` built for each: 4% of a run on
 * buildings with such generators): the list depends on the enums only and is built once.
 */
const GEN_CH_LIST_FROM =
  '    const generateurs_ch_ecs = Object.keys(generateur_ch).reduce((acc, key) => {';
const GEN_CH_LIST_TO =
  '    const generateurs_ch_ecs = __dpeSimChEcs ??= Object.keys(generateur_ch).reduce((acc, key) => {';
const GEN_CH_IDS_FROM =
  "    type_generateur = requestInputID(de, du, 'type_generateur_ch', Object.keys(generateurs_ch_ecs));";
const GEN_CH_IDS_TO =
  "    type_generateur = requestInputID(de, du, 'type_generateur_ch', __dpeSimChEcsIds ??= Object.keys(generateurs_ch_ecs));";
const GEN_CH_SNIPPET = `
let __dpeSimChEcs;
let __dpeSimChEcsIds;
`;
const GEN_ECS_LIST_FROM =
  '    const generateurs_ch_ecs = Object.keys(generateur_ecs).reduce((acc, key) => {';
const GEN_ECS_LIST_TO =
  '    const generateurs_ch_ecs = __dpeSimEcsCh ??= Object.keys(generateur_ecs).reduce((acc, key) => {';
const GEN_ECS_IDS_FROM = "      'type_generateur_ecs',\n      Object.keys(generateurs_ch_ecs)\n";
const GEN_ECS_IDS_TO =
  "      'type_generateur_ecs',\n      __dpeSimEcsChIds ??= Object.keys(generateurs_ch_ecs)\n";
const GEN_ECS_SNIPPET = `
let __dpeSimEcsCh;
let __dpeSimEcsChIds;
`;

/**
 * `engine.js`, `calcul_3cl`: for each window that does not say whether it has joints, the DPE's
 * technical sheets are searched (category 4, "joint", the window's four labels), each sheet's
 * text lowered on each search: 3% of a run on 2535E0426429Q's 62 windows. Within one run (the
 * same document, whose sheets nothing writes) the answer for the same four labels is the same
 * sheet: kept for the run.
 */
const JOINT_LOOP_FROM =
  '  bv_list.forEach((baieVitree) => {\n    const donneeEntree = baieVitree.donnee_entree;\n';
const JOINT_LOOP_TO =
  '  const __dpeSimJointSheets = new Map();\n  bv_list.forEach((baieVitree) => {\n    const donneeEntree = baieVitree.donnee_entree;\n';
const JOINT_SHEET_FROM = "      const ficheTechnique = getFicheTechnique(dpe, '4', 'joint', [";
const JOINT_SHEET_TO =
  '      const ficheTechnique = __dpeSimJointSheet(__dpeSimJointSheets, dpe, [';
const JOINT_SNIPPET = `
/** getFicheTechnique(dpe, '4', 'joint', labels), kept in memo (one run) per labels */
function __dpeSimJointSheet(memo, dpe, labels) {
  if (!labels.every((l) => l === undefined || typeof l === 'string'))
    return getFicheTechnique(dpe, '4', 'joint', labels);
  const key = labels.map((l) => (l === undefined ? '\\u0000' : '\\u0001' + l)).join('\\u0002');
  if (memo.has(key)) return memo.get(key);
  const sheet = getFicheTechnique(dpe, '4', 'joint', labels);
  memo.set(key, sheet);
  return sheet;
}
export const __dpeSimJointSheetOn = true;
`;

/**
 * `dpe-sanitizer.service.js`, `execute` (every run, on the whole input): the engine's
 * `ObjectUtil.deepObjectTransform(dpe, key => key, valueFn)` copies the document through `reduce`
 * and two closures per object, the value function calling three private methods and
 * `Number(val)` twice per value (0.42 s of 1.93 s of engine time on `initial 2535E0426429Q`).
 * The same walk with plain loops, step for step: an array is mapped, its elements recursed (not
 * passed to the value function); an object becomes a new `{}` given, in `Object.keys` order, each
 * value as the value function makes it (an object that is not an array under one of `nodesToMap`
 * → `[val]`; an `enum_…`/`original_enum…` key → `val?.toString()`; `''` and `null` → `''`; an empty
 * array as it is; else `Number(val)` unless NaN: booleans and one-element arrays too), recursed
 * when it is a non-null object; anything else is returned as it is. `Number(val)` is called once
 * (the engine calls it twice: the same value for data, whose conversion has no side effect).
 * The collections `execute` creates on its input when missing are still created (unchanged).
 * test/sanitizer.test.ts compares it with the engine's own `execute` on fixtures and corpus DPEs.
 */
const SANITIZE_FROM = `    return ObjectUtil.deepObjectTransform(
      dpe,
      (key) => key,
      (val, key) => {
        if (this.#needTransform(key, val)) {
          return [val];
        }

        if (this.#isEnum(key)) {
          return val?.toString();
        }

        if (this.#isUndefinedVal(val)) {
          return '';
        }

        if (this.#isEmptyArray(val)) {
          return val;
        }

        if (Number.isNaN(Number(val))) {
          return val;
        }
        return Number(val);
      }
    );`;
const SANITIZE_TO = '    return __dpeSimSanitize(dpe);';
/**
 * The walk of `__dpeSimSanitize` as JavaScript text, named `name`, recursing through `recurse`
 * (objects) and `item` (an array's elements, map's index and array not passed on).
 */
function sanitizeWalk(name: string, recurse: string, item: string, arrays: string): string {
  return `
function ${name}(obj) {
  if (Array.isArray(obj)) return ${arrays}(obj, obj.map(${item}));
  if (typeof obj !== 'object') return obj;
  const keys = Object.keys(obj);
  const acc = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    let val = obj[key];
    if (typeof val === 'string') {
      // an enum's text is its own toString(), '' stays '': else Number(val) unless NaN
      if (val !== '' && !__dpeSimIsEnum(key)) {
        const n = Number(val);
        if (n === n) val = n;
      }
      acc[key] = val;
      continue;
    }
    if (typeof val === 'number') {
      // Number(val) is val (NaN kept as it is)
      acc[key] = __dpeSimIsEnum(key) ? val.toString() : val;
      continue;
    }
    if (typeof val === 'object' && !Array.isArray(val) && nodesToMap.includes(key)) val = [val];
    else if (__dpeSimIsEnum(key)) val = val?.toString();
    else if (val === '' || val === null) val = '';
    else if (!(Array.isArray(val) && val.length === 0)) {
      const n = Number(val);
      if (!Number.isNaN(n)) val = n;
    }
    acc[key] = val !== null && typeof val === 'object' ? ${recurse}(val) : val;
  }
  return acc;
}
function ${item}(val) {
  return ${recurse}(val);
}
`;
}

/**
 * The element memo: the envelope elements a works copy shares with the original (deep-frozen,
 * src/works/works-copy.ts) reach the engine as the sanitizer's copies of the same frozen objects
 * at every run, so `calc_mur`, `calc_ph`, `calc_bv`, `calc_porte` and `calc_pont_thermique` give
 * them the same values at every run with the same arguments: 25% of the engine's time on the
 * 28-flat 2535E0426429Q (62 windows, 75 thermal bridges) went to computing them again.
 *
 * A copy's state when the function is called is a function of its frozen source (the sanitizer's
 * copy), of what `calcul_3cl` writes into elements before `calc_deperdition` (`add_references`:
 * `reference`; the joint loop: a window's `presence_joint`, both in the key) and nothing else.
 * The second time a (source, key) pair is met, the call is made while recording: every object
 * of the element before the call (keys and values), the console calls made, the return value;
 * after it, the changes (keys set, replaced or deleted, in the order the function left them) are
 * written as the statements of one function, compiled once (`new Function`, values as literals,
 * new objects each time). Later calls with that pair run those statements on the new copy and
 * make the same console calls. Anything the statements cannot say exactly (a change inside an
 * array, an object shared between places or with the element's earlier state, a `__proto__`
 * key, an object returned, a console argument that is not a primitive, keys left in another
 * order) is not kept: the function is called each time, as before. A thermal bridge also reads
 * the walls, floors, windows and doors it joins (found by reference) and writes their
 * `donnee_utilisateur`: its key adds those elements' positions and frozen sources (a bridge one
 * of whose elements the run changed is computed; see ELEMENT_MEMO_SNIPPET); writes anywhere else
 * and the pair is not kept. `bug_for_bug_compat` is not in the keys: engine.ts sets it once
 * when the engine loads, before any run.
 */
const ELEMENT_MEMO_KIT = `
/** the sanitizer's copy of an array holding frozen elements → that array (the same indexes) */
const __dpeSimListSources = new WeakMap();
const __dpeSimSourceIds = new WeakMap();
let __dpeSimNextId = 1;
function __dpeSimSourceId(src) {
  let id = __dpeSimSourceIds.get(src);
  if (id === undefined) {
    id = __dpeSimNextId++;
    __dpeSimSourceIds.set(src, id);
  }
  return id;
}
/** a primitive as key text (type and value: 1 and '1' differ) */
function __dpeSimKeyPart(v) {
  switch (typeof v) {
    case 'string':
      return 's' + v.length + ':' + v;
    case 'number':
      return Object.is(v, -0) ? 'n-0;' : 'n' + v + ';';
    case 'undefined':
      return 'u;';
    case 'boolean':
      return v ? 't;' : 'f;';
    default:
      return v === null ? 'l;' : undefined;
  }
}
/** every object reachable from v → its keys and values before the call */
function __dpeSimSnapshot(v, into) {
  if (v === null || typeof v !== 'object' || into.has(v)) return;
  const keys = Object.keys(v);
  const values = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) values[i] = v[keys[i]];
  into.set(v, { keys, values });
  for (let i = 0; i < values.length; i++) __dpeSimSnapshot(values[i], into);
}
/** the engine's arrays shared by every caller (enum id lists): a replay refers to the same one */
const __dpeSimShared = (globalThis[Symbol.for('dpe-sim.shared-values')] ??= new WeakSet());
/**
 * The text of v for a replay: a literal of new data (nothing of the earlier state when pre is
 * given, nothing met twice), V[n] for a shared array (pushed onto V); undefined when it cannot.
 */
function __dpeSimValueText(v, pre, V, seen) {
  return __dpeSimLiteral(v, (o) => {
    if (__dpeSimShared.has(o)) {
      V.push(o);
      return 'V[' + (V.length - 1) + ']';
    }
    if ((pre !== null && pre.has(o)) || seen.has(o)) return false;
    seen.add(o);
    return undefined;
  });
}
/**
 * Whether an array of primitives is as it was (the engine's enum id lists are one array shared
 * by every element that asked for them: met more than once, never written).
 */
function __dpeSimSameFlat(arr, keys, snap) {
  if (keys.length !== snap.keys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const v = arr[keys[i]];
    if (keys[i] !== snap.keys[i] || !Object.is(v, snap.values[i]) || (v !== null && typeof v === 'object')) return false;
  }
  return true;
}
/**
 * Pushes onto out the statements that turn obj's state before the call (pre) into its state
 * now, obj being reached by the expression expr; false when they cannot say it exactly.
 */
function __dpeSimDiff(obj, expr, pre, out, seen, V) {
  const snap = pre.get(obj);
  if (snap === undefined) return false;
  const keys = Object.keys(obj);
  if (Array.isArray(obj) && __dpeSimSameFlat(obj, keys, snap)) return true;
  if (seen.has(obj)) return false;
  seen.add(obj);
  if (Array.isArray(obj)) {
    if (keys.length !== snap.keys.length) return false;
    for (let i = 0; i < keys.length; i++) {
      const v = obj[keys[i]];
      if (keys[i] !== snap.keys[i] || v !== snap.values[i]) return false;
      if (v !== null && typeof v === 'object' && !__dpeSimDiff(v, expr + '[' + i + ']', pre, out, seen, V)) return false;
    }
    return true;
  }
  let j = 0;
  for (let i = 0; i < snap.keys.length; i++) {
    const k = snap.keys[i];
    if (k === '__proto__') return false;
    const at = expr + '[' + JSON.stringify(k) + ']';
    if (!Object.prototype.hasOwnProperty.call(obj, k)) {
      out.push('delete ' + at + ';');
      continue;
    }
    if (keys[j++] !== k) return false;
    const v = obj[k];
    const old = snap.values[i];
    if (v !== null && typeof v === 'object' && v === old) {
      if (!__dpeSimDiff(v, at, pre, out, seen, V)) return false;
    } else if (!Object.is(v, old)) {
      const text = __dpeSimValueText(v, pre, V, new Set());
      if (text === undefined) return false;
      out.push(at + ' = ' + text + ';');
    }
  }
  for (; j < keys.length; j++) {
    const k = keys[j];
    if (k === '__proto__' || pre.get(obj).keys.includes(k)) return false;
    const text = __dpeSimValueText(obj[k], pre, V, new Set());
    if (text === undefined) return false;
    out.push(expr + '[' + JSON.stringify(k) + '] = ' + text + ';');
  }
  return true;
}
/**
 * new Function(...params, body), compiled once per text: a memo record's replay and a frozen
 * object's builder are the same text for like elements (a building's flats), and compiling them
 * was most of a record's time (2535E0426429Q: 936 records, 296 texts). The functions hold no
 * state (what they work on is their arguments). Throws as new Function does. Bounded: a server
 * meets many DPEs.
 */
const __dpeSimCompiled = new Map();
function __dpeSimCompile(params, body) {
  const key = params.join(',') + ')' + body;
  let fn = __dpeSimCompiled.get(key);
  if (fn === undefined) {
    fn = new Function(...params, body);
    if (__dpeSimCompiled.size >= 8192) __dpeSimCompiled.clear();
    __dpeSimCompiled.set(key, fn);
  }
  return fn;
}
/** a replay's arguments: the element, the lists by kind, the shared values */
const __dpeSimReplayParams = ['el', 'L', 'V'];
const __dpeSimConsole = ['log', 'info', 'warn', 'error', 'debug', 'trace'];
/**
 * Calls compute(...args) and says how to make its effect again: on el and, for a thermal
 * bridge, on the elements others (each [kind, index, element]; every list element's
 * donnee_utilisateur, watched); null when it cannot.
 */
function __dpeSimRecord(compute, args, el, others, watched) {
  const pre = new Map();
  __dpeSimSnapshot(el, pre);
  for (const o of others) __dpeSimSnapshot(o[2], pre);
  const watchedBefore = [];
  for (const w of watched) {
    const du = w.donnee_utilisateur;
    watchedBefore.push(du, du !== null && typeof du === 'object' ? Object.keys(du).length : -1);
  }
  // the writes into the others' donnee_utilisateur, as made (the same value written again too)
  const writes = [];
  const proxies = [];
  let unusual = false;
  others.forEach((o, n) => {
    const d = o[2].donnee_utilisateur;
    if (d === null || typeof d !== 'object' || Array.isArray(d)) return;
    const proxy = new Proxy(d, {
      set(target, k, v) {
        if (typeof k !== 'string') unusual = true;
        writes.push([n, k, v]);
        return Reflect.set(target, k, v);
      },
      defineProperty(target, k, desc) {
        unusual = true;
        return Reflect.defineProperty(target, k, desc);
      },
      deleteProperty(target, k) {
        unusual = true;
        return Reflect.deleteProperty(target, k);
      },
    });
    o[2].donnee_utilisateur = proxy;
    proxies.push([o[2], d, proxy]);
  });
  const calls = [];
  const saved = __dpeSimConsole.map((m) => console[m]);
  __dpeSimConsole.forEach((m, i) => {
    console[m] = (...a) => {
      calls.push([m, a]);
      return saved[i].apply(console, a);
    };
  });
  let ret;
  try {
    ret = compute(...args);
  } finally {
    __dpeSimConsole.forEach((m, i) => {
      console[m] = saved[i];
    });
    for (const [o, d, proxy] of proxies) {
      if (o.donnee_utilisateur === proxy) o.donnee_utilisateur = d;
      else unusual = true;
    }
  }
  const no = { rec: null, ret };
  if (unusual) return no;
  if (ret !== null && (typeof ret === 'object' || typeof ret === 'function')) return no;
  for (const [, a] of calls) for (const x of a) if (x !== null && (typeof x === 'object' || typeof x === 'function')) return no;
  const out = [];
  const seen = new Set();
  const V = [];
  if (!__dpeSimDiff(el, 'el', pre, out, seen, V)) return no;
  for (const [kind, index, o] of others) {
    // only its donnee_utilisateur may have changed: by the writes logged
    const at = 'L[' + JSON.stringify(kind) + '][' + index + ']';
    const changes = [];
    if (!__dpeSimDiff(o, at, pre, changes, seen, V)) return no;
    if (changes.some((c) => !c.startsWith(at + '["donnee_utilisateur"]['))) return no;
  }
  for (const [n, k, v] of writes) {
    const [kind, index] = others[n];
    const text = k === '__proto__' ? undefined : __dpeSimValueText(v, null, V, new Set());
    if (text === undefined) return no;
    out.push('L[' + JSON.stringify(kind) + '][' + index + ']["donnee_utilisateur"][' + JSON.stringify(k) + '] = ' + text + ';');
  }
  // an element that is not among the others: its donnee_utilisateur left as it was
  for (let i = 0; i < watched.length; i++) {
    const w = watched[i];
    if (seen.has(w)) continue;
    const du = w.donnee_utilisateur;
    const n = du !== null && typeof du === 'object' ? Object.keys(du).length : -1;
    if (du !== watchedBefore[2 * i] || n !== watchedBefore[2 * i + 1]) return no;
  }
  let fn;
  try {
    fn = __dpeSimCompile(__dpeSimReplayParams, out.join('\\n'));
  } catch {
    return no;
  }
  return { rec: { fn, V, calls, ret }, ret };
}
/**
 * The first string made with k's text: a run's key is a new string, and every memo lookup and
 * comparison with it compared its characters; the same string object is found by its hash (kept
 * with it) and compared by identity.
 */
const __dpeSimKeyTexts = new Map();
function __dpeSimCanonicalKey(k) {
  const known = __dpeSimKeyTexts.get(k);
  if (known !== undefined) return known;
  if (__dpeSimKeyTexts.size < 4096) __dpeSimKeyTexts.set(k, k);
  return k;
}
/** at most this many keys kept per frozen element (a bridge's key holds its neighbours') */
const __dpeSimMemoKeys = 64;
/**
 * compute(el) for el, a copy of the frozen src, under key: made again from the record of an
 * earlier call when there is one (see above), if el's reference and presence_joint are those the
 * record was made on. others: [kind, index, element] of the other elements it reads and writes,
 * lists: those lists by kind, watched: every element it could write into.
 */
function __dpeSimMemoCall(memo, src, key, compute, el, others, lists, watched) {
  let byKey = memo.get(src);
  if (byKey === undefined) {
    byKey = new Map();
    memo.set(src, byKey);
  }
  const rec = byKey.get(key);
  const de = el.donnee_entree;
  if (rec !== undefined && rec !== null && rec !== 1) {
    if (de.reference !== rec.ref || de.presence_joint !== rec.joint) return compute(el);
    if (__dpeSimMemoCheck.on) return __dpeSimMemoChecked(rec, compute, el, others, lists);
    __dpeSimMemoStats.replays++;
    rec.fn(el, lists, rec.V);
    const calls = rec.calls;
    for (let i = 0; i < calls.length; i++) console[calls[i][0]](...calls[i][1]);
    return rec.ret;
  }
  if (rec === null) return compute(el);
  if (rec === undefined) {
    if (byKey.size < __dpeSimMemoKeys) byKey.set(key, 1);
    return compute(el);
  }
  const ref = de.reference;
  const joint = de.presence_joint;
  const r = __dpeSimRecord(compute, [el], el, others, watched);
  if (r.rec !== null) {
    __dpeSimMemoStats.records++;
    r.rec.ref = ref;
    r.rec.joint = joint;
  }
  byKey.set(key, r.rec);
  return r.ret;
}
/**
 * calc(el) for each element of list (as list.forEach), the sanitizer's copy of a works copy's
 * collection: an element copied from a frozen one through the element memo under key (the
 * run's arguments), the others computed.
 */
function __dpeSimEachElement(memo, list, key, calc) {
  const sources = __dpeSimListSources.get(list);
  if (sources === undefined || sources.length !== list.length || typeof key !== 'string') return list.forEach((el) => calc(el));
  for (let i = 0; i < list.length; i++) {
    if (!(i in list)) continue;
    const el = list[i];
    const src = sources[i];
    const de = el !== null && typeof el === 'object' ? el.donnee_entree : undefined;
    if (src === null || typeof src !== 'object' || !Object.isFrozen(src) || de === null || typeof de !== 'object') calc(el);
    else __dpeSimMemoCall(memo, src, key, calc, el, [], undefined, []);
  }
}
const __dpeSimMemoStats = { replays: 0, records: 0 };
/** the tests' check: each replay against the call itself, on copies */
const __dpeSimMemoCheck = { on: false, replays: 0, differ: [] };
function __dpeSimMemoChecked(rec, compute, el, others, lists) {
  const copyOf = (v) => structuredClone(v);
  const replayed = copyOf(el);
  const replayedLists = {};
  for (const k of Object.keys(lists ?? {})) replayedLists[k] = lists[k].map(copyOf);
  rec.fn(replayed, replayedLists, rec.V);
  const ret = compute(el);
  __dpeSimMemoCheck.replays++;
  const same = (a, b) => __dpeSimLiteral(a) === __dpeSimLiteral(b);
  let ok = same(replayed, el) && Object.is(ret, rec.ret);
  for (const [kind, index] of others ?? []) ok = ok && same(replayedLists[kind][index], lists[kind][index]);
  if (!ok && __dpeSimMemoCheck.differ.length < 20) __dpeSimMemoCheck.differ.push(__dpeSimLiteral(el));
  return ret;
}
/** the element memo's kit, for 3_deperdition.js (its snippet imports this module's namespace) */
export const __dpeSimElementMemoKit = {
  sources: (list) => __dpeSimListSources.get(list),
  sourceId: __dpeSimSourceId,
  /** the key text of primitives, undefined when one is not */
  key(...vs) {
    let k = '';
    for (const v of vs) {
      const p = __dpeSimKeyPart(v);
      if (p === undefined) return undefined;
      k += p;
    }
    return __dpeSimCanonicalKey(k);
  },
  call: __dpeSimMemoCall,
  each: __dpeSimEachElement,
  check: __dpeSimMemoCheck,
  /** replays made and records kept (the tests ask) */
  stats: __dpeSimMemoStats,
};
`;

/**
 * Works runs give the engine a DPE that shares most of its elements with a deep-frozen copy of
 * the original (src/works/works-copy.ts): the sanitized copy of such a frozen subtree is the same
 * at every run (its content cannot change). From the second time a frozen object is met, its
 * sanitized copy is kept as the text of a literal, compiled once (`new Function`): each run then
 * gets a new copy from the literal (new objects each time: the engine writes into them) instead
 * of walking it again, about 5× faster. Only kept when the whole subtree is frozen plain data
 * (data properties, Object's or Array's prototype, no `__proto__` key) and its copy holds only
 * literal values (strings, numbers, booleans, null, undefined, bigints; arrays without holes);
 * else the walk is made each time, as for anything not frozen.
 */
const SANITIZE_SNIPPET = `
/** key.startsWith('enum_') || key.startsWith('original_enum') */
function __dpeSimIsEnum(key) {
  const c = key.charCodeAt(0);
  return (c === 101 && key.startsWith('enum_')) || (c === 111 && key.startsWith('original_enum'));
}
/** ObjectUtil.deepObjectTransform(obj, (key) => key, the value function of execute) */
function __dpeSimSanitize(obj) {
  if (obj !== null && typeof obj === 'object' && Object.isFrozen(obj)) return __dpeSimSanitizeFrozen(obj);
  return __dpeSimSanitizeWalk(obj);
}
${sanitizeWalk('__dpeSimSanitizeWalk', '__dpeSimSanitize', '__dpeSimSanitizeItem', '__dpeSimListCopy')}
${sanitizeWalk('__dpeSimSanitizePlain', '__dpeSimSanitizePlain', '__dpeSimSanitizePlainItem', '__dpeSimPlainList')}
/** a copy of an array (not itself frozen): the element memo finds each element's frozen source */
function __dpeSimListCopy(list, out) {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (v !== null && typeof v === 'object' && Object.isFrozen(v)) {
      __dpeSimListSources.set(out, list);
      break;
    }
  }
  return out;
}
function __dpeSimPlainList(list, out) {
  return out;
}
/** frozen object → 1 (met once), its copy's builder, or null (not kept) */
const __dpeSimSanitized = new WeakMap();
function __dpeSimSanitizeFrozen(obj) {
  const known = __dpeSimSanitized.get(obj);
  let out;
  if (typeof known === 'function') out = known();
  else {
    out = __dpeSimSanitizePlain(obj);
    if (known === undefined) __dpeSimSanitized.set(obj, 1);
    else if (known === 1) __dpeSimSanitized.set(obj, __dpeSimBuilder(obj, out));
  }
  return out;
}
/** whether everything in v is frozen plain data (data properties, no __proto__ key) */
function __dpeSimFrozenData(v) {
  if (v === null || typeof v !== 'object') return typeof v !== 'function' && typeof v !== 'symbol';
  if (!Object.isFrozen(v)) return false;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== Array.prototype) return false;
  for (const k of Object.keys(v)) {
    if (k === '__proto__') return false;
    const d = Object.getOwnPropertyDescriptor(v, k);
    if (d === undefined || !('value' in d) || !__dpeSimFrozenData(d.value)) return false;
  }
  return true;
}
/**
 * v as the text of a literal, or undefined when it cannot be written as one. objectText, when
 * given, is asked first of each object met: a text to write instead, false to refuse it, or
 * undefined to write it as a literal.
 */
function __dpeSimLiteral(v, objectText) {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Object.is(v, -0) ? '-0' : String(v);
    case 'boolean':
      return String(v);
    case 'undefined':
      return 'void 0';
    case 'bigint':
      return String(v) + 'n';
    case 'object': {
      if (v === null) return 'null';
      if (objectText !== undefined) {
        const text = objectText(v);
        if (text === false) return undefined;
        if (text !== undefined) return text;
      }
      const proto = Object.getPrototypeOf(v);
      let text;
      if (Array.isArray(v)) {
        if (proto !== Array.prototype) return undefined;
        const parts = [];
        for (let i = 0; i < v.length; i++) {
          if (!(i in v)) return undefined;
          const p = __dpeSimLiteral(v[i], objectText);
          if (p === undefined) return undefined;
          parts.push(p);
        }
        text = '[' + parts.join(',') + ']';
        return Object.keys(v).length === v.length ? text : undefined;
      }
      if (proto !== Object.prototype) return undefined;
      const parts = [];
      for (const k of Object.keys(v)) {
        if (k === '__proto__') return undefined;
        const p = __dpeSimLiteral(v[k], objectText);
        if (p === undefined) return undefined;
        parts.push(JSON.stringify(k) + ':' + p);
      }
      return '{' + parts.join(',') + '}';
    }
    default:
      return undefined;
  }
}
/** a function returning a new copy of out (the sanitized copy of obj), or null */
function __dpeSimBuilder(obj, out) {
  if (!__dpeSimFrozenData(obj)) return null;
  const text = __dpeSimLiteral(out);
  if (text === undefined) return null;
  try {
    return __dpeSimCompile([], 'return ' + text + ';');
  } catch {
    return null;
  }
}
/** whether the sanitized copy of a frozen object is kept as a literal (the tests ask) */
export function __dpeSimSanitizedKept(obj) {
  return typeof __dpeSimSanitized.get(obj) === 'function';
}
export const __dpeSimSanitizer = true;
${ELEMENT_MEMO_KIT}
`;

/**
 * `6.2_surface_sud_equivalente.js`, `calc_sse_j` (a month's south-equivalent glazed area, every
 * window's solar factor and shading): a run asks it for each month four times with the same
 * windows (the cooling need, the solar gains, the south-equivalent area, the heating need),
 * nothing writing into the windows between (they are computed with the envelope, before).
 * The first answer for a window list, veranda and month is kept for the later calls with that
 * same list: a run's list is a new array (the engine's sanitized copy), so nothing is kept from
 * one run to the next. 8.7% of engine time on 2535E0426429Q (62 windows), three quarters saved.
 * Without a veranda (the common case) a run's first call also reads once what `getSsd` reads of
 * each window onto the outside (the table key of its orientation and tilt, its area, solar factor
 * and shading factors), and each month's answer is the same sum in the same order of the same
 * products, `surface × c1 × sw × fe1 × fe2`, read from those. A list holding anything else
 * than plain windows with their intermediate values is computed as before.
 */
const SSE_SNIPPET = `
;{
  const compute = calc_sse_j;
  const memo = new WeakMap();
  /** a run's list → { zc, row }: what getSsd reads of each window onto the outside, or null */
  const outsideRows = new WeakMap();
  const isObject = (v) => v !== null && typeof v === 'object';
  function outsideRow(bv_list, zc) {
    const kept = outsideRows.get(bv_list);
    if (kept !== undefined && Object.is(kept.zc, zc)) return kept.row;
    const c1z = tvs.c1[zc];
    let row = isObject(c1z) ? { c1z, oi: [], surface: [], sw: [], fe1: [], fe2: [] } : null;
    for (let i = 0; row !== null && i < bv_list.length; i++) {
      if (!(i in bv_list)) continue;
      const bv = bv_list[i];
      const de = isObject(bv) ? bv.donnee_entree : undefined;
      const di = isObject(bv) ? bv.donnee_intermediaire : undefined;
      if (!isObject(de) || !isObject(di)) row = null;
      else if (de.enum_type_adjacence_id === '1') {
        // getSsd's reads, in its order
        const orientation = enums.orientation[de.enum_orientation_id];
        const inclinaison = enums.inclinaison_vitrage[de.enum_inclinaison_vitrage_id ?? 3];
        let oi = __dpeSimOi(orientation, inclinaison);
        if (orientation === 'horizontal' || inclinaison === 'horizontal') oi = 'horizontal';
        row.oi.push(oi);
        row.surface.push(de.surface_totale_baie);
        row.sw.push(di.sw);
        row.fe1.push(di.fe1 ?? 1);
        row.fe2.push(di.fe2 ?? 1);
      }
    }
    outsideRows.set(bv_list, { zc, row });
    return row;
  }
  /** compute(bv_list, ets, ca, zc, mois) without a veranda, from the windows' reads */
  function outsideSum(bv_list, ets, ca, zc, mois) {
    const row = outsideRow(bv_list, zc);
    if (row === null) return compute(bv_list, ets, ca, zc, mois);
    const c1m = row.c1z[mois];
    const { oi, surface, sw, fe1, fe2 } = row;
    let acc = 0;
    for (let i = 0; i < oi.length; i++) acc = acc + surface[i] * c1m[oi[i]] * sw[i] * fe1[i] * fe2[i];
    return acc;
  }
  calc_sse_j = function calc_sse_j(bv_list, ets, ca, zc, mois) {
    if (!Array.isArray(bv_list) || typeof mois !== 'string' || (typeof zc !== 'string' && typeof zc !== 'number'))
      return compute(bv_list, ets, ca, zc, mois);
    let byEts = memo.get(bv_list);
    if (byEts === undefined) {
      byEts = new Map();
      memo.set(bv_list, byEts);
    }
    // by zone, then month (a Map's keys: 1 and '1' apart)
    let byZone = byEts.get(ets);
    if (byZone === undefined) {
      byZone = new Map();
      byEts.set(ets, byZone);
    }
    let byMonth = byZone.get(zc);
    if (byMonth === undefined) {
      byMonth = new Map();
      byZone.set(zc, byMonth);
    }
    let v = byMonth.get(mois);
    if (v === undefined) {
      v = ets ? compute(bv_list, ets, ca, zc, mois) : outsideSum(bv_list, ets, ca, zc, mois);
      byMonth.set(mois, v);
    }
    return v;
  };
}
export const __dpeSimSseMonth = true;
`;

/**
 * `calc_deperdition` with the element memo (the kit: ELEMENT_MEMO_KIT, with the sanitizer): the
 * walls, roofs, windows, doors and thermal bridges of the works copy's collections.
 */
/** `list.forEach((el) => call)` of calc_deperdition, through the kit's `each` under `memo` */
function eachThroughMemo(list: string, el: string, call: string, memo: string): [string, string] {
  const loop = `${list}.forEach((${el}) => ${call});`;
  return [
    `  ${loop}`,
    `  if (__dpeSimKit === undefined) ${loop}\n` +
      `  else __dpeSimKit.each(${memo}, ${list}, __dpeSimKey, (${el}) => ${call});`,
  ];
}
const MUR = eachThroughMemo(
  'mur_list',
  'mur',
  'calc_mur(mur, zc, pc, effetJoule)',
  '__dpeSimMemoMur',
);
const ELEMENT_MEMO_REPLACE: [string, string][] = [
  [
    MUR[0],
    '  const __dpeSimKit = __dpeSimSanitizerModule.__dpeSimElementMemoKit;\n' +
      '  const __dpeSimKey = __dpeSimKit?.key(zc, pc, effetJoule);\n' +
      MUR[1],
  ],
  eachThroughMemo('ph_list', 'ph', 'calc_ph(ph, zc, pc, effetJoule)', '__dpeSimMemoPh'),
  eachThroughMemo('bv_list', 'bv', 'calc_bv(bv, zc)', '__dpeSimMemoBv'),
  eachThroughMemo('porte_list', 'porte', 'calc_porte(porte, zc)', '__dpeSimMemoPorte'),
  [
    '  pt_list.forEach((pt) => calc_pont_thermique(pt, pc, logement));',
    '  if (__dpeSimKit === undefined) pt_list.forEach((pt) => calc_pont_thermique(pt, pc, logement));\n' +
      '  else __dpeSimEachBridge(__dpeSimKit, pt_list, logement, __dpeSimKit.key(pc), (pt) => calc_pont_thermique(pt, pc, logement));',
  ],
];

/**
 * A thermal bridge also reads the walls, floors, windows and doors it joins and writes their
 * `donnee_utilisateur`. `tv_k` finds them by reference: the first wall whose reference is the
 * bridge's `reference_1` or `reference_2` (cleaned: case, accents and spaces ignored) or, in
 * bug-for-bug mode, whose position is the `reference_paroi` of the first window whose reference is
 * `reference_1`; the first such roof or floor, window or door. So a bridge's key adds, in this
 * run: the position and frozen source of every element under either reference, and the position
 * of that first window with its `reference_paroi` (and the wall there). Those answer every
 * search the same way and give the same elements to read; a bridge one of whose elements the run
 * changed (not a frozen one's copy), or without `reference_1` (found by its description), is
 * computed. The writes into those elements' `donnee_utilisateur` are logged as made (a Proxy
 * during the recorded call) and made again; a write into any other element and nothing is kept.
 */
const ELEMENT_MEMO_SNIPPET = `
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
    plan = { r1: de.reference_1, r2: de.reference_2, c1, c2: c2 === c1 ? undefined : c2, only1: c2 === c1, recent: [], next: 0 };
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
    for (let j = 0; j < parts.length; j++) if (!Object.is(known.parts[j], parts[j])) continue search;
    return known.key;
  }
  let key = pcKey;
  for (let j = 0; j < parts.length; ) {
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
  const run = sources === undefined || sources.length !== pts.length ? null : __dpeSimBridgeRun(kit, logement, pcKey);
  if (run === null) return pts.forEach((pt) => calc(pt));
  for (let i = 0; i < pts.length; i++) {
    if (!(i in pts)) continue;
    const pt = pts[i];
    const src = sources[i];
    const de = pt !== null && typeof pt === 'object' ? pt.donnee_entree : undefined;
    if (src === null || typeof src !== 'object' || !Object.isFrozen(src) || de === null || typeof de !== 'object' || !de.reference_1) {
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
`;
/**
 * `conso.js`, `calc_conso_pond` (the weighted consumptions of one kind: energy, primary energy,
 * emissions, cost) renamed its result's keys one by one (`ret[prefix_key] = ret[key]; delete
 * ret[key]`): the deletes turn the object into a slow dictionary, 3.5% of a cold `initial` on
 * 2459E1831723H. The same keys are now written into a new object, in the same order (no key of
 * `ret` is another one's prefixed name: they are the fixed names of the function).
 */
const CONSO_KEYS_FROM =
  '  Object.keys(ret).forEach((key) => {\n    ret[`${prefix}_${key}`] = ret[key];\n    delete ret[key];\n  });\n  return ret;';
const CONSO_KEYS_TO = '  return __dpeSimPrefixedCopy(prefix, ret);';
/**
 * `getGesCoeffForGenerateur` (the emission factor of a generator: the year of the DPE's date,
 * or of the heat network's decree) parsed the same date text into a Date at every run, for every
 * generator, and asked its local year (2% of a cold `initial` on 2535E0426429Q): the year of
 * each date text is now kept (text → `new Date(text).getFullYear()`, the same call made once).
 */
const CONSO_YEAR_REPLACE: [string, string][] = [
  [
    'anneeDpe = new Date(gen_ch.donnee_entree.date_arrete_reseau_chaleur).getFullYear() - 1;',
    'anneeDpe = __dpeSimYearOf(gen_ch.donnee_entree.date_arrete_reseau_chaleur) - 1;',
  ],
  ['anneeDpe = new Date(dateDpe).getFullYear() - 1;', 'anneeDpe = __dpeSimYearOf(dateDpe) - 1;'],
];
/**
 * The copy under prefixed names, the names made once per prefix and list of keys and used again
 * while the keys are the same (the function's fixed names, in its order): a name made at each
 * call was a new string to hash and look up as a key each time (three quarters of the
 * function's time). The snippet also holds the dates' years (`CONSO_YEAR_REPLACE`, above).
 */
const CONSO_KEYS_SNIPPET = `
/** date text → its local year, as \`new Date(text).getFullYear()\` (other values: that call) */
const __dpeSimYears = new Map();
function __dpeSimYearOf(v) {
  if (typeof v !== 'string') return new Date(v).getFullYear();
  let y = __dpeSimYears.get(v);
  if (y === undefined) {
    y = new Date(v).getFullYear();
    if (__dpeSimYears.size < 4096) __dpeSimYears.set(v, y);
  }
  return y;
}
/** prefix → the keys last met with it and their prefixed names */
const __dpeSimPrefixedNames = new Map();
function __dpeSimPrefixedCopy(prefix, ret) {
  const keys = Object.keys(ret);
  let known = __dpeSimPrefixedNames.get(prefix);
  let same = known !== undefined && known.keys.length === keys.length;
  for (let i = 0; same && i < keys.length; i++) same = known.keys[i] === keys[i];
  if (!same) {
    known = { keys, names: keys.map((key) => \`\${prefix}_\${key}\`) };
    if (typeof prefix === 'string') __dpeSimPrefixedNames.set(prefix, known);
  }
  const out = {};
  for (let i = 0; i < keys.length; i++) out[known.names[i]] = ret[keys[i]];
  return out;
}
export const __dpeSimConsoKeys = true;
`;

const MEMO_PATCHES: SourcePatch[] = [
  {
    suffix: '/@open3cl/engine/utils.js',
    replace: [],
    append: UTILS_SNIPPET,
    marker: '__dpeSimTvMemo',
  },
  {
    suffix: '/@open3cl/engine/3.3_baie_vitree.js',
    replace: [
      [UG_VALUES_FROM, UG_VALUES_TO],
      [UG_VALUES_END_FROM, UG_VALUES_END_TO],
    ],
    append: BAIE_SNIPPET,
    marker: '__dpeSimUgMemo',
  },
  {
    suffix: '/@open3cl/engine/utils.js',
    replace: [
      [ENUM_NAME_ID_FROM, ENUM_NAME_ID_TO],
      [ENUM_NAME_FROM, ENUM_NAME_TO],
      [ENUM_IDS_FROM_ID, ENUM_IDS_TO_ID],
      [ENUM_IDS_FROM, ENUM_IDS_TO],
    ],
    append: UTILS_MORE_SNIPPET,
    marker: '__dpeSimEnumIds',
  },
  {
    suffix: '/@open3cl/engine/3.1_b.js',
    replace: [[B_ADJACENCE_FROM, ''], ...B_BOUND_FORMATS],
    append: B_SNIPPET,
    marker: '__dpeSimBAdjacence',
  },
  {
    suffix: '/@open3cl/engine/3.4_pont_thermique.js',
    replace: [
      [PT_WALL_SEARCH_FROM, PT_WALL_SEARCH_TO],
      [PT_WINDOW_FROM, PT_WINDOW_TO],
      [PT_REF_MUR_FROM, PT_REF_MUR_TO],
      [PT_REF_PLANCHER_FROM, PT_REF_PLANCHER_TO],
      [PT_REF_MEN_FROM, PT_REF_MEN_TO],
    ],
    append: PT_SNIPPET,
    marker: '__dpeSimBvPtOnce',
  },
  {
    suffix: '/@open3cl/engine/3_deperdition.js',
    replace: [
      [DECLARED_MURS_FROM, DECLARED_MURS_TO],
      [DECLARED_PT_FROM, DECLARED_PT_TO],
    ],
    append: DEPERDITION_SNIPPET,
    marker: '__dpeSimDeclaredCopies',
  },
  {
    suffix: '/@open3cl/engine/engine.js',
    replace: [
      [JOINT_LOOP_FROM, JOINT_LOOP_TO],
      [JOINT_SHEET_FROM, JOINT_SHEET_TO],
    ],
    append: JOINT_SNIPPET,
    marker: '__dpeSimJointSheet',
  },
  {
    suffix: '/@open3cl/engine/9_generateur_ch.js',
    replace: [
      [GEN_CH_LIST_FROM, GEN_CH_LIST_TO],
      [GEN_CH_IDS_FROM, GEN_CH_IDS_TO],
    ],
    append: GEN_CH_SNIPPET,
    marker: '__dpeSimChEcs',
  },
  {
    suffix: '/@open3cl/engine/14_generateur_ecs.js',
    replace: [
      [GEN_ECS_LIST_FROM, GEN_ECS_LIST_TO],
      [GEN_ECS_IDS_FROM, GEN_ECS_IDS_TO],
    ],
    append: GEN_ECS_SNIPPET,
    marker: '__dpeSimEcsCh',
  },
  {
    suffix: '/@open3cl/engine/6.2_surface_sud_equivalente.js',
    replace: [[SSD_KEY_FROM, SSD_KEY_TO]],
    append: SSD_SNIPPET,
    marker: '__dpeSimOiOn',
  },
  {
    suffix: '/@open3cl/engine/6.2_surface_sud_equivalente.js',
    replace: [],
    append: SSE_SNIPPET,
    marker: '__dpeSimSseMonth',
  },
  {
    suffix: '/@open3cl/engine/conso.js',
    replace: [[CONSO_KEYS_FROM, CONSO_KEYS_TO], ...CONSO_YEAR_REPLACE],
    append: CONSO_KEYS_SNIPPET,
    marker: '__dpeSimConsoKeys',
  },
  {
    suffix: '/@open3cl/engine/3.3_baie_vitree.js',
    replace: [[UG_RANGE_FROM, UG_RANGE_TO]],
    append: UG_RANGE_SNIPPET,
    marker: '__dpeSimUgRange',
  },
  {
    suffix: '/@open3cl/engine/dpe-sanitizer.service.js',
    replace: [[SANITIZE_FROM, SANITIZE_TO]],
    append: SANITIZE_SNIPPET,
    marker: '__dpeSimSanitizer',
  },
  {
    suffix: '/@open3cl/engine/3_deperdition.js',
    replace: ELEMENT_MEMO_REPLACE,
    append: ELEMENT_MEMO_SNIPPET,
    marker: '__dpeSimElementMemo',
  },
];

/** Every patch, in the order applied: the memos first, then the corrections (several may touch one module). */
export const SOURCE_PATCHES: SourcePatch[] = [...MEMO_PATCHES, ...CORRECTIONS.map(correctionPatch)];

/**
 * The module-load hook (a `data:` URL module for `module.register`) that applies `patches` (all of
 * them by default; `bench/bare-engine.mjs --corrections` applies the corrections alone). A memo
 * patch that does not apply is skipped; a correction that does not apply throws.
 */
export function sourcePatchHooks(patches: readonly SourcePatch[] = SOURCE_PATCHES): string {
  return `
const PATCHES = ${JSON.stringify(patches)};
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (result.source == null) return result;
  const mine = PATCHES.filter((p) => url.endsWith(p.suffix));
  if (!mine.length) return result;
  let source = typeof result.source === 'string' ? result.source : new TextDecoder().decode(result.source);
  for (const patch of mine) {
    if (source.includes(patch.marker)) continue;
    let patched = source;
    let ok = true;
    for (const [from, to] of patch.replace) {
      const at = patched.indexOf(from);
      if (at < 0 || patched.indexOf(from, at + from.length) >= 0) {
        if (patch.correction)
          throw new Error('engine correction ' + patch.marker + ': "' + from.slice(0, 60) + '" is not found exactly once in ' + patch.suffix);
        ok = false;
        break;
      }
      patched = patched.slice(0, at) + to + patched.slice(at + from.length);
    }
    if (ok) source = patched + patch.append;
  }
  return { ...result, source };
}
`;
}

export const SOURCE_PATCH_HOOKS = sourcePatchHooks();
