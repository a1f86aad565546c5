/**
 * The diagnostician's works packs written in the XML (`descriptif_travaux`), shown clean beside
 * dpe-sim's own scenarios: empty and "Sans" steps dropped, the class each pack reaches computed
 * worse-of from its after-works figures with the DPE's own thresholds, and placeholder costs
 * flagged (a maximum under 1,000 €: most are 100–150 €, not a real estimate). A pack reaching no
 * better class than the DPE's own registry class is flagged too (`sansGainDeClasse`): most give
 * the registry's current figures as after-works figures (copied by the diagnostician's software),
 * and dpe-sim's cheapest scenario "reaching" that class is no works at all, so it gets no
 * scenario cost to compare with.
 */
import type { AutoSolution, RegistryPack, Thresholds } from '../contract/schemas.js';
import { classesOf, classIndex, classOf, isClassLetter } from '../contract/classes.js';
import type { RawDpe } from '../dpe/raw.js';
import { isRecord, num, str } from '../dpe/raw.js';

/** A pack whose maximum cost is under this is a placeholder, not an estimate. */
export const PLACEHOLDER_MAX_EUR = 1000;

function asArray(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  return v === undefined || v === null ? [] : [v];
}

/** A step worth showing: not empty, not "Sans" / "Aucun" / "-". */
function isRealStep(d: string): boolean {
  const t = d
    .trim()
    .toLowerCase()
    .replace(/[.\s]+$/, '');
  return t !== '' && !['sans', 'aucun', 'aucune', 'néant', 'neant', '-', '/'].includes(t);
}

export function isPlaceholder(p: Pick<RegistryPack, 'coutMax'>): boolean {
  return p.coutMax !== null && p.coutMax < PLACEHOLDER_MAX_EUR;
}

/** True when `apres` is known and no better than `avant` (both class letters). */
export function noClassGain(apres: string | null, avant: string | null): boolean {
  return (
    apres !== null &&
    avant !== null &&
    isClassLetter(apres) &&
    isClassLetter(avant) &&
    classIndex(apres) >= classIndex(avant)
  );
}

/**
 * The packs, clean. `thresholds`: the DPE's own (its date, surface, altitude). `solutions`:
 * dpe-sim's scenarios, to show the cheapest one reaching each pack's class. `classeAvant`: the
 * DPE's official class as the registry gives it (see `registryOfficialClass`), or null.
 */
export function registryPacks(
  raw: RawDpe,
  thresholds?: Thresholds,
  solutions: readonly AutoSolution[] = [],
  classeAvant: string | null = null,
): RegistryPack[] {
  const dt = raw.descriptif_travaux;
  if (!isRecord(dt)) return [];
  const coll = dt.pack_travaux_collection;
  const packs = isRecord(coll) ? asArray(coll.pack_travaux) : [];
  return packs.filter(isRecord).map((p) => {
    const travaux = isRecord(p.travaux_collection) ? asArray(p.travaux_collection.travaux) : [];
    const descriptions = travaux
      .filter(isRecord)
      .map((t) => (str(t.description_travaux) ?? str(t.description))?.split('\n')[0]?.trim())
      .filter((d): d is string => d !== undefined && isRealStep(d));
    const consoApres = num(p.conso_5_usages_apres_travaux) ?? null;
    const gesApres = num(p.emission_ges_5_usages_apres_travaux) ?? null;
    // worse-of when the pack gives its GES after works; many packs give only the consumption:
    // then the energy class (the official class can only be as good or worse)
    const classeApres =
      thresholds && consoApres !== null
        ? gesApres !== null
          ? classesOf(consoApres, gesApres, thresholds).dpe
          : classOf(consoApres, thresholds.dpe)
        : null;
    const pack: RegistryPack = {
      description:
        descriptions.join(' + ') ||
        (str(p.description) ?? `pack ${str(p.enum_num_pack_travaux_id) ?? ''}`.trim()),
      coutMin: num(p.cout_pack_travaux_min) ?? null,
      coutMax: num(p.cout_pack_travaux_max) ?? null,
      consoApres,
      gesApres,
      classeApres,
      coutPlaceholder: false,
      coutScenario: null,
      classeAvant,
      sansGainDeClasse: noClassGain(classeApres, classeAvant),
    };
    pack.coutPlaceholder = isPlaceholder(pack);
    pack.coutScenario =
      classeApres && !pack.sansGainDeClasse ? cheapestReaching(solutions, classeApres) : null;
    return pack;
  });
}

/** The cost of dpe-sim's cheapest scenario reaching `classe` or better, or null. */
export function cheapestReaching(
  solutions: readonly AutoSolution[],
  classe: string,
): number | null {
  if (!isClassLetter(classe)) return null;
  let best: number | null = null;
  for (const s of solutions) {
    const reached = s.result.classe_bilan_dpe.value;
    if (reached <= classIndex(classe) && (best === null || s.cout < best)) best = s.cout;
  }
  return best;
}
