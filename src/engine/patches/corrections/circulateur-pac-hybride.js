/* global enums */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(partOfPacHybride)$" }] */

/**
 * Whether a heating generator is a part of a hybrid heat pump (its heat pump or its boiler:
 * enum_type_generateur_ch_id 143 to 170, "pompe à chaleur hybride : partie …"). The registry
 * sizes the installation's circulator on its whole flow, as for a single generator, and the
 * engine then shares its consumption between the two parts: 2459E0028946S's 212.17 kWh/yr
 * (40.5 W), where the engine sized it on half the flow (the 30 W floor, 157.29 kWh/yr).
 */
function partOfPacHybride(de) {
  const type = enums.type_generateur_ch[de?.enum_type_generateur_ch_id] ?? '';
  return type.startsWith('pompe à chaleur hybride');
}
