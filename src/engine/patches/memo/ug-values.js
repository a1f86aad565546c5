/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimUgValues)$" }] */
/**
 * Appended to `3.3_baie_vitree.js` (marker `__dpeSimUgMemo`). `tv_uw`: for every window, the Ug
 * values of the Uw table for its type and frame material are found by splitting and scanning
 * every row of the table. The list depends on those two ids only: it is computed once per pair
 * and each call gets its own copy (the engine's `getRange` sorts it in place).
 */
const __dpeSimUgMemo = new Map();
function __dpeSimUgValues(baie, materiau, compute) {
  const key =
    typeof baie +
    '\u0002' +
    String(baie) +
    '\u0001' +
    typeof materiau +
    '\u0002' +
    String(materiau);
  let values = __dpeSimUgMemo.get(key);
  if (values === undefined) {
    // sorted once as getRange sorts it (default sort, stable): its own sort then finds it in order
    values = compute().sort();
    __dpeSimUgMemo.set(key, values);
  }
  return values.slice();
}
export const __dpeSimUgMemoOn = true;
