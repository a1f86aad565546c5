/**
 * The Q4Pa,conv row after envelope works. With the correction `q4pa-conv-declared`
 * (src/engine/corrections.ts), bug-for-bug mode uses the row the DPE declares
 * (`tv_q4pa_conv_id`) instead of the one the engine's own criteria pick (insulated surfaces in
 * the majority, window joints). Works that change those criteria must still move the air
 * permeability: when the works flip the engine's choice and the DPE declared that very choice,
 * the declared id is dropped so that the engine looks the row up again from the new envelope —
 * exactly what it did before the correction. A declared row that differed from the engine's
 * choice stays (the registry's software saw something the engine does not: the baseline is kept).
 */
import { elementsOf } from '../dpe/elements.js';
import type { Fields, RawDpe, RawElement } from '../dpe/raw.js';
import { num, str } from '../dpe/raw.js';
import { entryOf } from './memo.js';

export interface Q4paCriteria {
  isolation: '0' | '1';
  joints: '0' | '1';
}

/**
 * The areas the engine's two criteria weigh (4_ventilation.js, `tv_q4pa_conv`): walls and
 * ceilings insulated and not (sides with b ≠ 0; an unknown type counts insulated from 1975),
 * windows and doors with joints and without.
 */
export interface Q4paAreas {
  insulated: number;
  bare: number;
  withJoint: number;
  without: number;
}

export function q4paAreas(dpe: RawDpe, computed: RawDpe): Q4paAreas {
  let insulated = 0;
  let bare = 0;
  for (const kind of ['mur', 'plancher_haut'] as const) {
    const els = elementsOf(dpe, kind);
    const bs = elementsOf(computed, kind);
    els.forEach((el, i) => {
      const b = num(bs[i]?.donnee_intermediaire?.b ?? el.donnee_intermediaire?.b);
      if (b === 0) return;
      const d = el.donnee_entree;
      const area = num(d.surface_paroi_opaque) ?? 0;
      const type = Number.parseInt(str(d.enum_type_isolation_id) ?? '', 10);
      const period = Number.parseInt(str(d.enum_periode_isolation_id) ?? '', 10);
      if (type === 1 && period >= 3) insulated += area;
      else if (type === 1 || type === 2) bare += area;
      else insulated += area;
    });
  }
  let withJoint = 0;
  let without = 0;
  const add = (el: RawElement, areaKey: string) => {
    const area = num(el.donnee_entree[areaKey]) ?? 0;
    if (el.donnee_entree.presence_joint) withJoint += area;
    else without += area;
  };
  for (const w of elementsOf(dpe, 'baie_vitree')) add(w, 'surface_totale_baie');
  for (const d of elementsOf(dpe, 'porte')) add(d, 'surface_porte');
  return { insulated, bare, withJoint, without };
}

/** The criteria those areas give (bug-for-bug: joints on ≥ 50%). */
export function criteriaOf(a: Q4paAreas): Q4paCriteria {
  return {
    isolation: a.insulated > a.bare ? '1' : '0',
    joints: a.withJoint / (a.withJoint + a.without) >= 0.5 ? '1' : '0',
  };
}

/** The engine's two criteria (4_ventilation.js, `tv_q4pa_conv`, bug-for-bug: joints on ≥ 50%). */
export function q4paCriteria(dpe: RawDpe, computed: RawDpe): Q4paCriteria {
  return criteriaOf(q4paAreas(dpe, computed));
}

function inList(list: unknown, id: string | undefined): boolean {
  return (
    id !== undefined &&
    String(list ?? '')
      .split('|')
      .includes(id)
  );
}

/**
 * The row the engine's lookup returns (`tv` in its utils.js: the first row matching every
 * criterion, else the first matching the most; a criterion a row lacks does not match).
 */
export function engineQ4paRow(
  rows: readonly Fields[],
  period: string | undefined,
  method: string | undefined,
  c: Q4paCriteria,
): Fields | undefined {
  let best: Fields | undefined;
  let bestCount = 0;
  for (const row of rows) {
    let count = 0;
    if (inList(row.enum_periode_construction_id, period)) count++;
    if (inList(row.enum_methode_application_dpe_log_id, method)) count++;
    if (row.isolation_surfaces === c.isolation) count++;
    if (row.presence_joints_menuiserie === c.joints) count++;
    if (count === 4) return row;
    if (count > bestCount) {
      bestCount = count;
      best = row;
    }
  }
  return best;
}

/**
 * The engine's row per table (the engine's own, never modified), period, method and criteria:
 * `engineQ4paRow` reads nothing else, and a DPE has one period and one method while the criteria
 * take four values, so each works run after the first finds its row here instead of splitting
 * every row's lists again.
 */
