/* global structuredClone */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimDeclaredMurs|__dpeSimDeclaredPts)$" }] */
/**
 * Appended to `3_deperdition.js` (marker `__dpeSimDeclaredCopies`), `calc_deperdition`: the walls
 * and the thermal bridges are copied whole (`structuredClone`) before they are computed, to
 * compare the declared totals with the computed ones; that comparison reads three fields of a
 * wall (surface_paroi_opaque, umur, b) and one of a bridge (k): only those are copied, each
 * element and each of its two parts kept as it is when absent (the reads then fail or give
 * undefined as they did). A value that is not an object is its own copy (`structuredClone` gives
 * it back): the native call is left for objects.
 */
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
          : { umur: __dpeSimClone(di.umur), b: __dpeSimClone(di.b) },
    };
  });
}
function __dpeSimDeclaredPts(list) {
  return list.map((pt) => {
    if (pt === null || typeof pt !== 'object') return __dpeSimClone(pt);
    const di = pt.donnee_intermediaire;
    return {
      donnee_intermediaire:
        di === null || typeof di !== 'object' ? __dpeSimClone(di) : { k: __dpeSimClone(di.k) },
    };
  });
}
export const __dpeSimDeclaredCopies = true;
