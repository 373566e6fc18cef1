import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiClient } from '../helpers/api.js';
import { validOrder } from '../helpers/orders.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let other: ApiClient;

beforeAll(async () => {
  sandbox = await testSandbox({
    tokens: [
      { token: 'token-acme', org: 'acme' },
      { token: 'token-beta', org: 'beta' },
    ],
  });
  other = sandbox.api.withToken('token-beta');
});
afterAll(() => sandbox.close());

async function created(body: Record<string, unknown>, api = sandbox.api) {
  const answer = await api.createOrder(body);
  expect(answer.status, answer.text).toBe(201);
  return answer.json as { id: number; inspections: Array<{ id: number; product_id: string }> };
}

describe('POST /api/orders/', () => {
  it('answers 201 with the id and one inspection per ordered product', async () => {
    const answer = await sandbox.api.createOrder(
      validOrder({
        order_products: [
          { id: 'EPC', quantity: 1 },
          { id: 'ELEC-1.1', quantity: 2 },
        ],
        breaker_boxes: 2,
      }),
    );
    expect(answer.status).toBe(201);
    expect(answer.headers['content-type']).toBe('application/json');
    const body = answer.json as {
      id: number;
      inspections: Array<{ id: number; product_id: string }>;
    };
    expect(Object.keys(body)).toEqual(['id', 'inspections']);
    expect(Number.isInteger(body.id)).toBe(true);
    expect(body.inspections.map((i) => i.product_id)).toEqual(['EPC', 'ELEC-1.1']);
    expect(body.inspections.every((i) => Number.isInteger(i.id) && i.id !== body.id)).toBe(true);
  });

  it('gives every order its own id', async () => {
    const a = await created(validOrder());
    const b = await created(validOrder());
    expect(b.id).toBeGreaterThan(a.id);
  });

  it('takes the path without its trailing slash too', async () => {
    const answer = await sandbox.api.createOrder(validOrder(), '/api/orders');
    expect(answer.status).toBe(201);
  });

  it('accepts numeric strings for integers', async () => {
    await created(
      validOrder({ habbitable_space: '95', order_products: [{ id: 'EPC', quantity: '2' }] }),
    );
  });

  it('answers 422 in Laravel words for missing fields', async () => {
    const answer = await sandbox.api.createOrder({ city: 'Gent' });
    expect(answer.status).toBe(422);
    const body = answer.json as { message: string; errors: Record<string, string[]> };
    expect(body.message).toBe('The property type field is required. (and 10 more errors)');
    expect(body.errors.address1).toEqual(['The address1 field is required.']);
    expect(body.errors.contact_language).toEqual(['The contact language field is required.']);
    expect(body.errors.city).toBeUndefined();
  });

  it('names bad enumerations, unknown products and missing conditional fields', async () => {
    const answer = await sandbox.api.createOrder(
      validOrder({
        contact_language: 'de',
        order_products: [
          { id: 'ELEC-1.1', quantity: 1 },
          { id: 'NOPE', quantity: 1 },
        ],
      }),
    );
    expect(answer.status).toBe(422);
    expect(answer.json).toEqual({
      message: 'The selected contact language is invalid. (and 2 more errors)',
      errors: {
        contact_language: ['The selected contact language is invalid.'],
        'order_products.1.id': ['The selected order_products.1.id is invalid.'],
        breaker_boxes: ['The breaker boxes field is required.'],
      },
    });
  });

  it.each([
    ['ASB-COMMON', 'units'],
    ['ASB-INV-FLOOR', 'floors'],
    ['ELEC-2.1', 'breaker_boxes'],
  ])('requires, for %s, the field %s', async (product, field) => {
    const body = validOrder({ order_products: [{ id: product, quantity: 1 }] });
    const refused = await sandbox.api.createOrder(body);
    expect(refused.status).toBe(422);
    expect(Object.keys((refused.json as { errors: object }).errors)).toEqual([field]);
    await created({ ...body, [field]: 3 });
  });

  it('reads a body that is not JSON as no input at all, as Laravel does', async () => {
    const answer = await sandbox.api.send('POST', '/api/orders/', {
      body: '{"city": "Gent",',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(422);
    expect((answer.json as { errors: object }).errors).toHaveProperty('city');
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['application/xml']])(
    'refuses a %s body with 415',
    async (type) => {
      const answer = await sandbox.api.send('POST', '/api/orders/', {
        body: 'city=Gent',
        headers: { 'content-type': type },
      });
      expect(answer.status).toBe(415);
      expect((answer.json as { message: string }).message).toMatch(/application\/json/);
    },
  );

  it('accepts a JSON media type with parameters', async () => {
    const answer = await sandbox.api.send('POST', '/api/orders/', {
      body: JSON.stringify(validOrder()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(answer.status).toBe(201);
  });
});

describe('GET /api/orders/{id}', () => {
  it('returns every documented field with the documented quirks', async () => {
    const { id, inspections } = await created(
      validOrder({
        habbitable_space: 85,
        no_inv_mail: true,
        no_contact_mail: '0',
        keyPickup_location: 'Kerkstraat 12, 9000 Gent',
        order_products: [
          { id: 'ELEC-1.1', quantity: 1 },
          { id: 'EPC', quantity: 1 },
        ],
        breaker_boxes: 3,
        remark: '   ',
      }),
    );
    const answer = await sandbox.api.getOrder(id);
    expect(answer.status).toBe(200);
    const { data } = answer.json as { data: Record<string, unknown> };
    expect(data).toMatchObject({
      id,
      client_account_id: 'acme',
      status: 'to schedule',
      cancel_reason: null,
      property_type: 'Rijwoning / Duplex',
      habbitable_space: '85',
      breaker_boxes: '3',
      no_inv_mail: 1,
      no_contact_mail: 0,
      remark: null,
      inv_vat: null,
      floors: null,
      units: null,
      keyPickup_location: 'Kerkstraat 12, 9000 Gent',
      key_pickup_location: 'Kerkstraat 12, 9000 Gent',
      order_products: [
        { id: 'ELEC-1.1', quantity: 1 },
        { id: 'EPC', quantity: 1 },
      ],
    });
    expect(data.inspections).toEqual([
      {
        product_id: 'ELEC-1.1',
        product_name: 'Elektrische keuring woning bij verkoop (AREI)',
        date: null,
        inspector_name: null,
      },
      expect.objectContaining({ product_id: 'EPC', date: null, inspector_name: null }),
    ]);
    expect(inspections).toHaveLength(2);
    const documented = [
      'property_type',
      'habbitable_space',
      'no_inv_mail',
      'no_contact_mail',
      'address1',
      'address2',
      'city',
      'postal_code',
      'contact_name',
      'contact_language',
      'contact_email',
      'contact_phone1',
      'remark',
      'inv_company_name',
      'inv_vat',
      'inv_address1',
      'inv_address2',
      'inv_city',
      'inv_postal_code',
      'inv_mail',
      'inv_phone1',
      'invoice_to',
      'is_contact_owner',
      'keyPickup_location',
      'order_products',
      'breaker_boxes',
      'floors',
      'units',
      'id',
      'client_account_id',
      'status',
      'cancel_reason',
      'key_pickup_location',
      'inspections',
    ];
    expect(Object.keys(data).sort()).toEqual([...documented].sort());
  });

  it('writes contact_language twice in the raw text, the later one null', async () => {
    const { id } = await created(validOrder({ contact_language: 'fr' }));
    const answer = await sandbox.api.getOrder(id);
    const occurrences = [...answer.text.matchAll(/"contact_language":("fr"|null)/g)].map(
      (m) => m[1],
    );
    expect(occurrences).toEqual(['"fr"', 'null']);
    // The trap for clients: a plain JSON.parse keeps the later, null one.
    expect(
      (answer.json as { data: { contact_language: unknown } }).data.contact_language,
    ).toBeNull();
  });

  it('escapes like PHP: slashes and non-ASCII letters', async () => {
    const { id } = await created(
      validOrder({ city: 'Liège', property_type: 'Studio / Appartement' }),
    );
    const answer = await sandbox.api.getOrder(id);
    expect(answer.text).toContain('"city":"Li\\u00e8ge"');
    expect(answer.text).toContain('"property_type":"Studio \\/ Appartement"');
    expect((answer.json as { data: { city: string } }).data.city).toBe('Liège');
  });

  it('answers 404 in Laravel words for an unknown or malformed id', async () => {
    for (const id of ['99999999', 'abc']) {
      const answer = await sandbox.api.getOrder(id);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({
        message: `No query results for model [App\\Models\\Order] ${id}`,
      });
    }
  });

  it("hides another organisation's order behind a 404", async () => {
    const { id } = await created(validOrder({ contact_name: 'Only Acme' }));
    const answer = await other.getOrder(id);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({
      message: `No query results for model [App\\Models\\Order] ${id}`,
    });
    expect((await other.listOrders()).map((o) => o.contact_name)).not.toContain('Only Acme');
    expect((await sandbox.api.listOrders()).map((o) => o.contact_name)).toContain('Only Acme');
  });
});

describe('GET /__sandbox/products', () => {
  it('lists the catalogue, so a rehearsal knows which product ids exist', async () => {
    const answer = await sandbox.api.send('GET', '/__sandbox/products');
    expect(answer.status).toBe(200);
    const { data } = answer.json as { data: Array<{ id: string; category: string }> };
    expect(data).toContainEqual(expect.objectContaining({ id: 'ELEC-1.1', category: '1.1' }));
    expect((await sandbox.api.withToken(null).send('GET', '/__sandbox/products')).status).toBe(401);
  });
});

describe('with quirks off', () => {
  it('returns integers as integers and contact_language once', async () => {
    const plain = await testSandbox({ quirks: false });
    try {
      const answer = await plain.api.createOrder(validOrder({ habbitable_space: 85 }));
      const { id } = answer.json as { id: number };
      const order = await plain.api.getOrder(id);
      expect(order.text.match(/"contact_language"/g)).toHaveLength(1);
      expect(order.text).not.toContain('key_pickup_location');
      expect((order.json as { data: { habbitable_space: unknown } }).data.habbitable_space).toBe(
        85,
      );
    } finally {
      await plain.close();
    }
  });
});
