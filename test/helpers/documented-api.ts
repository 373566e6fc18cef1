import { expect } from 'vitest';

/**
 * A client written from the provider's documentation alone: the documented paths, headers and
 * bodies, the multipart field names with their literal `[]`.
 */
export async function documentedConversation(baseUrl: string, token: string) {
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  const created = await fetch(`${baseUrl}/api/orders/`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      property_type: 'Vrijstaande woning',
      habbitable_space: '210',
      no_inv_mail: 0,
      no_contact_mail: 0,
      address1: 'Stationsstraat',
      address2: '4',
      city: 'Leuven',
      postal_code: '3000',
      contact_name: 'Marie Dubois',
      contact_language: 'fr',
      contact_email: 'marie.dubois@example.be',
      contact_phone1: '+32 16 12 34 56',
      inv_company_name: 'Notariaat Dubois',
      inv_address1: 'Grote Markt',
      inv_address2: '1',
      inv_city: 'Leuven',
      inv_postal_code: '3000',
      inv_mail: 'boekhouding@example.be',
      inv_phone1: '+32 16 00 00 00',
      invoice_to: 'other',
      is_contact_owner: 'yes',
      keyPickup_location: 'Grote Markt 1, 3000 Leuven',
      order_products: [
        { id: 'EPC', quantity: 1 },
        { id: 'ELEC-1.1', quantity: 1 },
      ],
      breaker_boxes: '2',
    }),
  });
  expect(created.status).toBe(201);
  const order = (await created.json()) as {
    id: number;
    inspections: Array<{ id: number; product_id: string }>;
  };
  expect(order.inspections.map((i) => i.product_id)).toEqual(['EPC', 'ELEC-1.1']);

  const form = new FormData();
  form.append('model_id', String(order.id));
  form.append('model_type', 'order');
  form.append('collection_name', 'clientFiles');
  form.append('files[]', new Blob(['floor plan'], { type: 'text/plain' }), 'plan.txt');
  const uploaded = await fetch(`${baseUrl}/api/files/`, { method: 'POST', headers, body: form });
  expect(uploaded.status).toBe(201);
  const file = (await uploaded.json()) as { id: number };

  const retrieved = await fetch(`${baseUrl}/api/orders/${order.id}`, { headers });
  expect(retrieved.status).toBe(200);
  const { data } = (await retrieved.json()) as { data: Record<string, unknown> };
  expect(data).toMatchObject({
    id: order.id,
    status: 'to schedule',
    habbitable_space: '210',
    city: 'Leuven',
  });

  const bytes = await fetch(`${baseUrl}/api/files/${file.id}`, { headers });
  expect(bytes.status).toBe(200);
  expect(await bytes.text()).toBe('floor plan');
}
