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
  const memo = new Map();
  tv = function tv(filePath, matcher) {
    let key = String(filePath);
    for (const k in matcher) {
      const v = matcher[k];
      key += '\\u0001' + k + '\\u0002' + typeof v + '\\u0002' + String(v);
    }
    if (memo.has(key)) return memo.get(key);
    const row = scan(filePath, matcher);
    memo.set(key, row);
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
