import os from 'node:os';
import type { Context } from '../context.js';
import { checkIdentity, coefOption } from '../options.js';
import { progressLine } from '../progress.js';
import { renderInitial } from '../render/simulation.js';
import type { Command } from 'commander';
import { run } from '../command-kit.js';
import { DPE_ARGUMENT_HELP, examples, simulationFlags, type SimulationFlags } from '../flags.js';

export type InitialFlags = SimulationFlags;

export async function initialCommand(
  ctx: Context,
  dpeArg: string,
  flags: InitialFlags,
): Promise<void> {
  const coef = coefOption(flags.coef);
  const identity = checkIdentity(ctx.identity);
  const dpeId = await ctx.dpeArg(dpeArg);
  const backend = await ctx.backend({
    startEngine: true,
    engineThreads: os.availableParallelism(),
  });
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
  ctx.out.result(body, () => renderInitial(body, dpeArg, ctx.out.style, ctx.opts.verbose === true));
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
    .addHelpText('after', examples('dpe-sim initial fixtures/0000E0000001H.xml'))
    .action(run(initialCommand));
}
