/**
 * A workbook's zip is checked once: the pass over a sheet's private copy when it is queued reads
 * it whole, each part's checksum and sizes checked; a later read of the same bytes (its record
 * says they passed, keyed by their hash) does not compute the checksums or look at the head again.
 */
import { stat } from 'node:fs/promises';

import { describe, expect, it } from 'vitest';

import { SheetError } from '../../src/sheets/errors.js';
import { readRecords } from '../../src/sheets/records.js';
import type { SourceRecord } from '../../src/sheets/types.js';
import { put, tempDir } from '../helpers/files.js';
import { inlineRow, workbookParts } from '../helpers/xlsx-parts.js';
import { rawZip } from '../helpers/zip.js';

const HEADER = ['reference', 'city', 'postal_code'];

/** A workbook whose worksheet's checksum is wrong: its one check that needs the whole part. */
async function wrongChecksum(): Promise<string> {
  const rows = `${inlineRow(1, HEADER)}${inlineRow(2, ['A', 'Gent', '9000'])}`;
  const entries = workbookParts({ sheets: [{ name: 'O', rows }] }).map((entry) =>
    entry.name === 'xl/worksheets/sheet1.xml' ? { ...entry, crc: 12345 } : entry,
  );
  return put(await tempDir('workbook-checked-'), 'orders.xlsx', rawZip(entries));
}

async function readAll(path: string, checked?: boolean): Promise<SourceRecord[]> {
  const { size } = await stat(path);
  const known = { sha256: 'recorded', bytes: size, encoding: 'utf-8', bom: false } as const;
  const sheet = await readRecords(path, undefined, checked ? { ...known, checked } : known);
  const records: SourceRecord[] = [];
  for await (const batch of sheet.batches) records.push(...batch);
  return records;
}

describe('a workbook read again', () => {
  it('is checked when nothing says it passed', async () => {
    const error = await readAll(await wrongChecksum()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SheetError);
    expect((error as Error).message).toMatch(/damaged/);
  });

  it('is not checked again when its record says these bytes passed', async () => {
    const records = await readAll(await wrongChecksum(), true);
    expect(records.map((record) => record.data)).toEqual([['A', 'Gent', '9000']]);
  });
});
