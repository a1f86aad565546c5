import { EXIT_CODES } from '../../contract/errors.js';
import type { Store } from '../../store/store.js';
import type { Context } from '../context.js';
import { table } from '../render/table.js';

async function withStore<T>(ctx: Context, fn: (store: Store) => Promise<T>): Promise<T> {
  const { openStore } = await import('../../store/open.js');
  const store = await openStore(ctx.settings);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** `keys create NAME`: the key on stdout, once, and nothing else there. */
export async function keysCreateCommand(ctx: Context, name: string): Promise<number> {
  const { key, file } = await withStore(ctx, async (store) => ({
    key: await store.createPartnerKey(name),
    file: store.location,
  }));
  if (ctx.out.json) process.stdout.write(`${JSON.stringify({ name, key })}\n`);
  else process.stdout.write(`${key}\n`);
  ctx.out.note(
    `Created the key of partner '${name}' (…${key.slice(-4)}) in ${file}. It is shown only this once: keep it secret.`,
  );
  return EXIT_CODES.ok;
}

export async function keysListCommand(ctx: Context): Promise<number> {
  const keys = await withStore(ctx, (store) => store.listPartnerKeys());
  ctx.out.result(keys, () =>
    keys.length === 0
      ? 'No partner keys yet: dpe-sim keys create NAME'
      : table(
          ['Partner', 'Key', 'Created', 'Revoked'],
          keys.map((k) => [
            k.name,
            k.keyHint ? `…${k.keyHint}` : '–',
            k.createdAt,
            k.revokedAt ?? '–',
          ]),
        ),
  );
  return EXIT_CODES.ok;
}

export async function keysRevokeCommand(ctx: Context, name: string): Promise<number> {
  await withStore(ctx, (store) => store.revokePartnerKey(name));
  ctx.out.note(`Revoked the key of partner '${name}': its requests now get 401.`);
  return EXIT_CODES.ok;
}
