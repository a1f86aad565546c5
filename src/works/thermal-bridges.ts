/**
 * The thermal bridges after envelope works. With the correction `pont-thermique-declared`
 * (src/engine/corrections.ts), bug-for-bug mode uses the row of a tabulated thermal bridge the
 * DPE declares (`tv_pont_thermique_id`) when the stored k is that row's, instead of the row the
 * engine's own criteria pick (insulation of the wall and of the floor, fitting of the window).
 * Works that change one of the two elements a bridge joins must still move its k: the declared
 * id of such a bridge is dropped, so that the engine looks the row up again from the new
 * elements, exactly as it did before the correction. Bridges whose elements the works leave
 * alone keep the DPE's row.
 */
import type { RawDpe } from '../dpe/raw.js';
import { cleanRef, envelopeList, type EnvelopeKind } from './context.js';

const JOINED: EnvelopeKind[] = ['mur', 'plancher_bas', 'plancher_haut', 'baie_vitree', 'porte'];

/** References of the envelope elements whose inputs differ between `original` and `dpe`. */
function changedReferences(original: RawDpe, dpe: RawDpe): Set<string> {
  const before = new Map<string, string>();
  for (const kind of JOINED)
    for (const el of envelopeList(original, kind))
      before.set(cleanRef(el.donnee_entree.reference), JSON.stringify(el.donnee_entree));
  const changed = new Set<string>();
  for (const kind of JOINED)
    for (const el of envelopeList(dpe, kind)) {
      const ref = cleanRef(el.donnee_entree.reference);
      if (ref && before.get(ref) !== JSON.stringify(el.donnee_entree)) changed.add(ref);
    }
  return changed;
}

/** Drops the declared row of every thermal bridge joining an element the works changed. */
export function followThermalBridges(original: RawDpe, dpe: RawDpe): void {
  const changed = changedReferences(original, dpe);
  if (changed.size === 0) return;
  for (const pt of envelopeList(dpe, 'pont_thermique')) {
    const d = pt.donnee_entree;
    if (changed.has(cleanRef(d.reference_1)) || changed.has(cleanRef(d.reference_2)))
      delete d.tv_pont_thermique_id;
  }
}
