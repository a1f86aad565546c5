/** What every command definition uses: running an action with a Context, shared flags. */
import type { Command } from 'commander';
import { EXIT_CODES } from '../contract/errors.js';
import type { Context, GlobalOptions } from './context.js';

type Action<A extends unknown[]> = (ctx: Context, ...args: A) => Promise<number | void>;

/** Runs an action with a Context built from the command's options (global ones included). */
export function run<A extends unknown[]>(load: () => Promise<Action<A>>) {
  return async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    const args = params.slice(0, -1) as A;
    const opts = cmd.optsWithGlobals<GlobalOptions>();
    const { Context } = await import('./context.js');
    const ctx = await Context.create(opts);
    try {
      const action = await load();
      const code = await action(ctx, ...args);
      process.exitCode = typeof code === 'number' ? code : EXIT_CODES.ok;
    } finally {
      await ctx.close();
    }
  };
}

export function identityOptions(cmd: Command): Command {
  return cmd
    .option('--customer-id <id>', 'customer identifier at the partner (no ":")')
    .option('--user-id <id>', 'user identifier at the partner (no ":")')
    .option('--user-name <name>', 'name of the user')
    .option('--customer-name <name>', 'name of the customer organisation');
}
