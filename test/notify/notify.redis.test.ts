import { createHmac } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Intake } from '../../src/intake/intake.js';
import { deliverNotification } from '../../src/notify/deliver.js';
import { idOf } from '../../src/notify/events.js';
import { notifyJobId, queueNotification } from '../../src/notify/queue-notification.js';
import { writeReport } from '../../src/report/report.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import {
  attachmentOf,
  type Received,
  type SmtpReceiver,
  smtpReceiver,
  textOf,
  type WebhookReceiver,
  webhookReceiver,
} from '../helpers/receivers.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const SECRET = 'hook-secret-42';
let t: TestPipeline;
let hook: WebhookReceiver;
let smtp: SmtpReceiver;
let token: string;

beforeAll(async () => {
  hook = await webhookReceiver();
  smtp = await smtpReceiver();
  t = await testPipeline({
    settings: {
      notify: {
        webhook: { url: hook.url, secret: SECRET },
        email: {
          to: ['ops@agency.test', 'jan@agency.test'],
          from: 'importer@agency.test',
          smtpUrl: smtp.url,
        },
        retryHours: 24,
      },
    },
  });
  token = t.sandbox.tokens[0]?.token ?? '';
});
afterAll(async () => {
  await t.close();
  await hook.close();
  await smtp.close();
});

interface Body {
  event: string;
  id: string;
  connection: Record<string, unknown>;
  summary: Record<string, unknown>;
}

const bodyOf = (r: Received) => JSON.parse(r.body) as Body;
const aboutSheet = (sheetId: string) => (r: Received) => bodyOf(r).summary.sheetId === sheetId;
const mailAbout = (sheetId: string) => smtp.mails.filter((m) => textOf(m.raw).includes(sheetId));

async function importCsv(name: string, rows = [sheetRow(1), sheetRow(2)]) {
  const dir = await tempDir('notify-');
  const progress = await t.importSheet(await writeCsvSheet(dir, name, rows));
  return progress.sheetId;
}

