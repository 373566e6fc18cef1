import { describe, expect, it } from 'vitest';

import { rowValidator } from '../../src/orders/row.js';
import {
  type ColumnMapping,
  mapHeader,
  ObjectCells,
  parseMapping,
  CsvCells,
} from '../../src/orders/columns.js';
import { parseMappingFile } from '../../src/orders/mapping.js';
import { testCatalogue } from '../helpers/catalogue.js';

const catalogue = testCatalogue;
const validate = rowValidator(catalogue);

const complete: Record<string, unknown> = {
  property_type: 'Rijwoning / Duplex',
  address1: 'Kerkstraat',
  address2: '12',
  city: 'Gent',
  postal_code: '9000',
  contact_name: 'An',
  contact_language: 'nl',
  contact_email: 'an@example.be',
  inv_mail: 'facturen@example.be',
  invoice_to: 'tenant',
  is_contact_owner: 'contact',
  order_products: 'EPC',
};

function check(row: Record<string, unknown>, mapping?: ColumnMapping) {
  return validate(new ObjectCells(row, mapping, new Set()));
}

function problems(row: Record<string, unknown>, mapping?: ColumnMapping) {
  const result = check(row, mapping);
  return result.ok ? [] : result.problems;
}

describe('rowValidator', () => {
  it('gives the order in canonical form, with only the fields the row has', () => {
    const result = check({
      ...complete,
      property_type: 'studio/appartement',
      contact_language: 'NL',
      habbitable_space: '85',
      no_contact_mail: 'nee',
      remark: '',
      order_products: 'epc:2',
      reference: ' R-1 ',
      files: 'a.pdf|b\\c.pdf',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        order: {
          ...complete,
          property_type: 'Studio / Appartement',
          contact_language: 'nl',
          habbitable_space: 85,
          no_contact_mail: 0,
          order_products: [{ id: 'EPC', quantity: 2 }],
        },
        reference: 'R-1',
        files: ['a.pdf', 'b/c.pdf'],
      },
    });
  });

  it('tells every missing required field at once, in plain words', () => {
    expect(problems({}).map((p) => p.message)).toEqual([
      'property_type is required: the kind of property, e.g. "Rijwoning / Duplex".',
      'address1 is required: the street of the property.',
      'address2 is required: the house number (and bus number) of the property.',
      'city is required: the city of the property.',
      'postal_code is required: the postal code of the property.',
      'contact_name is required: the name of the contact person.',
      'contact_language is required: the language of the contact person: nl, en or fr.',
      'invoice_to is required: who receives the invoice: tenant, salesman or other.',
      'is_contact_owner is required: who the contact person is: contact, yes or other.',
      'order_products is required: the products to order, e.g. EPC|ELEC-1.1.',
      'contact_email is required: the e-mail address of the contact person; if there is none, set no_contact_mail to yes.',
      'inv_mail is required: the e-mail address for the invoice; if there is none, set no_inv_mail to yes.',
    ]);
  });

  it('names the column as the sheet names it', () => {
    const mapping = parseMapping({ Gemeente: 'city' }, 'm.json');
    const { city: _city, ...withoutCity } = complete;
    const found = problems({ ...withoutCity, Gemeente: ' ' }, mapping);
    expect(found).toEqual([
      { column: 'Gemeente', message: 'Gemeente is required: the city of the property.' },
    ]);
    const header = mapHeader(['Stad'], parseMapping({ Stad: 'city' }, 'm.json'));
    const csv = validate(new CsvCells(header, ['']));
    expect(
      csv.ok ? [] : csv.problems.find((p) => p.message.startsWith('Stad is required'))?.column,
    ).toBe('Stad');
  });

  it('lets the mail flags excuse the addresses, and checks addresses otherwise', () => {
    const { contact_email: _c, inv_mail: _i, ...withoutMails } = complete;
    expect(check({ ...withoutMails, no_contact_mail: 'ja', no_inv_mail: true }).ok).toBe(true);
    expect(problems({ ...complete, contact_email: 'an(at)example.be', inv_mail: 'x@y' })).toEqual([
      {
        column: 'contact_email',
        message: 'contact_email is not a valid e-mail address (got "an(at)example.be").',
      },
      { column: 'inv_mail', message: 'inv_mail is not a valid e-mail address (got "x@y").' },
    ]);
  });

  it.each([
    [
      'ELEC-1.1',
      'breaker_boxes',
      'breaker_boxes is required because ELEC-1.1 ("Electrical inspection") is an electrical inspection: give the number of breaker boxes.',
    ],
    [
      'ELEC-2.1',
      'breaker_boxes',
      'breaker_boxes is required because ELEC-2.1 ("Electrical common parts") is an electrical inspection: give the number of breaker boxes.',
    ],
    [
      'ASB-UNITS',
      'units',
      'units is required because ASB-UNITS ("Asbestos per unit") is priced per housing unit: give the number of units.',
    ],
    [
      'ASB-FLOORS',
      'floors',
      'floors is required because ASB-FLOORS ("Asbestos per floor") is priced per floor: give the number of floors.',
    ],
  ])('%s asks for %s and says why', (product, field, message) => {
    expect(problems({ ...complete, order_products: `EPC|${product}` })).toEqual([
      { column: field, message },
    ]);
    expect(check({ ...complete, order_products: `EPC|${product}`, [field]: '2' }).ok).toBe(true);
  });

  it('checks integers and their minimum', () => {
    expect(problems({ ...complete, breaker_boxes: '0', habbitable_space: 'large' })).toEqual([
      {
        column: 'habbitable_space',
        message: 'habbitable_space must be a whole number (got "large").',
      },
      { column: 'breaker_boxes', message: 'breaker_boxes must be at least 1 (got "0").' },
    ]);
  });

  it('refuses an empty product list', () => {
    expect(problems({ ...complete, order_products: [] })).toEqual([
      {
        column: 'order_products',
        message: 'order_products lists no product: give at least one, e.g. EPC.',
      },
    ]);
  });

  it('keeps the reference and files of an invalid row, so they can still be checked', () => {
    const result = check({ reference: 'R-9', files: ['x.pdf'] });
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ reference: 'R-9', files: ['x.pdf'] });
  });

  it('refuses a reference or files of the wrong kind', () => {
    expect(problems({ ...complete, reference: { id: 1 }, files: 7 })).toEqual([
      { column: 'reference', message: 'reference must be text (got "{"id":1}").' },
      {
        column: 'files',
        message: 'files must be file paths separated by | (or a JSON list of paths) (got "7").',
      },
    ]);
  });
});

