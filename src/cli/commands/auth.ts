import type { Context } from '../context.js';
import { checkIdentity, dpeIdOption, minutesOption } from '../options.js';

export interface AuthFlags {
  dpeId?: string;
  showInit?: boolean;
  expire?: string;
}

export async function authCommand(ctx: Context, flags: AuthFlags): Promise<void> {
  const expireInMinutes = minutesOption(flags.expire);
  const dpeId = dpeIdOption(flags.dpeId);
  const identity = checkIdentity(ctx.identity);
  const backend = await ctx.backend();
  const body = await backend.auth({
    ...identity,
    ...(dpeId !== undefined ? { dpeId } : {}),
    ...(flags.showInit ? { showInit: true } : {}),
    ...(expireInMinutes !== undefined ? { expireInMinutes } : {}),
  });
  ctx.out.result(body, () => body.url);
  if (!ctx.out.json) {
    ctx.out.note(
      `Single-use login link for ${identity.userName} (${identity.customerId}/${identity.userId}), valid ${expireInMinutes ?? 10} min.`,
    );
  }
}
