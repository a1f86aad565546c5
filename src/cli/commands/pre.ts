import { EXIT_CODES } from '../../contract/errors.js';
import type { Context } from '../context.js';
import { checkIdentity, coefOption, minutesOption } from '../options.js';
import type { Command } from 'commander';
import { run } from '../command-kit.js';
import { DPE_ARGUMENT_HELP, examples, simulationFlags, type SimulationFlags } from '../flags.js';

export interface PreFlags extends SimulationFlags {
  expire?: string;
}

export async function preCommand(ctx: Context, dpeArg: string, flags: PreFlags): Promise<number> {
  const coef = coefOption(flags.coef);
  const expireInMinutes = minutesOption(flags.expire);
  const identity = checkIdentity(ctx.identity);
  const { dpeId, backend } = await ctx.computing(dpeArg);
  const body = await backend.pre({
    ...identity,
    dpeId,
    query: {
      coef2026: coef,
      ...(flags.forceNormalization ? { forceNormalization: true } : {}),
      ...(expireInMinutes !== undefined ? { expireInMinutes } : {}),
    },
  });
  await ctx.out.present(body, async () =>
    (await import('../render/pre.js')).renderPre(dpeId, coef, body, ctx.out.style),
  );
  if (body.warnings.some((w) => w.type === 'block')) return EXIT_CODES.blocked;
  if (!ctx.out.json)
    ctx.out.note(
      `Next: dpe-sim initial ${dpeArg}${flags.forceNormalization ? ' --force-normalization' : ''}`,
    );
  return EXIT_CODES.ok;
}

export function register(program: Command): void {
  simulationFlags(
    program
      .command('pre')
      .argument('<dpe>', DPE_ARGUMENT_HELP)
      .description('pre-analysis: engine vs registry figures, alerts, and a login URL'),
  )
    .option(
      '--expire <minutes>',
      'validity of the login token in minutes (integer ≥ 1, default 10)',
    )
    .addHelpText(
      'after',
      examples(
        'dpe-sim pre fixtures/0000E0000001H.xml',
        'dpe-sim pre 0000E0000002F --json | jq .maxCalculation',
      ),
    )
    .action(run(preCommand));
}
