import { EXIT_CODES } from '../../contract/errors.js';
import type { Command } from 'commander';
import type { LocalServices } from '../../backend/local-services.js';
import { subcommands } from '../command-kit.js';
import type { Context } from '../context.js';
import { dateTime } from '../format.js';

/** The local services (the store of --data-dir), for one command. */
async function withServices<T>(
  ctx: Context,
  fn: (services: LocalServices) => Promise<T>,
): Promise<T> {
  const services = await ctx.localServices();
  return fn(services);
}

/** `keys create NAME`: the key on stdout, once, and nothing else there. */
export async function keysCreateCommand(ctx: Context, name: string): Promise<number> {
  const { key, file } = await withServices(ctx, async (services) => ({
    key: await services.createPartnerKey(name),
    file: services.describe().store,
  }));
  if (ctx.out.json) process.stdout.write(`${JSON.stringify({ name, key })}\n`);
  else process.stdout.write(`${key}\n`);
  ctx.out.note(
    `Created the key of partner '${name}' (…${key.slice(-4)}) in ${file}. It is shown only this once: keep it secret.`,
  );
  return EXIT_CODES.ok;
}

export async function keysListCommand(ctx: Context): Promise<number> {
  const keys = await withServices(ctx, (services) => services.listPartnerKeys());
  const { table } = await import('../render/table.js');
  ctx.out.result(keys, () =>
    keys.length === 0
      ? 'No partner keys yet: dpe-sim keys create NAME'
      : table(
          ['Partner', 'Key', 'Created', 'Revoked'],
          keys.map((k) => [
            k.name,
            k.keyHint ? `…${k.keyHint}` : '–',
            dateTime(k.createdAt),
            k.revokedAt === null ? '–' : dateTime(k.revokedAt),
          ]),
        ),
  );
  return EXIT_CODES.ok;
}

export async function keysRevokeCommand(ctx: Context, name: string): Promise<number> {
  await withServices(ctx, (services) => services.revokePartnerKey(name));
  ctx.out.note(`Revoked the key of partner '${name}': its requests now get 401.`);
  return EXIT_CODES.ok;
}

export function register(program: Command): void {
  subcommands(
    program
      .command('keys')
      .description("partner keys of the local server (stored hashed in --data-dir's store)"),
    [
      {
        name: 'create',
        args: [['<name>', 'partner name (letters, digits, ".", "_", "-")']],
        description: 'create a partner and its key; the key is printed once, on stdout',
        examples: ['dpe-sim keys create acme > acme.key'],
        action: keysCreateCommand,
      },
      {
        name: 'list',
        description: 'list partners: name, last 4 characters of the key, created, revoked',
        examples: ['dpe-sim keys list --json'],
        action: keysListCommand,
      },
      {
        name: 'revoke',
        args: [['<name>', 'partner name']],
        description: 'revoke a partner key (its requests get 401 from then on)',
        examples: ['dpe-sim keys revoke acme'],
        action: keysRevokeCommand,
      },
    ],
  );
}
