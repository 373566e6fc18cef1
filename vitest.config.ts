import { availableParallelism } from 'node:os';

import { defineConfig } from 'vitest/config';

// Integration tests (real HTTP servers, Redis) are named for what they need, so `npm run
// test:unit` stays fast and free of infrastructure. Commands are tested in process, through
// their IO; only what needs a process of its own (signals, a killed worker, the binary itself)
// spawns the built CLI, in `*.e2e.test.ts`, against a build this run makes first when it is stale.
const integration = ['test/**/*.http.test.ts', 'test/**/*.redis.test.ts'];
const spawned = ['test/**/*.e2e.test.ts'];

// Most files wait on Redis, HTTP or a child process more than they compute: two files per core
// keep the cores busy (vitest's default, one fewer than the cores, runs one file at a time here).
const workers = Math.max(2, 2 * availableParallelism());

// A file that leaves a server, a child, a Redis connection or key behind fails.
const guarded = { setupFiles: ['test/helpers/leak-guard.ts'] };

export default defineConfig({
  test: {
    // For the whole run, whichever projects it has: the machine checked, one shared redis-server.
    globalSetup: ['test/helpers/machine-needs.ts', 'test/helpers/shared-redis.ts'],
    maxWorkers: workers,
    minWorkers: 1,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...integration, ...spawned],
          // Each file still gets a fresh worker of its own, but a thread costs less than a process:
          // with about a hundred files, forks spent some 5 s more CPU. The other projects keep
          // processes of their own (signals, children, a process-wide environment).
          pool: 'threads',
          // A guard against a hang, not a measure of speed: a loaded machine running files side
          // by side makes a test of a 100,000-row sheet take several seconds.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: integration,
          ...guarded,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: spawned,
          ...guarded,
          // Runs only when this project has tests to run.
          globalSetup: ['test/helpers/build.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
