/**
 * The agenda limited to the offices its viewer sees, over real HTTP: the page, its office filter
 * and every download; while an office's feed answers by its key alone, whoever asks. The viewer is
 * set as the guard sets it (request.viewer), here by a hook of the test's own.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { agendaRoutes } from '../../src/dashboard/agenda-routes.js';
import { loadPageAssets } from '../../src/dashboard/assets.js';
import { DashboardLanguages, languageHook } from '../../src/dashboard/language.js';
import type { Viewer } from '../../src/dashboard/viewer.js';
import type { AgendaEntry } from '../../src/store/agenda.js';

const NOW = new Date('2026-11-27T10:00:00Z');
const KEYS: Record<string, string> = { gent: 'g'.repeat(22), brugge: 'b'.repeat(22) };

const entry = (office: string, n: number, date = '2026-12-01 11:00:00'): AgendaEntry => ({
  uid: `${n}-EPC-1`,
  office,
  sheetId: `sheet-${office}`,
  sheetName: office,
  row: n,
  reference: `${office.toUpperCase()}-${n}`,
  orderId: n,
  productId: 'EPC',
  productName: 'EPC',
  date,
  inspector: 'Jan Peeters',
  status: 'scheduled',
  address: `Markt ${n}, ${office}`,
  contact: 'An',
  phone: '1',
  sequence: 0,
  checkedAt: '2026-11-27T09:00:00.000Z',
});

const ENTRIES = [
  entry('gent', 1),
  entry('gent', 2, ''),
  entry('brugge', 3),
  entry('brugge', 4, ''),
];

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = Fastify({ logger: false });
  const languages = new DashboardLanguages();
  languageHook(app, languages);
  const gentOnly: Viewer = { all: false, sees: (office) => office === 'gent' };
  app.addHook('onRequest', async (request) => {
    (request as typeof request & { viewer?: Viewer }).viewer = gentOnly;
  });
  agendaRoutes(
    app,
    {
      clock: () => NOW,
      agenda: {
        entries: () => Promise.resolve(ENTRIES),
        feedKey: (office) => Promise.resolve(KEYS[office]),
        minutes: 60,
        statusDays: 90,
      },
    },
    await loadPageAssets(),
    languages,
  );
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app.close();
});

async function text(path: string): Promise<string> {
  const answer = await fetch(`${base}${path}`);
  expect(answer.status, path).toBe(200);
  return answer.text();
}

describe('the agenda of a user of one office', () => {
  it("shows that office's inspections only, planned and not, and offers only it to filter by", async () => {
    const html = await text('/agenda');
    expect(html).toContain('GENT-1');
    expect(html).toContain('GENT-2');
    expect(html).not.toContain('BRUGGE');
    expect(html).toContain('<option value="gent">');
    expect(html).not.toContain('<option value="brugge"');
    expect(html).toContain('/agenda/gent.ics?key=gggg');
    expect(html).not.toContain('bbbb');
    expect(await text('/agenda?office=brugge')).not.toContain('BRUGGE');
  });

  it('downloads that office only, whatever the filter asks', async () => {
    for (const path of [
      '/agenda.csv',
      '/agenda.csv?office=brugge',
      '/agenda.ics',
      '/agenda.ics?office=brugge',
    ]) {
      const body = await text(path);
      expect(body, path).not.toContain('BRUGGE');
    }
    expect(await text('/agenda.csv')).toContain('GENT-1');
    const xlsx = Buffer.from(await (await fetch(`${base}/agenda.xlsx`)).arrayBuffer());
    const { default: excel } = await import('exceljs');
    const book = new excel.Workbook();
    await book.xlsx.load(xlsx as unknown as ArrayBuffer);
    const refs = book.getWorksheet('Agenda')?.getColumn(11).values.map(String) ?? [];
    expect(refs).toContain('GENT-1');
    expect(refs.join(' ')).not.toContain('BRUGGE');
  });

  it("leaves an office's feed to its key: keyed, not the user's", async () => {
    const feed = await text(`/agenda/brugge.ics?key=${KEYS.brugge}`);
    const calendar = new ICAL.Component(ICAL.parse(feed) as unknown[]);
    const uids = calendar
      .getAllSubcomponents('vevent')
      .map((v) => String(v.getFirstPropertyValue('uid')));
    expect(uids).toEqual(['3-EPC-1@order-importer']);
    expect((await fetch(`${base}/agenda/brugge.ics?key=${KEYS.gent}`)).status).toBe(404);
  });
});
