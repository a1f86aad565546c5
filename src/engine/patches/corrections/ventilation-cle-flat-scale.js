/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(ventilationAtFlatScale)$" }] */
/**
 * Whether a ventilation's auxiliaries were computed at the flat's scale: its surface_ventile is
 * the dwelling's Sh (4_ventilation.js reads any other surface as the building's, which the
 * key cle_repartition_ventilation then apportions). A missing surface keeps the key.
 */
function ventilationAtFlatScale(vt, Sh) {
  const sv = Number(vt.donnee_entree.surface_ventile);
  return sv > 0 && Math.abs(sv - Number(Sh)) < 0.01;
}
