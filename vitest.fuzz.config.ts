import { defineConfig } from 'vitest/config';

// `npm run fuzz`: the fuzz properties and the timing properties (`*.fuzz.ts`, never in the default
// suite), with FUZZ_RUNS cases each and random seeds.
export default defineConfig({
  test: {
    include: ['__tests__/gate/fuzz.test.ts', '__tests__/**/*.fuzz.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
