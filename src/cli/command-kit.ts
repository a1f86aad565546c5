/** What every command file uses: running its action with a Context built from its flags. */
import type { Command } from 'commander';
import { EXIT_CODES } from '../contract/errors.js';
import type { Context, GlobalOptions } from './context.js';

type Action<A extends unknown[]> = (ctx: Context, ...args: A) => Promise<number | void>;

/**
 * Commander's action for a command: builds a Context from the command's options (the global
 * ones included), runs the action, sets the exit code, and closes what the Context opened.
 */
export function run<A extends unknown[]>(action: Action<A>) {
  return async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    const args = params.slice(0, -1) as A;
    const opts = cmd.optsWithGlobals<GlobalOptions>();
    const { Context } = await import('./context.js');
    const ctx = await Context.create(opts);
    try {
      const code = await action(ctx, ...args);
      process.exitCode = typeof code === 'number' ? code : EXIT_CODES.ok;
    } finally {
      await ctx.close();
    }
  };
}

/** A subcommand as data: `keys create`, `config set`, ... */
export interface Subcommand {
  name: string;
  /** commander argument specs with their help, e.g. ['<name>', 'partner name'] */
  args?: readonly (readonly [string, string])[];
  description: string;
  examples: readonly string[];
  /** commander passes the arguments as strings (an optional one may be undefined) */
  action: (ctx: Context, ...args: string[]) => Promise<number | void>;
}

/** Declares the subcommands of `parent`, each with its arguments, help and example. */
export function subcommands(parent: Command, list: readonly Subcommand[]): Command {
  for (const sub of list) {
    const cmd = parent.command(sub.name).description(sub.description);
    for (const [spec, help] of sub.args ?? []) cmd.argument(spec, help);
    cmd
      .addHelpText(
        'after',
        `\nExample${sub.examples.length > 1 ? 's' : ''}:\n${sub.examples.map((l) => `  ${l}`).join('\n')}`,
      )
      .action(run(sub.action));
  }
  return parent;
}
