import { symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  nextInspection,
  ordersOfRows,
  type StatusSummary,
  stillOn,
  summariseStatus,
  UPCOMING_KEPT,
  wallClock,
} from '../../src/dashboard/order-status.js';
import { StatusCache } from '../../src/dashboard/status-cache.js';
import { eachStatusLine, STATUS_COLUMNS, STATUS_LIMITS } from '../../src/dashboard/status-csv.js';
import { put, tempDir } from '../helpers/files.js';
import { knownError } from '../helpers/known-error.js';

/** The moment the tests look from, as the machine's wall clock (the API's dates are such). */
const NOW = '2026-11-26 12:00:00';
const CHECKED = '2026-11-26T11:00:00.000Z';

type Cells = Partial<Record<(typeof STATUS_COLUMNS)[number], string | number>>;

/** A line as `order-importer status` writes it, its cells quoted where they must be. */
function line(cells: Cells, delimiter: string): string {
  return STATUS_COLUMNS.map((name) => {
    const text = String(cells[name] ?? '');
    return /["\r\n]/.test(text) || text.includes(delimiter)
      ? `"${text.replaceAll('"', '""')}"`
      : text;
  }).join(delimiter);
}

/** A report folder holding a status.csv of these lines (BOM, CRLF, header first). */
async function statusDir(lines: Cells[], delimiter = ','): Promise<string> {
  const dir = await tempDir('dashboard-status-');
  const text = [STATUS_COLUMNS.join(delimiter), ...lines.map((l) => line(l, delimiter))];
  await put(dir, 'status.csv', `\uFEFF${text.join('\r\n')}\r\n`);
  return dir;
}

/** The summary a test expects there to be. */
function sure(summary: StatusSummary | undefined): StatusSummary {
  if (summary === undefined) throw new Error('no status.csv read');
  return summary;
}

/** The `i`th day from 2026-12-01, at nine, as the API writes dates. */
function day(i: number): string {
  return `${new Date(Date.UTC(2026, 11, 1 + i)).toISOString().slice(0, 10)} 09:00:00`;
}

function order(row: number, status: string, more: Cells = {}): Cells {
  return {
    row,
    reference: `REF-${row}`,
    order_id: 1000 + row,
    order_status: status,
    checked_at: CHECKED,
    ...more,
  };
}

/** Three scheduled orders (one with two inspections), one cancelled, one not found. */
const MIXED: Cells[] = [
  order(1, 'scheduled', {
    product_id: 1,
    product_name: 'EPC',
    inspection_date: '2026-12-03 09:00:00',
    inspector_name: 'Hélène Dubois',
  }),
  order(1, 'scheduled', {
    product_id: 2,
    product_name: 'Asbestos',
    inspection_date: '2026-12-01 14:30:00',
    inspector_name: 'Jan Peeters',
  }),
  order(2, 'scheduled', {
    product_id: 1,
    product_name: 'EPC',
    inspection_date: '2026-11-20 09:00:00',
  }),
  order(3, 'scheduled', { product_id: 1, product_name: 'EPC' }),
  order(4, 'cancelled', {
    cancel_reason: 'Klant heeft geannuleerd',
    product_id: 1,
    inspection_date: '2026-11-27 08:00:00',
  }),
  order(5, 'not found', {
    inspection_date: '2026-11-26 13:00:00',
    checked_at: '2026-11-26T11:05:00.000Z',
  }),
];

describe("a status.csv's summary", () => {
  it('counts orders, not lines, by status, most first', async () => {
    const summary = await summariseStatus(await statusDir(MIXED), NOW);
    expect(summary?.orders).toBe(5);
    expect(summary?.byStatus).toEqual([
      { status: 'scheduled', orders: 3 },
      { status: 'cancelled', orders: 1 },
      { status: 'not found', orders: 1 },
    ]);
    expect(summary?.others).toEqual({ orders: 0, statuses: 0 });
  });

  it('takes no date of a done order as the next inspection', () => {
    expect(stillOn('done')).toBe(false);
    expect(stillOn(' Done ')).toBe(false);
    expect(stillOn('scheduled')).toBe(true);
    expect(stillOn('to schedule')).toBe(true);
  });

  it('takes the earliest date not past of the orders still on as the next inspection', async () => {
    const summary = await summariseStatus(await statusDir(MIXED), NOW);
    // Not 2026-11-20 (past), not 2026-11-27 (cancelled), not today 13:00 (not found).
    expect(summary?.upcoming).toEqual(['2026-12-01 14:30:00', '2026-12-03 09:00:00']);
    expect(nextInspection(sure(summary), NOW)).toEqual({
      next: '2026-12-01 14:30:00',
      stale: false,
    });
    expect(nextInspection(sure(summary), '2026-12-02 00:00:00').next).toBe('2026-12-03 09:00:00');
    expect(nextInspection(sure(summary), '2026-12-04 00:00:00')).toEqual({
      next: undefined,
      stale: false,
    });
  });

  it('says when it was checked: the latest checked_at', async () => {
    const summary = await summariseStatus(await statusDir(MIXED), NOW);
    expect(summary?.checkedAt).toBe('2026-11-26T11:05:00.000Z');
  });

  it('reads a `;` file as a `,` one, with or without its BOM', async () => {
    const semicolon = await summariseStatus(await statusDir(MIXED, ';'), NOW);
    expect(semicolon?.byStatus).toEqual(
      (await summariseStatus(await statusDir(MIXED), NOW))?.byStatus,
    );
    const dir = await tempDir('dashboard-status-');
    await put(dir, 'status.csv', `${STATUS_COLUMNS.join('\t')}\n${line(order(7, 'done'), '\t')}\n`);
    expect((await summariseStatus(dir, NOW))?.byStatus).toEqual([{ status: 'done', orders: 1 }]);
  });

  it('has no dates ahead when every inspection is unplanned or past', async () => {
    const summary = await summariseStatus(
      await statusDir([
        order(1, 'to schedule'),
        order(2, 'done', { inspection_date: '2026-01-02 10:00:00' }),
      ]),
      NOW,
    );
    expect(summary?.upcoming).toEqual([]);
    expect(nextInspection(sure(summary), NOW).next).toBeUndefined();
  });

  it('keeps the earliest dates only, and asks to be read again once they passed', async () => {
    const lines = Array.from({ length: UPCOMING_KEPT + 8 }, (_, i) =>
      order(i + 1, 'scheduled', { inspection_date: day(i) }),
    );
    const summary = await summariseStatus(await statusDir(lines), NOW);
    expect(summary?.upcoming).toHaveLength(UPCOMING_KEPT);
    expect(summary?.upcoming.at(-1)).toBe('2027-01-01 09:00:00');
    expect(summary?.moreUpcoming).toBe(true);
    expect(nextInspection(sure(summary), '2026-12-31 10:00:00')).toEqual({
      next: '2027-01-01 09:00:00',
      stale: false,
    });
    expect(nextInspection(sure(summary), '2027-01-01 10:00:00')).toEqual({
      next: undefined,
      stale: true,
    });
  });

  it("reads an older status.csv, without address and contact_name, and each line's address and contact when it has them", async () => {
    const older = STATUS_COLUMNS.filter((name) => name !== 'address' && name !== 'contact_name');
    expect(older).toHaveLength(STATUS_COLUMNS.length - 2);
    const dir = await tempDir('dashboard-status-');
    const cells = order(1, 'scheduled', { inspection_date: '2026-12-03 09:00:00' });
    const text = [older.join(','), older.map((name) => String(cells[name] ?? '')).join(',')];
    await put(dir, 'status.csv', `\uFEFF${text.join('\r\n')}\r\n`);
    const seen: Array<{ address: string; contactName: string }> = [];
    const visit = (l: { address: string; contactName: string }) => {
      seen.push({ address: l.address, contactName: l.contactName });
      return 'more' as const;
    };
    expect(await eachStatusLine(dir, visit)).toBe(true);
    expect(seen).toEqual([{ address: '', contactName: '' }]);
    expect(await summariseStatus(dir, NOW)).toMatchObject({
      orders: 1,
      upcoming: ['2026-12-03 09:00:00'],
    });
    const newer = await statusDir([
      order(1, 'scheduled', { address: 'Kerkstraat 1, 9000 Gent', contact_name: 'Hélène' }),
    ]);
    seen.length = 0;
    await eachStatusLine(newer, visit);
    expect(seen).toEqual([{ address: 'Kerkstraat 1, 9000 Gent', contactName: 'Hélène' }]);
  });

  it('is undefined for a folder without status.csv', async () => {
    expect(await summariseStatus(await tempDir('dashboard-status-'), NOW)).toBeUndefined();
    expect(await summariseStatus('/nowhere/at/all', NOW)).toBeUndefined();
  });
});

describe("a row's order", () => {
  it('gathers its inspections, its cancel reason, and its cells as written', async () => {
    const dir = await statusDir([
      ...MIXED,
      order(7, 'to schedule'),
      order(6, "'=status", {
        cancel_reason: "'-not a formula",
        inspector_name: "'s-Hertogenbosch",
        inspection_date: '2026-12-09 10:00:00',
      }),
    ]);
    const orders = await ordersOfRows(dir, [1, 3, 4, 6, 99], true);
    expect([...orders.keys()]).toEqual([1, 3, 4, 6]);
    expect(orders.get(1)).toEqual({
      row: 1,
      orderId: '1001',
      status: 'scheduled',
      cancelReason: '',
      inspections: [
        {
          productId: '1',
          productName: 'EPC',
          date: '2026-12-03 09:00:00',
          inspector: 'Hélène Dubois',
        },
        {
          productId: '2',
          productName: 'Asbestos',
          date: '2026-12-01 14:30:00',
          inspector: 'Jan Peeters',
        },
      ],
      moreInspections: 0,
    });
    expect(orders.get(4)?.cancelReason).toBe('Klant heeft geannuleerd');
    // An order without inspections: its one line says only the order.
    expect(orders.get(5)).toBeUndefined();
    const none = await ordersOfRows(dir, [7], true);
    expect(none.get(7)).toMatchObject({ status: 'to schedule', inspections: [] });
    // The formula guard taken off, as report.csv's reader does; a leading quote of a name kept.
    expect(orders.get(6)?.status).toBe('=status');
    expect(orders.get(6)?.cancelReason).toBe('-not a formula');
    expect(orders.get(6)?.inspections[0]?.inspector).toBe("'s-Hertogenbosch");
  });

  it('stops reading past the last row asked for when the lines run in row order', async () => {
    // Long enough that the broken end is far past what is read before row 2.
    const lines = Array.from({ length: 5000 }, (_, i) =>
      order(i + 1, i === 0 ? 'scheduled' : 'done'),
    );
    const dir = await statusDir(lines);
    await writeFile(join(dir, 'status.csv'), '3,"never closed\r\n', { flag: 'a' });
    expect((await ordersOfRows(dir, [1], true)).get(1)?.status).toBe('scheduled');
    await expect(ordersOfRows(dir, [1], false)).rejects.toThrow(
      knownError('Refused', 'status-csv.unreadable'),
    );
  });

  it('shows at most 20 inspections of an order, and counts the rest', async () => {
    const lines = Array.from({ length: 25 }, (_, i) => order(1, 'scheduled', { product_id: i }));
    const orders = await ordersOfRows(await statusDir(lines), [1], true);
    expect(orders.get(1)?.inspections).toHaveLength(20);
    expect(orders.get(1)?.moreInspections).toBe(5);
  });
});

describe('a hostile status.csv', () => {
  async function raw(content: string | Buffer): Promise<string> {
    const dir = await tempDir('dashboard-status-');
    await put(dir, 'status.csv', content);
    return dir;
  }

  it.each([
    [
      'a wrong header',
      'row,order_id,status\r\n1,2,done\r\n',
      /header lacks reference, order_status/,
    ],
    ['no header at all', '1,1001,scheduled\r\n', /header lacks/],
    ['an empty file', '', /it is empty/],
    [
      'a quote never closed',
      `${STATUS_COLUMNS.join(',')}\r\n1,"REF,1001\r\n`,
      /not CSV as the importer writes it/,
    ],
  ])('is refused for %s, saying why', async (_what, content, why) => {
    const dir = await raw(content);
    await expect(summariseStatus(dir, NOW)).rejects.toThrow(
      knownError('Refused', 'status-csv.unreadable'),
    );
    await expect(summariseStatus(dir, NOW)).rejects.toThrow(why);
  });

  it('is refused for a line longer than any, without holding it', async () => {
    const dir = await raw(`${STATUS_COLUMNS.join(',')}\r\n1,${'x'.repeat(200 * 1024)}\r\n`);
    await expect(summariseStatus(dir, NOW)).rejects.toThrow(/a line at line 2 longer than 64 KB/);
  });

  it('is refused for too many lines', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => order(i + 1, 'done'));
    const dir = await statusDir(lines);
    const limits = { ...STATUS_LIMITS, lines: 10 };
    await expect(summariseStatus(dir, NOW, limits)).rejects.toThrow(/more than 10 lines/);
  });

  it('is refused unread when larger than 64 MB (a 200 MB file)', async () => {
    const dir = await raw(`${STATUS_COLUMNS.join(',')}\r\n`);
    // Sparse: 200 MB said, nothing written.
    await truncate(join(dir, 'status.csv'), 200 * 1024 * 1024);
    await expect(summariseStatus(dir, NOW)).rejects.toThrow(/it is 200 MB, more than the 64 MB/);
  });

  it('is refused when it is a link, whatever it points at', async () => {
    const dir = await tempDir('dashboard-status-');
    const elsewhere = await statusDir(MIXED);
    await symlink(join(elsewhere, 'status.csv'), join(dir, 'status.csv'));
    await expect(summariseStatus(dir, NOW)).rejects.toThrow(/symbolic link/);
  });

  it('keeps cells as text, cuts huge ones, and reads bad UTF-8 as replacement characters', async () => {
    const script = '<script>alert(1)</script>';
    const head = Buffer.from(`${STATUS_COLUMNS.join(',')}\r\n`);
    const bad = Buffer.from([
      0x31, 0x2c, 0x52, 0xff, 0xfe, 0x2c, 0x31, 0x2c, 0x64, 0x6f, 0x6e, 0x65,
    ]);
    const dir = await raw(
      Buffer.concat([
        head,
        bad,
        Buffer.from(`\r\n${line(order(2, script, { cancel_reason: 'y'.repeat(5000) }), ',')}\r\n`),
      ]),
    );
    const summary = await summariseStatus(dir, NOW);
    expect(summary?.byStatus.map((s) => s.status).sort()).toEqual([
      '<script>alert(1)</script>',
      'done',
    ]);
    const orders = await ordersOfRows(dir, [1, 2], true);
    expect(orders.get(2)?.cancelReason).toBe(`${'y'.repeat(1000)}…`);
    expect(orders.get(1)?.orderId).toBe('1');
    const reference = await ordersOfRows(dir, [1], true);
    expect(reference.get(1)?.status).toBe('done');
  });

  it('names at most 8 statuses, and counts the others together', async () => {
    const lines = Array.from({ length: 12 }, (_, i) =>
      order(i + 1, `status ${String(i).padStart(2, '0')}`),
    );
    const summary = await summariseStatus(await statusDir(lines), NOW);
    expect(summary?.byStatus).toHaveLength(8);
    expect(summary?.others).toEqual({ orders: 4, statuses: 4 });
  });
});

