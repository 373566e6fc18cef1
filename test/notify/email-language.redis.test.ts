/**
 * E-mails in the office's language (docs/design.md "Language"), through the real SMTP server of
 * test/helpers/receivers.ts: each event's subject and body in Dutch, French and English, the
 * pseudo-language leaving no text a person reads outside the catalogue, and an office whose
 * connection names its language hearing it over the process's — for its e-mails and for the
 * `not found` the importer writes into status.csv.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assembleImporter } from '../../src/app/importer.js';
import { connectionOf } from '../../src/connections/connection.js';
import type { Context } from '../../src/context.js';
import { summariseStatus } from '../../src/dashboard/order-status.js';
import { submitSheet } from '../../src/intake/submit.js';
import type { Speech } from '../../src/language/languages.js';
import { wordsFor } from '../../src/language/words.js';
import { deliverNotification } from '../../src/notify/deliver.js';
import { eventBody, eventId, type NotifyEvent } from '../../src/notify/events.js';
import { readReportedOrders, reportOfSheet } from '../../src/status/report-folder.js';
import { refreshSheetStatus } from '../../src/status/status.js';
import { tempDir } from '../helpers/files.js';
import { testPipelineConfig, waitForReport } from '../helpers/pipeline.js';
import {
  attachmentOf,
  type Mail,
  type SmtpReceiver,
  smtpReceiver,
  subjectOf,
  textOf,
} from '../helpers/receivers.js';
import { outsideMarkers } from '../helpers/pseudo.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let smtp: SmtpReceiver;
let redis: TestRedis;
let sandbox: TestSandbox;
let db: Database.Database;
let dispatcher: Agent;
let reportsDir: string;
let importer: Awaited<ReturnType<typeof assembleImporter>>;
let ctx: Context;

beforeAll(async () => {
  smtp = await smtpReceiver();
  redis = await useTestRedis();
  const sandboxDir = await tempDir('email-language-sandbox-');
  sandbox = await testSandbox({ dataDir: sandboxDir });
  db = new Database(join(sandboxDir, 'sandbox.sqlite'));
  reportsDir = join(await tempDir('email-language-'), 'reports');
  dispatcher = new Agent();
  const base = await testPipelineConfig({ redis, sandbox, reportsDir, dispatcher });
  const token = sandbox.tokens[0]?.token ?? '';
  // A Ghent office that reads Dutch, served by a process told French.
  const connection = connectionOf({
    apiBaseUrl: sandbox.url,
    token,
    name: 'gent',
    sandbox: true,
    language: 'nl',
  });
  importer = await assembleImporter({
    ...base,
    connection,
    settings: {
      ...base.settings,
      language: 'fr',
      notify: {
        email: { to: ['kantoor@gent.test'], from: 'importer@gent.test', smtpUrl: smtp.url },
        retryHours: 1,
      },
    },
    announce: () => undefined,
    workers: true,
  });
  ctx = importer.ctx;
});
afterAll(async () => {
  await importer.close({ graceMs: 2000 });
  db.close();
  await dispatcher.close();
  await sandbox.close();
  await redis.cleanup();
  await smtp.close();
});

/** Delivers the event by e-mail as the notify worker does, in `language`; the mail it sent. */
async function mailOf(language: Speech, event: NotifyEvent): Promise<Mail> {
  const id = eventId(event, ctx.connection.id);
  const before = smtp.mails.length;
  await deliverNotification(
    { ...ctx, words: wordsFor(language) },
    {
      channel: 'email',
      id,
      event: event.kind,
      body: eventBody(event, id, ctx.connection),
      tries: 0,
    },
  );
  const mail = smtp.mails[before];
  if (mail === undefined) throw new Error('no e-mail');
  return mail;
}

/** The first e-mail whose subject satisfies `which`, once it has come. */
async function mailWhose(which: (subject: string) => boolean): Promise<Mail> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mail = smtp.mails.find((m) => which(subjectOf(m.raw)));
    if (mail !== undefined) return mail;
    if (Date.now() > deadline) throw new Error('timed out waiting for the e-mail');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const SHEET = '/srv/inbox/Huurders Gent.csv';
const WARNING = 'W-DATA-1';

