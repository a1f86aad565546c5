import type { Context } from '../context.js';
import { checkIdentity, coefOption } from '../options.js';
import {
  DEFAULT_INITIAL_SECTIONS,
  INITIAL_SECTIONS,
  type InitialSection,
} from '../initial-sections.js';
import { InvalidArgumentError, type Command } from 'commander';
import { run } from '../command-kit.js';
import { DPE_ARGUMENT_HELP, examples, simulationFlags, type SimulationFlags } from '../flags.js';

export interface InitialFlags extends SimulationFlags {
  all?: boolean;
  show?: InitialSection[];
}

/** `--show label,options`: known section names, in any order, at least one. */
function sectionsOption(value: string): InitialSection[] {
  const names = value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(INITIAL_SECTIONS as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0)
    throw new InvalidArgumentError(
      `${unknown.length ? `unknown section ${unknown.join(', ')}` : 'no section'}; the sections are ${INITIAL_SECTIONS.join(', ')}`,
    );
  return names as InitialSection[];
}

export async function initialCommand(
  ctx: Context,
  dpeArg: string,
  flags: InitialFlags,
): Promise<void> {
  const coef = coefOption(flags.coef);
  const identity = checkIdentity(ctx.identity);
  const { dpeId, backend } = await ctx.computing(dpeArg);
  const { progressLine } = await import('../progress.js');
  const progress = progressLine('initial', { json: ctx.out.json });
  const body = await backend
    .initial(
      {
        ...identity,
        dpeId,
        query: {
          coef2026: coef,
          ...(flags.forceNormalization ? { forceNormalization: true } : {}),
        },
      },
      progress.onProgress ? { onProgress: progress.onProgress } : {},
    )
    .finally(() => progress.done());
  const sections = flags.all ? INITIAL_SECTIONS : (flags.show ?? DEFAULT_INITIAL_SECTIONS);
  await ctx.out.present(body, async () =>
    (await import('../render/simulation.js')).renderInitial(
      body,
      dpeArg,
      ctx.out.style,
      sections,
      ctx.opts.verbose === true,
    ),
  );
}

export function register(program: Command): void {
  simulationFlags(
    program
      .command('initial')
      .argument('<dpe>', DPE_ARGUMENT_HELP)
      .description(
        'initial simulation: the elements with their works options (cost, gain), the initial calculation',
      ),
  )
    .option(
      '--all',
      'show every section: the DPE facts, the calculation tables, every element with every option',
    )
    .option(
      '--show <sections>',
      `the sections to show, comma-separated (${INITIAL_SECTIONS.join(', ')}; default ${DEFAULT_INITIAL_SECTIONS.join(',')})`,
      sectionsOption,
    )
    .addHelpText(
      'after',
      examples(
        'dpe-sim initial fixtures/0000E0000001H.xml',
        'dpe-sim initial fixtures/0000E0000001H.xml --all',
        'dpe-sim initial fixtures/0000E0000001H.xml --show elements,scenarios',
      ),
    )
    .action(run(initialCommand));
}
