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
