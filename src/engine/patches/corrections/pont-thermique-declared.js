/* global tv, isNil */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(declaredPontThermiqueRow)$" }] */
/**
 * The thermal-bridge row the DPE declares (tv_pont_thermique_id), when it is one of this kind of
 * junction and the DPE's stored k is that row's k (whole, or by the share it counts).
 */
function declaredPontThermiqueRow(de, pt_di) {
  if (!de.tv_pont_thermique_id || isNil(pt_di?.k)) return undefined;
  const row = tv('pont_thermique', { tv_pont_thermique_id: de.tv_pont_thermique_id });
  if (!row || String(row.enum_type_liaison_id) !== String(de.enum_type_liaison_id))
    return undefined;
  const k = Number(row.k);
  const stored = Number(pt_di.k);
  const share = Number(de.pourcentage_valeur_pont_thermique ?? 1);
  const same = (a, b) => Math.abs(a - b) < 1e-6;
  return same(stored, k) || same(stored, k * share) || same(stored, k / 2) ? row : undefined;
}
