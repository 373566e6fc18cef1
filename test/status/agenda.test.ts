import { describe, expect, it } from 'vitest';

import { contactOf, entriesOf, sheetNameOf } from '../../src/status/agenda.js';

describe('what the agenda keeps of an order read back', () => {
  it('writes the address as street and number, postal code and city', () => {
    expect(
      contactOf({
        address1: 'Kortrijksesteenweg',
        address2: '12',
        postal_code: '9000',
        city: 'Gent',
        contact_name: 'An',
        contact_phone1: '+32 9 000',
      }),
    ).toEqual({ address: 'Kortrijksesteenweg 12, 9000 Gent', contact: 'An', phone: '+32 9 000' });
    expect(contactOf({ address1: 'Markt', city: 'Brugge', postal_code: 8000 })).toEqual({
      address: 'Markt, 8000 Brugge',
      contact: '',
      phone: '',
    });
    expect(contactOf(null)).toEqual({ address: '', contact: '', phone: '' });
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
