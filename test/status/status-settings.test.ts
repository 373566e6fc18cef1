/** The settings of the status of imported orders: STATUS_DAYS, STATUS_SYNC_CRON, STATUS_FINAL. */
import { describe, expect, it } from 'vitest';

import { contextSettings } from '../../src/app/process-parts.js';
import { loadSettings } from '../../src/settings/load.js';
import { tempDir } from '../helpers/files.js';
import { parseRedisUrl } from '../../src/redis/target.js';

describe('status settings', () => {
  it('default to 90 days, hourly, and cancelled and done as final', async () => {
    const settings = await loadSettings({ cwd: await tempDir('status-settings-') });
    expect(settings).toMatchObject({
      statusDays: 90,
      statusSyncCron: '0 * * * *',
      statusFinal: ['cancelled', 'done'],
    });
    expect(contextSettings(settings, parseRedisUrl('redis://x'))).toMatchObject({
      statusDays: 90,
      statusFinal: ['cancelled', 'done'],
    });
  });

  it('read a cron of 6 fields, off, and a list of final statuses', async () => {
    const env = {
      STATUS_SYNC_CRON: '*/5 * * * * *',
      STATUS_FINAL: ' done ,geannuleerd,',
      STATUS_DAYS: '7',
    };
    const settings = await loadSettings({ cwd: await tempDir('status-settings-'), env });
    expect(settings).toMatchObject({
      statusDays: 7,
      statusSyncCron: '*/5 * * * * *',
      statusFinal: ['done', 'geannuleerd'],
    });
    const off = await loadSettings({
      cwd: await tempDir('status-settings-'),
      env: { STATUS_SYNC_CRON: 'off' },
    });
    expect(off.statusSyncCron).toBe('off');
  });

  it('refuse what is no cron pattern, naming the setting', async () => {
    const cwd = await tempDir('status-settings-');
    await expect(loadSettings({ cwd, env: { STATUS_SYNC_CRON: 'hourly' } })).rejects.toThrow(
      /STATUS_SYNC_CRON/,
    );
    await expect(loadSettings({ cwd, env: { STATUS_DAYS: '0' } })).rejects.toThrow(/STATUS_DAYS/);
  });
});
