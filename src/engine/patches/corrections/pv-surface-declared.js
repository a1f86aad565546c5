/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(pvSurfaceReading|pvScapteur)$" }] */
import { bug_for_bug_compat as pvSurfaceBugForBug } from './utils.js';

/** The production each installation's XML stores, read before the engine writes its own. */
const pvDeclaredProduction = new WeakMap();

/**
 * Which of its panels' two descriptions the DPE computed its production with, when they
 * disagree (a surface and a number of modules that is not surface / 1.6): in bug-for-bug mode,
 * the one whose production is nearer the production_pv the DPE stores for the installation
 * (some software read the surface, some the modules); the modules (the engine's) otherwise.
 * @param productionElecEnr {object} the installation (production_elec_enr)
 * @param ppvOf {(reading: string) => number} the installation's production with that reading
 * @returns {'surface' | 'modules'}
 */
function pvSurfaceReading(productionElecEnr, ppvOf) {
  if (!pvSurfaceBugForBug) return 'modules';
  let panels = productionElecEnr.panneaux_pv_collection?.panneaux_pv || [];
  if (!Array.isArray(panels)) panels = [panels];
  const disagree = panels.some(
    (p) =>
      Number(p.nombre_module) > 0 &&
      Number(p.surface_totale_capteurs) > 0 &&
      Math.abs(1.6 * Number(p.nombre_module) - Number(p.surface_totale_capteurs)) > 0.01
  );
  if (!disagree) return 'modules';
  if (!pvDeclaredProduction.has(productionElecEnr))
    pvDeclaredProduction.set(
      productionElecEnr,
      Number(productionElecEnr.donnee_intermediaire?.production_pv)
    );
  const declared = pvDeclaredProduction.get(productionElecEnr);
  if (!(declared > 0)) return 'modules';
  const bySurface = ppvOf('surface');
  const byModules = ppvOf('modules');
  return Math.abs(Math.log(bySurface / declared)) < Math.abs(Math.log(byModules / declared))
    ? 'surface'
    : 'modules';
}

/** The surface of a group of panels (m²) for that reading. */
function pvScapteur(panneaux_pv, reading) {
  if (reading === 'surface' && Number(panneaux_pv.surface_totale_capteurs) > 0)
    return Number(panneaux_pv.surface_totale_capteurs);
  return 1.6 * panneaux_pv.nombre_module || panneaux_pv.surface_totale_capteurs;
}