describe('rowValidator with a mapping', () => {
  const mapping = parseMappingFile(
    {
      columns: { Taal: 'contact_language', 'Factuur aan': 'invoice_to', Geen: 'no_inv_mail' },
      values: {
        contact_language: { Nederlands: 'nl', Frans: 'fr' },
        invoice_to: { verkoper: 'salesman', 'de huurder': 'tenant' },
        no_inv_mail: { 'geen mail': 'yes' },
        property_type: { rijhuis: 'Rijwoning / Duplex' },
      },
    },
    { kind: 'beside', file: '/inbox/gent/mapping.json' },
  );
  const mapped = rowValidator(catalogue, { mapping });
  const { contact_language: _l, invoice_to: _i, inv_mail: _m, ...rest } = complete;
  const dutch = (cells: Record<string, unknown>) =>
    mapped(new ObjectCells({ ...rest, ...cells }, mapping.columns, new Set()));

  it('applies the words for values before the values are checked, ignoring case and spaces', () => {
    const result = dutch({
      Taal: ' NEDERLANDS ',
      'Factuur aan': 'Verkoper',
      Geen: 'Geen  Mail',
      property_type: 'rij huis',
    });
    expect(result.ok && result.value.order).toMatchObject({
      contact_language: 'nl',
      invoice_to: 'salesman',
      no_inv_mail: 1,
      property_type: 'Rijwoning / Duplex',
    });
    // The values themselves, and the usual yes/no words, still work.
    const plain = dutch({ Taal: 'fr', 'Factuur aan': 'other', Geen: 'ja' });
    expect(plain.ok && plain.value.order).toMatchObject({
      contact_language: 'fr',
      invoice_to: 'other',
      no_inv_mail: 1,
    });
  });

  it('takes the sheet’s own words for products (values.order_products), with a quantity', () => {
    const products = parseMappingFile(
      { values: { order_products: { 'Elektrische keuring': 'ELEC-1.1', asbest: 'ASB-ATT' } } },
      { kind: 'beside', file: '/inbox/gent/mapping.json' },
    );
    const validated = rowValidator(catalogue, { mapping: products });
    const result = validated(
      new ObjectCells(
        { ...complete, order_products: 'ELEKTRISCHE  KEURING:2 | EPC', breaker_boxes: 1 },
        products.columns,
        new Set(),
      ),
    );
    expect(result.ok && result.value.order.order_products).toEqual([
      { id: 'ELEC-1.1', quantity: 2 },
      { id: 'EPC', quantity: 1 },
    ]);
  });

  it('refuses a word for products that stands for no product id', () => {
    expect(() =>
      parseMappingFile(
        { values: { order_products: { keuring: '' } } },
        { kind: 'beside', file: '/inbox/gent/mapping.json' },
      ),
    ).toThrow(/"values"\."order_products" maps "keuring" to ""/);
  });

  it('names the user’s column and the mapping when a value is none of its words', () => {
    const result = dutch({ Taal: 'Duits', 'Factuur aan': 'verkoper', Geen: 'misschien' });
    expect(result.ok ? [] : result.problems).toEqual([
      {
        column: 'Geen',
        message:
          'Geen must be yes or no (1/0, true/false, ja/nee, oui/non), or one of its words under "values" in /inbox/gent/mapping.json (got "misschien").',
      },
      {
        column: 'Taal',
        message:
          'Taal must be one of "nl", "en", "fr", or one of its words under "values" in /inbox/gent/mapping.json (got "Duits").',
      },
      {
        column: 'inv_mail',
        message:
          'inv_mail is required: the e-mail address for the invoice; if there is none, set Geen to yes.',
      },
    ]);
  });

  it('says, for a field a row lacks, which column may hold it and the mapping to write', () => {
    const hinted = rowValidator(catalogue, {
      missingHints: new Map([['city', '; if the column "Gemeente" holds it, add …']]),
    });
    const { city: _city, ...withoutCity } = complete;
    const result = hinted(new ObjectCells(withoutCity, undefined, new Set()));
    expect(result.ok ? [] : result.problems).toEqual([
      {
        column: 'city',
        message:
          'city is required: the city of the property; if the column "Gemeente" holds it, add ….',
      },
    ]);
  });
});
