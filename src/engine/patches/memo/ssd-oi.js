/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimOi)$" }] */
/**
 * Appended to `6.2_surface_sud_equivalente.js` (marker `__dpeSimOiOn`), `getSsd` (each window,
 * each month, several times a run): the table key "orientation inclinaison" is written once per
 * pair of labels and the same text used again (its hash is then known). sse-month.js uses it too.
 */
const __dpeSimOiMemo = new Map();
function __dpeSimOi(orientation, inclinaison) {
  let byInclinaison = __dpeSimOiMemo.get(orientation);
  if (byInclinaison === undefined) {
    byInclinaison = new Map();
    __dpeSimOiMemo.set(orientation, byInclinaison);
  }
  let oi = byInclinaison.get(inclinaison);
  if (oi === undefined) {
    oi = `${orientation} ${inclinaison}`;
    byInclinaison.set(inclinaison, oi);
  }
  return oi;
}
export const __dpeSimOiOn = true;
