import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { fieldOf } from '../../src/orders/columns.js';
import {
  describeMapping,
  type Mapping,
  mappingFromRecord,
  mappingRecord,
  parseMappingFile,
} from '../../src/orders/mapping.js';
import { packageRoot } from '../../src/package-root.js';
import { knownError } from '../helpers/known-error.js';

const source = { kind: 'beside' as const, file: '/inbox/gent/mapping.json' };
const parse = (json: unknown): Mapping => parseMappingFile(json, source);

function refusal(json: unknown): string {
  try {
    parse(json);
  } catch (error) {
    expect(error).toEqual(knownError('UserError', 'mapping.invalid'));
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(json)} was not refused`);
}

describe('parseMappingFile: the flat form', () => {
  it('is columns alone, matched trimmed and ignoring case', () => {
    const mapping = parse({ ' Straat ': 'address1', Gemeente: 'CITY' });
    expect(mapping.form).toBe('flat');
    expect(fieldOf('STRAAT', mapping.columns)).toBe('address1');
    expect(fieldOf('gemeente', mapping.columns)).toBe('city');
    expect(mapping.values.size).toBe(0);
    expect(mapping.worksheet).toBeUndefined();
  });

  it('may map a column named like a part of the full form', () => {
    const mapping = parse({ columns: 'address1', Values: 'city' });
    expect(mapping.form).toBe('flat');
    expect(fieldOf('columns', mapping.columns)).toBe('address1');
    expect(fieldOf('values', mapping.columns)).toBe('city');
  });

  it('lets several of the user names give one field (one sheet may hold only one of them)', () => {
    const mapping = parse({ Straat: 'address1', Adres: 'address1' });
    expect(fieldOf('Adres', mapping.columns)).toBe('address1');
    expect(fieldOf('Straat', mapping.columns)).toBe('address1');
  });

  it('is an empty mapping when empty', () => {
    expect(parse({}).columns.size).toBe(0);
  });
});

describe('parseMappingFile: the full form', () => {
  const full = {
    columns: { Straat: 'address1', Taal: 'contact_language' },
    values: {
      contact_language: { Nederlands: 'nl', ' Frans ': 'FR' },
      Invoice_To: { verkoper: 'salesman', 'de huurder': 'Tenant' },
      property_type: { appartement: 'studio/appartement' },
      no_inv_mail: { geen: 'ja', 'wel mail': false },
      is_contact_owner: { eigenaar: 'yes' },
    },
    worksheet: ' Orders ',
  };

  it('reads columns, values (in their canonical form, words squashed) and the worksheet', () => {
    const mapping = parse(full);
    expect(mapping.form).toBe('full');
    expect(fieldOf('taal', mapping.columns)).toBe('contact_language');
    expect(mapping.values.get('contact_language')).toEqual(
      new Map([
        ['nederlands', 'nl'],
        ['frans', 'fr'],
      ]),
    );
    expect(mapping.values.get('invoice_to')).toEqual(
      new Map([
        ['verkoper', 'salesman'],
        ['dehuurder', 'tenant'],
      ]),
    );
    expect(mapping.values.get('property_type')?.get('appartement')).toBe('Studio / Appartement');
    expect(mapping.values.get('no_inv_mail')).toEqual(
      new Map([
        ['geen', 1],
        ['welmail', 0],
      ]),
    );
    expect(mapping.worksheet).toBe('Orders');
  });

  it('has every part optional', () => {
    expect(parse({ values: { invoice_to: { verkoper: 'salesman' } } }).columns.size).toBe(0);
    expect(parse({ worksheet: 'Blad1' }).worksheet).toBe('Blad1');
    expect(parse({ columns: {} }).form).toBe('full');
  });

  it('travels with its sheet and comes back the same', () => {
    const mapping = parse(full);
    const stored = JSON.parse(JSON.stringify(mappingRecord(mapping))) as unknown;
    const back = mappingFromRecord(stored, 'sheet S1');
    expect(back.source).toEqual(source);
    expect(back.form).toBe('full');
    expect(back.columns).toEqual(mapping.columns);
    expect(back.values).toEqual(mapping.values);
    expect(back.worksheet).toBe('Orders');
  });

  it('refuses a stored mapping that does not say where it came from', () => {
    expect(() => mappingFromRecord({ json: {} }, 'sheet S1')).toThrow(
      knownError('UserError', 'mapping.invalid'),
    );
    expect(() =>
      mappingFromRecord({ source: { kind: 'elsewhere', file: 'x' }, json: {} }, 'sheet S1'),
    ).toThrow(/does not say where it came from/);
  });

  it('is named by its file and why it was used', () => {
    expect(describeMapping(source)).toBe('/inbox/gent/mapping.json (beside the sheet)');
    expect(describeMapping({ kind: 'flag', file: '/m.json' })).toBe('--mapping /m.json');
    expect(describeMapping({ kind: 'config', file: '/m.json' })).toBe(
      '/m.json (the config file\'s "mapping")',
    );
  });
});

describe('parseMappingFile refuses, naming the file and what to change', () => {
  it.each([
    [[], /^Mapping \/inbox\/gent\/mapping\.json must be a JSON object/],
    ['address1', /must be a JSON object/],
    [null, /must be a JSON object/],
    [
      { Straat: 'street' },
      /"Straat" maps to "street", which is not an order field; did you mean address1\? The fields are property_type, /,
    ],
    [{ Straat: 'adres' }, /did you mean address1\?/],
    [{ Straat: 5 }, /"Straat" maps to 5, which is not an order field; use one of/],
    [{ Straat: null }, /maps to null/],
    [{ Straat: ['address1'] }, /maps to \["address1"\]/],
    [{ Straat: 'address1', straat: 'address2' }, /the column "straat" is mapped twice/],
    [
      { columns: { Straat: 'address1' }, Gemeente: 'city' },
      /"Gemeente" is not a part of a mapping/,
    ],
    [{ columns: ['Straat'] }, /"columns" must be an object/],
    [
      { columns: { Straat: 'nope' } },
      /Mapping \/inbox\/gent\/mapping\.json \("columns"\): "Straat" maps to "nope"/,
    ],
    [{ values: 'nl' }, /"values" must be an object of fields/],
    [
      { values: { taal: { Nederlands: 'nl' } } },
      /"values" names "taal", which is not an order field; synonyms are for property_type, /,
    ],
    [
      { values: { city: { Gent: 'Ghent' } } },
      /"values" names "city", which takes no value synonyms/,
    ],
    [
      { values: { contact_language: ['nl'] } },
      /"values"\."contact_language" must be an object of your words/,
    ],
    [
      { values: { contact_language: { Nederlands: 'dutch' } } },
      /^Mapping \/inbox\/gent\/mapping\.json: "values"\."contact_language" maps "Nederlands" to "dutch", which contact_language does not allow: it must be one of "nl", "en", "fr"\.$/,
    ],
    [{ values: { invoice_to: { verkoper: 'seller' } } }, /which invoice_to does not allow/],
    [
      { values: { no_inv_mail: { geen: 'misschien' } } },
      /which no_inv_mail does not allow: it must be yes or no/,
    ],
    [
      { values: { invoice_to: { verkoper: { to: 'salesman' } } } },
      /maps "verkoper" to \{"to":"salesman"\}/,
    ],
    [{ values: { invoice_to: { '  ': 'salesman' } } }, /has an empty word/],
    [
      { values: { invoice_to: { Verkoper: 'salesman', 'ver koper': 'tenant' } } },
      /gives "ver koper" twice/,
    ],
    [{ values: { invoice_to: {}, Invoice_to: {} } }, /"values" gives invoice_to twice/],
    [{ worksheet: 7 }, /"worksheet" must be the name of a worksheet/],
    [{ worksheet: '  ' }, /"worksheet" must be the name/],
  ])('%j', (json, message) => {
    expect(refusal(json)).toMatch(message);
  });

  it('keeps the words of two synonyms for one value', () => {
    const mapping = parse({
      values: { invoice_to: { Verkoper: 'salesman', 'ver koper': 'salesman' } },
    });
    expect(mapping.values.get('invoice_to')?.get('verkoper')).toBe('salesman');
  });

  it('cuts what it quotes of a huge key or value', () => {
    const message = refusal({ ['x'.repeat(100_000)]: 'y'.repeat(100_000) });
    expect(message.length).toBeLessThan(1000);
    expect(message).toContain('…');
  });
});

describe('parseMappingFile with prototype keys', () => {
  it('maps columns named __proto__ or constructor without touching any prototype', () => {
    const json = JSON.parse(
      '{ "columns": { "__proto__": "address1", "constructor": "city", "toString": "remark" } }',
    ) as unknown;
    const mapping = parse(json);
    expect(fieldOf('__proto__', mapping.columns)).toBe('address1');
    expect(fieldOf('constructor', mapping.columns)).toBe('city');
    expect(fieldOf('toString', mapping.columns)).toBe('remark');
    expect(({} as Record<string, unknown>).address1).toBeUndefined();
    const back = mappingFromRecord(JSON.parse(JSON.stringify(mappingRecord(mapping))), 'sheet');
    expect(fieldOf('__proto__', back.columns)).toBe('address1');
  });

  it('reads a flat __proto__ key as a column of that name', () => {
    const mapping = parse(JSON.parse('{ "__proto__": "address1" }'));
    expect(mapping.form).toBe('flat');
    expect(fieldOf('__proto__', mapping.columns)).toBe('address1');
  });

  it('refuses them as fields of values, and takes them as words like any other', () => {
    expect(refusal(JSON.parse('{ "values": { "__proto__": { "x": "nl" } } }'))).toMatch(
      /"values" names "__proto__", which is not an order field/,
    );
    expect(refusal(JSON.parse('{ "values": { "constructor": { "x": "nl" } } }'))).toMatch(
      /"values" names "constructor", which is not an order field/,
    );
    const mapping = parse(
      JSON.parse('{ "values": { "contact_language": { "__proto__": "nl" } } }'),
    );
    expect(mapping.values.get('contact_language')?.get('__proto__')).toBe('nl');
  });
});

describe('the guide’s mappings', () => {
  it('are read by the importer as they are written', async () => {
    const guide = await readFile(join(packageRoot(), 'docs', 'guide.md'), 'utf8');
    const examples = [...guide.matchAll(/```json\n([\s\S]*?)```/g)]
      .map((m) => JSON.parse(m[1] ?? '') as unknown)
      .filter((json) => typeof json === 'object' && json !== null && 'columns' in json);
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const json of examples) {
      const mapping = parse(json);
      expect(mapping.form).toBe('full');
      expect(mapping.columns.size).toBeGreaterThan(10);
    }
  });
});
