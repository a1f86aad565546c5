/**
 * Store failures a person can act on, named as such: the store unreachable (PostgreSQL down, the
 * connection lost: `busy`, HTTP 503 with Retry-After, exit 1; it recovers by itself when the
 * database returns), the disk full, the store read-only. Every other failure is left as it is.
 */
import { statfsSync } from 'node:fs';
import path from 'node:path';
import { DpeSimError } from '../contract/errors.js';
import { osCode } from '../contract/os-errors.js';

export type StoreKind = 'sqlite' | 'postgresql';

export const STORE_NAMES: Record<StoreKind, string> = {
  sqlite: 'SQLite',
  postgresql: 'PostgreSQL',
};

/** How long a client should wait before retrying a request the store could not answer, s. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** Node socket errors and PostgreSQL SQLSTATEs that mean: no connection to the database. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown (the server stopped)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
]);

const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let e: unknown = err;
  while (e !== undefined && e !== null && chain.length < 5) {
    chain.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return chain;
}

/** The lost connection's error in the chain, if that is what failed. */
export function connectionLoss(err: unknown): unknown {
  return causes(err).find((e) => {
    const code = osCode(e);
    if (code && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
    // AggregateError (every address refused), or pg's own messages
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((x) => CONNECTION_CODES.has(osCode(x) ?? '')))
      return true;
    return e instanceof Error && CONNECTION_MESSAGES.test(e.message);
  });
}

function codesOf(err: unknown): string[] {
  return causes(err)
    .map(osCode)
    .filter((c): c is string => c !== undefined);
}

/** No space left: ENOSPC, SQLITE_FULL, PostgreSQL's disk_full (53100); or an SQLite I/O error
 * on a file system with no free block (SQLite reports a full disk while it extends its WAL or
 * shared-memory file as "disk I/O error"). */
function diskFull(err: unknown, file: string | undefined): boolean {
  const codes = codesOf(err);
  if (codes.some((c) => c === 'ENOSPC' || c === 'SQLITE_FULL' || c === '53100')) return true;
  if (file && codes.some((c) => c.startsWith('SQLITE_IOERR'))) {
    try {
      const fs = statfsSync(path.dirname(file));
      return fs.bavail === 0;
    } catch {
      return false;
    }
  }
  return false;
}

function readOnly(err: unknown): boolean {
  return codesOf(err).some(
    (c) => c === 'EROFS' || c.startsWith('SQLITE_READONLY') || c === '25006',
  );
}

/**
 * The failure as the user should read it: `err` itself unless it is a lost connection, a full
 * disk or a read-only store. `location` names the store for the operator (a file, a URL without
 * password); the error's details name only its kind, which an API caller may see.
 */
export function storeFailure(err: unknown, kind: StoreKind, location: string): unknown {
  if (err instanceof DpeSimError && err.kind !== 'runtime') return err;
  const name = STORE_NAMES[kind];
  const file = kind === 'sqlite' ? location : undefined;
  if (kind === 'postgresql' && connectionLoss(err)) {
    return new DpeSimError(
      'busy',
      `the store (${name}) is unavailable: the connection to the database is lost or refused; retry in ${STORE_RETRY_AFTER_SECONDS} s`,
      {
        reason: 'store-unavailable',
        store: kind,
        retryAfterSeconds: STORE_RETRY_AFTER_SECONDS,
        hint: `check that the database ${location} is up and reachable; dpe-sim reconnects by itself`,
      },
      { cause: err },
    );
  }
  if (diskFull(err, file)) return diskFullError(kind, location, err);
  if (readOnly(err)) return readOnlyError(kind, location, err);
  return err;
}

/** How long a client should wait before retrying a write the store refused (disk full, read-only), s. */
export const STORE_WRITE_RETRY_AFTER_SECONDS = 30;

/** The store cannot be written: no space left (its hint says what to free). */
export function diskFullError(kind: StoreKind, location: string, cause?: unknown): DpeSimError {
  return new DpeSimError(
    'runtime',
    `the store ${location} cannot be written: no space left on the device`,
    {
      reason: 'disk-full',
      store: kind,
      retryAfterSeconds: STORE_WRITE_RETRY_AFTER_SECONDS,
      hint:
        kind === 'sqlite'
          ? `free some space on the disk of ${path.dirname(location)}, or choose another directory with --data-dir DIR`
          : 'free some space on the database server',
    },
    cause === undefined ? undefined : { cause },
  );
}

/** The store cannot be written: a read-only file system, file, or database. */
export function readOnlyError(kind: StoreKind, location: string, cause?: unknown): DpeSimError {
  return new DpeSimError(
    'runtime',
    kind === 'sqlite'
      ? 'the local store is read-only, and this command records its run'
      : `the store ${location} is read-only`,
    {
      reason: 'read-only',
      store: kind,
      retryAfterSeconds: STORE_WRITE_RETRY_AFTER_SECONDS,
      hint:
        kind === 'sqlite'
          ? `history and the other reading commands still work; to record, use a writable --data-dir DIR (or DPE_SIM_DATA_DIR): ${location} or its file system is read-only`
          : 'the database is in read-only mode (a standby, or default_transaction_read_only): point --store at the primary',
    },
    cause === undefined ? undefined : { cause },
  );
}
