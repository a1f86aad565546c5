/**
 * Getting many DPEs ahead of time (`cache fetch`, batch): each number looked up through a
 * source (normally the chain directory → cache → registry) with at most N lookups at once, the
 * outcome of each yielded as soon as it is known, failures as typed errors.
 */
import { DpeSimError, errorMessage, type ErrorKind } from '../contract/errors.js';
import type { DpeOrigin, DpeSource } from '../dpe/source.js';

export type PrefetchResult =
  | { dpeId: string; ok: true; origin: DpeOrigin; location: string }
  | {
      dpeId: string;
      ok: false;
      error: { kind: ErrorKind; message: string; details?: Record<string, unknown> };
    };

/** A gate letting at most `n` tasks run at once; the others wait their turn (FIFO). */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

export function errorOf(err: unknown): Extract<PrefetchResult, { ok: false }>['error'] {
  if (err instanceof DpeSimError) {
    return {
      kind: err.kind,
      message: err.message,
      ...(err.details ? { details: err.details } : {}),
    };
  }
  return { kind: 'runtime', message: errorMessage(err) };
}

/** Looks one number up; never throws. */
export async function prefetchOne(source: DpeSource, dpeId: string): Promise<PrefetchResult> {
  try {
    const text = await source.read(dpeId);
    return { dpeId, ok: true, origin: text.origin ?? 'file', location: text.file };
  } catch (err) {
    return { dpeId, ok: false, error: errorOf(err) };
  }
}

/** Looks every number up, at most `concurrency` at once, yielding results as they finish. */
export async function* prefetch(
  ids: AsyncIterable<string> | Iterable<string>,
  source: DpeSource,
  concurrency: number,
): AsyncGenerator<PrefetchResult> {
  const running = new Map<number, Promise<[number, PrefetchResult]>>();
  let next = 0;
  const settled = async (): Promise<PrefetchResult> => {
    const [key, result] = await Promise.race(running.values());
    running.delete(key);
    return result;
  };
  for await (const dpeId of ids) {
    if (running.size >= concurrency) yield await settled();
    const key = next++;
    running.set(
      key,
      prefetchOne(source, dpeId).then((r): [number, PrefetchResult] => [key, r]),
    );
  }
  while (running.size > 0) yield await settled();
}