describe('the cache of summaries', () => {
  const now = new Date(2026, 10, 26, 12, 0, 0);

  it('reads a file once while it stays as it was, and again once it changed', async () => {
    expect(wallClock(now)).toBe(NOW);
    const dir = await statusDir(MIXED);
    const cache = new StatusCache();
    const first = await cache.seen(dir, now);
    expect(first).toMatchObject({ next: '2026-12-01 14:30:00', summary: { orders: 5 } });
    expect(await cache.seen(dir, now)).toEqual(first);
    expect(cache.reads).toBe(1);
    await put(
      dir,
      'status.csv',
      `\uFEFF${STATUS_COLUMNS.join(',')}\r\n${line(order(1, 'done'), ',')}\r\n`,
    );
    expect(await cache.seen(dir, now)).toMatchObject({ summary: { orders: 1 } });
    expect(cache.reads).toBe(2);
  });

  it('keeps why a file could not be read, until it changes', async () => {
    const dir = await tempDir('dashboard-status-');
    await writeFile(join(dir, 'status.csv'), 'not,a,status,file\r\n');
    const cache = new StatusCache();
    const seen = await cache.seen(dir, now);
    expect(seen).toEqual(knownError('Refused', 'status-csv.unreadable'));
    expect(await cache.seen(dir, now)).toBe(seen);
    expect(cache.reads).toBe(1);
  });

  it('says nothing for a folder without status.csv, and reads nothing', async () => {
    const cache = new StatusCache();
    expect(await cache.seen(await tempDir('dashboard-status-'), now)).toBeUndefined();
    expect(cache.reads).toBe(0);
  });

  it('reads a file again when every date it kept has passed', async () => {
    const lines = Array.from({ length: UPCOMING_KEPT + 2 }, (_, i) =>
      order(i + 1, 'scheduled', { inspection_date: day(i) }),
    );
    const dir = await statusDir(lines);
    const cache = new StatusCache();
    expect(await cache.seen(dir, now)).toMatchObject({ next: '2026-12-01 09:00:00' });
    const later = new Date(2027, 0, 1, 12, 0, 0);
    expect(await cache.seen(dir, later)).toMatchObject({ next: '2027-01-02 09:00:00' });
    expect(cache.reads).toBe(2);
  });

  it('reads one file at a time when told so, each in its turn, a broken one too', async () => {
    const broken = await tempDir('dashboard-status-');
    await writeFile(join(broken, 'status.csv'), 'row,status\r\n');
    const dirs = [await statusDir(MIXED), broken, await statusDir(MIXED), await statusDir([])];
    const cache = new StatusCache(STATUS_LIMITS, 500, 1);
    const seen = await Promise.all(dirs.map((dir) => cache.seen(dir, now)));
    expect(seen.map((s) => (s instanceof Error ? 'error' : s?.summary.orders))).toEqual([
      5,
      'error',
      5,
      0,
    ]);
    expect(cache.reads).toBe(4);
    expect(cache.mostAtOnce).toBe(1);
  });

  it('holds as many folders as it is told, dropping the least recently asked for', async () => {
    const [a, b, c] = [await statusDir(MIXED), await statusDir(MIXED), await statusDir(MIXED)];
    const cache = new StatusCache(STATUS_LIMITS, 2);
    for (const dir of [a, b, a, c]) await cache.seen(dir, now);
    expect(cache.reads).toBe(3);
    await cache.seen(a, now);
    expect(cache.reads).toBe(3);
    await cache.seen(b, now);
    expect(cache.reads).toBe(4);
  });

  it('gives a page the orders of its rows', async () => {
    const cache = new StatusCache();
    const page = await cache.page(await statusDir(MIXED), [4, 5], now);
    const rows = page.rows as Map<number, { status: string }>;
    expect([...rows.values()].map((o) => o.status)).toEqual(['cancelled', 'not found']);
  });
});
