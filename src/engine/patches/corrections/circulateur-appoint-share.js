/* global hasConsoForAuxDistribution */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(circulateurCascade)$" }] */
/**
 * The divisor of the heating circulator's flow (nbGenerateurCascade in 15_conso_aux.js, the
 * flow is Pnc × Sc / Sh / it): the number of generators, as the engine has it, except for the
 * boiler of an installation with an insert or stove in appoint whose appoint has no water
 * network: the circulator carries the boiler's share of the need, 0.75 (1 / 0.75), not half.
 */
function circulateurCascade(gen_ch, cfg_ch, pos) {
  if (
    cfg_ch === 'installation de chauffage avec insert ou poêle bois en appoint' &&
    pos === 0 &&
    gen_ch.length === 2 &&
    !hasConsoForAuxDistribution(gen_ch[1].donnee_entree.enum_type_generateur_ch_id)
  ) {
    return 1 / 0.75;
  }
  // a collective base with individual appoints (§9.8): the base's network carries the whole
  // heated surface's flow, shared between the generators on it, not with appoints that have none
  if (cfg_ch === 'installation de chauffage collectif avec base + appoint') {
    const hydrauliques = gen_ch.filter((g) =>
      hasConsoForAuxDistribution(g.donnee_entree.enum_type_generateur_ch_id)
    ).length;
    return hydrauliques || gen_ch.length;
  }
  return gen_ch.length;
}
