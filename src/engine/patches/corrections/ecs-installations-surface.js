/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(ecsSharesBySurface|ecsShareOf)$" }] */
/**
 * Whether the hot-water need of a house or flat with more than two installations is shared by
 * the surface each declares, as the registry does, rather than halved for each (§11.4's rule for
 * two systems, which counts the need 1.5 times with three): when every installation declares a
 * surface_habitable and they make the dwelling's habitable surface within 1%. Records each
 * installation's share (read by ecsShareOf) and returns true; otherwise records nothing and
 * returns false (the engine's rule). A building (th 'immeuble') keeps the engine's own rule.
 */
function ecsSharesBySurface(installations, th, Sh) {
  if (th === 'immeuble' || installations.length <= 2) return false;
  const total = Number(Sh);
  const surfaces = installations.map((i) => Number(i.donnee_entree.surface_habitable));
  if (!(total > 0) || !surfaces.every((s) => s > 0)) return false;
  const sum = surfaces.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - total) > 0.01 * total) return false;
  installations.forEach((i, k) => {
    (i.donnee_utilisateur = i.donnee_utilisateur || {}).ecsSurfaceShare = surfaces[k] / total;
  });
  return true;
}

/** The share of the dwelling's hot-water need ecsSharesBySurface gave the installation, or 1. */
function ecsShareOf(installation) {
  const share = installation.donnee_utilisateur && installation.donnee_utilisateur.ecsSurfaceShare;
  return share > 0 ? share : 1;
}
