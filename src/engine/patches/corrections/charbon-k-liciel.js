/* global bug_for_bug_compat, K */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(coalPcsRatio|pcsRatio)$" }] */

/**
 * The ratio of higher to lower heating value (k, §13.2.1.2) a coal-fired heating generator's
 * efficiency is computed with: the method's 1.04, except, in bug-for-bug mode, on a LICIEL DPE
 * (usr_logiciel_id 26615), whose registry figures compute it with 1, as for electricity
 * (2359E2800645M, an "autre système à combustion autres énergies fossiles" burning coal: stored
 * efficiency 0.763 and heating 48 910.15 kWh/yr; k 1 gives 0.7630 and 48 910.07, the method's
 * 1.04 gives 0.7621 and 48 969.36). `diagnostiqueur`: the engine's, carrying the DPE's software
 * (logiciel-dpe-kept).
 */
function coalPcsRatio(diagnostiqueur) {
  const liciel = diagnostiqueur?.logiciel_dpe?.usr_logiciel_id === '26615';
  return bug_for_bug_compat && liciel ? 1 : 1.04;
}

/**
 * The k of coal each generator is computed with, set by calc_generateur_combustion_ch() from its
 * DPE's software before it computes the generator's losses; keyed by the generator's
 * donnee_intermediaire, which every step of that computation (QPx) receives.
 */
const coalKOf = new WeakMap();

/**
 * k (PCS/PCI) of `typeEnergie` for the generator `di`: the method's table K, but coal's as its
 * DPE's software took it (coalPcsRatio).
 */
function pcsRatio(typeEnergie, di) {
  if (typeEnergie === 'charbon' && coalKOf.has(di)) return coalKOf.get(di);
  return K[typeEnergie];
}
