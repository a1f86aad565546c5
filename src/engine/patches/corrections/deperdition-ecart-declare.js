/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(ecartTotalDeclare)$" }] */
/**
 * The difference a caller that simulates works on a DPE asks the changed totals to keep: where
 * the engine keeps the declared total of the walls' (thermal bridges') losses for the DPE as it
 * is (each element equal to the declared one, the total not their sum), a copy whose elements
 * the works change has its total computed from its elements, and the whole difference would go
 * to the works. The caller passes the difference the unchanged DPE's run kept in
 * `sortie.deperdition.ecart_total_declare_mur` (`_pont_thermique`): the computed total of
 * changed elements keeps it. 0 when absent or not a number.
 */
function ecartTotalDeclare(dpe, kind) {
  const v = Number(dpe.logement.sortie?.deperdition?.[`ecart_total_declare_${kind}`]);
  return Number.isFinite(v) ? v : 0;
}
