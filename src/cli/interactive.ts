/**
 * `dpe-sim calc -i`: pick works in the terminal. Category → element (description and state) →
 * option (label, cost, gain, € per kWh); after each pick the running class, consumption and
 * total cost; works can be removed; a summary to confirm; then the result and the exact
 * `dpe-sim calc ... --work ...` command that reproduces it.
 */
import { confirm, select } from '@inquirer/prompts';
import { CATEGORIES } from '../contract/constants.js';
import type { CoefMode, EditableChange } from '../contract/schemas.js';
import type { SpecCalcResponse, SpecInitialResponse } from '../contract/spec-responses.js';
import { DpeSimError, EXIT_CODES } from '../contract/errors.js';
import type { Context } from './context.js';
import { letter, renderCalc } from './render/simulation.js';
import { euros, num, saving, table } from './render/table.js';
import { workFlags } from './works-input.js';

export interface InteractiveOptions {
  coef: CoefMode;
  forceNormalization: boolean;
  scenario: string;
  preset: EditableChange[];
}

const CATEGORY_LABELS: Record<(typeof CATEGORIES)[number], string> = {
  mur: 'Walls',
  baie_vitree: 'Windows',
  plancher_bas: 'Floors',
  plancher_haut: 'Roofs and ceilings',
  installation_chauffage: 'Heating',
  installation_ecs: 'Hot water',
  ventilation: 'Ventilation',
  porte: 'Doors',
};

function sameTarget(a: EditableChange, b: EditableChange): boolean {
  return a.referenceId === b.referenceId && a.editableKey === b.editableKey;
}

function labelOf(init: SpecInitialResponse, c: EditableChange): string {
  for (const cat of CATEGORIES) {
    const el = init.dpe.items[cat].find((e) => e.referenceId === c.referenceId);
    const label = el?.editables[c.editableKey]?.values?.[c.editableValue];
    if (el && label) return `${c.referenceId} ${el.description.slice(0, 40)}: ${label}`;
  }
  return `${c.referenceId} ${c.editableKey}:${c.editableValue}`;
}

