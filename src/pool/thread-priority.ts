/**
 * The scheduling priority of a worker thread. On Linux the nice value is a per-thread attribute
 * (setpriority(2), "BUGS": with NPTL, `setpriority(PRIO_PROCESS, 0, …)` changes the calling
 * thread only), so a worker can step back behind its process's main thread: the server's
 * engine threads run at a higher nice value than the thread that answers requests, which then
 * gets a core at once (`/health`, validation, 503s) however busy the engine is. Elsewhere the
 * same call would renice the whole process: nothing is done there.
 */
import { getPriority, setPriority } from 'node:os';

/**
 * How far the server's engine threads step back behind its request thread (nice units). Small:
 * the nice value also weighs the engine against every other program of the machine, and at +10
 * (CFS weight 110 against 1,024) a server beside a busy test suite or 4 busy loops took over 60 s
 * for an `initial` of 1.9 s and served `pre` at 0.86× the bare engine loop, where +2 (weight 655)
 * keeps the request thread first on a quiet machine and costs the engine a third of its share
 * under foreign load (docs/benchmarks.md, 2026-11-28).
 */
export const SERVER_ENGINE_NICE = 2;

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
