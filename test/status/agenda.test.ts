import { describe, expect, it } from 'vitest';

import { contactOf, entriesOf, sheetNameOf } from '../../src/status/agenda.js';

describe('what the agenda keeps of an order read back', () => {
  it("takes where and with whom from the API's answer, else from the row's report line", () => {
    const state = {
      status: 'scheduled',
      cancelReason: '',
      inspections: [],
      address: 'Kortrijksesteenweg 12, 9000 Gent',
      contactName: 'An',
      phone: '+32 9 000',
    };
    const reported = {
      row: 1,
      reference: 'R',
      orderId: 7,
      line: '',
      address: 'Markt 1, 8000 Brugge',
      contactName: 'Bo',
    };
    expect(contactOf(state, reported)).toEqual({
      address: 'Kortrijksesteenweg 12, 9000 Gent',
      contact: 'An',
      phone: '+32 9 000',
    });
    expect(contactOf({ ...state, address: '', contactName: '', phone: '' }, reported)).toEqual({
      address: 'Markt 1, 8000 Brugge',
      contact: 'Bo',
      phone: '',
    });
  });

  it("gives each inspection a UID of its order, product and which of that product's it is", () => {
    const base = {
      office: 'gent',
      sheetId: 's',
      sheetName: 'n',
      row: 1,
      reference: 'R',
      orderId: 7,
      checkedAt: 'c',
    };
    const inspection = (productId: string) => ({
      productId,
      productName: productId,
      date: '',
      inspector: '',
    });
    const entries = entriesOf(
      base,
      {
        status: 'scheduled',
        cancelReason: '',
        inspections: [inspection('ELEC-1.1'), inspection('EPC'), inspection('ELEC-1.1')],
        address: 'a',
        contactName: 'c',
        phone: 'p',
      },
      { address: 'a', contact: 'c', phone: 'p' },
    );
    expect(entries.map((e) => e.uid)).toEqual(['7-ELEC-1.1-1', '7-EPC-1', '7-ELEC-1.1-2']);
    expect(entries[0]).toMatchObject({
      status: 'scheduled',
      address: 'a',
      phone: 'p',
      office: 'gent',
    });
  });

  it("names the sheet by its report folder's name", () => {
    expect(sheetNameOf({ dir: '/r/orders-2026-abc', sheetId: '2026-abc' })).toBe('orders');
    expect(sheetNameOf({ dir: '/r/odd', sheetId: 'x' })).toBe('odd');
  });
});
