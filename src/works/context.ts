/**
 * What a recipe sees besides its element: the DPE being modified and the engine's baseline
 * output (the same DPE computed with no works, same engine flags), whose `donnee_intermediaire`
 * holds the U, b and pn values the engine itself used. Recipes derive everything from the
 * baseline, so applying a recipe twice gives the same inputs as applying it once.
 */
import { elementsOf } from '../dpe/elements.js';
import type { Fields, RawDpe, RawElement, RawGeneratorHolder } from '../dpe/raw.js';
import { num, ownString, str } from '../dpe/raw.js';
import { originOf } from './frozen-copy.js';

export interface WorksContext {
  /** the DPE being modified (a copy, or the prepared DPE itself when only checking) */
  dpe: RawDpe;
  /** the engine's output document for the unmodified DPE (`prep.base.output`) */
  baseline: RawDpe;
  /** each envelope element, installation and generator of `dpe` → its counterpart in `baseline` */
  computed: Map<RawElement, RawElement>;
  /**
   * The DPE the works start from, unmodified (the prepared DPE's own), when `dpe` is a copy of it:
   * the same elements in the same places, with the same references (no recipe writes a reference
   * or adds or removes an element), so what depends only on those is found on it once.
   */
  original?: RawDpe;
}

export type OpaqueKind = 'mur' | 'plancher_haut' | 'plancher_bas';
export type EnvelopeKind = OpaqueKind | 'baie_vitree' | 'porte' | 'pont_thermique';

/** A value as text ('' when absent): enum ids are compared as strings. */
export function s(v: unknown): string {
  return str(v) ?? '';
}

/** A value as a number (NaN when absent or not numeric): comparisons with NaN are false. */
export function n(v: unknown): number {
  return num(v) ?? NaN;
}

export function range(a: number, b: number): string[] {
  const r: string[] = [];
  for (let i = a; i <= b; i++) r.push(String(i));
  return r;
}

export function envelopeList(dpe: RawDpe, kind: EnvelopeKind): RawElement[] {
  if (kind === 'pont_thermique')
    return dpe.logement?.enveloppe?.pont_thermique_collection?.pont_thermique ?? [];
  return elementsOf(dpe, kind);
}

export function heatingInstallations(dpe: RawDpe): RawGeneratorHolder[] {
  return dpe.logement?.installation_chauffage_collection?.installation_chauffage ?? [];
}

export function hotWaterInstallations(dpe: RawDpe): RawGeneratorHolder[] {
  return dpe.logement?.installation_ecs_collection?.installation_ecs ?? [];
}

export function gensOf(inst: RawGeneratorHolder): RawElement[] {
  return inst.generateur_chauffage_collection?.generateur_chauffage ?? [];
}

export function emsOf(inst: RawGeneratorHolder): RawElement[] {
  return inst.emetteur_chauffage_collection?.emetteur_chauffage ?? [];
}

export function ecsGensOf(inst: RawGeneratorHolder): RawElement[] {
  return inst.generateur_ecs_collection?.generateur_ecs ?? [];
}

/** enum_methode_application_dpe_log_id of the DPE ('1': dpe maison individuelle). */
export function methodeApplication(dpe: RawDpe): string {
  return s(dpe.logement?.caracteristique_generale?.enum_methode_application_dpe_log_id);
}

const cleanRefs = new Map<string, string>();

/** References compared the way software writes them (case, accents and spaces ignored). */
export function cleanRef(r: unknown): string {
  const text = s(r);
  let clean = cleanRefs.get(text);
  if (clean === undefined) {
    // bounded: a long batch meets many references
    if (cleanRefs.size >= 20000) cleanRefs.clear();
    clean = text
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/\s+/g, '');
    // (kept as copies of their own: a reference read from the XML is a slice of its whole text,
    // which the entry would keep alive long after its DPE, `ownString`)
    cleanRefs.set(ownString(text), ownString(clean));
  }
  return clean;
}

function pair(index: Map<RawElement, RawElement>, a: RawElement[], b: RawElement[]): void {
  // the engine keeps the collections in order; a different count means they cannot be matched
  if (a.length !== b.length) return;
  a.forEach((el, i) => {
    const other = b[i];
    if (other) index.set(el, other);
  });
}

/**
 * The context for recipes on `dpe`. `baseline` defaults to `dpe` itself, i.e. the values stored
 * in the DPE (which can differ from the engine's, e.g. the "paroi ancienne" render).
 */
export function makeWorksContext(
  dpe: RawDpe,
  baseline: RawDpe = dpe,
  original?: RawDpe,
): WorksContext {
  const computed = new Map<RawElement, RawElement>();
  if (baseline !== dpe) {
    for (const kind of ['mur', 'plancher_haut', 'plancher_bas', 'baie_vitree', 'porte'] as const)
      pair(computed, envelopeList(dpe, kind), envelopeList(baseline, kind));
    const a = heatingInstallations(dpe);
    const b = heatingInstallations(baseline);
    pair(computed, a, b);
    a.forEach((inst, i) => {
      const other = b[i];
      if (other && a.length === b.length) pair(computed, gensOf(inst), gensOf(other));
    });
  }
  return { dpe, baseline, computed, ...(original ? { original } : {}) };
}

/**
 * `el`'s counterpart in the baseline output: also for a frozen copy of a shared element edited
 * by works (frozen-copy.ts `editShared`), whose counterpart is its original's.
 */
export function computedOf(el: RawElement, ctx: WorksContext): RawElement | undefined {
  return ctx.computed.get(el) ?? ctx.computed.get(originOf(el));
}

/** The `donnee_intermediaire` the engine computed for `el` (falls back to the stored one). */
export function computedDi(el: RawElement, ctx: WorksContext): Fields {
  return computedOf(el, ctx)?.donnee_intermediaire ?? el.donnee_intermediaire ?? {};
}
