/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(isPacHybride)$" }] */
/**
 * Whether a heating generator is a part of a hybrid heat pump (enum_type_generateur_ch_id 145 to
 * 170: the heat pump's part and its boiler's), the range getProrataGenerateur() of
 * 9_chauffage.js gives its climate zone's share of the need (§9.1.4.3).
 */
function isPacHybride(de) {
  const id = Number(de?.enum_type_generateur_ch_id);
  return id >= 145 && id <= 170;
}
