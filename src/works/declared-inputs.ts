/**
 * Inputs the DPE declares that bug-for-bug mode now follows, after envelope works.
 *
 * The thermal bridges. With the correction `pont-thermique-declared`
 * (src/engine/corrections.ts), bug-for-bug mode uses the row of a tabulated thermal bridge the
 * DPE declares (`tv_pont_thermique_id`) when the stored k is that row's, instead of the row the
 * engine's own criteria pick (insulation of the wall and of the floor, fitting of the window).
 * Works that change one of the two elements a bridge joins must still move its k: the declared
 * id of such a bridge is dropped, so that the engine looks the row up again from the new
 * elements, exactly as it did before the correction. Bridges whose elements the works leave
 * alone keep the DPE's row.
 *
 * The Ue of floors on the ground, a crawl space or an unheated basement: with the correction
 * `plancher-bas-ue-declared` the engine uses the Ue the DPE declares (`donnee_entree.ue`). A
 * floor the works change has its Ue dropped, so that the engine computes it from the new Upb.
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

/**
 * Drops the declared row of every thermal bridge joining an element the works changed, and the
 * declared Ue of every floor they changed.
 */
export function followDeclaredInputs(original: RawDpe, dpe: RawDpe): void {
  const floorsBefore = envelopeList(original, 'plancher_bas');
  envelopeList(dpe, 'plancher_bas').forEach((pb, i) => {
    // by position: the works keep the collections in order (a floor may have no reference)
    const before = floorsBefore[i]?.donnee_entree;
    if (JSON.stringify(before) !== JSON.stringify(pb.donnee_entree)) delete pb.donnee_entree.ue;
  });
  const changed = changedReferences(original, dpe);
  if (changed.size === 0) return;
  for (const pt of envelopeList(dpe, 'pont_thermique')) {
    const d = pt.donnee_entree;
    if (changed.has(cleanRef(d.reference_1)) || changed.has(cleanRef(d.reference_2)))
      delete d.tv_pont_thermique_id;
  }
}
