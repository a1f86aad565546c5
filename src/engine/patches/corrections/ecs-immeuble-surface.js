/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(ecsBuildingShare)$" }] */
/**
 * The share of a whole building's hot-water need for one flat served by an individual
 * installation, when the building's installations each describe one flat of a type (its
 * surface_habitable, for rdim such flats): the flat's surface over the building's, when the
 * installations' surfaces times their rdim make the building's surface within 1% (as the
 * registry computes them). 0 otherwise (the engine's own rule: 1 / the number of flats), and
 * for a building whose installations declare the surface of all their flats together.
 */
function ecsBuildingShare(dpe, ecs, surfaceImmeuble) {
  const total = Number(surfaceImmeuble);
  let list = (dpe.logement.installation_ecs_collection || {}).installation_ecs || [];
  if (!Array.isArray(list)) list = [list];
  if (!(total > 0) || list.length < 2) return 0;
  const parts = list.map(
    (i) => Number(i.donnee_entree.surface_habitable) * (Number(i.donnee_entree.rdim) || 1)
  );
  if (!parts.every((p) => p > 0)) return 0;
  const sum = parts.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - total) > 0.01 * total) return 0;
  return Number(ecs.donnee_entree.surface_habitable) / total;
}
