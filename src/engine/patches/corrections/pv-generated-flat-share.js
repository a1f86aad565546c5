/* global productionENR */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(withPvShareOfFlat)$" }] */
/**
 * Runs fn with the photovoltaic production of a flat generated from a building's DPE
 * (enum_methode_application_dpe_log 10 to 13, 33, 34, 38 to 40) taken at the flat's share of
 * the building's habitable surface: the panels are the building's, the consumption the flat's
 * (the method computes the building and gives each flat its share, which Tap's ratios keep).
 * Any other DPE, or a share that cannot be read, runs fn as it is. Synchronous.
 */
function withPvShareOfFlat(logement, fn) {
  const cg = logement.caracteristique_generale;
  const generated = [10, 11, 12, 13, 33, 34, 38, 39, 40];
  const share = Number(cg.surface_habitable_logement) / Number(cg.surface_habitable_immeuble);
  if (
    !generated.includes(Number(cg.enum_methode_application_dpe_log_id)) ||
    !(share > 0 && share < 1)
  )
    return fn();
  const own = Object.prototype.hasOwnProperty.call(productionENR, 'getPpv');
  const getPpv = productionENR.getPpv;
  productionENR.getPpv = (...args) => getPpv.apply(productionENR, args) * share;
  try {
    return fn();
  } finally {
    if (own) productionENR.getPpv = getPpv;
    else delete productionENR.getPpv;
  }
}
