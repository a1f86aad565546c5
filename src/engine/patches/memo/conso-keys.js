/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimYearOf|__dpeSimPrefixedCopy)$" }] */
/**
 * Appended to `conso.js` (marker `__dpeSimConsoKeys`).
 * - `calc_conso_pond` (the weighted consumptions of one kind: energy, primary energy, emissions,
 *   cost) renamed its result's keys one by one (`ret[prefix_key] = ret[key]; delete ret[key]`):
 *   the deletes turn the object into a slow dictionary, 3.5% of a cold `initial` on
 *   2459E1831723H. The same keys are now written into a new object, in the same order (no key of
 *   `ret` is another one's prefixed name: they are the fixed names of the function), the names
 *   made once per prefix and list of keys and used again while the keys are the same (a name made
 *   at each call was a new string to hash and look up as a key each time: three quarters of the
 *   function's time).
 * - `getGesCoeffForGenerateur` (the emission factor of a generator: the year of the DPE's date,
 *   or of the heat network's decree) parsed the same date text into a Date at every run, for
 *   every generator, and asked its local year (2% of a cold `initial` on 2535E0426429Q): the year
 *   of each date text is now kept (text → `new Date(text).getFullYear()`, the same call made
 *   once).
 */
/** date text → its local year, as `new Date(text).getFullYear()` (other values: that call) */
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
    known = { keys, names: keys.map((key) => `${prefix}_${key}`) };
    if (typeof prefix === 'string') __dpeSimPrefixedNames.set(prefix, known);
  }
  const out = {};
  for (let i = 0; i < keys.length; i++) out[known.names[i]] = ret[keys[i]];
  return out;
}
export const __dpeSimConsoKeys = true;