async function until(what: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!what()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function jobState(jobId: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const state = (await (await t.ctx.queues.notify.getJob(jobId))?.getState()) ?? 'gone';
    if (state === 'completed' || state === 'failed' || Date.now() > deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('sheet.done by webhook', () => {
  it('is POSTed once per sheet, signed with the secret, with the summary and never the token', async () => {
    const first = await importCsv('first.csv');
    const second = await importCsv('second.csv', [sheetRow(3)]);
    const [one] = await hook.waitFor(1, aboutSheet(first));
    const [two] = await hook.waitFor(1, aboutSheet(second));
    for (const [request, sheetId] of [
      [one, first],
      [two, second],
    ] as const) {
      if (request === undefined) throw new Error('no request');
      const body = bodyOf(request);
      expect(body).toMatchObject({
        event: 'sheet.done',
        id: idOf('sheet.done', t.ctx.connection.id, sheetId),
        connection: { name: 'test', id: t.ctx.connection.id, sandbox: true },
        summary: { sheetId, created: sheetId === first ? 2 : 1, failed: 0 },
      });
      expect(request.headers['x-order-importer-event']).toBe(body.id);
      expect(request.headers['content-type']).toBe('application/json');
      const expected = createHmac('sha256', SECRET).update(request.body).digest('hex');
      expect(request.headers['x-order-importer-signature']).toBe(`sha256=${expected}`);
      expect(JSON.stringify(request)).not.toContain(token);
    }
  });

  it('is one delivery when the report job runs twice', async () => {
    const sheetId = await importCsv('twice.csv');
    await hook.waitFor(1, aboutSheet(sheetId));
    // The report job run again (a retried job): the report is there, the event is queued again.
    await writeReport(t.ctx, sheetId);
    const jobId = notifyJobId(idOf('sheet.done', t.ctx.connection.id, sheetId), 'webhook');
    expect(await jobState(jobId)).toBe('completed');
    // A later sheet's event delivered: the repeat, had it been queued, would have come first.
    const later = await importCsv('later.csv', [sheetRow(4)]);
    await hook.waitFor(1, aboutSheet(later));
    expect(hook.received.filter(aboutSheet(sheetId))).toHaveLength(1);
  });

  it('is queued by a report job run again after the report was written but nothing was queued', async () => {
    const sheetId = await importCsv('crashed.csv');
    const [first] = await hook.waitFor(1, aboutSheet(sheetId));
    // As if the first run had stopped between writing the report and queueing its event.
    const jobId = notifyJobId(idOf('sheet.done', t.ctx.connection.id, sheetId), 'webhook');
    await (await t.ctx.queues.notify.getJob(jobId))?.remove();
    await writeReport(t.ctx, sheetId);
    const [, again] = await hook.waitFor(2, aboutSheet(sheetId));
    expect(again?.headers['x-order-importer-event']).toBe(first?.headers['x-order-importer-event']);
  });

  it('is tried again after a 500, with the same bytes and signature, then delivered', async () => {
    hook.answer = (r, n) => (r.body.includes('flaky.csv') && n === 0 ? 500 : 204);
    const sheetId = await importCsv('flaky.csv');
    const [failed, delivered] = await hook.waitFor(2, aboutSheet(sheetId));
    expect(delivered?.body).toBe(failed?.body);
    expect(delivered?.headers['x-order-importer-signature']).toBe(
      failed?.headers['x-order-importer-signature'],
    );
    const jobId = notifyJobId(idOf('sheet.done', t.ctx.connection.id, sheetId), 'webhook');
    expect(await jobState(jobId)).toBe('completed');
  });

  it('obeys a 429 and its Retry-After, then delivers', async () => {
    hook.answer = (r, n) =>
      r.body.includes('busy.csv') && n === 0
        ? { status: 429, headers: { 'retry-after': '1' } }
        : 204;
    const sheetId = await importCsv('busy.csv');
    await hook.waitFor(2, aboutSheet(sheetId));
    const jobId = notifyJobId(idOf('sheet.done', t.ctx.connection.id, sheetId), 'webhook');
    expect(await jobState(jobId)).toBe('completed');
  });

  it('ends at a 400, not tried again, with an error line saying what to check', async () => {
    hook.answer = (r) => (r.body.includes('refused.csv') ? 400 : 204);
    const sheetId = await importCsv('refused.csv');
    const jobId = notifyJobId(idOf('sheet.done', t.ctx.connection.id, sheetId), 'webhook');
    expect(await jobState(jobId)).toBe('failed');
    expect(hook.received.filter(aboutSheet(sheetId))).toHaveLength(1);
    const line = t.logs.find(
      (l) => l.includes('"level":50') && l.includes(jobId.split('.')[0] ?? ''),
    );
    expect(line).toMatch(/answered 400.*NOTIFY_WEBHOOK_URL/);
    expect(line).not.toContain('key=k1');
  });
});

describe('sheet.done by e-mail', () => {
  it('tells the counts and what to do, with report.csv attached byte for byte', async () => {
    const sheetId = await importCsv('mixed.csv', [sheetRow(5), sheetRow(6, { city: '' })]);
    await until(() => mailAbout(sheetId).length > 0);
    const [mail] = mailAbout(sheetId);
    if (mail === undefined) throw new Error('no e-mail');
    expect(mail.to.sort()).toEqual(['jan@agency.test', 'ops@agency.test']);
    expect(mail.from).toBe('importer@agency.test');
    expect([mail.user, mail.password]).toEqual([smtp.user, smtp.password]);
    const text = textOf(mail.raw);
    expect(text).toContain('1 created');
    expect(text).toMatch(/1 row failed or was invalid: fix it in the failed\/ folder/);
    expect(text).toMatch(/drop that folder back into the inbox/);
    expect(mail.raw).toMatch(/^Subject: mixed\.csv: 1 created, 1 invalid/m);
    const [request] = await hook.waitFor(1, aboutSheet(sheetId));
    const reportDir = String(bodyOf(request as Received).summary.reportDir);
    const report = await readFile(join(reportDir, 'report.csv'));
    expect(attachmentOf(mail.raw, 'report.csv')?.equals(report)).toBe(true);
    expect(mail.raw).not.toContain(token);
    // The SMTP password is in no log line.
    expect(t.logs.join('\n')).not.toContain(smtp.password);
    expect(t.logs.join('\n')).not.toContain(encodeURIComponent(smtp.password));
  });

  it('says so when report.csv is gone by the time it is sent, and sends the rest', async () => {
    const sheetId = await importCsv('gone.csv', [sheetRow(7)]);
    const id = idOf('sheet.done', t.ctx.connection.id, sheetId);
    await hook.waitFor(1, aboutSheet(sheetId));
    const [request] = hook.received.filter(aboutSheet(sheetId));
    const reportDir = String(bodyOf(request as Received).summary.reportDir);
    // The worker's own e-mail first: the one looked at below is the one sent here.
    await until(() => mailAbout(sheetId).length > 0);
    await rm(join(reportDir, 'report.csv'));
    const before = smtp.mails.length;
    await deliverNotification(t.ctx, {
      channel: 'email',
      id,
      event: 'sheet.done',
      body: (request as Received).body,
      tries: 0,
    });
    const mail = smtp.mails[before];
    expect(attachmentOf(mail?.raw ?? '', 'report.csv')).toBeUndefined();
    expect(textOf(mail?.raw ?? '')).toMatch(/report\.csv is not attached: it is no longer at/);
  });
});

describe('an SMTP server that answers', () => {
  it('451 (try later): the e-mail is sent again, and delivered', async () => {
    let seen = 0;
    smtp.answer = (raw) => (raw.includes('slowmail.csv') && seen++ === 0 ? 451 : 250);
    const sheetId = await importCsv('slowmail.csv');
    await until(() => mailAbout(sheetId).length > 0);
    expect(seen).toBe(2);
    const jobId = notifyJobId(idOf('sheet.done', t.ctx.connection.id, sheetId), 'email');
    expect(await jobState(jobId)).toBe('completed');
  });

  it('550 (refused): the e-mail is not sent again, and the log says what to check', async () => {
    let tries = 0;
    smtp.answer = (raw) => {
      if (!raw.includes('bounced.csv')) return 250;
      tries += 1;
      return 550;
    };
    const sheetId = await importCsv('bounced.csv');
    const jobId = notifyJobId(idOf('sheet.done', t.ctx.connection.id, sheetId), 'email');
    expect(await jobState(jobId)).toBe('failed');
    expect(tries).toBe(1);
    const line = t.logs.find(
      (l) => l.includes('"level":50') && l.includes(jobId.split('.')[0] ?? ''),
    );
    expect(line).toMatch(/550.*check NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM/);
    expect(line).not.toContain(smtp.password);
  });
});

describe('sheet.unreadable', () => {
  it('is told when the hot folder moves a sheet it cannot read to failed/', async () => {
    const data = await tempDir('notify-intake-');
    const intake = new Intake({
      ctx: t.ctx,
      workDir: join(data, 'work'),
      failedDir: join(data, 'failed'),
      stableMs: 50,
      logger: t.config.logger,
    });
    const path = await put(
      join(data, 'inbox'),
      'broken.csv',
      'reference,files\r\n1,"never closed\r\n2,x\r\n',
    );
    const result = await intake.take(path);
    expect(result.kind).toBe('unreadable');
    const folder = result.kind === 'unreadable' ? result.folder : '';
    const [request] = await hook.waitFor(1, (r) => bodyOf(r).event === 'sheet.unreadable');
    const body = bodyOf(request as Received);
    expect(body.summary).toMatchObject({ sheet: path, movedTo: folder });
    expect(String(body.summary.error)).not.toBe('');
    expect(request?.headers['x-order-importer-event']).toBe(body.id);
    await until(() => smtp.mails.some((m) => /^Subject: broken\.csv cannot be read/m.test(m.raw)));
    const mail = smtp.mails.find((m) => /^Subject: broken\.csv cannot be read/m.test(m.raw));
    expect(textOf(mail?.raw ?? '')).toMatch(/fix the sheet and drop it into the inbox again/);
    expect(textOf(mail?.raw ?? '')).toContain(folder);
  });

  it('queues nothing when no channel is set', async () => {
    const quiet = { ...t.ctx, settings: { ...t.ctx.settings, notify: undefined } };
    const ids = await queueNotification(quiet, {
      kind: 'sheet.unreadable',
      sheet: 'x.csv',
      reason: 'no',
      movedTo: '/tmp/failed/x',
    });
    expect(ids).toEqual([]);
  });
});
