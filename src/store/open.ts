/**
 * The store selector: the embedded SQLite file in the data directory by default, the shared
 * PostgreSQL database for a `postgres://` or `postgresql://` URL (`--store`,
 * `DPE_SIM_STORE_URL`, profile `storeUrl`). Each implementation is imported only when chosen,
 * so a command that never opens a PostgreSQL store never loads its driver.
 */
import { DpeSimError } from '../contract/errors.js';
import { redactUrl } from '../config/keys.js';
import type { Store } from './store.js';
import { storeFailure, type StoreKind } from './store-errors.js';

export interface StoreLocation {
  /** where the SQLite file lives (used when `storeUrl` is absent) */
  dataDir: string;
  /** a PostgreSQL URL, or undefined for the embedded store */
  storeUrl?: string | undefined;
  /** PostgreSQL: connections in this process's pool */
  poolSize?: number;
}

export { redactUrl };

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * The store with its failures named (store-errors.ts): every method's error goes through
 * `storeFailure`, so a lost connection is a 503, a full disk and a read-only store say so.
 */
export function guardStore<S extends Store>(store: S, kind: StoreKind): S {
  const named = (err: unknown, prop: string | symbol) => {
    const failure = storeFailure(err, kind, store.location);
    // a write's failure, remembered for /ready (canWrite's own answer is not a write's)
    if (prop !== 'canWrite') store.noteFailure?.(failure);
    return failure;
  };
  return new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || prop === 'close' || prop === 'noteFailure') return value;
      return (...args: unknown[]) => {
        try {
          const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
          return result instanceof Promise
            ? result.catch((err: unknown) => {
                throw named(err, prop);
              })
            : result;
        } catch (err) {
          throw named(err, prop);
        }
      };
    },
  });
}

export async function openStore(where: StoreLocation): Promise<Store> {
  const url = where.storeUrl;
  if (url === undefined || url === '') {
    const { SqliteStore } = await import('./sqlite-store.js');
    return guardStore(SqliteStore.open(where.dataDir), 'sqlite');
  }
  if (!isPostgresUrl(url)) {
    throw new DpeSimError(
      'invalid-input',
      `unsupported store URL: use postgres://user:password@host:5432/database (or leave it out for the embedded SQLite store)`,
      { setting: 'storeUrl' },
    );
  }
  const { PostgresStore } = await import('./postgres-store.js');
  return guardStore(
    await PostgresStore.open(url, where.poolSize === undefined ? {} : { poolSize: where.poolSize }),
    'postgresql',
  );
}
