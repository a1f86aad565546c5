import { EXIT_CODES } from '../../contract/errors.js';
import type { Context } from '../context.js';
import { checkIdentity, coefOption, minutesOption } from '../options.js';
import { renderPre } from '../render/pre.js';

export interface PreFlags {
  coef?: string;
  forceNormalization?: boolean;
  expire?: string;
}

export async function preCommand(ctx: Context, dpeArg: string, flags: PreFlags): Promise<number> {
  const coef = coefOption(flags.coef);
  const expireInMinutes = minutesOption(flags.expire);
  const identity = checkIdentity(ctx.identity);
  const dpeId = await ctx.dpeArg(dpeArg);
  const backend = await ctx.backend();
  const body = await backend.pre({
    ...identity,
    dpeId,
    query: {
      coef2026: coef,
      ...(flags.forceNormalization ? { forceNormalization: true } : {}),
      ...(expireInMinutes !== undefined ? { expireInMinutes } : {}),
    },
  });
  ctx.out.result(body, () => renderPre(dpeId, coef, body, ctx.out.style));
  if (body.warnings.some((w) => w.type === 'block')) return EXIT_CODES.blocked;
  if (!ctx.out.json)
    ctx.out.note(
      `Next: dpe-sim initial ${dpeArg}${flags.forceNormalization ? ' --force-normalization' : ''}`,
    );
  return EXIT_CODES.ok;
}
