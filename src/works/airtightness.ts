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

/** The engine's two criteria (4_ventilation.js, `tv_q4pa_conv`, bug-for-bug: joints on ≥ 50%). */
export function q4paCriteria(dpe: RawDpe, computed: RawDpe): Q4paCriteria {
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
  return {
    isolation: insulated > bare ? '1' : '0',
    joints: withJoint / (withJoint + without) >= 0.5 ? '1' : '0',
  };
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
