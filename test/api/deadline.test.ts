/** A request's time limit joined with its caller's stop (api/deadline.ts). */
import { getEventListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { Deadline } from '../../src/api/deadline.js';

describe('a request deadline', () => {
  it('aborts its signal when the time runs out, and says so', async () => {
    const deadline = new Deadline(20, undefined);
    expect(deadline.signal.aborted).toBe(false);
    await sleep(60);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired).toBe(true);
    expect(deadline.stopped).toBe(false);
    expect((deadline.signal.reason as Error).name).toBe('TimeoutError');
  });

  it('aborts its signal when the caller stops, which is not a timeout', () => {
    const caller = new AbortController();
    const deadline = new Deadline(10_000, caller.signal);
    caller.abort(new Error('shutting down'));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.stopped).toBe(true);
    expect(deadline.expired).toBe(false);
    deadline.end();
  });

  it('begins aborted when its caller has stopped already', () => {
    const caller = new AbortController();
    caller.abort();
    const deadline = new Deadline(10_000, caller.signal);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.stopped).toBe(true);
    deadline.end();
  });

  it('leaves nothing behind once ended: no listener on the caller, no abort later', async () => {
    const caller = new AbortController();
    const deadline = new Deadline(20, caller.signal);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    deadline.end();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    await sleep(60);
    caller.abort();
    expect(deadline.signal.aborted).toBe(false);
  });
});
