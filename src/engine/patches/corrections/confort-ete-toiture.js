/* global enums */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(toitureIsolee)$" }] */
/**
 * The summer-comfort criterion "isolation de la toiture" over every roof that loses heat (b > 0:
 * onto the outside, a lost attic, an unheated space), not only those onto the outside. A part is
 * insulated unless it is declared uninsulated, or of unknown insulation with a Uph above
 * 1 W/m².K (its period's table reads it as bare); the roof is insulated when its insulated parts
 * cover at least half of its heat-losing area. A dwelling with no heat-losing roof (a heated
 * space above) is not marked down: 1, as before.
 */
function toitureIsolee(ph_list) {
  let area = 0;
  let insulated = 0;
  for (const ph of ph_list) {
    const de = ph.donnee_entree;
    const di = ph.donnee_intermediaire || {};
    const b = Number(di.b ?? 1);
    if (!(b > 0)) continue;
    const s = Number(de.surface_paroi_opaque) || 0;
    const type_isolation = enums.type_isolation[de.enum_type_isolation_id];
    const bare =
      type_isolation === 'non isolé' || (type_isolation === 'inconnu' && Number(di.uph) > 1);
    area += s;
    if (!bare) insulated += s;
  }
  if (!(area > 0)) return 1;
  return insulated >= area / 2 ? 1 : 0;
}