export async function interactiveCalc(
  ctx: Context,
  dpeArg: string,
  opts: InteractiveOptions,
): Promise<number> {
  const dpeId = await ctx.dpeArg(dpeArg);
  const backend = await ctx.backend();
  const identity = ctx.identity;
  const query = {
    coef2026: opts.coef,
    ...(opts.forceNormalization ? { forceNormalization: true } : {}),
  };
  const s = ctx.out.style;
  process.stderr.write(s.c.dim('Computing the works options of each element…\n'));
  const init = await backend.previewInitial({ ...identity, dpeId, query });
  if (!offersOptionValues(init)) {
    throw new DpeSimError(
      'invalid-input',
      'the service gives no works option values for this DPE (the spec leaves their names open), so there is nothing to pick from: give works with --work <referenceId>=<editableKey>:<editableValue> or --works FILE',
      { reason: 'value-not-allowed', field: 'dpe.items[].editables' },
    );
  }
  let works: EditableChange[] = [...opts.preset];
  const preview = (changes: EditableChange[]): Promise<SpecCalcResponse> =>
    backend.previewCalc({
      ...identity,
      dpeId,
      query,
      params: { editablesChanges: changes, namedCalculation: opts.scenario },
    });

  const status = async (): Promise<void> => {
    const r = await preview(works);
    const res = r.calculation.result;
    process.stdout.write(
      `${s.c.bold('Now:')} class ${s.classLetter(r.simulation.initialGrade ?? letter(res.classe_bilan_dpe.VInit))} → ${s.classLetter(r.simulation.currentGrade ?? letter(res.classe_bilan_dpe.value))}, ` +
        `${num(res.ep_conso_5_usages_m2.value, 1)} kWh/m²/yr (was ${num(res.ep_conso_5_usages_m2.VInit, 1)}), ` +
        `works ${euros(r.calculation.hints.coutTravaux)}, ${works.length} item${works.length === 1 ? '' : 's'}\n`,
    );
  };

  process.stdout.write(
    `DPE ${init.dpe.id}: class ${s.classLetter(init.simulation.initialGrade ?? letter(init.calculation.result.classe_bilan_dpe.VInit))}, ${num(init.calculation.result.ep_conso_5_usages_m2.VInit, 1)} kWh/m²/yr\n`,
  );
  if (works.length) await status();
  for (;;) {
    const action = await select({
      message: 'What next?',
      choices: [
        { name: 'Add works', value: 'add' },
        ...(works.length
          ? [
              { name: 'Remove works', value: 'remove' },
              { name: 'Finish and compute', value: 'done' },
            ]
          : []),
        { name: 'Cancel', value: 'cancel' },
      ],
    });
    if (action === 'cancel') {
      process.stderr.write('Cancelled: nothing computed.\n');
      return EXIT_CODES.ok;
    }
    if (action === 'done') break;
    if (action === 'remove') {
      const victim = await select({
        message: 'Remove which works?',
        choices: works.map((w, i) => ({ name: labelOf(init, w), value: i })),
      });
      works = works.filter((_, i) => i !== victim);
      await status();
      continue;
    }
    const categories = CATEGORIES.filter((c) =>
      init.dpe.items[c].some((e) => Object.keys(e.editables).length > 0),
    );
    if (categories.length === 0) {
      process.stdout.write('No works are offered on this DPE.\n');
      continue;
    }
    const category = await select({
      message: 'Category',
      choices: categories.map((c) => ({
        name: `${CATEGORY_LABELS[c]} (${init.dpe.items[c].length})`,
        value: c,
      })),
    });
    const elements = init.dpe.items[category].filter((e) => Object.keys(e.editables).length > 0);
    const element = await select({
      message: 'Element',
      choices: elements.map((e) => ({
        name: `${e.referenceId}  ${e.description.slice(0, 60)}${e.etat === undefined ? '' : `  [${e.etat}]`}`,
        value: e,
      })),
    });
    const options = Object.entries(element.editables).flatMap(([key, ed]) =>
      optionCodes(ed).map((code) => {
        const o = ed.options?.[code];
        const figures = o
          ? `: ${euros(o.cout)}, ${saving(o.gainTotal, 'kWh/yr')}${o.euroParKwh !== null ? `, ${num(o.euroParKwh, 2)} €/kWh` : ''}`
          : ' (cost and gain not given by the service)';
        return {
          name: `${ed.values?.[code] ?? code}${figures}`,
          value: { referenceId: element.referenceId, editableKey: key, editableValue: code },
        };
      }),
    );
    const pick = await select({ message: 'Works option', choices: options });
    works = [...works.filter((w) => !sameTarget(w, pick)), pick];
    await status();
  }

  process.stdout.write(
    `${table(
      ['Works', ''],
      works.map((w) => [labelOf(init, w), '']),
    )}\n`,
  );
  const ok = await confirm({
    message: `Compute the DPE with these ${works.length} works?`,
    default: true,
  });
  if (!ok) {
    process.stderr.write('Cancelled: nothing computed.\n');
    return EXIT_CODES.ok;
  }
  // the one calculation the user confirmed: the only one recorded
  const body = await backend.calc({
    ...identity,
    dpeId,
    query,
    params: { editablesChanges: works, namedCalculation: opts.scenario },
  });
  process.stdout.write(`${renderCalc(body, s)}\n`);
  const scenario =
    opts.scenario !== 'default' ? ` --scenario ${JSON.stringify(opts.scenario)}` : '';
  const coef = opts.coef === 'deactivated' ? ' --coef 2025' : '';
  const force = opts.forceNormalization ? ' --force-normalization' : '';
  process.stdout.write(
    `To reproduce:\n  dpe-sim calc ${dpeArg}${coef}${force}${scenario} ${workFlags(works)}\n`,
  );
  return EXIT_CODES.ok;
}

type SpecEditableEntry = SpecInitialResponse['dpe']['items']['mur'][number]['editables'][string];

/** The option values of an editables entry: those with costs, else those of the values map. */
function optionCodes(ed: SpecEditableEntry): string[] {
  return Object.keys(ed.options ?? ed.values ?? {});
}

/** Whether any element carries option values to pick from. */
export function offersOptionValues(init: SpecInitialResponse): boolean {
  return CATEGORIES.some((c) =>
    init.dpe.items[c].some((e) =>
      Object.values(e.editables).some((ed) => optionCodes(ed).length > 0),
    ),
  );
}
