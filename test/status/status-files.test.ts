/** What `status` makes of an answer (checked, never trusted) and status.csv written and read back. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { RetrievedOrder } from '../../src/api/client.js';
import { orderStateOf } from '../../src/status/read-order.js';
import { wordsFor } from '../../src/language/words.js';
import { NOT_FOUND } from '../../src/notify/status-words.js';
import { readStatusLines, type StatusLine, writeStatusCsv } from '../../src/status/status-csv.js';
import { tempDir } from '../helpers/files.js';

const order = (fields: Record<string, unknown>): RetrievedOrder => ({ id: 1, ...fields });

describe('an order read back', () => {
  it('takes the API values verbatim: text as it is, numbers as written, null as nothing', () => {
    expect(
      orderStateOf(
        order({
          status: 'ingepland',
          cancel_reason: null,
          inspections: [
            {
              product_id: 'EPC',
              product_name: 'EPC',
              date: '2026-12-01 08:30',
              inspector_name: null,
            },
            { product_id: 7 },
          ],
          address1: ' Kerkstraat ',
          address2: 12,
          postal_code: '9000',
          // A part that is no text is left out: the order is read all the same.
          city: { name: 'Gent' },
          contact_name: null,
          contact_phone1: 470123456,
        }),
      ),
    ).toEqual({
      status: 'ingepland',
      cancelReason: '',
      address: 'Kerkstraat 12, 9000',
      contactName: '',
      phone: '470123456',
      inspections: [
        { productId: 'EPC', productName: 'EPC', date: '2026-12-01 08:30', inspector: '' },
        { productId: '7', productName: '', date: '', inspector: '' },
      ],
    });
  });

  it.each([
    ['no status', {}],
    ['a status that is no text', { status: { x: 1 } }],
    ['inspections that are no list', { status: 'done', inspections: 'none' }],
    ['an inspection that is no object', { status: 'done', inspections: [42] }],
    ['a value far too long', { status: 'done', cancel_reason: 'x'.repeat(5000) }],
  ])('says why an answer with %s is no order', (_, fields) => {
    expect(orderStateOf(order(fields))).toMatch(/not an order as the API documents it/);
  });
});

describe('status.csv', () => {
  it('is written with a BOM in the delimiter given, cells neutralised, and read back as written', async () => {
    const dir = await tempDir('status-csv-');
    const line: StatusLine = {
      row: '1',
      reference: '@ref',
      order_id: '100001',
      order_status: 'to schedule',
      cancel_reason: '=1+1',
      product_id: 'EPC',
      product_name: 'two\nlines; and a "quote"',
      inspection_date: '',
      inspector_name: '-An',
      checked_at: '2026-11-26T10:00:00.000Z',
      address: '=Kerkstraat 1, 9000 Gent',
      contact_name: 'Hélène',
    };
    await writeStatusCsv(
      wordsFor('en'),
      dir,
      [line, { ...line, row: '2', order_id: '100002' }],
      '\t',
    );
    const raw = await readFile(join(dir, 'status.csv'), 'utf8');
    expect(raw.startsWith('\uFEFFrow\treference\torder_id\t')).toBe(true);
    expect(raw).toContain("\t'=1+1\t");
    expect(raw).toContain("\t'-An\t");
    expect(raw).toContain("\t'=Kerkstraat 1, 9000 Gent\tHélène\r\n");
    const read = await readStatusLines(dir);
    expect(read?.get('100001')).toEqual([line]);
    expect(read?.get('100002')?.[0]?.row).toBe('2');
  });

  it('says the importer’s `not found` in the office’s words, and reads it back from any language', async () => {
    const dir = await tempDir('status-csv-');
    const line = (order_id: string, order_status: string): StatusLine => ({
      row: '1',
      reference: '',
      order_id,
      order_status,
      cancel_reason: '',
      product_id: '',
      product_name: '',
      inspection_date: '',
      inspector_name: '',
      checked_at: '2026-11-26T10:00:00.000Z',
      address: '',
      contact_name: '',
    });
    await writeStatusCsv(
      wordsFor('fr'),
      dir,
      [line('1', NOT_FOUND), line('2', 'to schedule'), line('3', 'introuvable ?')],
      ';',
    );
    const raw = await readFile(join(dir, 'status.csv'), 'utf8');
    expect(raw).toContain(';order_status;');
    expect(raw).toContain(';introuvable;');
    expect(raw).toContain(';to schedule;');
    const read = await readStatusLines(dir);
    expect([1, 2, 3].map((id) => read?.get(String(id))?.[0]?.order_status)).toEqual([
      NOT_FOUND,
      'to schedule',
      'introuvable ?',
    ]);
    for (const [language, written] of [
      ['nl', 'niet gevonden'],
      ['en', 'Not Found'],
      ['qps', '⟦not found⟧'],
    ] as const) {
      await writeFile(join(dir, 'status.csv'), raw.replace(';introuvable;', `;${written};`));
      expect((await readStatusLines(dir))?.get('1')?.[0]?.order_status, language).toBe(NOT_FOUND);
    }
  });

  it('is none when there is none', async () => {
    expect(await readStatusLines(await tempDir('status-csv-'))).toBeUndefined();
  });
});
