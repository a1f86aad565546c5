/**
 * The diagnostician's works packs written in the XML (`descriptif_travaux`), shown clean beside
 * dpe-sim's own scenarios: empty and "Sans" steps dropped, the class each pack reaches computed
 * worse-of from its after-works figures with the DPE's own thresholds, and placeholder costs
 * flagged (a maximum under 1,000 €: most are 100–150 €, not a real estimate). A pack reaching no
 * better class than the DPE's own registry class is flagged too (`sansGainDeClasse`): most give
 * the registry's current figures as after-works figures (copied by the diagnostician's software),
 * and dpe-sim's cheapest scenario "reaching" that class is no works at all, so it gets no
 * scenario cost to compare with.
 *
 * A pack is compared in its own frame: the diagnostician's software computed its figures with
 * the registry's electricity coefficient (2.3 before 2026) and the thresholds at the DPE's date,
 * so dpe-sim's scenarios are classed in that same frame (`ScenarioInPackFrame`), not in the one
 * the user simulates in (1.9 by default): 2474E3798234X, electric, is F at 2.3 and E at 1.9.
 */
import type { EditableChange, RegistryPack, Thresholds } from '../contract/schemas.js';
import {
  classesOf,
  classIndex,
  classOf,
  isClassLetter,
  type ClassLetter,
} from '../contract/classes.js';
import type { RawDpe } from '../dpe/raw.js';
import { isRecord, num, str } from '../dpe/raw.js';

/**
 * One of dpe-sim's scenarios as the packs see it: its cost and the class it reaches in the packs'
 * frame (the registry's coefficient and thresholds, normalized to the registry as the scenarios
 * are).
 */
export interface ScenarioInPackFrame {
  cout: number;
  classe: ClassLetter;
  editables: EditableChange[];
}

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

/**
 * The steps of one works description, as a person reads them. Diagnosticians' software writes
 * line breaks as the literal Visual Basic names ("…chauffageVbSimpleCrRemplacer…"): each is a
 * step of its own. Of a step on several real lines, the first line names the works (the rest
 * is detail). A step written "Title : advice…" keeps its title; a long step without one keeps
 * its first sentence. Empty and "Sans" steps are dropped.
 */
export function adviceSteps(text: string): string[] {
  return text
    .split(/Vb(?:SimpleCr|CrLf|Cr|Lf|NewLine)/)
    .map((piece) => {
      const t = (piece.trim().split(/\r?\n/)[0] ?? '').replace(/\s+/g, ' ').trim();
      const title = t.split(/\s+:\s+/)[0] ?? t;
      if (title !== t) return title.trim();
      if (t.length <= 120) return t;
      const sentence = /^(.{20,}?[.!?])\s/.exec(t)?.[1];
      return sentence ?? `${t.slice(0, 117).trimEnd()}…`;
    })
    .filter(isRealStep);
}

/** Steps said once, in their first order (the same advice is often written for every wall). */
function once(steps: readonly string[]): string[] {
  const seen = new Set<string>();
  return steps.filter((d) => {
    const key = d.toLowerCase().replace(/[.\s]+$/, '');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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
 * The packs, clean, with no scenario cost yet (`withScenarioCosts`). `thresholds`: the DPE's own
 * (its date, surface, altitude). `classeAvant`: the DPE's official class as the registry gives it
 * (see `registryOfficialClass`), or null. `registryCoef`: the electricity coefficient of the
 * packs' figures.
 */
export function registryPacks(
  raw: RawDpe,
  thresholds?: Thresholds,
  classeAvant: string | null = null,
  registryCoef?: number,
): RegistryPack[] {
  const dt = raw.descriptif_travaux;
  if (!isRecord(dt)) return [];
  const coll = dt.pack_travaux_collection;
  const packs = isRecord(coll) ? asArray(coll.pack_travaux) : [];
  return packs.filter(isRecord).map((p) => {
    const travaux = isRecord(p.travaux_collection) ? asArray(p.travaux_collection.travaux) : [];
    const descriptions = once(
      travaux
        .filter(isRecord)
        .flatMap((t) => adviceSteps(str(t.description_travaux) ?? str(t.description) ?? '')),
    );
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
      ...(registryCoef !== undefined ? { registryCoef } : {}),
    };
    pack.coutPlaceholder = isPlaceholder(pack);
    return pack;
  });
}

/** The class a pack is compared at: known, and a gain over the DPE's own; else null. */
function targetOf(p: RegistryPack): ClassLetter | null {
  return p.classeApres && isClassLetter(p.classeApres) && !p.sansGainDeClasse
    ? p.classeApres
    : null;
}

/** The classes the packs reach that are worth a scenario (see `targetOf`). */
export function packTargets(packs: readonly RegistryPack[]): ClassLetter[] {
  const targets = new Set<ClassLetter>();
  for (const p of packs) {
    const t = targetOf(p);
    if (t) targets.add(t);
  }
  return [...targets];
}

/**
 * A flat generated from its building's DPE: its share of the building and its living area, to
 * tell a pack priced for the building from one priced for the flat.
 */
export interface GeneratedFlat {
  share: number;
  surface: number;
  /** € per m² of the flat above which a pack can only be the building's (a deep renovation's ceiling) */
  ceilingPerM2: number;
}

/**
 * Each pack with dpe-sim's cheapest scenario reaching its class: its cost and its works (null:
 * none, or the pack gains no class). A generated flat's packs are often the building's: when a
 * pack's midpoint per m² of the flat is above the ceiling of a deep renovation (2375E2294683A, a
 * 40 m² flat of a 9,231 m² building: a thermodynamic water heater at 316,600–428,400 €, 9,300 €
 * per m² of the flat), it can only be the building's, and the scenario is compared at the
 * building's scale (its cost ÷ the flat's share), the flat's own amount in `coutScenarioLogement`;
 * under it (2476E3213453K: a water heater at 2,000–3,000 € for a 50 m² flat), at the flat's.
 */
export function withScenarioCosts(
  packs: readonly RegistryPack[],
  scenarios: readonly ScenarioInPackFrame[],
  generated?: GeneratedFlat,
): RegistryPack[] {
  return packs.map((p) => {
    const t = targetOf(p);
    const best = t ? cheapestReaching(scenarios, t) : null;
    const share = generated?.share ?? 1;
    const mid = p.coutMin !== null && p.coutMax !== null ? (p.coutMin + p.coutMax) / 2 : undefined;
    const buildings =
      generated !== undefined &&
      mid !== undefined &&
      generated.surface > 0 &&
      mid / generated.surface > generated.ceilingPerM2;
    if (best && buildings && share < 1 && share > 0)
      return {
        ...p,
        coutScenario: Math.round(best.cout / share),
        coutScenarioLogement: best.cout,
        editablesScenario: best.editables,
      };
    return { ...p, coutScenario: best?.cout ?? null, editablesScenario: best?.editables ?? null };
  });
}

/** dpe-sim's cheapest scenario reaching `classe` or better (in the packs' frame), or null. */
function cheapestReaching(
  scenarios: readonly ScenarioInPackFrame[],
  classe: ClassLetter,
): ScenarioInPackFrame | null {
  let best: ScenarioInPackFrame | null = null;
  for (const s of scenarios) {
    if (classIndex(s.classe) <= classIndex(classe) && (best === null || s.cout < best.cout))
      best = s;
  }
  return best;
}
