/**
 * `dpe-sim calc -i`: a guided flow to pick works in the terminal.
 *
 * - What next? → Add works: category → element → option. Every step offers "← back", which
 *   returns to the step before with its answer still selected; back from the category returns
 *   to "What next?".
 * - A step with a single possible answer is not asked: it is taken and said ("Only one …").
 * - After each pick, the running result (class, consumption, works cost), every figure with
 *   its unit; works can be removed.
 * - "Keep all and compute" finishes with the current works; "Cancel" leaves without computing.
 * - When the results would be normalized to the registry, it asks first (`--yes` skips that).
 * - Ctrl-C at any prompt exits 130 with "Cancelled".
 * - The result, then the exact `dpe-sim calc … --work …` command that reproduces it.
 */
import { confirm, select } from '@inquirer/prompts';
import { CATEGORIES, type Category } from '../contract/constants.js';
import type { CoefMode, EditableChange } from '../contract/schemas.js';
import type {
  SpecCalcResponse,
  SpecDpeElement,
  SpecInitialResponse,
} from '../contract/spec-responses.js';
import { DpeSimError, EXIT_CODES } from '../contract/errors.js';
import type { Context } from './context.js';
import { NBSP, euros, kwh, withUnit } from './format.js';
import { letter, renderCalc } from './render/simulation.js';
import { table } from './render/table.js';
import { workFlags } from './works-input.js';

export interface InteractiveOptions {
  coef: CoefMode;
  forceNormalization: boolean;
  scenario: string;
  preset: EditableChange[];
  /** compute with normalization without asking */
  yes: boolean;
}

/** exit code of a command interrupted by Ctrl-C (128 + SIGINT) */
export const EXIT_INTERRUPTED = 130;

const CATEGORY_LABELS: Record<Category, string> = {
  mur: 'Walls',
  baie_vitree: 'Windows',
  plancher_bas: 'Floors',
  plancher_haut: 'Roofs and ceilings',
  installation_chauffage: 'Heating',
  installation_ecs: 'Hot water',
  ventilation: 'Ventilation',
  porte: 'Doors',
};

const BACK = Symbol('back');
type Back = typeof BACK;
const BACK_CHOICE = { name: '← back', value: BACK } as const;

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

function offers(e: SpecDpeElement): boolean {
  return Object.values(e.editables).some((ed) => Object.keys(ed.options ?? {}).length > 0);
}

interface OptionChoice {
  name: string;
  /** shown under the list for the highlighted option: every figure with its unit */
  description: string;
  value: EditableChange;
}

function optionChoices(element: SpecDpeElement): OptionChoice[] {
  return Object.entries(element.editables).flatMap(([key, ed]) =>
    Object.entries(ed.options ?? {}).map(([code, o]) => ({
      name: `${ed.values?.[code] ?? code} — ${euros(o.cout)}`,
      description:
        `cost ${euros(o.cout)}; ${o.gainTotal >= 0 ? 'saves' : 'uses'} ${kwh(Math.abs(o.gainTotal))} of primary energy` +
        (o.euroParKwh !== null && o.euroParKwh !== undefined
          ? `; ${withUnit(o.euroParKwh, '€ per kWh/yr saved', 2)}`
          : ''),
      value: { referenceId: element.referenceId, editableKey: key, editableValue: code },
    })),
  );
}

function isPromptExit(err: unknown): boolean {
  return (
    err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')
  );
}

export async function interactiveCalc(
  ctx: Context,
  dpeArg: string,
  opts: InteractiveOptions,
): Promise<number> {
  try {
    return await guidedCalc(ctx, dpeArg, opts);
  } catch (err) {
    if (!isPromptExit(err)) throw err;
    process.stderr.write('\nCancelled (Ctrl-C): nothing computed.\n');
    return EXIT_INTERRUPTED;
  }
}