const rowsFound = new WeakMap<
  readonly Fields[],
  Map<string | undefined, Map<string | undefined, Map<string, Fields | undefined>>>
>();

export function engineRowOf(
  rows: readonly Fields[],
  period: string | undefined,
  method: string | undefined,
  c: Q4paCriteria,
): Fields | undefined {
  const byPeriod = entryOf(rowsFound, rows, () => new Map());
  const byCriteria = entryOf(
    entryOf(byPeriod, period, () => new Map()),
    method,
    () => new Map<string, Fields | undefined>(),
  );
  const key = `${c.isolation}${c.joints}`;
  if (byCriteria.has(key)) return byCriteria.get(key);
  const row = engineQ4paRow(rows, period, method, c);
  byCriteria.set(key, row);
  return row;
}

/** The engine's row for the original DPE, per original (never modified), baseline and table. */
const originalRows = new WeakMap<
  RawDpe,
  { computed: RawDpe; rows: readonly Fields[]; row: Fields | undefined }
>();

function originalRow(
  original: RawDpe,
  computed: RawDpe,
  rows: readonly Fields[],
  find: () => Fields | undefined,
): Fields | undefined {
  const known = originalRows.get(original);
  if (known && known.computed === computed && known.rows === rows) return known.row;
  const row = find();
  originalRows.set(original, { computed, rows, row });
  return row;
}

/**
 * After works on `dpe` (a copy of `original`): drops the declared Q4Pa,conv id of each
 * ventilation whose declared row was the engine's own choice before the works, when the works
 * change that choice. `computed` is the engine's output for `original` (its b coefficients).
 */
export function followAirtightness(
  original: RawDpe,
  dpe: RawDpe,
  computed: RawDpe,
  rows: readonly Fields[],
): void {
  const cg = original.logement?.caracteristique_generale ?? {};
  const period = str(cg.enum_periode_construction_id);
  const method = str(cg.enum_methode_application_dpe_log_id);
  const before = originalRow(original, computed, rows, () =>
    engineRowOf(rows, period, method, q4paCriteria(original, computed)),
  );
  const after = engineRowOf(rows, period, method, q4paCriteria(dpe, computed));
  if (!before || !after || before.tv_q4pa_conv_id === after.tv_q4pa_conv_id) return;
  for (const v of elementsOf(dpe, 'ventilation')) {
    if (str(v.donnee_entree.tv_q4pa_conv_id) === str(before.tv_q4pa_conv_id))
      delete v.donnee_entree.tv_q4pa_conv_id;
  }
}

/**
 * The ventilations whose Q4Pa,conv row follows the envelope after works (`followAirtightness`):
 * no measured Q4Pa,conv, and no declared row, or the declared row the engine's own choice
 * for the original DPE. Empty: no works can move the air permeability.
 */
export function followingVentilations(
  original: RawDpe,
  dpe: RawDpe,
  computed: RawDpe,
  rows: readonly Fields[],
): RawElement[] {
  const cg = original.logement?.caracteristique_generale ?? {};
  const before = originalRow(original, computed, rows, () =>
    engineRowOf(
      rows,
      str(cg.enum_periode_construction_id),
      str(cg.enum_methode_application_dpe_log_id),
      q4paCriteria(original, computed),
    ),
  );
  return elementsOf(dpe, 'ventilation').filter((v) => {
    const d = v.donnee_entree;
    if (num(d.q4pa_conv_saisi)) return false;
    const declared = str(d.tv_q4pa_conv_id);
    return declared === undefined || declared === '' || declared === str(before?.tv_q4pa_conv_id);
  });
}

/**
 * Forces, on `dpe` (a works copy of `original`), the Q4Pa,conv row the engine would pick for
 * `criteria`, on the ventilations that follow the envelope (as a measured value, which the
 * engine reads in any mode): what a combination would give if its works crossed (or not) the
 * criteria's thresholds. A probe for the scenario search's bound (docs/scenario-search.md, "The
 * Q4Pa,conv thresholds"), never a works run. Returns how many ventilations were forced.
 */
export function forceAirtightness(
  original: RawDpe,
  dpe: RawDpe,
  computed: RawDpe,
  rows: readonly Fields[],
  criteria: Q4paCriteria,
): number {
  const cg = original.logement?.caracteristique_generale ?? {};
  const row = engineRowOf(
    rows,
    str(cg.enum_periode_construction_id),
    str(cg.enum_methode_application_dpe_log_id),
    criteria,
  );
  const q = num(row?.q4pa_conv);
  if (!q) return 0;
  const list = followingVentilations(original, dpe, computed, rows);
  for (const v of list) {
    delete v.donnee_entree.tv_q4pa_conv_id;
    v.donnee_entree.q4pa_conv_saisi = q;
  }
  return list.length;
}
