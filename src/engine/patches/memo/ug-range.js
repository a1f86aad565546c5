/* global getRange */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimUgRange)$" }] */
/**
 * Appended to `3.3_baie_vitree.js` (marker `__dpeSimUgRange`), `tv_uw`: `getRange(ug, ugValues)`
 * sorts the Ug values (a default sort: as text) on every window of every run, ~2% of a run; the
 * two Ug values found depend on the window's type, frame material and Ug only: kept per triple (a
 * Ug other than a number or undefined is not kept).
 */
const __dpeSimUgRangeMemo = new Map();
function __dpeSimUgRange(baie, materiau, ug, values) {
  if (ug !== undefined && typeof ug !== 'number') return getRange(ug, values);
  const key =
    typeof baie +
    '\u0002' +
    String(baie) +
    '\u0001' +
    typeof materiau +
    '\u0002' +
    String(materiau) +
    '\u0001' +
    (Object.is(ug, -0) ? '-0' : String(ug));
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