async function guidedCalc(ctx: Context, dpeArg: string, opts: InteractiveOptions): Promise<number> {
  const { dpeId, backend } = await ctx.computing(dpeArg);
  const identity = ctx.identity;
  const query = {
    coef2026: opts.coef,
    ...(opts.forceNormalization ? { forceNormalization: true } : {}),
  };
  const s = ctx.out.style;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  process.stderr.write(s.c.dim('Computing the works options of each element…\n'));
  // a blocked DPE stops here, with the block's message (exit 3)
  // previews record nothing: only the calculation the user confirms is recorded
  const init = await backend.previewInitial({ ...identity, dpeId, query });
  let works: EditableChange[] = [...opts.preset];
  const request = (changes: EditableChange[]) => ({
    ...identity,
    dpeId,
    query,
    params: { editablesChanges: changes, namedCalculation: opts.scenario },
  });
  const preview = (changes: EditableChange[]): Promise<SpecCalcResponse> =>
    backend.previewCalc(request(changes));

  const status = async (): Promise<void> => {
    const r = await preview(works);
    const res = r.calculation.result;
    say(
      `${s.c.bold('Now:')} class ${s.classLetter(r.simulation.initialGrade ?? letter(res.classe_bilan_dpe.VInit))} → ${s.classLetter(r.simulation.currentGrade ?? letter(res.classe_bilan_dpe.value))}, ` +
        `${kwh(res.ep_conso_5_usages_m2.value, 'kWh/m²/yr', 1)} (was ${kwh(res.ep_conso_5_usages_m2.VInit, 'kWh/m²/yr', 1)}), ` +
        `works ${euros(r.calculation.hints.coutTravaux)}, ${works.length}${NBSP}item${works.length === 1 ? '' : 's'}`,
    );
  };

  say(
    `DPE ${init.dpe.id}: class ${s.classLetter(init.simulation.initialGrade ?? letter(init.calculation.result.classe_bilan_dpe.VInit))}, ${kwh(init.calculation.result.ep_conso_5_usages_m2.VInit, 'kWh/m²/yr', 1)}`,
  );
  const norm = init.calculation.normalization;
  if (norm?.applied && !opts.yes) {
    const go = await confirm({
      message: `Results will be normalized to the registry (${norm.reason}). Continue?`,
      default: true,
    });
    if (!go) {
      process.stderr.write('Cancelled: nothing computed.\n');
      return EXIT_CODES.ok;
    }
  }
  if (!offersOptionValues(init)) {
    throw new DpeSimError(
      'invalid-input',
      'the service gives no works option values for this DPE (the spec leaves their names open), so there is nothing to pick from: give works with --work <referenceId>=<editableKey>:<editableValue> or --works FILE',
      { reason: 'value-not-allowed', field: 'dpe.items[].editables' },
    );
  }
  const categories = CATEGORIES.filter((c) => init.dpe.items[c].some(offers));
  if (categories.length === 0) {
    say('No works are offered on this DPE.');
    return EXIT_CODES.ok;
  }
  if (works.length) await status();

  // the answers kept for "← back": the last category, element and option picked
  let lastCategory: Category | undefined;
  const lastElement = new Map<Category, string>();
  const lastOption = new Map<string, EditableChange>();

  /** category → element → option, with back; undefined when backed out of the first step */
  const pickWorks = async (): Promise<EditableChange | undefined> => {
    let step: 'category' | 'element' | 'option' = 'category';
    let category: Category | undefined;
    let element: SpecDpeElement | undefined;
    // steps that were skipped (a single answer) are skipped again when going back
    const skipped = new Set<string>();
    for (;;) {
      if (step === 'category') {
        if (categories.length === 1) {
          category = categories[0] as Category;
          if (!skipped.has('category'))
            say(s.c.dim(`Only one category offers works: ${CATEGORY_LABELS[category]}.`));
          skipped.add('category');
        } else {
          const picked: Category | Back = await select<Category | Back>({
            message: 'Category',
            choices: [
              ...categories.map((c) => ({
                name: `${CATEGORY_LABELS[c]} (${init.dpe.items[c].filter(offers).length})`,
                value: c,
              })),
              BACK_CHOICE,
            ],
            ...(lastCategory ? { default: lastCategory } : {}),
          });
          if (picked === BACK) return undefined;
          category = picked;
        }
        lastCategory = category;
        step = 'element';
        continue;
      }
      if (!category) return undefined;
      const elements = init.dpe.items[category].filter(offers);
      if (step === 'element') {
        if (elements.length === 1) {
          element = elements[0] as SpecDpeElement;
          if (!skipped.has(`element:${category}`))
            say(
              s.c.dim(
                `Only one element of this kind offers works: ${element.referenceId} ${element.description.slice(0, 50)}.`,
              ),
            );
          skipped.add(`element:${category}`);
        } else {
          const previous = lastElement.get(category);
          const picked: SpecDpeElement | Back = await select<SpecDpeElement | Back>({
            message: 'Element',
            choices: [
              ...elements.map((e) => ({
                name: `${e.referenceId}  ${e.description.slice(0, 60)}  [${e.etat}]`,
                value: e,
              })),
              BACK_CHOICE,
            ],
            ...(previous ? { default: elements.find((e) => e.referenceId === previous) } : {}),
          });
          if (picked === BACK) {
            if (skipped.has('category')) return undefined;
            step = 'category';
            continue;
          }
          element = picked;
        }
        lastElement.set(category, element.referenceId);
        step = 'option';
        continue;
      }
      if (!element) return undefined;
      const choices = optionChoices(element);
      if (choices.length === 1) {
        const only = choices[0] as OptionChoice;
        say(
          s.c.dim(
            `Only one works option for ${element.referenceId}: ${only.name} (${only.description}).`,
          ),
        );
        return only.value;
      }
      const previous = lastOption.get(element.referenceId);
      const picked: EditableChange | Back = await select<EditableChange | Back>({
        message: 'Works option',
        choices: [...choices, BACK_CHOICE],
        ...(previous
          ? {
              default: choices.find(
                (c) =>
                  sameTarget(c.value, previous) && c.value.editableValue === previous.editableValue,
              )?.value,
            }
          : {}),
      });
      if (picked === BACK) {
        if (skipped.has(`element:${category}`)) {
          if (skipped.has('category')) return undefined;
          step = 'category';
        } else step = 'element';
        continue;
      }
      lastOption.set(element.referenceId, picked);
      return picked;
    }
  };

  for (;;) {
    const action = await select({
      message: 'What next?',
      choices: [
        { name: 'Add works', value: 'add' },
        ...(works.length
          ? [
              { name: 'Remove works', value: 'remove' },
              {
                name: `Keep all ${works.length} works and compute`,
                value: 'done',
              },
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
      const victim: number | Back = await select<number | Back>({
        message: 'Remove which works?',
        choices: [...works.map((w, i) => ({ name: labelOf(init, w), value: i })), BACK_CHOICE],
      });
      if (victim === BACK) continue;
      works = works.filter((_, i) => i !== victim);
      await status();
      continue;
    }
    const pick = await pickWorks();
    if (!pick) continue;
    works = [...works.filter((w) => !sameTarget(w, pick)), pick];
    await status();
  }

  say(
    table(
      ['Works to compute'],
      works.map((w) => [labelOf(init, w)]),
    ),
  );
  const body = await backend.calc(request(works));
  say(renderCalc(body, s));
  const scenario =
    opts.scenario !== 'default' ? ` --scenario ${JSON.stringify(opts.scenario)}` : '';
  const coef = opts.coef === 'deactivated' ? ' --coef 2025' : '';
  const force = opts.forceNormalization ? ' --force-normalization' : '';
  say(`To reproduce:\n  dpe-sim calc ${dpeArg}${coef}${force}${scenario} ${workFlags(works)}`);
  return EXIT_CODES.ok;
}

/** Whether any element carries option values to pick from (a spec-only service may give none). */
export function offersOptionValues(init: SpecInitialResponse): boolean {
  return CATEGORIES.some((c) =>
    init.dpe.items[c].some((e) =>
      Object.values(e.editables).some(
        (ed) => Object.keys(ed.options ?? ed.values ?? {}).length > 0,
      ),
    ),
  );
}
