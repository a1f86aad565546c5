/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(doublageAsDeclared)$" }] */
/**
 * The Umur0 of a wall with a doublage as the DPE computed it, among the readings of its
 * software: the lining added to the bare U0 (the engine's), to the bare U0 capped at 2.5, or
 * left out (the stored Umur0 the bare U0 capped at 2.5, the insulation, if any, added to it).
 * The engine's reading unless the DPE's stored figures show another one.
 */
function doublageAsDeclared(type_doublage, umur0, umur0Doublage, umur0_avant, umur_avant) {
  const same = (a, b) =>
    a !== undefined && a !== null && a !== '' && Number(a).toFixed(3) === Number(b).toFixed(3);
  if (same(umur0_avant, umur0Doublage) || same(umur_avant, umur0Doublage)) return umur0Doublage;
  const bare = Math.min(2.5, Number(umur0));
  const capped = 1 / (1 / bare + (type_doublage === 3 ? 0.1 : 0.21));
  if (same(umur0_avant, capped) || same(umur_avant, capped)) return capped;
  if (same(umur0_avant, bare)) return bare;
  return umur0Doublage;
}
