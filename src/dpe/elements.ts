/**
 * The DPE's elements by category, as the partner API numbers them: `referenceId` is
 * `<category>:<index>`, the index in the DPE's own collection.
 */
import { CATEGORIES, type Category } from '../contract/constants.js';
import type { RawDpe, RawElement } from './raw.js';

export function elementsOf(dpe: RawDpe, category: Category): RawElement[] {
  const lg = dpe.logement;
  const env = lg?.enveloppe;
  switch (category) {
    case 'mur':
      return env?.mur_collection?.mur ?? [];
    case 'baie_vitree':
      return env?.baie_vitree_collection?.baie_vitree ?? [];
    case 'plancher_bas':
      return env?.plancher_bas_collection?.plancher_bas ?? [];
    case 'plancher_haut':
      return env?.plancher_haut_collection?.plancher_haut ?? [];
    case 'porte':
      return env?.porte_collection?.porte ?? [];
    case 'installation_chauffage':
      return lg?.installation_chauffage_collection?.installation_chauffage ?? [];
    case 'installation_ecs':
      return lg?.installation_ecs_collection?.installation_ecs ?? [];
    case 'ventilation':
      return lg?.ventilation_collection?.ventilation ?? [];
  }
}

export function referenceId(category: Category, index: number): string {
  return `${category}:${index}`;
}

export interface ParsedReference {
  category: Category;
  index: number;
}

export function parseReferenceId(ref: string): ParsedReference | undefined {
  const m = /^([a-z_]+):(\d+)$/.exec(ref);
  if (!m) return undefined;
  const category = m[1] as Category;
  if (!(CATEGORIES as readonly string[]).includes(category)) return undefined;
  return { category, index: Number(m[2]) };
}

export function descriptionOf(el: RawElement): string {
  const d = el.donnee_entree?.description;
  return typeof d === 'string' ? d.replace(/\s+/g, ' ').trim() : '';
}

/**
 * An element's name for a sentence: its description up to the diagnostician's " - " ("Plancher  2 -
 * Dalle béton non isolée…" → "Plancher 2"), 32 characters at most; empty without a description.
 */
export function shortNameOf(description: string): string {
  const text = description.replace(/\s+/g, ' ').trim();
  const cut = text.indexOf(' - ');
  const name = (cut > 0 ? text.slice(0, cut) : text).trim();
  if (name.length <= 32) return name;
  // cut at a word when one ends in the last third ("Chaudière collective fioul à…")
  const head = name.slice(0, 31);
  const space = head.lastIndexOf(' ');
  return `${(space > 20 ? head.slice(0, space) : head).trimEnd()}…`;
}
