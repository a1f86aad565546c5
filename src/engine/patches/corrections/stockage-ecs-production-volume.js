/* global bug_for_bug_compat */
/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(stockageInHeatedVolume)$" }] */
/**
 * Whether a hot-water tank whose generator says position_volume_chauffe 0 is in the heated
 * volume as the registry reads it, in bug-for-bug mode: when the tank says so itself
 * (position_volume_chauffe_stockage 1) or, when it says nothing, when its individual
 * installation declares the production in the habitable volume (tv_rendement_distribution_ecs
 * 1, "production volume habitable + pièces alimentées contiguës", or 2, "… non contiguës");
 * never otherwise (the engine's reading).
 */
function stockageInHeatedVolume(instal_ecs, gen_ecs) {
  if (!bug_for_bug_compat) return false;
  const position = gen_ecs.donnee_entree.position_volume_chauffe_stockage;
  if (position !== undefined && position !== null && position !== '') return Number(position) === 1;
  const tv = Number(instal_ecs.donnee_entree.tv_rendement_distribution_ecs_id);
  return tv === 1 || tv === 2;
}
