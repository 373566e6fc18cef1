import { describe, expect, it } from 'vitest';

import { UserError } from '../../src/errors.js';
import { unlessRedisGone, waitForSheets } from '../../src/cli/commands/wait-for-sheets.js';
import type { SheetProgress } from '../../src/store/progress.js';

const sheet = (state: SheetProgress['state']): SheetProgress => ({
  sheetId: 's1',
  name: 'orders.csv',
  startedAt: '2026-11-26T09:00:00.000Z',
  state,
  total: 2,
  final: state === 'done' ? 2 : 1,
  counts: { created: 1, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 },
});

/** A pipeline whose looks answer from a script: a sheet, a thrown error, or never (Redis away). */
function pipeline(
  script: Array<SheetProgress | Error | 'never'>,
  fatal?: string,
  now: () => number = Date.now,
) {
  const failures: unknown[] = [];
  const outage = {
    since: undefined as number | undefined,
    failed(reason: unknown) {
      failures.push(reason);
      outage.since ??= now();
    },
  };
  return {
    failures,
    redisOutage: outage,
    progress: () => {
      const next = script.length > 1 ? script.shift() : script[0];
      if (next === 'never') {
        outage.since ??= now(); // what the client's own error event does
        return new Promise<SheetProgress>(() => undefined);
      }
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
    fatal: () => Promise.resolve(fatal),
  };
}

const shown: SheetProgress[][] = [];
const progress = { update: (sheets: readonly SheetProgress[]) => shown.push([...sheets]) };
const options = (extra: Partial<Parameters<typeof waitForSheets>[3]> = {}) => ({
  stopped: () => false,
  redisWaitS: 300,
  redisUrl: 'redis://:secret@127.0.0.1:6390',
  pollMs: 2,
  ...extra,
});

describe('waitForSheets', () => {
  it('follows the sheets until they are done', async () => {
    const p = pipeline([sheet('processing'), sheet('processing'), sheet('done')]);
    const outcome = await waitForSheets(['s1'], p, progress, options());
    expect(outcome).toEqual({ sheets: [sheet('done')] });
  });

  it('stops with one plain line when Redis no longer knows a sheet (it came back without its data)', async () => {
    const p = {
      ...pipeline([sheet('processing')]),
      progress: (id: string) => Promise.resolve(id === 's1' ? sheet('processing') : undefined),
    };
    const error = await waitForSheets(['s1', 's2'], p, progress, options()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).exitCode).toBe(1);
    expect((error as UserError).message).toMatch(
      /^Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:6390 lost its data \(sheet s2 .*AOF.*`order-importer ledger rebuild`/,
    );
  });

  it('returns what stopped the import for every row', async () => {
    const p = pipeline([sheet('processing')], 'the API refused the token');
    const outcome = await waitForSheets(['s1'], p, progress, options());
    expect(outcome.fatal).toBe('the API refused the token');
  });

  it('stops with one plain line once Redis has been away for REDIS_WAIT_S', async () => {
    let clock = 0;
    const now = () => (clock += 500);
    const p = pipeline([sheet('processing'), 'never'], undefined, now);
    const error = await waitForSheets(['s1'], p, progress, options({ redisWaitS: 3, now })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).message).toBe(
      'Redis at redis://:***@127.0.0.1:6390 has not answered for 3 s (REDIS_WAIT_S): the import stops. Once Redis is back, run the same import again: it resumes where it stopped.',
    );
  });

  it('notices a stop while a look waits for Redis', async () => {
    const p = pipeline([sheet('processing'), 'never']);
    let looks = 0;
    const outcome = await waitForSheets(
      ['s1'],
      p,
      progress,
      options({ stopped: () => (looks += 1) > 5 }),
    );
    expect(outcome).toEqual({ sheets: [sheet('processing')] });
  });

  it('counts a look that failed for want of Redis as the outage, and goes on', async () => {
    const gone = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6390'), {
      code: 'ECONNREFUSED',
    });
    const p = pipeline([gone, sheet('done')]);
    const outcome = await waitForSheets(['s1'], p, progress, options());
    expect(outcome.sheets).toEqual([sheet('done')]);
    expect(p.failures).toEqual([gone]);
  });

  it('lets any other failure through', async () => {
    const p = pipeline([new Error('WRONGTYPE Operation against a key')]);
    await expect(waitForSheets(['s1'], p, progress, options())).rejects.toThrow(/WRONGTYPE/);
  });
});

describe('unlessRedisGone', () => {
  const outage = (since?: number) => ({ since, failed: () => undefined });
  const wait = { redisWaitS: 3, redisUrl: 'redis://127.0.0.1:6390', pollMs: 2 };

  it('gives what the work gives, Redis answering', async () => {
    expect(await unlessRedisGone(Promise.resolve(42), outage(), wait)).toBe(42);
  });

  it('lets a failure of the work through', async () => {
    await expect(
      unlessRedisGone(Promise.reject(new Error('no such sheet')), outage(), wait),
    ).rejects.toThrow('no such sheet');
  });

  it('gives up on work that waits for a Redis away for REDIS_WAIT_S', async () => {
    let clock = 0;
    const never = new Promise<number>(() => undefined);
    await expect(
      unlessRedisGone(never, outage(0), { ...wait, now: () => (clock += 1000) }),
    ).rejects.toThrow(
      /^Redis at redis:\/\/127\.0\.0\.1:6390 has not answered for 3 s \(REDIS_WAIT_S\)/,
    );
  });
});
