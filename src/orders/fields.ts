/**
 * The order fields of the provider's documentation (§2.1), in its order, with their kinds.
 * What the importer sends; the sandbox keeps its own list (sandbox/fields.ts), and each is checked
 * against docs/api.md by a test of its own.
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
/** tenant = the contact person, salesman = the API user, other = someone else. */
export const INVOICE_TO = ['tenant', 'salesman', 'other'] as const;
/** contact = the contact person, yes = the API user, other = someone else. */
export const IS_CONTACT_OWNER = ['contact', 'yes', 'other'] as const;

export type FieldKind = 'string' | 'integer' | 'flag' | 'products';

/** Every order field a client sends, in the documentation's order. */
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

export type OrderFieldName = (typeof ORDER_FIELDS)[number][0];

export interface OrderProduct {
  id: string;
  quantity: number;
}
