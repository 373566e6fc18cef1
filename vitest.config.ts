import { defineConfig } from 'vitest/config';

// Integration tests (real HTTP servers, Redis, child processes) are named for what they need,
// so `npm run test:unit` stays fast and free of infrastructure.
const integration = ['test/**/*.http.test.ts', 'test/**/*.redis.test.ts', 'test/**/*.e2e.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: integration,
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
    ],
  },
});
