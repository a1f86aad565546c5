/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimRefOf)$" }] */
/**
 * Appended to `3.4_pont_thermique.js` (marker `__dpeSimBvPtOnce`), `tv_k`. Finding the wall of a
 * thermal bridge, bug-for-bug mode looks, for every wall that does not match, for the window
 * whose reference is the bridge's first one (walls × windows per bridge: 28 dwellings' bridges on
 * 62 windows): the window is the same for every wall of that search, so it is looked for once per
 * search (the anchors alone). The same searches (the bridge's wall, floor, window or door)
 * compare each element's reference with the bridge's two, each side cleaned
 * (`compareReferences`) at every comparison: the element's reference is cleaned once per element
 * and the bridge's two once per bridge (kept while the bridge and its two references are the
 * ones of the last call; the second only when needed, as before).
 */
import { cleanReference as __dpeSimClean } from './utils.js';
let __dpeSimRefDe;
let __dpeSimRefRaw1;
let __dpeSimRefRaw2;
let __dpeSimRef1;
let __dpeSimRef2;
let __dpeSimRef2Known = false;
/** compareReferences(reference, de.reference_1) || compareReferences(reference, de.reference_2) */
function __dpeSimRefOf(reference, de) {
  if (
    de !== __dpeSimRefDe ||
    de.reference_1 !== __dpeSimRefRaw1 ||
    de.reference_2 !== __dpeSimRefRaw2
  ) {
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
