/**
 * A setup file of the integration and e2e tests: after each test file (after its own afterAll
 * hooks), fails it when it left a server listening, a child process running, a connection to
 * Redis open (a BullMQ worker, a queue, a client) or a key under one of its Redis prefixes.
 * Files run side by side and share a redis-server: what one leaves behind slows or confuses the
 * others, and would only show as someone else's flaky test.
 */
import { afterAll } from 'vitest';

import { activeHandles, findLeaks } from './leaks.js';
import { redisesGiven } from './redis.js';

// Closing is asynchronous (a quit is answered, a killed child exits a moment later): what is
// still on its way out after this long is not.
const GRACE_MS = 5_000;

const before = activeHandles();

afterAll(async () => {
  const leaks = await findLeaks({ before, redises: redisesGiven(), graceMs: GRACE_MS });
  if (leaks.length > 0) {
    throw new Error(`This test file left behind: ${leaks.join('; ')}.`);
  }
});
