/* global enums, hasConsoForAuxDistribution */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(circulateurCascade)$" }] */
/**
 * The divisor of the heating circulator's flow (nbGenerateurCascade in 15_conso_aux.js, the
 * flow is Pnc × Sc / Sh / it): the number of generators, as the engine has it, except for the
 * boiler of an installation with an insert or stove in appoint whose appoint has no water
 * network: the circulator carries the boiler's share of the need, 0.75 (1 / 0.75), not half; the
 * base of a collective base + appoint installation; and a hybrid heat pump, one appliance on one
 * water network, whose circulator carries the whole flow (1).
 */
function circulateurCascade(gen_ch, cfg_ch, pos) {
  // a part of a hybrid heat pump (§9.1.4.3: its heat-pump and boiler parts on the same emitters):
  // the circulator on the whole flow, as for a single generator, its consumption still shared
  // between the parts (15_conso_aux.js); 2459E0028946S: 212.17 kWh/yr, the XML's, 40.5 W, where
  // half the flow gives the 30 W floor (157.29)
  if (partOfPacHybride(gen_ch[pos].donnee_entree)) return 1;
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

/**
 * Whether a heating generator is a part of a hybrid heat pump (its heat pump or its boiler:
 * enum_type_generateur_ch_id 143 to 170, "pompe à chaleur hybride : partie …"), withdrawn types
 * 143 and 144 included: one appliance on one water network whatever its type's date
 * (pac-hybride-coef's isPacHybride() follows the engine's zone share, 145 to 170, instead).
 */
function partOfPacHybride(de) {
  const type = enums.type_generateur_ch[de?.enum_type_generateur_ch_id] ?? '';
  return type.startsWith('pompe à chaleur hybride');
}
