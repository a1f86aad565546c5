/**
 * The parsed DPE object (registry XML format), typed only as far as dpe-sim reads it.
 * Everything else stays `unknown`: the engine owns the meaning of the rest.
 */
import rfdc from 'rfdc';

export type Fields = Record<string, unknown>;

const deepCopy = rfdc({ proto: false, circles: false });

/**
 * A deep copy of parsed DPE data (plain objects, arrays, strings, numbers, booleans): each works
 * run needs its own, the engine writing into its input. rfdc copies such data 3× faster than
 * `structuredClone` (0.14 against 0.48 ms for the 28-flat `2535E0426429Q`).
 */
export function copyRaw<T>(data: T): T {
  return deepCopy(data);
}

export interface RawElement {
  donnee_entree: Fields & { description?: string; reference?: string };
  donnee_intermediaire?: Fields;
  [key: string]: unknown;
}

export interface RawGeneratorHolder extends RawElement {
  generateur_chauffage_collection?: { generateur_chauffage?: RawElement[] };
  emetteur_chauffage_collection?: { emetteur_chauffage?: RawElement[] };
  generateur_ecs_collection?: { generateur_ecs?: RawElement[] };
}

export interface RawEnveloppe {
  inertie?: Fields;
  mur_collection?: { mur?: RawElement[] };
  plancher_bas_collection?: { plancher_bas?: RawElement[] };
  plancher_haut_collection?: { plancher_haut?: RawElement[] };
  baie_vitree_collection?: { baie_vitree?: RawElement[] };
  porte_collection?: { porte?: RawElement[] };
  pont_thermique_collection?: { pont_thermique?: RawElement[] };
  [key: string]: unknown;
}

export interface RawSortie {
  ep_conso?: Fields;
  ef_conso?: Fields;
  emission_ges?: Fields;
  cout?: Fields;
  apport_et_besoin?: Fields;
  [key: string]: unknown;
}

export interface RawLogement {
  caracteristique_generale?: Fields;
  meteo?: Fields;
  enveloppe?: RawEnveloppe;
  installation_chauffage_collection?: { installation_chauffage?: RawGeneratorHolder[] };
  installation_ecs_collection?: { installation_ecs?: RawGeneratorHolder[] };
  ventilation_collection?: { ventilation?: RawElement[] };
  sortie?: RawSortie;
  [key: string]: unknown;
}

export interface RawDpe {
  numero_dpe?: string | number;
  statut?: string;
  administratif?: Fields;
  logement?: RawLogement;
  descriptif_travaux?: Fields;
  [key: string]: unknown;
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/**
 * A copy of `text` that keeps nothing else alive. A text read from the XML can be a slice of the
 * whole document (V8's sliced strings), so a cache that outlives the DPE and keeps such a text as
 * a key or value keeps the whole document: a long batch's worker kept dozens of them (85 corpus
 * DPEs: 10 MB of XML texts after a collection), and the largest building then ran out of the
 * worker's heap. A cache stores these copies instead.
 */
export function ownString(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

export function isRecord(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
