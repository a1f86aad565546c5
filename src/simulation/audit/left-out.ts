/**
 * Why an envelope element the audit cannot treat has no works although options at the aids'
 * level apply to it: each of them, run alone, saves nothing or makes primary energy or emissions
 * worse (the same rounded figures as the options' list, `harmOf` in `structure.ts`), and the
 * 3CL input its works moved to make it so (the b of the unheated space a wall faces, the
 * dwelling's inertia class, a window's solar factor). A signer reads "cannot be treated" beside
 * the reason the method gives, not beside another option's refusal.
 */
import type { CoefMode } from '../../contract/schemas.js';
import { numberText } from '../../contract/number-text.js';
import type { Category } from '../../contract/schemas.js';
import { elementsOf, referenceId } from '../../dpe/elements.js';
import { num, str, type RawDpe, type RawElement } from '../../dpe/raw.js';
import type { Engine } from '../../engine/engine.js';
import { applyWorks, labelOn, offeredOptions, resolveChanges } from '../../works/apply.js';
import type { WorksOptionRow } from '../../works/catalogue.js';
import type { CostTable } from '../../works/costs.js';
import { outcome } from '../calc.js';
import { round2 } from '../comparison.js';
import type { PreparedDpe } from '../prepared.js';
import { figuresOf, runWorks } from '../runs.js';

export interface LeftOutFrame {
  coef: CoefMode;
  forceNormalization: boolean;
  costs: CostTable;
}

/** What one left-out option does alone: kWh/yr of primary energy and kg CO2e/yr saved (≤ 0). */
interface LeftOut {
  row: WorksOptionRow;
  ep: number;
  ges: number;
}

const inertiaOf = (raw: RawDpe) => str(raw.logement?.enveloppe?.inertie?.enum_classe_inertie_id);

const two = (x: number) => numberText(x, 2);

const NOUN: Partial<Record<Category, string>> = {
  mur: 'wall',
  plancher_bas: 'floor',
  plancher_haut: 'ceiling',
  baie_vitree: 'window',
  porte: 'door',
};

/** The 3CL inputs the works of `row` on element `index` moved, in words ([] when none of them). */
function causesOf(
  engine: Engine,
  prep: PreparedDpe,
  category: Category,
  index: number,
  row: WorksOptionRow,
  costs: CostTable,
): string[] {
  const change = {
    referenceId: referenceId(category, index),
    editableKey: row.key,
    editableValue: row.code,
  };
  const works = applyWorks(engine, prep, resolveChanges(prep, [change]), costs);
  // the works were applied to a private copy: the engine may run on it as it is
  const after = engine.run(works.raw, { owned: true }).output;
  const was = elementsOf(prep.base.output, category)[index]?.donnee_intermediaire ?? {};
  const now = elementsOf(after, category)[index]?.donnee_intermediaire ?? {};
  const causes: string[] = [];
  const b0 = num(was.b);
  const b1 = num(now.b);
  if (b0 !== undefined && b1 !== undefined && round2(b1) > round2(b0))
    causes.push(
      `the unheated space it faces gets colder once the ${NOUN[category] ?? 'element'} is insulated on the dwelling’s side (b ${two(b0)} → ${two(b1)})`,
    );
  const i0 = inertiaOf(prep.raw);
  const i1 = inertiaOf(works.raw);
  if (i0 && i1 && Number(i1) > Number(i0))
    causes.push(
      `the dwelling’s inertia class goes from ${engine.enumLabel('classe_inertie', i0) ?? i0} to ${engine.enumLabel('classe_inertie', i1) ?? i1}, which raises the heating need`,
    );
  const sw0 = num(was.sw);
  const sw1 = num(now.sw);
  if (sw0 !== undefined && sw1 !== undefined && round2(sw1) < round2(sw0))
    causes.push(`the new glazing lets in less sun (Sw ${two(sw0)} → ${two(sw1)})`);
  return causes;
}

function effectText(o: LeftOut): string {
  if (o.ep === 0 && o.ges === 0) return 'saves nothing';
  const parts: string[] = [];
  if (o.ep < 0) parts.push(`${numberText(-o.ep)}\u00a0kWh/yr of primary energy`);
  if (o.ges < 0) parts.push(`${numberText(-o.ges, 1)}\u00a0kg CO2e/yr`);
  const saved =
    o.ep > 0
      ? ` (and saves ${numberText(o.ep)}\u00a0kWh/yr)`
      : o.ges > 0
        ? ` (and saves ${numberText(o.ges, 1)}\u00a0kg CO2e/yr)`
        : '';
  return `adds ${parts.join(' and ')}${saved}`;
}

/**
 * The reason the options `allowed` (those at the aids' level) on element `index` are not
 * proposed, when the catalogue offers some and each, alone, saves nothing or adds primary energy
 * or emissions; undefined otherwise (none offered, or one saves: then it is proposed).
 */
export function leftOutReason(
  engine: Engine,
  prep: PreparedDpe,
  category: Category,
  index: number,
  el: RawElement,
  allowed: (row: WorksOptionRow) => boolean,
  frame: LeftOutFrame,
): string | undefined {
  const ref = referenceId(category, index);
  const left: LeftOut[] = [];
  for (const row of offeredOptions(prep, category, el)) {
    if (!allowed(row)) continue;
    const run = runWorks(
      engine,
      prep,
      [{ referenceId: ref, editableKey: row.key, editableValue: row.code }],
      frame.costs,
    );
    const o = outcome(prep, figuresOf(run, frame.coef), frame.coef, frame.forceNormalization);
    const ep = round2(o.before.ep - o.after.ep);
    const ges = round2(o.before.ges - o.after.ges);
    if (ep > 0 && ges >= 0) return undefined; // it saves: the search may propose it
    if (ges > 0 && ep >= 0) return undefined;
    left.push({ row, ep, ges });
  }
  if (!left.length) return undefined;
  const lines = left.map((o) => `${labelOn(o.row, el, prep.raw)} ${effectText(o)} alone`);
  // the first option's causes stand for all (the same works at another level or material move
  // the same 3CL inputs)
  const causes = causesOf(engine, prep, category, index, left[0]!.row, frame.costs);
  return `${lines.join(', ')}, by the 3CL method${causes.length ? `: ${causes.join(', and ')}` : ''}`;
}
