/* global enums, tvs, tv_match_new_version, tvColumnLines:writable */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimEnumName|__dpeSimEnumIds)$" }] */
/**
 * Appended to `utils.js` (marker `__dpeSimEnumIds`). Measured on 2535E0426429Q, 2287E0793758O,
 * 2206E1133029I and 2374E2700849T, `initial`: about 4,000 engine runs.
 * - `requestInputID` / `requestInput` write the list of an enum's ids (`Object.keys` of its
 *   table, ~100 strings for some) into the element's `donnee_utilisateur` on every call, ~5% of a
 *   run: the list is built once per enum and the same array is written (nothing reads or changes
 *   it).
 * - `tvColumnLines(table, column, matcher)` scans and matches every row of the boiler table on
 *   each generator and each run (`criterePn`), ~4% of a run: its result is kept per table object
 *   (a table swapped for another is another key), column, matcher and matching mode; each call
 *   gets its own copy.
 */
const __dpeSimEnumNames = new Map();
/** `enum_${field}_id`, the same text for a field (its hash known) */
function __dpeSimEnumName(field) {
  let name = __dpeSimEnumNames.get(field);
  if (name === undefined) {
    name = `enum_${field}_id`;
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
    // one array for every caller: the element memo's replays refer to it (sanitizer.js)
    (globalThis[Symbol.for('dpe-sim.shared-values')] ??= new WeakSet()).add(ids);
  }
  return ids;
}
{
  const scanLines = tvColumnLines;
  const memo = new WeakMap();
  tvColumnLines = function tvColumnLines(filePath, column, matcher) {
    const list = tvs[filePath];
    if (list === null || typeof list !== 'object') return scanLines(filePath, column, matcher);
    let key = String(tv_match_new_version) + '\u0001' + typeof column + '\u0002' + String(column);
    for (const k in matcher) {
      const v = matcher[k];
      key += '\u0001' + k + '\u0002' + typeof v + '\u0002' + String(v);
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
