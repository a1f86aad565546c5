import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // no test ever reaches the real DPE registry: the tests that want one start a stand-in
    env: { DPE_SIM_OFFLINE: '1' },
  },
});
