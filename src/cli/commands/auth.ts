import type { Context } from '../context.js';
import { checkIdentity, dpeIdOption, minutesOption } from '../options.js';
import type { Command } from 'commander';
import { run } from '../command-kit.js';
import { examples, identityFlags, type IdentityFlags } from '../flags.js';

export interface AuthFlags extends IdentityFlags {
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

export function register(program: Command): void {
  identityFlags(
    program.command('auth').description('issue a single-use login token and print the login URL'),
  )
    .option('--dpe-id <id>', 'DPE to open after login')
    .option('--show-init', 'show the initialization screen at login')
    .option('--expire <minutes>', 'validity in minutes (integer 1 to 1440, default 10)')
    .addHelpText('after', examples('dpe-sim auth --dpe-id 0000E0000001H --expire 30'))
    .action(run(authCommand));
}
