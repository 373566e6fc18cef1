import { describe, expect, it } from 'vitest';

import { contextSettings } from '../../src/app/process-parts.js';
import { connectionOf } from '../../src/connections/connection.js';
import { nextTryInMs } from '../../src/notify/deliver.js';
import { eventBody, eventId, type NotifyEvent } from '../../src/notify/events.js';
import { channelsOf } from '../../src/notify/queue-notification.js';
import { signatureOf } from '../../src/notify/webhook.js';
import { loadSettings } from '../../src/settings/load.js';
import { put, tempDir } from '../helpers/files.js';
import { parseRedisUrl } from '../../src/redis/target.js';

const cwd = await tempDir('notify-settings-');

describe('the notification settings', () => {
  it('carry each channel set into the context, and none when none is set', async () => {
    const env = {
      NOTIFY_WEBHOOK_URL: 'https://hooks.example.test/orders',
      NOTIFY_WEBHOOK_SECRET: 's3cret',
      NOTIFY_EMAIL_TO: 'ops@agency.test, jan@agency.test',
      NOTIFY_EMAIL_FROM: 'Importer <importer@agency.test>',
      SMTP_URL: 'smtps://user:pw@mail.agency.test:465',
      NOTIFY_RETRY_HOURS: '2',
    };
    const settings = await loadSettings({ cwd, env });
    expect(contextSettings(settings, parseRedisUrl('redis://r')).notify).toEqual({
      webhook: { url: 'https://hooks.example.test/orders', secret: 's3cret' },
      email: {
        to: ['ops@agency.test', 'jan@agency.test'],
        from: 'Importer <importer@agency.test>',
        smtpUrl: 'smtps://user:pw@mail.agency.test:465',
      },
      retryHours: 2,
    });
    const none = contextSettings(await loadSettings({ cwd }), parseRedisUrl('redis://r'));
    expect(none.notify).toBeUndefined();
    expect(channelsOf(none.notify)).toEqual([]);
  });

  it("give each office of the config file its own channels where its entry names them, the top level's elsewhere", async () => {
    const dir = await tempDir('notify-offices-');
    const office = (name: string, notify?: unknown) => ({
      name,
      apiBaseUrl: 'https://api.example.test',
      tokenFile: `${name}.token`,
      ...(notify !== undefined && { notify }),
    });
    const configFile = await put(
      dir,
      'config.json',
      JSON.stringify({
        notifyWebhookUrl: 'https://hooks.example.test/all',
        notifyWebhookSecret: 'top',
        notifyEmailFrom: 'importer@agency.test',
        smtpUrl: 'smtp://mail.agency.test:25',
        connections: [
          office('gent', {
            webhook: { url: 'https://hooks.example.test/gent', secret: 'g' },
            email: { to: 'gent@agency.test, an@agency.test' },
          }),
          office('brugge'),
          office('kortrijk', { webhook: null }),
        ],
      }),
    );
    const settings = await loadSettings({ cwd, configFile });
    const [gent, brugge, kortrijk] = settings.connections.map(
      (c) => contextSettings(settings, parseRedisUrl('redis://r'), c).notify,
    );
    expect(gent).toEqual({
      webhook: { url: 'https://hooks.example.test/gent', secret: 'g' },
      email: {
        to: ['gent@agency.test', 'an@agency.test'],
        from: 'importer@agency.test',
        smtpUrl: 'smtp://mail.agency.test:25',
      },
      retryHours: 24,
    });
    // No NOTIFY_EMAIL_TO at the top: only the offices that name recipients get e-mails.
    expect(brugge).toEqual({
      webhook: { url: 'https://hooks.example.test/all', secret: 'top' },
      retryHours: 24,
    });
    expect(kortrijk).toBeUndefined();
  });

  it.each([
    [
      { email: { to: 'gent@agency.test' } },
      {},
      /the connection "gent" has its own "notify.email" recipients, and its e-mails need NOTIFY_EMAIL_FROM and SMTP_URL/,
    ],
    [
      { webhook: { url: 'ftp://x' } },
      {},
      /entry 1 \("gent"\): notify.webhook.url must be an http:\/\/ or https:\/\/ URL/,
    ],
    [{ webhook: { url: 'https://h.test', key: 'x' } }, {}, /notify.webhook: unknown field "key"/],
    [
      {},
      { notifyEmailFrom: 'a@b.test', smtpUrl: 'smtp://m' },
      /e-mail notifications need all three/,
    ],
  ])(
    'refuse an office notify %o that cannot deliver, in one line',
    async (notify, top, message) => {
      const dir = await tempDir('notify-offices-');
      const configFile = await put(
        dir,
        'config.json',
        JSON.stringify({
          ...top,
          connections: [
            { name: 'gent', apiBaseUrl: 'https://api.example.test', tokenFile: 'g', notify },
          ],
        }),
      );
      await expect(loadSettings({ cwd, configFile })).rejects.toThrow(message);
    },
  );

  it.each([
    [{ NOTIFY_WEBHOOK_URL: 'hooks.example.test' }, /^NOTIFY_WEBHOOK_URL: must be an http/],
    [{ NOTIFY_WEBHOOK_URL: 'ftp://hooks.example.test/x' }, /^NOTIFY_WEBHOOK_URL: must be an http/],
    [
      {
        SMTP_URL: 'http://user:topsecret@mail',
        NOTIFY_EMAIL_TO: 'a@b.test',
        NOTIFY_EMAIL_FROM: 'c@d.test',
      },
      /^SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    ],
    [
      { NOTIFY_EMAIL_TO: 'ops@agency.test', SMTP_URL: 'smtp://mail:25' },
      /^NOTIFY_EMAIL_TO and SMTP_URL are set without NOTIFY_EMAIL_FROM: e-mail notifications need all three/,
    ],
    [
      { NOTIFY_EMAIL_TO: 'not an address', NOTIFY_EMAIL_FROM: 'c@d.test', SMTP_URL: 'smtp://m' },
      /^NOTIFY_EMAIL_TO: must be e-mail addresses separated by commas/,
    ],
    [{ NOTIFY_WEBHOOK_SECRET: 'x' }, /^NOTIFY_WEBHOOK_SECRET is set without NOTIFY_WEBHOOK_URL/],
    [{ NOTIFY_RETRY_HOURS: '0' }, /^NOTIFY_RETRY_HOURS: must be more than 0/],
  ])('refuse %o in one line that names the setting', async (env, message) => {
    const refused = loadSettings({ cwd, env });
    await expect(refused).rejects.toThrow(message);
    const text = await refused.catch((error: unknown) => (error as Error).message);
    expect(text).not.toContain('\n');
    expect(text).not.toContain('topsecret');
  });
});

