import { describe, expect, it } from 'vitest';

import { fieldOf, MappingError } from '../../src/orders/columns.js';
import { mappingRecord, parseMappingFile } from '../../src/orders/mapping.js';
import { type SheetRecord, sheetMapping } from '../../src/store/sheet-store.js';

const record = (mapping: unknown) => ({ sheetId: 'S1', mapping }) as unknown as SheetRecord;

describe('sheetMapping', () => {
  it('reads the mapping a sheet was queued with, checked again', () => {
    const queued = parseMappingFile(
      { columns: { Taal: 'contact_language' }, values: { contact_language: { Frans: 'fr' } } },
      { kind: 'beside', file: '/inbox/mapping.json' },
    );
    const read = sheetMapping(record(JSON.parse(JSON.stringify(mappingRecord(queued)))));
    expect(read?.source).toEqual(queued.source);
    expect(read?.values.get('contact_language')?.get('frans')).toBe('fr');
    expect(sheetMapping(record(undefined))).toBeUndefined();
  });

  it('reads the [column, field] pairs an older version stored', () => {
    const read = sheetMapping(record([['straat', 'address1']]));
    expect(fieldOf('Straat', read?.columns)).toBe('address1');
    expect(read?.source.kind).toBe('flag');
  });

  it('refuses a stored mapping that is no longer one', () => {
    expect(() => sheetMapping(record({ source: { kind: 'beside', file: 'x' }, json: [] }))).toThrow(
      MappingError,
    );
  });
});
