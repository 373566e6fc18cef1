/** What `status` makes of an answer (checked, never trusted) and status.csv written and read back. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { RetrievedOrder } from '../../src/api/client.js';
import { orderStateOf } from '../../src/status/read-order.js';
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
        }),
      ),
    ).toEqual({
      status: 'ingepland',
      cancelReason: '',
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
    };
    await writeStatusCsv(dir, [line, { ...line, row: '2', order_id: '100002' }], '\t');
    const raw = await readFile(join(dir, 'status.csv'), 'utf8');
    expect(raw.startsWith('\uFEFFrow\treference\torder_id\t')).toBe(true);
    expect(raw).toContain("\t'=1+1\t");
    expect(raw).toContain("\t'-An\t");
    const read = await readStatusLines(dir);
    expect(read?.get('100001')).toEqual([line]);
    expect(read?.get('100002')?.[0]?.row).toBe('2');
  });

  it('is none when there is none', async () => {
    expect(await readStatusLines(await tempDir('status-csv-'))).toBeUndefined();
  });
});