async function doneEvent(): Promise<NotifyEvent> {
  const reportDir = join(reportsDir, 'Huurders Gent-S-1');
  await mkdir(reportDir, { recursive: true });
  await writeFile(join(reportDir, 'report.csv'), 'row;status\r\n1;created\r\n');
  return {
    kind: 'sheet.done',
    summary: {
      sheet: SHEET,
      sheetId: 'S-1',
      total: 1234,
      created: 1231,
      duplicate: 0,
      invalid: 1,
      failed: 1,
      needsReview: 1,
      warnings: [WARNING],
      reportDir,
    },
  };
}

const unreadableEvent: NotifyEvent = {
  kind: 'sheet.unreadable',
  sheet: '/srv/inbox/kapot.csv',
  sheetId: 'S-2',
  reason: 'R-REASON-1',
  movedTo: '/srv/failed/kapot-S-2',
};

const changedEvent: NotifyEvent = {
  kind: 'orders.changed',
  sheetId: 'S-3',
  sheet: 'Huurders Gent.csv',
  since: '2026-11-26T10:00:00.000Z',
  orders: [
    {
      row: 3,
      reference: 'R-3',
      order_id: 100234,
      address: 'Kortrijksesteenweg 12, 9000 Gent',
      before: {
        order_status: 'to schedule',
        cancel_reason: '',
        inspections: [{ product_id: 'EPC', inspection_date: '', inspector_name: '' }],
      },
      after: {
        order_status: 'planned',
        cancel_reason: '',
        inspections: [
          {
            product_id: 'EPC',
            inspection_date: '2026-12-01 09:30:00',
            inspector_name: 'An Peeters',
          },
        ],
      },
    },
    {
      row: 4,
      reference: '',
      order_id: 100235,
      address: '',
      before: null,
      after: { order_status: 'not found', cancel_reason: '', inspections: [] },
    },
  ],
};

/** French puts a narrow no-break space before its colon. */
const NNBSP = '\u202f';

describe('sheet.done', () => {
  it.each([
    [
      'en',
      'Huurders Gent.csv: 1,231 created, 1 invalid, 1 failed, 1 to review (something to do)',
      [
        'The sheet Huurders Gent.csv is imported: 1,234 rows, 1,231 created, 1 invalid, 1 failed, 1 to review.',
        'What to do next:',
        '- 2 rows failed or were invalid: fix them in the failed/ folder of the report',
        '- 1 row needs review: the order may exist already.',
        'report.csv is attached: one line per row of the sheet.',
      ],
    ],
    [
      'nl',
      'Huurders Gent.csv: 1.231 aangemaakt, 1 ongeldig, 1 mislukt, 1 na te kijken (actie nodig)',
      [
        'De lijst Huurders Gent.csv is geïmporteerd: 1.234 rijen, 1.231 aangemaakt, 1 ongeldig, 1 mislukt, 1 na te kijken.',
        'Wat u nu moet doen:',
        '- 2 rijen zijn mislukt of ongeldig: verbeter ze in de map failed/ van het rapport',
        '- 1 rij moet nagekeken worden: misschien bestaat de opdracht al.',
        'report.csv zit in bijlage: één regel per rij van de lijst.',
        'Verbinding “gent” (de ingebouwde testomgeving op ',
      ],
    ],
    [
      'fr',
      `Huurders Gent.csv${NNBSP}: 1${NNBSP}231 créées, 1 non valable, 1 en échec, 1 à vérifier (action requise)`,
      [
        `La liste Huurders Gent.csv est importée${NNBSP}: 1${NNBSP}234 lignes, 1${NNBSP}231 créées, 1 non valable, 1 en échec, 1 à vérifier.`,
        `Que faire maintenant${NNBSP}:`,
        `- 2 lignes ont échoué ou ne sont pas valables${NNBSP}: corrigez-les dans le dossier failed/ du rapport`,
        `- 1 ligne est à vérifier${NNBSP}: la commande existe peut-être déjà.`,
        `Vous trouverez report.csv en pièce jointe${NNBSP}: une ligne par ligne de la liste.`,
      ],
    ],
  ] as const)('in %s: subject, body and report.csv attached', async (language, subject, lines) => {
    const mail = await mailOf(language, await doneEvent());
    expect(subjectOf(mail.raw)).toBe(subject);
    const text = textOf(mail.raw);
    for (const line of lines) expect(text).toContain(line);
    expect(text).toContain(`- ${WARNING}`);
    expect(attachmentOf(mail.raw, 'report.csv')?.toString()).toBe('row;status\r\n1;created\r\n');
  });
});

