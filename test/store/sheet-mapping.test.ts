import { describe, expect, it } from 'vitest';

import { mappingRecord, parseMappingFile } from '../../src/orders/mapping.js';
import { type SheetRecord, sheetMapping } from '../../src/store/sheet-store.js';
import { knownError } from '../helpers/known-error.js';

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

  it("refuses an older version's [column, field] pairs: migration 1 upgraded them at start-up", () => {
    expect(() => sheetMapping(record([['straat', 'address1']]))).toThrow(
      knownError('UserError', 'mapping.invalid'),
    );
  });

  it('refuses a stored mapping that is no longer one', () => {
    expect(() => sheetMapping(record({ source: { kind: 'beside', file: 'x' }, json: [] }))).toThrow(
      knownError('UserError', 'mapping.invalid'),
    );
  });
});
