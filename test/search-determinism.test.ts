/**
 * The same DPE, the same answer: `dpe-sim initial --json` run alone and beside a CPU-bound load
 * gives the same JSON (the simulation id aside), because every budget of the scenario search
 * counts change sets, never time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { HOUSE, STUDIO, runCli } from './helpers.js';

/** The response without what differs from run to run by design (ids, tokens). */
function scrub(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(scrub);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !/simulationId|token/i.test(k))
        .map(([k, x]) => [k, scrub(x)]),
    );
  return v;
}

const busy: ChildProcess[] = [];

/** One busy loop per core (at least two), each its own process. */
function loadCpus(): void {
  const n = Math.max(2, os.availableParallelism());
  for (let i = 0; i < n; i++)
    busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

afterEach(() => {
  for (const p of busy.splice(0)) p.kill('SIGKILL');
});

describe('initial is a function of its input', () => {
  for (const [name, file] of [
    ['house', HOUSE],
    ['studio', STUDIO],
  ] as const) {
    it(`${name}: the same JSON alone and beside busy loops on every core`, async () => {
      const alone = await runCli(['initial', file, '--json']);
      expect(alone.code).toBe(0);
      loadCpus();
      const loaded = await runCli(['initial', file, '--json'], {});
      expect(loaded.code).toBe(0);
      const a = JSON.parse(alone.stdout) as { autoSolutions: unknown[] };
      const b = JSON.parse(loaded.stdout) as unknown;
      expect(a.autoSolutions.length).toBeGreaterThan(0);
      expect(scrub(b)).toEqual(scrub(a));
    });
  }
});