describe('sheet.unreadable', () => {
  it.each([
    [
      'en',
      'kapot.csv cannot be read',
      [
        'The sheet kapot.csv cannot be read, so no order was made from it:',
        'It was moved to /srv/failed/kapot-S-2, with error.txt beside it.',
        'What to do next: fix the sheet and drop it into the inbox again.',
      ],
    ],
    [
      'nl',
      'kapot.csv kan niet gelezen worden',
      [
        'De lijst kapot.csv kan niet gelezen worden; er werd dus geen enkele opdracht van aangemaakt:',
        'Ze werd verplaatst naar /srv/failed/kapot-S-2, met error.txt ernaast.',
        'Wat u nu moet doen: verbeter de lijst en zet ze opnieuw in de inbox.',
      ],
    ],
    [
      'fr',
      'La liste kapot.csv est illisible',
      [
        `La liste kapot.csv ne peut pas être lue${NNBSP}; aucune commande n’en a donc été créée${NNBSP}:`,
        'Elle a été déplacée vers /srv/failed/kapot-S-2, avec error.txt à côté.',
        `Que faire maintenant${NNBSP}: corrigez la liste et déposez-la à nouveau dans le dossier inbox.`,
      ],
    ],
  ] as const)('in %s: subject and body', async (language, subject, lines) => {
    const mail = await mailOf(language, unreadableEvent);
    expect(subjectOf(mail.raw)).toBe(subject);
    const text = textOf(mail.raw);
    for (const line of lines) expect(text).toContain(line);
    expect(text).toContain('  R-REASON-1');
  });
});

describe('orders.changed', () => {
  it.each([
    [
      'en',
      'Huurders Gent.csv: 2 orders changed',
      [
        '2 orders of Huurders Gent.csv changed:',
        '- Kortrijksesteenweg 12, 9000 Gent — row 3 (R-3), order 100234: to schedule → planned [EPC 1 Dec 2026, 09:30 by An Peeters]',
        '- row 4, order 100235: not found',
      ],
    ],
    [
      'nl',
      'Huurders Gent.csv: 2 opdrachten gewijzigd',
      [
        'Bij Huurders Gent.csv zijn 2 opdrachten gewijzigd:',
        '- Kortrijksesteenweg 12, 9000 Gent — rij 3 (R-3), opdracht 100234: to schedule → planned [EPC 1 dec 2026, 09:30, keurder An Peeters]',
        '- rij 4, opdracht 100235: niet gevonden',
      ],
    ],
    [
      'fr',
      `Huurders Gent.csv${NNBSP}: 2 commandes modifiées`,
      [
        `2 commandes de Huurders Gent.csv ont été modifiées${NNBSP}:`,
        `- Kortrijksesteenweg 12, 9000 Gent — ligne 3 (R-3), commande 100234${NNBSP}: to schedule → planned [EPC 1 déc. 2026, 09:30, technicien An Peeters]`,
        `- ligne 4, commande 100235${NNBSP}: introuvable`,
      ],
    ],
  ] as const)(
    'in %s: subject, the changes, the API’s statuses verbatim and its dates as people read them',
    async (language, subject, lines) => {
      const mail = await mailOf(language, changedEvent);
      expect(subjectOf(mail.raw)).toBe(subject);
      const text = textOf(mail.raw);
      for (const line of lines) expect(text).toContain(line);
    },
  );
});

