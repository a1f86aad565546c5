/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(circulateurOfGeneratedFlat)$" }] */
/**
 * The heating circulator of a flat generated from a building's DPE (enum_methode_application_
 * dpe_log 10 to 13, 33, 34, 38 to 40), whose installation heats the flat's own surface while
 * the engine's Sh and GV are the building's: the building's circulators, given to the flat at
 * its share of the surface (surface_chauffee / Sh). A collective installation has one, on the
 * building's heated surface Sh and losses GV. An individual installation
 * (enum_type_installation_id 1) stands for rdim of them, one per dwelling: each circulator is
 * an average dwelling's (Sh / rdim, GV / rdim), rdim of them at the flat's share. Any other
 * installation is unchanged.
 */
function circulateurOfGeneratedFlat(dpe, de, Sh, GV) {
  const cg = dpe.logement.caracteristique_generale;
  const generated = [10, 11, 12, 13, 33, 34, 38, 39, 40];
  const flat = Number(cg.surface_habitable_logement);
  const heated = Number(de.surface_chauffee || Sh);
  if (
    !generated.includes(Number(cg.enum_methode_application_dpe_log_id)) ||
    !(flat > 0) ||
    !(Number(Sh) > flat) ||
    Math.abs(heated - flat) >= 0.01
  )
    return { de, Sh, GV, share: 1 };
  const installation = (
    dpe.logement.installation_chauffage_collection?.installation_chauffage || []
  ).find((inst) =>
    (inst.generateur_chauffage_collection?.generateur_chauffage || []).some(
      (gen) => gen.donnee_entree === de
    )
  );
  const ide = installation?.donnee_entree || {};
  const units = Number(ide.enum_type_installation_id) === 1 ? Number(ide.rdim) || 1 : 1;
  const unit = Number(Sh) / units;
  return {
    de: { ...de, surface_chauffee: unit },
    Sh: unit,
    GV: GV / units,
    share: (units * heated) / Number(Sh)
  };
}
