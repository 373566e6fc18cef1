import { describe, expect, it } from 'vitest';

import { sourceSheetId } from '../../src/orders/columns.js';
import { FixClaims, fixedProblems, mayFix } from '../../src/report/fix-claims.js';

const echo = (sourceSheet: string, sourceRow: string) => ({
  address: '',
  contactName: '',
  sourceRow,
  sourceSheet,
});

describe('a source_sheet cell', () => {
  it('is a sheet id as the importer makes them, trimmed', () => {
    expect(sourceSheetId('20261126-101502-3fa9c1')).toBe('20261126-101502-3fa9c1');
    expect(sourceSheetId(' 20261126-101502-3fa9c1 ')).toBe('20261126-101502-3fa9c1');
  });

  it.each([['../etc'], ['a:b'], [''], ['x'.repeat(200)], [12], [null], ['-lead'], ['a b']])(
    'is no id when it is %j',
    (value) => {
      expect(sourceSheetId(value)).toBe('');
    },
  );
});

describe("a fix's claims", () => {
  it('are the rows that became an order or a duplicate of one, by the sheet they name', () => {
    const claims = new FixClaims();
    claims.add('created', echo('A', '3'));
    claims.add('duplicate', echo('A', '5'));
    claims.add('invalid', echo('A', '7'));
    claims.add('failed', echo('B', '2'));
    claims.add('needs-review', echo('A', '9'));
    claims.add('created', echo('', '4'));
    claims.add('created', echo('A', ''));
    claims.add('created', echo('C', '1'));
    expect(claims.byOriginal()).toEqual(
      new Map([
        ['A', [3, 5]],
        ['C', [1]],
      ]),
    );
  });

  it('name a bounded number of sheets', () => {
    const claims = new FixClaims();
    for (let i = 0; i < 100; i++) claims.add('created', echo(`S${i}`, '1'));
    expect(claims.byOriginal().size).toBe(FixClaims.MAX_ORIGINALS);
  });
});

describe('whether a sheet may fix another', () => {
  const fix = { sheetId: 'F', connectionId: 'gent', startedAt: '2026-11-27T10:00:00.000Z' };
  const original = {
    sheetId: 'A',
    connectionId: 'gent',
    startedAt: '2026-11-27T09:00:00.000Z',
    reportDir: '/r/a',
  };

  it('may, for a reported sheet of its own connection taken before it', () => {
    expect(mayFix(fix, original)).toBe(true);
  });

  it.each([
    ['an unknown sheet', undefined],
    ['another connection', { ...original, connectionId: 'brugge' }],
    ['itself', { ...original, sheetId: 'F' }],
    ['a later sheet', { ...original, startedAt: '2026-11-27T11:00:00.000Z' }],
    ['a sheet not reported', { ...original, reportDir: undefined }],
    ['a sheet of no connection', { ...original, connectionId: undefined }],
  ])('may not, for %s', (_what, other) => {
    expect(mayFix(fix, other)).toBe(false);
  });
});

describe('the rows a fix fixed', () => {
  it('are the claimed rows that were invalid or failed in the original', () => {
    const earlier = new Map([
      [1, { status: 'invalid' as const }],
      [2, { status: 'created' as const, orderId: 7 }],
      [3, { status: 'failed' as const }],
      [4, { status: 'needs-review' as const }],
    ]);
    expect(fixedProblems([1, 2, 3, 4, 99], earlier)).toEqual([
      [1, 'invalid'],
      [3, 'failed'],
    ]);
  });
});
