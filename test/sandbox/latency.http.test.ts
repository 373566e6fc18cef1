import { afterAll, beforeAll, expect, it } from 'vitest';

import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await testSandbox({ faults: { latencyMs: 150 } });
});
afterAll(() => sandbox.close());

it('delays many requests at once without a listener-leak warning (a 32-wide importer sends that many)', async () => {
  const warnings: string[] = [];
  const heard = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', heard);
  try {
    const answers = await Promise.all(Array.from({ length: 40 }, () => sandbox.api.getOrder(1)));
    expect(answers.every((answer) => answer.status === 404)).toBe(true);
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on next tick
  } finally {
    process.off('warning', heard);
  }
  expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
});
