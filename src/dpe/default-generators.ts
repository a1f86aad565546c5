/**
 * Generators a DPE files under the registry's default type for an undescribed collective system
 * (heating 119, hot water 84: "chaudière fioul pénalisante") while naming the 3CL table row of
 * what it is (its `tv_generateur_combustion_id` or `tv_rendement_generation_id`): the engine reads
 * the generator's type from that row (the first it lists) and computes that. Where the row is of
 * another family than the default (2262E0020943Y's "Chaudière gaz basse température 2001-2015",
 * 2262E0004883G's "Générateur à effet joule direct", 2262E0005683A's "Réseau de chaleur"), the
 * prepared DPE carries the type the engine computed, so that what reads the type (works, the six
 * items) reads what the engine simulates; the engine's figures are the same either way (its whole
 * `sortie` compared on the ten generators the engine re-types in 7 corpus DPEs and two outside it). Where the row is
 * the default's own (2213E1322779R's hot water, row "35|84", the penalising fuel-oil boiler), the
 * DPE says nothing of what the generator is, and it stays the default.
 */
import type { Fields, RawDpe, RawElement, RawGeneratorHolder } from './raw.js';

/** The registry's default type per category, and the field that holds it. */
const DEFAULTS = [
  {
    category: 'installation_chauffage',
    use: 'ch',
    type: '119',
    gens: (i: RawGeneratorHolder) => i.generateur_chauffage_collection?.generateur_chauffage,
    list: (d: RawDpe) => d.logement?.installation_chauffage_collection?.installation_chauffage,
  },
  {
    category: 'installation_ecs',
    use: 'ecs',
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
  /** the name of the 3CL row the type is read from ("Générateur à effet joule direct") */
  row: string;
}

/** The 3CL row a generator's inputs name: the types it lists, and its name. */
export type RowOf = (
  use: 'ch' | 'ecs',
  inputs: Fields,
) => { types: readonly string[]; name: string } | undefined;

const filed = new WeakMap<RawElement, ResolvedDefault>();

/** Whether `g` (a generator of a prepared DPE) was filed under the default type, and its row. */
export function filedAsDefault(g: RawElement): ResolvedDefault | undefined {
  return filed.get(g);
}

/**
 * Writes into `raw` (the DPE as read, before any works) the type the engine computed (`output`,
 * the engine's run on `raw`) for each generator filed under the registry's default type whose own
 * row (`rowOf`) lists other types than the default. Returns what it changed.
 */
export function resolveDefaultGenerators(
  raw: RawDpe,
  output: RawDpe,
  rowOf: RowOf,
): ResolvedDefault[] {
  const out: ResolvedDefault[] = [];
  for (const d of DEFAULTS) {
    const field = `enum_type_generateur_${d.use}_id`;
    const computed = d.list(output) ?? [];
    (d.list(raw) ?? []).forEach((inst, i) => {
      const twin = computed[i];
      const done: RawElement[] = (twin && d.gens(twin)) ?? [];
      (d.gens(inst) ?? []).forEach((g, j) => {
        if (String(g.donnee_entree[field] ?? '') !== d.type) return;
        const to = String(done[j]?.donnee_entree?.[field] ?? '');
        const row = rowOf(d.use, g.donnee_entree);
        if (!to || to === d.type || !row || row.types.includes(d.type) || !row.types.includes(to))
          return;
        g.donnee_entree[field] = to;
        const r = {
          referenceId: `${d.category}:${i}`,
          generator: j,
          from: d.type,
          to,
          row: row.name,
        };
        filed.set(g, r);
        out.push(r);
      });
    });
  }
  return out;
}
