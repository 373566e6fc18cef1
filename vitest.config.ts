import { defineConfig } from 'vitest/config';

// Integration tests (real HTTP servers, Redis) are named for what they need, so `npm run
// test:unit` stays fast and free of infrastructure. Commands are tested in process, through
// their IO; only what needs a process of its own (signals, a killed worker, the binary itself)
// spawns the built CLI, in `*.e2e.test.ts`, against a build this run makes first.
const integration = ['test/**/*.http.test.ts', 'test/**/*.redis.test.ts'];
const spawned = ['test/**/*.e2e.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...integration, ...spawned],
        },
      },
      {
        test: {
          name: 'integration',
          include: integration,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: spawned,
          // Runs only when this project has tests to run.
          globalSetup: ['test/helpers/build.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