describe('the pseudo-language', () => {
  it('is looked at by a check that sees text outside markers', () => {
    expect(outsideMarkers('⟦a ⟦b⟧ c⟧: - data', ['data'])).toBe('');
    expect(outsideMarkers('⟦a⟧ Sheet 1', [])).toBe('Sheet');
  });

  it.each([
    ['sheet.done', doneEvent, ['Huurders Gent.csv', WARNING]],
    ['sheet.unreadable', () => unreadableEvent, ['kapot.csv', 'R-REASON-1']],
    [
      'orders.changed',
      () => changedEvent,
      ['Huurders Gent.csv', 'R-3', 'EPC', 'An Peeters', 'Kortrijksesteenweg 12, 9000 Gent'],
    ],
  ] as const)('%s: every text a person reads is inside markers', async (_kind, event, values) => {
    const mail = await mailOf('qps', await event());
    const subject = subjectOf(mail.raw);
    const text = textOf(mail.raw);
    expect(subject).toContain('⟦');
    expect(text).toContain('⟦');
    expect(outsideMarkers(subject, values)).toBe('');
    expect(outsideMarkers(text, values)).toBe('');
  });
});

describe('an office whose connection names its language', () => {
  it('hears its sheet.done, its orders.changed and status.csv’s `not found` in it, over the process’s', async () => {
    expect(ctx.settings.language).toBe('fr');
    const dir = await tempDir('email-language-sheet-');
    const path = await writeCsvSheet(dir, 'huurders.csv', [
      sheetRow(1),
      sheetRow(2),
      sheetRow(3, { city: '' }),
    ]);
    const { sheetId } = await submitSheet(ctx, path);
    await waitForReport(ctx, sheetId);
    const done = await mailWhose((subject) => subject.startsWith('huurders.csv'));
    expect(subjectOf(done.raw)).toBe('huurders.csv: 2 aangemaakt, 1 ongeldig (actie nodig)');
    expect(textOf(done.raw)).toContain(
      'De lijst huurders.csv is geïmporteerd: 3 rijen, 2 aangemaakt, 1 ongeldig.',
    );
    // The office by its name, never its connection's hash.
    expect(textOf(done.raw)).toMatch(/[“"«]\s?gent\s?[”"»]/u);
    expect(done.raw).not.toContain(ctx.connection.id);

    // One order planned, one the API no longer has.
    const sheet = await reportOfSheet(reportsDir, sheetId);
    if (sheet === undefined) throw new Error('no report');
    const report = join(sheet.dir, 'report.csv');
    const [planned, gone] = (await readReportedOrders(sheet.dir)).orders.map((o) => o.orderId);
    db.prepare("UPDATE orders SET status = 'planned' WHERE id = ?").run(Number(planned));
    db.prepare(
      "UPDATE inspections SET date = '2026-12-01 09:30:00', inspector_name = 'An' WHERE order_id = ?",
    ).run(Number(planned));
    await writeFile(report, (await readFile(report, 'utf8')).replace(`;${gone};`, ';99999999;'));
    const first = await refreshSheetStatus(ctx, sheet);
    expect(first.byStatus).toEqual({ planned: 1, 'not found': 1 });
    const status = (await readFile(join(sheet.dir, 'status.csv'), 'utf8')).replace(/^\uFEFF/, '');
    const [header, ...lines] = status.split('\r\n');
    // Its column names stay English; the word the importer adds is Dutch; the API's stay.
    expect(header).toBe(
      'row;reference;order_id;order_status;cancel_reason;product_id;product_name;inspection_date;inspector_name;checked_at;address;contact_name',
    );
    expect(lines.filter((l) => l !== '').map((line) => line.split(';')[3])).toEqual([
      'planned',
      'niet gevonden',
    ]);
    const mail = await mailWhose(
      (subject) => subject.startsWith('huurders') && subject.includes('gewijzigd'),
    );
    expect(subjectOf(mail.raw)).toBe('huurders: 2 opdrachten gewijzigd');
    expect(textOf(mail.raw)).toMatch(/opdracht \d+: planned \[EPC 1 dec 2026, 09:30, keurder An\]/);
    expect(textOf(mail.raw)).toContain('opdracht 99999999: niet gevonden');

    // Read back: the Dutch word is the importer's `not found`, so nothing changed since.
    const second = await refreshSheetStatus(ctx, sheet);
    expect(second).toMatchObject({ changed: 0, byStatus: { planned: 1, 'not found': 1 } });
    const summary = await summariseStatus(sheet.dir, '2026-01-01 00:00:00');
    expect(summary?.byStatus).toContainEqual({ status: 'not found', orders: 1 });
  });
});
