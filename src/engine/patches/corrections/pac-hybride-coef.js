/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(isPacHybride)$" }] */
/**
 * Whether a heating generator has its climate zone's share of the need already: the range
 * getProrataGenerateur() of 9_chauffage.js gives it to (enum_type_generateur_ch_id 145 to 170, the
 * heat pump's part and its boiler's, §9.1.4.3). Deliberately the engine's range, not every hybrid
 * part: the withdrawn types 143 and 144 ("(supprime)") get no zone share from the engine, so they
 * keep the configuration's (circulateur-appoint-share's partOfPacHybride() asks another question,
 * whether one appliance is on one water network, and takes them in).
 */
function isPacHybride(de) {
  const id = Number(de?.enum_type_generateur_ch_id);
  return id >= 145 && id <= 170;
}
