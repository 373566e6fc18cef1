import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { contextSettings } from '../../src/app/process-parts.js';
import { loadSettings } from '../../src/settings/load.js';
import { UserError } from '../../src/errors.js';
import { defaultProductsFile } from '../../src/package-root.js';
import { put, tempDir } from '../helpers/files.js';
import { knownError } from '../helpers/known-error.js';
import { parseRedisUrl } from '../../src/redis/target.js';

const cwd = await tempDir('settings-');

describe('loadSettings', () => {
  it.each([
    ['an inbox that is the data folder', { DATA_DIR: 'data', INBOX_DIR: 'data' }, 'work'],
    [
      'the data folder inside the inbox (a share)',
      { DATA_DIR: 'share/importer', INBOX_DIR: 'share' },
      'work',
    ],
    [
      'the reports inside the inbox',
      { INBOX_DIR: 'share', REPORTS_DIR: 'share/reports' },
      'reports',
    ],
    ['an inbox inside the reports', { INBOX_DIR: 'data/reports/in' }, 'reports'],
    ['an inbox that is the sheets’ copies', { INBOX_DIR: 'data/sheets' }, 'sheets'],
  ])('refuses %s: the watcher would take the importer’s own files', async (_, env, what) => {
    const cwd = await tempDir('settings-inbox-');
    await expect(loadSettings({ cwd, env })).rejects.toThrow(
      new RegExp(
        `^INBOX_DIR \\(${join(cwd, env.INBOX_DIR)}\\) .*the importer's own ${what} folder`,
      ),
    );
  });

  it('takes an inbox beside the importer’s folders, inside the data folder or not', async () => {
    const cwd = await tempDir('settings-inbox-');
    expect((await loadSettings({ cwd })).inboxDir).toBe(join(cwd, 'data', 'inbox'));
    const env = { DATA_DIR: '/srv/importer', INBOX_DIR: '/srv/share/inbox' };
    expect((await loadSettings({ cwd, env })).inboxDir).toBe('/srv/share/inbox');
  });

  it('has the documented defaults', async () => {
    const settings = await loadSettings({ cwd });
    expect(settings).toMatchObject({
      dataDir: join(cwd, 'data'),
      inboxDir: join(cwd, 'data', 'inbox'),
      reportsDir: join(cwd, 'data', 'reports'),
      productsFile: defaultProductsFile(),
      inboxStableMs: 2000,
      concurrency: 8,
      apiTimeoutMs: 30_000,
      apiWaitS: 300,
      redisWaitS: 300,
      maxAttachmentMb: 20,
      ledgerDays: 400,
      embeddedSandboxPlanningS: 60,
      dashboardHost: '127.0.0.1',
      dashboardPort: 3000,
      logLevel: 'info',
      schedules: [],
    });
    expect(settings.apiBaseUrl).toBeUndefined();
    expect(settings.redisUrl).toBeUndefined();
    expect(settings.apiRateLimit).toBeUndefined();
  });

  it('takes flags over the environment over the config file', async () => {
    const configFile = await put(
      cwd,
      'config.json',
      JSON.stringify({ concurrency: 2, maxAttachmentMb: 5, apiTimeoutMs: 1000 }),
    );
    const settings = await loadSettings({
      cwd,
      configFile,
      env: { CONCURRENCY: '4', MAX_ATTACHMENT_MB: '7', LEDGER_DAYS: '30' },
      flags: { concurrency: '6', ledgerDays: '90' },
    });
    expect(settings).toMatchObject({
      concurrency: 6,
      ledgerDays: 90,
      maxAttachmentMb: 7,
      apiTimeoutMs: 1000,
      configFile,
    });
  });

  it('resolves paths against the working folder, and derives folders from DATA_DIR', async () => {
    const settings = await loadSettings({
      cwd,
      env: { DATA_DIR: 'work', PRODUCTS_FILE: 'cat.json' },
    });
    expect(settings.dataDir).toBe(join(cwd, 'work'));
    expect(settings.inboxDir).toBe(join(cwd, 'work', 'inbox'));
    expect(settings.productsFile).toBe(join(cwd, 'cat.json'));
  });

  it('carries LEDGER_DAYS into the context', async () => {
    const settings = await loadSettings({ cwd, env: { LEDGER_DAYS: '30' } });
    expect(contextSettings(settings, parseRedisUrl('redis://127.0.0.1:6379')).ledgerDays).toBe(30);
  });

  it('takes the language from --language, then the config file, then LANGUAGE and the locale', async () => {
    const dir = await tempDir();
    const config = await put(dir, 'config.json', JSON.stringify({ language: 'fr' }));
    const env = { LANGUAGE: 'de:nl', LANG: 'fr_BE.UTF-8' };
    expect((await loadSettings({ cwd, env, flags: { language: 'en' } })).language).toBe('en');
    expect((await loadSettings({ cwd, env, configFile: config })).language).toBe('fr');
    expect((await loadSettings({ cwd, env })).language).toBe('nl');
    expect((await loadSettings({ cwd, env: { LANG: 'fr_BE.UTF-8' } })).language).toBe('fr');
    expect((await loadSettings({ cwd, env: {} })).language).toBe('en');
    await expect(loadSettings({ cwd, flags: { language: 'de' } })).rejects.toThrow(
      /^--language: must be nl, fr or en \(got "de"\)\.$/,
    );
  });

  it('ignores empty environment variables', async () => {
    expect((await loadSettings({ cwd, env: { CONCURRENCY: '' } })).concurrency).toBe(8);
  });

  it.each([
    [{ CONCURRENCY: 'many' }, /^CONCURRENCY: must be a number \(got "many"\)\.$/],
    [{ CONCURRENCY: '0' }, /^CONCURRENCY: must be more than 0 \(got "0"\)\.$/],
    [{ CONCURRENCY: '1.5' }, /^CONCURRENCY: must be a whole number /],
    [{ MAX_ATTACHMENT_MB: '-1' }, /^MAX_ATTACHMENT_MB: must be more than 0 /],
    [{ API_BASE_URL: 'ftp://example.be' }, /^API_BASE_URL: must be an http:\/\/ or https:\/\/ URL/],
    [{ API_BASE_URL: 'https://api.example.be/?x=1' }, /^API_BASE_URL: must not hold a query/],
    [
      { API_BASE_URL: 'https://agent:pw@api.example.be' },
      /^API_BASE_URL: must not hold a user name or password .*\(got "https:\/\/\*\*\*@api/,
    ],
    [
      { REDIS_URL: 'localhost:6379' },
      /^REDIS_URL: must be a redis:\/\/, rediss:\/\/, redis\+sentinel:\/\/, rediss\+sentinel:\/\/ or redis\+cluster:\/\/ URL/,
    ],
    [{ REDIS_URL: 'rediss+cluster://h1:7000,h2:7001' }, /^REDIS_URL: must be a redis:\/\//],
    [
      { REDIS_URL: 'redis+cluster://10.0.0.5:7000,10.0.0.6:99999' },
      /^REDIS_URL: names port 99999, not a port/,
    ],
    [
      { REDIS_URL: 'redis+cluster://u:secret@10.0.0.5:7000/0' },
      /^REDIS_URL: names no database: a Cluster has database 0 only .*\(got "redis\+cluster:\/\/\*\*\*@10/,
    ],
    [
      { REDIS_URL: 'redis+sentinel://h1:26379,h2' },
      /^REDIS_URL: must end with the name of the master/,
    ],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: must be one of "fatal", .*"silent" \(got "loud"\)/],
    [{ DASHBOARD_PORT: '70000' }, /^DASHBOARD_PORT: must be at most 65535 /],
    [{ INBOX_POLLING: 'maybe' }, /^INBOX_POLLING: must be one of .*"yes", "no" \(got "maybe"\)/],
    [{ QUEUE_PREFIX: 'a:b' }, /^QUEUE_PREFIX: must not hold ":" or spaces /],
    [{ JOB_LOCK_MS: '10' }, /^JOB_LOCK_MS: must be at least 500 /],
    [{ API_WAIT_S: '-1' }, /^API_WAIT_S: must be at least 0 /],
    [{ REDIS_WAIT_S: 'soon' }, /^REDIS_WAIT_S: must be a number \(got "soon"\)\.$/],
    [{ LEDGER_DAYS: '0' }, /^LEDGER_DAYS: must be more than 0 /],
    [{ SANDBOX_PLANNING_S: 'soon' }, /^SANDBOX_PLANNING_S: must be a number \(got "soon"\)\.$/],
    [{ SANDBOX_PLANNING_S: '-1' }, /^SANDBOX_PLANNING_S: must be at least 0 /],
  ])('refuses %j in one line naming the setting', async (env, message) => {
    const error = await loadSettings({ cwd, env }).catch((e: unknown) => e);
    expect(error).toEqual(knownError('UserError', 'config.invalid'));
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it.each([
    ['https://API.Example.be/', 'https://api.example.be'],
    ['HTTPS://api.example.be:443/v2//', 'https://api.example.be/v2'],
    ['http://127.0.0.1:80', 'http://127.0.0.1'],
    ['http://localhost:4010', 'http://localhost:4010'],
  ])('uses API_BASE_URL %s in its one spelling %s', async (given, normalised) => {
    const settings = await loadSettings({ cwd, env: { API_BASE_URL: given } });
    expect(settings.apiBaseUrl).toBe(normalised);
  });

  it.each([
    'https://agent:s3cret@api.example.be',
    'https:agent:s3cret@api.example.be',
    'https://agent:p@s3cret@api.example.be',
    ' https://agent:s3cret@api.example.be',
    'https://agent:s3cret/x@api.example.be',
    'https://agent:s3cret@',
    'http:\\\\agent:s3cret@api.example.be',
    'http:/agent:s3cret@api.example.be',
  ])('never repeats a password given in API_BASE_URL (%s)', async (given) => {
    const error = await loadSettings({ cwd, env: { API_BASE_URL: given } }).catch(
      (e: unknown) => e,
    );
    expect(error).toEqual(knownError('UserError', 'config.invalid'));
    expect((error as Error).message).toMatch(/^API_BASE_URL: /);
    expect((error as Error).message).not.toContain('s3cret');
  });

  it('takes REDIS_URL in each of its forms, and REDIS_TLS_CA_FILE against the working folder', async () => {
    for (const url of [
      'redis://127.0.0.1:6379',
      'rediss://importer:pw@redis.example.be:6380/1',
      'redis+sentinel://s1.example.be:26379,s2.example.be:26379/orders',
      'rediss+sentinel://importer:pw@10.0.0.1,10.0.0.2/orders/2',
      'redis+cluster://importer:pw@10.0.0.1:7000,10.0.0.2:7000',
    ]) {
      const settings = await loadSettings({ cwd, env: { REDIS_URL: url } });
      expect(settings.redisUrl).toBe(url);
    }
    const settings = await loadSettings({
      cwd,
      env: { REDIS_URL: 'rediss://h:6380', REDIS_TLS_CA_FILE: 'certs/ca.pem' },
    });
    expect(settings.redisTlsCaFile).toBe(join(cwd, 'certs/ca.pem'));
  });

  it('never repeats a password given in a REDIS_URL it refuses', async () => {
    for (const url of [
      'rediss+cluster://u:s3cret@h1:1,h2:2',
      'redis+cluster://u:s3cret@h1:1,h2:2/1',
      'redis://u:s3cret@h:1?x=1',
    ]) {
      const error = await loadSettings({ cwd, env: { REDIS_URL: url } }).catch((e: unknown) => e);
      expect(error).toEqual(knownError('UserError', 'config.invalid'));
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it('reads SANDBOX_PLANNING_S, 0 turning planning off', async () => {
    const settings = await loadSettings({ cwd, env: { SANDBOX_PLANNING_S: '0' } });
    expect(settings.embeddedSandboxPlanningS).toBe(0);
    const flagged = await loadSettings({
      cwd,
      env: { SANDBOX_PLANNING_S: '0' },
      flags: { embeddedSandboxPlanningS: '15' },
    });
    expect(flagged.embeddedSandboxPlanningS).toBe(15);
  });

  it('names the flag when the flag is wrong', async () => {
    await expect(loadSettings({ cwd, flags: { maxAttachmentMb: 'big' } })).rejects.toThrow(
      /^--max-attachment-mb: /,
    );
  });

  it('refuses a config file nested deeper than any setting, in one line naming it', async () => {
    const deep = `${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}`;
    const configFile = await put(cwd, 'deep.json', `{"mapping":${deep}}`);
    await expect(loadSettings({ cwd, configFile })).rejects.toThrow(
      new UserError(
        'config.invalid',
        `--config ${configFile} is nested more than 64 levels deep: no setting is; check that it is the importer's config file.`,
      ),
    );
  });

  it('reads schedules from the config file', async () => {
    const configFile = await put(
      cwd,
      'schedules.json',
      JSON.stringify({ schedules: [{ name: 'nightly', cron: '0 2 * * *', dir: 'share' }] }),
    );
    const settings = await loadSettings({ cwd, configFile });
    expect(settings.schedules).toEqual([
      { name: 'nightly', cron: '0 2 * * *', dir: join(cwd, 'share') },
    ]);
  });

  it('reads the mapping of the config file, relative to the config file', async () => {
    const configFile = await put(
      cwd,
      'etc/importer.json',
      JSON.stringify({ mapping: 'gent.json' }),
    );
    const settings = await loadSettings({ cwd, configFile });
    expect(settings.mappingFile).toBe(join(cwd, 'etc', 'gent.json'));
    expect((await loadSettings({ cwd })).mappingFile).toBeUndefined();
  });

  it.each([
    ['missing.json', null, /cannot be read/],
    ['broken.json', '{"concurrency": ', /is not valid JSON/],
    ['list.json', '[]', /must hold a JSON object of settings/],
    ['typo.json', '{"concurency": 2}', /unknown setting "concurency"/],
    ['bad.json', '{"concurrency": "x"}', /^"concurrency" in .*bad\.json: must be a number/],
    ['sched.json', '{"schedules": [{"name": "n"}]}', /^"schedules" in .*: 0\.cron: is required\.$/],
    ['sched-object.json', '{"schedules": {}}', /^"schedules" in .*: must be a list\.$/],
    [
      'mapping.json',
      '{"mapping": {"Straat": "address1"}}',
      /^"mapping" in .*: must be the path of a mapping file, relative to the config file/,
    ],
    [
      'mapping-empty.json',
      '{"mapping": " "}',
      /^"mapping" in .*: must be the path of a mapping file/,
    ],
  ])('refuses the config file %s', async (name, content, message) => {
    const configFile = content === null ? join(cwd, name) : await put(cwd, name, content);
    await expect(loadSettings({ cwd, configFile })).rejects.toThrow(message);
  });
});

describe('cron patterns', () => {
  // Five or six fields that a regex of fields takes, but no schedule can run on: found when the
  // settings are read, before Redis, the API or a worker is started.
  it.each([
    ['61 * * * *', /61/],
    ['0 25 * * *', /25/],
    ['0 0 31 2 *', /day of month/],
    ['0 2 * * 9', /9/],
    ['a b c d e', /a/],
    ['0 2 * *', /4 fields/],
  ])('refuses STATUS_SYNC_CRON %j in one line naming the setting', async (value, why) => {
    const error = await loadSettings({ cwd, env: { STATUS_SYNC_CRON: value } }).catch(
      (e: unknown) => e,
    );
    expect(error).toEqual(knownError('UserError', 'config.invalid'));
    const message = (error as Error).message;
    expect(message).toMatch(/^STATUS_SYNC_CRON: must be a cron pattern of 5 or 6 fields/);
    expect(message).toMatch(why);
    expect(message.endsWith(`(got "${value}").`)).toBe(true);
  });

  it('refuses a bad pattern of the config file, naming where it is', async () => {
    const configFile = await put(cwd, 'cron.json', '{"statusSyncCron": "0 0 30 2 *"}');
    await expect(loadSettings({ cwd, configFile })).rejects.toThrow(
      /^"statusSyncCron" in .*cron\.json: must be a cron pattern/,
    );
  });

  it('refuses a schedule whose cron pattern cannot run, naming the schedule', async () => {
    const configFile = await put(
      cwd,
      'bad-schedule.json',
      JSON.stringify({ schedules: [{ name: 'nightly', cron: '0 2 * * 9', dir: 'share' }] }),
    );
    const error = await loadSettings({ cwd, configFile }).catch((e: unknown) => e);
    expect(error).toEqual(knownError('UserError', 'config.invalid'));
    expect((error as Error).message).toMatch(
      /^"schedules" in .*bad-schedule\.json: "nightly" has the cron pattern "0 2 \* \* 9", which .*9/,
    );
  });

  it.each(['0 * * * *', '*/15 * * * * *', '0 9 * * mon-fri', '0 0 L * *', 'off'])(
    'takes %j',
    async (value) => {
      expect((await loadSettings({ cwd, env: { STATUS_SYNC_CRON: value } })).statusSyncCron).toBe(
        value,
      );
    },
  );
});

describe('DASHBOARD_HOSTS', () => {
  it('is none by default, and reads comma-separated names or a list in the config file', async () => {
    expect((await loadSettings({ cwd })).dashboardHosts).toEqual([]);
    const fromEnv = await loadSettings({
      cwd,
      env: { DASHBOARD_HOSTS: ' dash.example.com, 10.0.0.5 ,[fd00::5],' },
    });
    expect(fromEnv.dashboardHosts).toEqual(['dash.example.com', '10.0.0.5', '[fd00::5]']);
    const configFile = await put(cwd, 'hosts.json', '{"dashboardHosts": ["dash.example.com"]}');
    expect((await loadSettings({ cwd, configFile })).dashboardHosts).toEqual(['dash.example.com']);
  });

  it.each(['*', 'https://dash.example.com/', 'dash.example.com/x', 'an@dash.example.com'])(
    'refuses %j in one line naming the setting',
    async (value) => {
      const error = await loadSettings({ cwd, env: { DASHBOARD_HOSTS: value } }).catch(
        (e: unknown) => e,
      );
      expect(error).toEqual(knownError('UserError', 'config.invalid'));
      expect((error as Error).message).toMatch(
        /^DASHBOARD_HOSTS: must be host names or addresses separated by commas, e\.g\. .*\(got ".*"\)\.$/,
      );
    },
  );
});
