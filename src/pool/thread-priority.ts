/**
 * The scheduling priority of a worker thread. On Linux the nice value is a per-thread attribute
 * (setpriority(2), "BUGS": with NPTL, `setpriority(PRIO_PROCESS, 0, …)` changes the calling
 * thread only), so a worker can step back behind its process's main thread: the server's
 * engine threads run at a higher nice value than the thread that answers requests, which then
 * gets a core at once (`/health`, validation, 503s) however busy the engine is. Elsewhere the
 * same call would renice the whole process: nothing is done there.
 */
import { getPriority, setPriority } from 'node:os';

/** How far the server's engine threads step back behind its request thread (nice units). */
export const SERVER_ENGINE_NICE = 10;

/** Raises this thread's nice value by `nice` (capped at 19); true when it was done. */
export function stepBack(nice: number): boolean {
  if (nice <= 0 || process.platform !== 'linux') return false;
  try {
    setPriority(0, Math.min(19, getPriority(0) + nice));
    return true;
  } catch {
    return false; // not allowed here: the thread keeps its priority
  }
}