describe('an event', () => {
  const connection = connectionOf({
    apiBaseUrl: 'https://api.example.test',
    token: 'the-token',
    name: 'gent',
    sandbox: false,
  });
  const done = (finishedAt: string): NotifyEvent => ({
    kind: 'sheet.done',
    summary: {
      sheet: '/in/orders.csv',
      sheetId: 'S1',
      total: 1,
      created: 1,
      invalid: 0,
      failed: 0,
      needsReview: 0,
      duplicate: 0,
      warnings: [],
      reportDir: `/reports/orders-S1-${finishedAt}`,
    },
  });

  it('has the same id however often it is told, and another for another sheet or kind', () => {
    expect(eventId(done('a'), connection.id)).toBe(eventId(done('b'), connection.id));
    const other = done('a');
    if (other.kind === 'sheet.done') other.summary.sheetId = 'S2';
    expect(eventId(other, connection.id)).not.toBe(eventId(done('a'), connection.id));
    const order = (status: string) => ({
      row: 1,
      reference: 'R1',
      order_id: 77,
      address: 'Kerkstraat 1, 9000 Gent',
      before: null,
      after: { order_status: status, cancel_reason: '', inspections: [] },
    });
    const changed = (since: string, status: string): NotifyEvent => ({
      kind: 'orders.changed',
      sheetId: 'S1',
      since,
      orders: [order(status)],
    });
    const id = (event: NotifyEvent) => eventId(event, connection.id);
    // The same changes found against the same status.csv: one event (a retry, an overlapping run).
    expect(id(changed('t1', 'scheduled'))).toBe(id(changed('t1', 'scheduled')));
    // Other changes, or the same found against a later status.csv: another event.
    expect(id(changed('t1', 'scheduled'))).not.toBe(id(changed('t1', 'cancelled')));
    expect(id(changed('t1', 'scheduled'))).not.toBe(id(changed('t2', 'scheduled')));
  });

  it('names the connection without its token', () => {
    const event = done('a');
    const body = JSON.parse(eventBody(event, eventId(event, connection.id), connection)) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({
      event: 'sheet.done',
      connection: { name: 'gent', id: connection.id, apiHost: 'api.example.test', sandbox: false },
      summary: { sheetId: 'S1' },
    });
    expect(JSON.stringify(body)).not.toContain('the-token');
  });

  it('lists the changed orders of orders.changed', () => {
    const state = {
      order_status: 'scheduled',
      cancel_reason: '',
      inspections: [
        { product_id: 'EPC', inspection_date: '2026-12-01 09:00:00', inspector_name: 'Zoë' },
      ],
    };
    const event: NotifyEvent = {
      kind: 'orders.changed',
      sheetId: 'S1',
      since: '2026-11-26T10:00:00.000Z',
      orders: [
        {
          row: 1,
          reference: 'R1',
          order_id: 77,
          address: 'Kerkstraat 1, 9000 Gent',
          before: { order_status: 'to schedule', cancel_reason: '', inspections: [] },
          after: state,
        },
      ],
    };
    const body = JSON.parse(eventBody(event, 'id1', connection)) as Record<string, unknown>;
    expect(body).toMatchObject({
      event: 'orders.changed',
      sheetId: 'S1',
      orders: [{ order_id: 77, address: 'Kerkstraat 1, 9000 Gent', after: state }],
    });
  });
});

