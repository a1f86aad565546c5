import os from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import { HANG_MS } from './test/hang.js';

/**
 * The files that take longest (the corpus, the built bin on a whole building, the stop
 * signals), started first: a long file started last would end the run alone. Files of equal
 * rank keep vitest's order (its cached durations when present).
 */
const LONG_FIRST = [
  'corpus',
  'stop-signals',
  'cli-terminal',
  'server-e2e',
  'number-format',
  'cli-simulation',
  'audit',
  'cli-registry',
  'engine',
  'search',
  'engine-pool',
  'queue',
];
const rank = (spec: TestSpecification) => {
  const i = LONG_FIRST.findIndex((name) => spec.moduleId.endsWith(`/test/${name}.test.ts`));
  return i < 0 ? LONG_FIRST.length : i;
};
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // hang guards only (test/hang.ts): no test gets a deadline a busy machine can miss
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    pool: 'forks',
    // Most files wait on the processes they start (the built bin, servers, the bare engine):
    // one file per core left a core idle (vitest's default is cores − 1, so 1 here on 2 cores).
    maxWorkers: Math.max(3, os.availableParallelism() + 1),
    // concurrent tests (the corpus works test: one DPE per engine thread) in flight at once
    maxConcurrency: Math.max(2, os.availableParallelism()),
    // No test mocks modules or changes the environment in-process: files share their worker,
    // which imports the engine and the sources once, not once per file.
    isolate: false,
    sequence: { sequencer: LongFirst },
    // no test ever reaches the real DPE registry: the tests that want one start a stand-in
    env: { DPE_SIM_OFFLINE: '1' },
  },
});
