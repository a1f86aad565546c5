/**
 * The one guard against a hung test, a hung child process or a wait that never ends: 15
 * minutes. A guard, not a speed check: a test passes on a 2-core machine at load 12 (a busy CI
 * runner, 8 busy loops beside the suite: 5–8 times slower than idle), so no test, hook, child
 * or wait gets a shorter deadline of its own. Speed is measured by `npm run bench`.
 */
export const HANG_MS = 900_000;