describe('the signature', () => {
  it('is the hex HMAC-SHA256 of the raw body with the secret', () => {
    // As `printf '%s' '{"a":1}' | openssl dgst -sha256 -hmac k` computes it.
    expect(signatureOf('{"a":1}', 'k')).toBe(
      'sha256=c3a92ff9e274cdcce27a58c15a78ec6dcbbdbd0038a87e7a11baef2028fd8bff',
    );
    expect(signatureOf('{"a":1}', 'k')).not.toBe(signatureOf('{"a":2}', 'k'));
    expect(signatureOf('{"a":1}', 'k')).not.toBe(signatureOf('{"a":1}', 'l'));
  });
});

describe('the next try', () => {
  const ctx = (now: number) => ({
    now: () => now,
    settings: { retryDelayMs: 1000, notify: { retryHours: 24 } } as Parameters<
      typeof nextTryInMs
    >[0]['settings'],
  });
  const half = () => 1;

  it('doubles with each try, up to an hour, and obeys a longer Retry-After', () => {
    expect(nextTryInMs(ctx(0), { tries: 0, queuedAt: 0 }, half)).toBe(1000);
    expect(nextTryInMs(ctx(0), { tries: 3, queuedAt: 0 }, half)).toBe(8000);
    expect(nextTryInMs(ctx(0), { tries: 40, queuedAt: 0 }, half)).toBe(3_600_000);
    expect(nextTryInMs(ctx(0), { tries: 0, queuedAt: 0, retryAfterMs: 120_000 }, half)).toBe(
      120_000,
    );
  });

  it('gives up once NOTIFY_RETRY_HOURS have passed since the event was queued', () => {
    const day = 24 * 3_600_000;
    expect(nextTryInMs(ctx(day - 10_000), { tries: 1, queuedAt: 0 }, half)).toBe(2000);
    expect(nextTryInMs(ctx(day - 1000), { tries: 1, queuedAt: 0 }, half)).toBeUndefined();
  });
});
