import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { FeedKeys } from '../../src/store/feed-keys.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-keys-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("an office's feed key", () => {
  it('is the configured one when the connection entry gives it', async () => {
    const keys = new FeedKeys(dir, new Map([['gent', 'k'.repeat(22)]]));
    expect(await keys.keyOf('gent')).toBe('k'.repeat(22));
    expect(await readdir(dir)).toEqual([]);
  });

  it('is generated once (128 bits, base64url), kept readable by its owner only', async () => {
    const first = await new FeedKeys(dir).keyOf('brugge');
    expect(first).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await new FeedKeys(dir).keyOf('brugge')).toBe(first);
    expect(await new FeedKeys(dir).keyOf('gent')).not.toBe(first);
    const mode = (await stat(join(dir, 'calendar-keys', 'brugge.key'))).mode & 0o777;
    expect(mode).toBe(0o600);
    expect((await readdir(join(dir, 'calendar-keys'))).sort()).toEqual(['brugge.key', 'gent.key']);
  });

  it('is the same for two asking at once', async () => {
    const keys = await Promise.all(
      Array.from({ length: 8 }, () => new FeedKeys(dir).keyOf('gent')),
    );
    expect(new Set(keys).size).toBe(1);
  });

  it('is none for a name that is no office', async () => {
    expect(await new FeedKeys(dir).keyOf('../etc')).toBeUndefined();
    expect(await new FeedKeys(dir).keyOf('')).toBeUndefined();
  });
});
