import { hasControlChar } from '../../contract/text.js';
import { DpeSimError } from '../../contract/errors.js';
import type { EditableChange } from '../../contract/schemas.js';
import type { Context } from '../context.js';
import { checkIdentity, coefOption } from '../options.js';
import type { Command } from 'commander';
import { run } from '../command-kit.js';
import { DPE_ARGUMENT_HELP, examples, simulationFlags, type SimulationFlags } from '../flags.js';

export interface CalcFlags extends SimulationFlags {
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
  if (hasControlChar(scenario)) {
    throw new DpeSimError(
      'invalid-input',
      '--scenario must not contain control characters (NUL, CR, LF, tab, ESC...)',
      { field: 'scenario', reason: 'control-character' },
    );
  }
  const { parseWorkFlag, readWorksFile } = await import('../works-input.js');
  const { renderCalc, targetClass } = await import('../render/simulation.js');
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
  if (changes.length === 0 && flags.scenarioFrom === undefined) {
    throw new DpeSimError('invalid-input', 'calc needs at least one works item', {
      reason: 'no-works',
      hint: `name works with --work REF=KEY:VALUE (dpe-sim initial ${dpeArg} lists them), --works FILE, -i to pick them, or --scenario-from 1`,
    });
  }
  const { dpeId, backend } = await ctx.computing(dpeArg);
  let scenarioName = scenario;
  if (flags.scenarioFrom !== undefined) {
    const n = Number(flags.scenarioFrom);
    if (!/^\d+$/.test(flags.scenarioFrom.trim()) || n < 1) {
      throw new DpeSimError(
        'invalid-input',
        `--scenario-from must be a scenario number ≥ 1 (got '${flags.scenarioFrom}')`,
        { reason: 'out-of-range', field: 'scenarioFrom', value: flags.scenarioFrom },
      );
    }
    const picked = await backend.recommendedScenario(
      {
        ...identity,
        dpeId,
        query: {
          coef2026: coef,
          ...(flags.forceNormalization ? { forceNormalization: true } : {}),
        },
      },
      n,
    );
    changes = [...picked.editables, ...changes];
    if (scenarioName === 'default')
      scenarioName = `auto-${targetClass(picked) ?? flags.scenarioFrom}`;
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
  ctx.out.result(body, () => renderCalc(body, ctx.out.style, dpeArg));
}

export function register(program: Command): void {
  simulationFlags(
    program
      .command('calc')
      .argument('<dpe>', DPE_ARGUMENT_HELP)
      .description('recalculate the DPE with works'),
  )
    .option(
      '-w, --work <change>',
      'a works item <referenceId>=<editableKey>:<editableValue> (repeatable)',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option(
      '--works <file>',
      'JSON array of {referenceId, editableKey, editableValue} (- for stdin)',
    )
    .option('-i, --interactive', 'pick works interactively')
    .option('-y, --yes', 'with -i: compute with normalization to the registry without asking')
    .option('--scenario <name>', 'name of the calculation scenario', 'default')
    .option(
      '--scenario-from <n>',
      'apply the n-th recommended scenario of `dpe-sim initial` (1 = the first row)',
    )
    .option('--include-dpe', 'add the DPE structure to the response')
    .option('--include-user', 'add the user to the response')
    .addHelpText(
      'after',
      examples(
        'dpe-sim calc fixtures/0000E0000001H.xml --work mur:0=ISOLATION:IMurITE37 --work baie_vitree:0=FENETRE:PVC',
        'dpe-sim calc 0000E0000001H --works works.json --json',
        'dpe-sim calc 0000E0000001H -i',
      ),
    )
    .action(run(calcCommand));
}
