/**
 * Generators a DPE files under the registry's default type for an undescribed collective system
 * (heating 119, hot water 84: "chaudière fioul pénalisante") while giving the 3CL table row of
 * what it is: the engine reads the generator's type from that row (its `tv_generateur_combustion_id`
 * or `tv_rendement_generation_id`: 2262E0020943Y's "chaudière gaz basse température 2001-2015",
 * 2262E0004883G's "convecteur électrique nfc", 2262E0005683A's "réseau de chaleur non isolé") and
 * computes that. The prepared DPE carries the type the engine computed, so that what reads the
 * type (names, works, the audit's judgements) reads what the engine simulates; the engine's
 * figures are the same either way (the whole `sortie` compared on the corpus's nine such
 * generators and two outside it).
 */
import type { RawDpe, RawElement, RawGeneratorHolder } from './raw.js';

/** The registry's default type per category, and the field that holds it. */
const DEFAULTS = [
  {
    category: 'installation_chauffage',
    field: 'enum_type_generateur_ch_id',
    type: '119',
    gens: (i: RawGeneratorHolder) => i.generateur_chauffage_collection?.generateur_chauffage,
    list: (d: RawDpe) => d.logement?.installation_chauffage_collection?.installation_chauffage,
  },
  {
    category: 'installation_ecs',
    field: 'enum_type_generateur_ecs_id',
    type: '84',
    gens: (i: RawGeneratorHolder) => i.generateur_ecs_collection?.generateur_ecs,
    list: (d: RawDpe) => d.logement?.installation_ecs_collection?.installation_ecs,
  },
] as const;

/** A generator whose default type was replaced by the one the engine computed. */
export interface ResolvedDefault {
  /** "installation_chauffage:0" */
  referenceId: string;
  /** its position among the installation's generators */
  generator: number;
  from: string;
  to: string;
}

/**
 * Writes into `raw` (the DPE as read, before any works) the type the engine computed (`output`,
 * the engine's run on `raw`) for each generator filed under the registry's default type, where
 * the engine read another from the DPE's own table row. Returns what it changed.
 */
export function resolveDefaultGenerators(raw: RawDpe, output: RawDpe): ResolvedDefault[] {
  const out: ResolvedDefault[] = [];
  for (const d of DEFAULTS) {
    const computed = d.list(output) ?? [];
    (d.list(raw) ?? []).forEach((inst, i) => {
      const twin = computed[i];
      const done: RawElement[] = (twin && d.gens(twin)) ?? [];
      (d.gens(inst) ?? []).forEach((g, j) => {
        if (String(g.donnee_entree[d.field] ?? '') !== d.type) return;
        const to = String(done[j]?.donnee_entree?.[d.field] ?? '');
        if (!to || to === d.type) return;
        g.donnee_entree[d.field] = to;
        out.push({ referenceId: `${d.category}:${i}`, generator: j, from: d.type, to });
      });
    });
  }
  return out;
}
