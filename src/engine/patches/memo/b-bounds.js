/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimBound)$" }] */
/**
 * Appended to `3.1_b.js` (marker `__dpeSimBAdjacence`), `b()` (the reduction coefficient of every
 * wall, floor, ceiling, window and door):
 * - its first line writes the list of adjacency ids into `donnee_utilisateur`, which
 *   `requestInputID` overwrites on the next line with the same list: the first write goes (an
 *   anchor, no code here);
 * - for an unheated space, the bounds of the Aiu/Aue ratio are written with
 *   `toLocaleString(undefined, {2 digits})` (an Intl formatter built on each call: most of b's own
 *   time): the text of each bound (one of findRanges's 15 numbers) is kept per number.
 */
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
