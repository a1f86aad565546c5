/**
 * Works on the distribution and regulation of collective installations (a building's boiler
 * room, a district-heating substation): what the diagnosticians recommend on buildings whose
 * generator the dwellings do not own. Each recipe changes engine inputs that test/costs.test.ts
 * proves move the engine's result:
 * - `robinets`: water radiators without thermostatic valves (emission ids 24–27, 32–35) get them
 *   (the same radiator "avec robinet thermostatique", id + 4) and room-by-room regulation
 *   (enum_type_regulation_id 2); the emission / regulation table ids are dropped.
 * - `emetteurs`: every water radiator becomes a two-pipe radiator with thermostatic valves
 *   installed after 2000 (id 36 high / 37 low-medium temperature on a collective network); the
 *   declared intermittence row stays (it carries the DPE's individual metering).
 * - `calorifugeage-ch`: the heating network becomes insulated (reseau_distribution_isole 1).
 * - `calorifugeage-ecs`: the collective hot-water network becomes insulated.
 * - `sous-station`: an uninsulated district-heating connection (generator id 107 "réseau de
 *   chaleur non isolé") becomes insulated (108). NOT in the catalogue: the engine 1.4.6 gives
 *   107 and 108 the same efficiency (measured on corpus 2314E4481144I and 2375E2294683A), so it
 *   would be priced with no gain; kept here for an engine that tells them apart.
 */
import type { RawElement, RawGeneratorHolder } from '../dpe/raw.js';
import { emsOf, gensOf, n, range, s } from './context.js';
import { OTHER_KIND, type Applicability } from './generator-kinds.js';

export type DistributionWork =
  'robinets' | 'emetteurs' | 'calorifugeage-ch' | 'calorifugeage-ecs' | 'sous-station';

const INDIVIDUELLE = '1'; // enum_type_installation_id
const WITHOUT_VALVES = new Set([...range(24, 27), ...range(32, 35)]);
const WATER_RADIATORS = new Set(range(24, 39));
const HIGH_TEMP_RADIATORS = new Set(['24', '26', '28', '30', '32', '34', '36', '38']);
/** what `emetteurs` installs: two-pipe radiators with thermostatic valves, high / low temperature */
const TWO_PIPE_WITH_VALVES = new Set(['36', '37']);
const DH_NOT_INSULATED = '107';
const DH_INSULATED = '108';

const emission = (e: RawElement): string => s(e.donnee_entree.enum_type_emission_distribution_id);

function collectiveRefusal(inst: RawElement): string | undefined {
  const t = s(inst.donnee_entree.enum_type_installation_id);
  if (t === INDIVIDUELLE || t === '') return OTHER_KIND.collectiveNetwork;
  return undefined;
}

export function distributionApplies(
  inst: RawGeneratorHolder,
  work: DistributionWork,
): Applicability {
  const refusal = collectiveRefusal(inst);
  if (refusal) return refusal;
  const ems = emsOf(inst);
  switch (work) {
    case 'robinets':
      return ems.some((e) => WITHOUT_VALVES.has(emission(e)))
        ? true
        : 'no water radiator without thermostatic valves';
    case 'emetteurs':
      // a two-pipe radiator with valves (36, 37) and room-by-room regulation already is what
      // the works install: only its installation period would change, which the 3CL tables do
      // not read for it (2314E4481144I, 2492E0831922R: 3 500 € for no gain)
      return ems.some(
        (e) =>
          WATER_RADIATORS.has(emission(e)) &&
          s(e.donnee_entree.enum_periode_installation_emetteur_id) !== '3' &&
          !(
            TWO_PIPE_WITH_VALVES.has(emission(e)) &&
            s(e.donnee_entree.enum_type_regulation_id) === '2'
          ),
      )
        ? true
        : 'no water radiator installed before 2001 to replace (two-pipe radiators with valves and room regulation already count as new)';
    case 'calorifugeage-ch':
      return ems.some(
        (e) =>
          n(e.donnee_entree.reseau_distribution_isole) === 0 &&
          s(e.donnee_entree.enum_temp_distribution_ch_id) !== '1',
      )
        ? true
        : 'no uninsulated heating network';
    case 'calorifugeage-ecs':
      return n(inst.donnee_entree.reseau_distribution_isole) === 0
        ? true
        : 'the hot-water network is already insulated (or not described)';
    case 'sous-station':
      return gensOf(inst).some(
        (g) => s(g.donnee_entree.enum_type_generateur_ch_id) === DH_NOT_INSULATED,
      )
        ? true
        : 'no uninsulated district-heating network (the substation works apply to one)';
  }
}

export function distributionApply(inst: RawGeneratorHolder, work: DistributionWork): void {
  switch (work) {
    case 'robinets':
      for (const e of emsOf(inst)) {
        const d = e.donnee_entree;
        if (!WITHOUT_VALVES.has(emission(e))) continue;
        d.enum_type_emission_distribution_id = String(Number(emission(e)) + 4);
        d.enum_type_regulation_id = '2';
        delete d.tv_rendement_emission_id;
        delete d.tv_rendement_regulation_id;
      }
      return;
    case 'emetteurs':
      for (const e of emsOf(inst)) {
        const d = e.donnee_entree;
        if (!WATER_RADIATORS.has(emission(e))) continue;
        d.enum_type_emission_distribution_id = HIGH_TEMP_RADIATORS.has(emission(e)) ? '36' : '37';
        d.enum_type_regulation_id = '2';
        d.enum_periode_installation_emetteur_id = '3';
        delete d.tv_rendement_emission_id;
        delete d.tv_rendement_regulation_id;
        // tv_intermittence_id is kept: in bug-for-bug mode the engine reads from the row the DPE
        // declares only whether the dwellings have individual metering, then looks the row up
        // again from the new emitter; dropped, the metering the DPE states was lost and the
        // intermittence I0 rose (2262E0005683A: 0.97 → 1.03 where the metered row gives 0.95;
        // the works used 28 kWh/yr more)
      }
      return;
    case 'calorifugeage-ch':
      for (const e of emsOf(inst)) {
        const d = e.donnee_entree;
        if (n(d.reseau_distribution_isole) !== 0 || s(d.enum_temp_distribution_ch_id) === '1')
          continue;
        d.reseau_distribution_isole = 1;
        delete d.tv_rendement_distribution_ch_id;
      }
      return;
    case 'calorifugeage-ecs':
      inst.donnee_entree.reseau_distribution_isole = 1;
      delete inst.donnee_entree.tv_rendement_distribution_ecs_id;
      return;
    case 'sous-station':
      for (const g of gensOf(inst)) {
        const d = g.donnee_entree;
        if (s(d.enum_type_generateur_ch_id) !== DH_NOT_INSULATED) continue;
        d.enum_type_generateur_ch_id = DH_INSULATED;
        for (const k of Object.keys(d)) if (k.startsWith('tv_')) delete d[k];
        g.donnee_intermediaire = {};
      }
      return;
  }
}
