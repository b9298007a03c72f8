import { defineConfig } from 'vitest/config';

// Three files at once on two cores: the slowest files mostly wait (the Checks API client spaces its
// writes a second apart, end-to-end tests wait on the processes they start), so one core per file
// would leave the machine idle.
export default defineConfig({
  test: {
    include: ['__tests__/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 3,
  },
});
