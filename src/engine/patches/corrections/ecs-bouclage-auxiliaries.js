/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(ecsBouclageAuxiliaries)$" }] */
/**
 * §15 (auxiliaires de distribution d'ECS), a collective installation whose hot-water network is
 * looped (enum_bouclage_reseau_ecs_id 2): the loop's circulator, per month j, at the building's
 * scale (Open3CL/engine#157, #158):
 *   Qdw = 0.24 × Becs_j, qdw = Qdw / (5.815 × 5 × Njj) / 1000, Lb = 1.2 × (1.1 × S / Niv + 4 × Niv),
 *   ΔPb = 0.2 × Lb + 10, Phyd = ΔPb × 1000 × qdw / 3600, Eff = 0.035 × Phyd^0.45,
 *   Pcirb = max(Phyd / Eff, 20 W), Qcirb = (5 × Pcirb + 19 × 20) × Njj Wh;
 * the need in kWh, as the engine keeps it (the registry's figures of LICIEL v209 to 10⁻⁴; the
 * 20 W floor binds on every corpus building whose number of levels the DPE gives, Niv 1
 * otherwise, as the engine's heating circulator takes). The engine keeps no monthly hot-water
 * need: the installation's is spread over the occupation days (only matters above the floor).
 * Returns the installation's part in kWh/yr, at the scale its hot-water consumption is
 * apportioned from (a flat's own installation: the flat's share of the building's surface; an
 * installation of the whole building: the building's, apportioned by its key later); 0 for
 * another network, an individual installation, one modelled as a heat network (type 3), or a
 * flat whose DPE gives no building surface larger than its own (the share is unknown).
 */
function ecsBouclageAuxiliaries(dpe, ecs, di, surfaceImmeuble) {
  const de = ecs.donnee_entree;
  if (String(de.enum_type_installation_id) !== '2') return 0;
  if (String(de.enum_bouclage_reseau_ecs_id) !== '2') return 0;
  const cg = dpe.logement.caracteristique_generale;
  const shImmeuble = Number(surfaceImmeuble);
  const shInstallation = Number(de.surface_habitable) || Number(cg.surface_habitable_logement);
  const shLogement = Number(cg.surface_habitable_logement);
  if (!(shImmeuble > 0) || !(shInstallation > 0)) return 0;
  if (shLogement > 0 && !(shImmeuble > shLogement)) return 0;
  // the installation describes a flat (its need the flat's) or the building (its need the building's)
  const share = Math.min(1, shInstallation / shImmeuble);
  const besoinImmeuble = (Number(di.besoin_ecs) || 0) / share;
  const niveaux = Number(cg.nombre_niveau_immeuble) || 1;
  const Lb = 1.2 * ((1.1 * shImmeuble) / niveaux + 4 * niveaux);
  const deltaP = 0.2 * Lb + 10;
  const njj = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 24];
  const jours = njj.reduce((a, b) => a + b, 0);
  let wh = 0;
  for (const n of njj) {
    const Qdw = 0.24 * ((besoinImmeuble * n) / jours);
    const qdw = Qdw / (5.815 * 5 * n) / 1000;
    const Phyd = (deltaP * 1000 * qdw) / 3600;
    const Pcirb = Phyd > 0 ? Math.max(Phyd / (0.035 * Phyd ** 0.45), 20) : 20;
    wh += (5 * Pcirb + 19 * 20) * n;
  }
  return (wh / 1000) * share;
}
