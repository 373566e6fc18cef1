/**
 * The order fields as the provider's documentation gives them (docs/api.md, "Creating one"),
 * written down for the sandbox alone. The client keeps its own list: were they one list, a field
 * name misspelt there would be sent by the client and accepted by the sandbox alike, and no test
 * would see it. test/sandbox/fields.doc.test.ts checks this list against the documentation.
 */

export const PROPERTY_TYPES = [
  'Studio / Appartement',
  'Rijwoning / Duplex',
  'Halfopen bebouwing',
  'Vrijstaande woning',
  'Collectieve woning',
  'Andere',
] as const;
export const CONTACT_LANGUAGES = ['nl', 'en', 'fr'] as const;
export const INVOICE_TO = ['tenant', 'salesman', 'other'] as const;
export const IS_CONTACT_OWNER = ['contact', 'yes', 'other'] as const;

/** How the sandbox reads and stores a field: text, a whole number, a 0/1 flag, the product list. */
export type FieldKind = 'string' | 'integer' | 'flag' | 'products';

/**
 * Every order field, in the order a retrieved order lists them (the provider's own order, which
 * the answers of GET /api/orders/{id} keep).
 */
export const ORDER_FIELDS = [
  ['property_type', 'string'],
  ['habbitable_space', 'integer'],
  ['no_inv_mail', 'flag'],
  ['no_contact_mail', 'flag'],
  ['address1', 'string'],
  ['address2', 'string'],
  ['city', 'string'],
  ['postal_code', 'string'],
  ['contact_name', 'string'],
  ['contact_language', 'string'],
  ['contact_email', 'string'],
  ['contact_phone1', 'string'],
  ['remark', 'string'],
  ['inv_company_name', 'string'],
  ['inv_vat', 'string'],
  ['inv_address1', 'string'],
  ['inv_address2', 'string'],
  ['inv_city', 'string'],
  ['inv_postal_code', 'string'],
  ['inv_mail', 'string'],
  ['inv_phone1', 'string'],
  ['invoice_to', 'string'],
  ['is_contact_owner', 'string'],
  ['keyPickup_location', 'string'],
  ['order_products', 'products'],
  ['breaker_boxes', 'integer'],
  ['floors', 'integer'],
  ['units', 'integer'],
] as const satisfies ReadonlyArray<readonly [string, FieldKind]>;

/** The fields restricted to a documented list of values, with that list. */
export const ENUMERATED_FIELDS = {
  property_type: PROPERTY_TYPES,
  contact_language: CONTACT_LANGUAGES,
  invoice_to: INVOICE_TO,
  is_contact_owner: IS_CONTACT_OWNER,
} as const satisfies Record<string, readonly string[]>;

/**
 * The only fields the documentation makes required, and only when a product of one of these
 * categories is ordered: breaker boxes for an electrical inspection, units for a per-unit
 * product, floors for a per-floor one.
 */
export const REQUIRED_BY_CATEGORY = {
  breaker_boxes: ['1.1', '1.2', '2.1'],
  units: ['2.3'],
  floors: ['2.4'],
} as const satisfies Record<string, readonly string[]>;

export type CategoryRequiredField = keyof typeof REQUIRED_BY_CATEGORY;

/** One line of `order_products` as stored. */
export interface OrderedProduct {
  id: string;
  quantity: number;
}
