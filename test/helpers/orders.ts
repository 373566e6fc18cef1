/** A create-order body that the sandbox accepts, as a client would build it from the docs. */
export function validOrder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    property_type: 'Rijwoning / Duplex',
    habbitable_space: 140,
    no_inv_mail: 0,
    no_contact_mail: 0,
    address1: 'Kerkstraat',
    address2: '12 bus 3',
    city: 'Gent',
    postal_code: '9000',
    contact_name: 'An Peeters',
    contact_language: 'nl',
    contact_email: 'an.peeters@example.be',
    contact_phone1: '+32 470 12 34 56',
    inv_company_name: 'Immo Peeters',
    inv_address1: 'Veldstraat',
    inv_address2: '1',
    inv_city: 'Gent',
    inv_postal_code: '9000',
    inv_mail: 'facturen@example.be',
    inv_phone1: '+32 9 123 45 67',
    invoice_to: 'salesman',
    is_contact_owner: 'contact',
    order_products: [{ id: 'EPC', quantity: 1 }],
    ...overrides,
  };
}
