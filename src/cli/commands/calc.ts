import { DpeSimError } from '../../contract/errors.js';
import type { EditableChange } from '../../contract/schemas.js';
import type { Context } from '../context.js';
import { checkIdentity, coefOption } from '../options.js';
import { renderCalc } from '../render/simulation.js';
import { parseWorkFlag, readWorksFile } from '../works-input.js';

export interface CalcFlags {
  coef?: string;
  forceNormalization?: boolean;
  work?: string[];
  works?: string;
  interactive?: boolean;
  yes?: boolean;
  scenario?: string;
  includeDpe?: boolean;
  includeUser?: boolean;
  scenarioFrom?: string;
}

export async function calcCommand(
  ctx: Context,
  dpeArg: string,
  flags: CalcFlags,
): Promise<number | void> {
  const coef = coefOption(flags.coef);
  const identity = checkIdentity(ctx.identity);
  const scenario = flags.scenario ?? 'default';
  if (scenario.trim() === '' || scenario.length > 100) {
    throw new DpeSimError('invalid-input', '--scenario must be 1 to 100 characters');
  }
  let changes: EditableChange[] = (flags.work ?? []).map(parseWorkFlag);
  if (flags.works) changes = [...(await readWorksFile(flags.works)), ...changes];
  if (flags.interactive) {
    if (!ctx.canPrompt) {
      const why = !process.stdin.isTTY
        ? 'stdin is not a terminal'
        : !process.stdout.isTTY
          ? 'stdout is not a terminal'
          : 'prompts are off (--no-input or CI=true)';
      throw new DpeSimError('invalid-input', `-i/--interactive needs a terminal: ${why}`, {
        hint: 'run it in a terminal, or give the works with --work REF=KEY:VALUE or --works FILE',
      });
    }
    const { interactiveCalc } = await import('../interactive.js');
    return interactiveCalc(ctx, dpeArg, {
      coef,
      forceNormalization: Boolean(flags.forceNormalization),
      scenario,
      preset: changes,
      yes: Boolean(flags.yes),
    });
  }
  const dpeId = await ctx.dpeArg(dpeArg);
  const backend = await ctx.backend();
  let scenarioName = scenario;
  if (flags.scenarioFrom !== undefined) {
    const n = Number(flags.scenarioFrom);
    if (!Number.isInteger(n) || n < 1) {
      throw new DpeSimError(
        'invalid-input',
        `--scenario-from must be a scenario number ≥ 1 (got '${flags.scenarioFrom}')`,
      );
    }
    const init = await backend.initial({
      ...identity,
      dpeId,
      query: { coef2026: coef, ...(flags.forceNormalization ? { forceNormalization: true } : {}) },
    });
    const picked = init.autoSolutions[n - 1];
    if (!picked) {
      throw new DpeSimError(
        'invalid-input',
        `--scenario-from ${n}: this DPE has ${init.autoSolutions.length} recommended scenario${init.autoSolutions.length === 1 ? '' : 's'}`,
      );
    }
    changes = [...picked.editables, ...changes];
    if (scenarioName === 'default') scenarioName = `auto-${picked.classe}`;
  }
  const body = await backend.calc({
    ...identity,
    dpeId,
    query: {
      coef2026: coef,
      ...(flags.forceNormalization ? { forceNormalization: true } : {}),
      ...(flags.includeDpe ? { includeDPE: true } : {}),
      ...(flags.includeUser ? { includeUser: true } : {}),
    },
    params: { editablesChanges: changes, namedCalculation: scenarioName },
  });
  ctx.out.result(body, () => renderCalc(body, ctx.out.style));
}
