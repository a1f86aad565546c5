/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(circulateurOfBuilding)$" }] */
/**
 * The heating circulator of a flat generated from a building's DPE (enum_methode_application_
 * dpe_log 10 to 13, 33, 34, 38 to 40), whose installation heats the flat's own surface while
 * the engine's Sh and GV are the building's: the circulator is the building's (its heated
 * surface Sh), its consumption given to the flat at its share (surface_chauffee / Sh). Any
 * other installation is unchanged (share 1).
 */
function circulateurOfBuilding(dpe, de, Sh) {
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
    return { de, share: 1 };
  return { de: { ...de, surface_chauffee: Number(Sh) }, share: heated / Number(Sh) };
}
