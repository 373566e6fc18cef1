/**
 * The retrieved order, as raw JSON text, with the provider's documented quirks: numeric strings
 * for habbitable_space and breaker_boxes, 0/1 mail flags, nulls for absent optionals,
 * key_pickup_location beside keyPickup_location, and contact_language a second time, null.
 */
import { ORDER_FIELDS } from './fields.js';
import { phpJson, phpObject } from './php-json.js';
import type { StoredOrder } from './store.js';

/** Fields the real API returns as strings even when they were sent as integers. */
const STRINGLY = new Set(['habbitable_space', 'breaker_boxes']);

export function orderEntries(order: StoredOrder, quirks: boolean): Array<[string, unknown]> {
  const entries: Array<[string, unknown]> = [
    ['id', order.id],
    ['client_account_id', order.org],
  ];
  for (const [name] of ORDER_FIELDS) {
    const value = order.fields[name] ?? null;
    const stringly = quirks && STRINGLY.has(name) && typeof value === 'number';
    entries.push([name, stringly ? String(value) : value]);
    if (quirks && name === 'keyPickup_location') entries.push(['key_pickup_location', value]);
  }
  entries.push(
    ['status', order.status],
    ['cancel_reason', order.cancelReason],
    [
      'inspections',
      order.inspections.map((i) => ({
        product_id: i.product_id,
        product_name: i.product_name,
        date: i.date,
        inspector_name: i.inspector_name,
      })),
    ],
  );
  // The real API's serialiser emits the attribute a second time; a JSON parser keeps the last.
  if (quirks) entries.push(['contact_language', null]);
  return entries;
}

/** `{"data": <order>}` exactly as the real API writes it, duplicate key included. */
export function orderResponseText(order: StoredOrder, quirks: boolean): string {
  return `{${phpJson('data')}:${phpObject(orderEntries(order, quirks))}}`;
}
