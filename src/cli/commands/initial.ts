import type { Context } from '../context.js';
import { checkIdentity, coefOption } from '../options.js';
import { progressLine } from '../progress.js';
import { renderInitial } from '../render/simulation.js';

export interface InitialFlags {
  coef?: string;
  forceNormalization?: boolean;
}

export async function initialCommand(
  ctx: Context,
  dpeArg: string,
  flags: InitialFlags,
): Promise<void> {
  const coef = coefOption(flags.coef);
  const identity = checkIdentity(ctx.identity);
  const dpeId = await ctx.dpeArg(dpeArg);
  const backend = await ctx.backend();
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
  ctx.out.result(body, () => renderInitial(body, dpeArg, ctx.out.style));
}
