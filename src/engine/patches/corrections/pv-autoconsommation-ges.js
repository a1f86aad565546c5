/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(pvSelfConsumedGes)$" }] */
/**
 * The emissions of the electricity the dwelling self-consumes from its photovoltaic panels taken
 * off its emissions, use by use, as its final and primary energy are: the self-consumed kWh of a
 * use times that use's electricity factor (the factors of conso.js's coef_ges: heating 0.079,
 * hot water 0.065, cooling 0.064, lighting 0.069, auxiliaries 0.064 kg CO2e/kWh). The totals are
 * lowered, the auxiliaries' parts (ventilation, generation, distribution) stay as computed, as
 * the registry's DPEs have them.
 * @param productionElectricite {object} the self-consumption by use (calculateConsoElecAc)
 * @param conso {{emission_ges: object}}
 * @param Sh {number}
 */
function pvSelfConsumedGes(productionElectricite, conso, Sh) {
  const ges = conso.emission_ges;
  if (!ges) return;
  const byUse = [
    ['emission_ges_ch', productionElectricite.conso_elec_ac_ch, 0.079],
    ['emission_ges_ecs', productionElectricite.conso_elec_ac_ecs, 0.065],
    ['emission_ges_fr', productionElectricite.conso_elec_ac_fr, 0.064],
    ['emission_ges_eclairage', productionElectricite.conso_elec_ac_eclairage, 0.069],
    ['emission_ges_totale_auxiliaire', productionElectricite.conso_elec_ac_auxiliaire, 0.064]
  ];
  let total = 0;
  for (const [key, kwh, factor] of byUse) {
    const kg = (kwh || 0) * factor;
    if (!kg) continue;
    ges[key] = (ges[key] || 0) - kg;
    total += kg;
  }
  ges.emission_ges_5_usages -= total;
  ges.emission_ges_5_usages_m2 = Math.floor(ges.emission_ges_5_usages / Sh);
}
