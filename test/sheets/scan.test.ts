import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { SheetError } from '../../src/sheets/errors.js';
import { scanSheet, Utf8Check } from '../../src/sheets/scan.js';
import { put, tempDir } from '../helpers/files.js';

const dir = await tempDir('scan-');

describe('scanSheet', () => {
  it('takes valid UTF-8 as UTF-8 and hashes the bytes', async () => {
    const text = 'city\nLiège\n';
    const path = await put(dir, 'utf8.csv', text);
    const scan = await scanSheet(path);
    expect(scan).toMatchObject({ encoding: 'utf-8', bom: false, bytes: 12, head: text });
    expect(scan.sha256).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('notes and skips a UTF-8 byte-order mark', async () => {
    const path = await put(
      dir,
      'bom.csv',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a;b\n')]),
    );
    expect(await scanSheet(path)).toMatchObject({ encoding: 'utf-8', bom: true, head: 'a;b\n' });
  });

  it('reads invalid UTF-8 as Windows-1252', async () => {
    const path = await put(
      dir,
      'cp1252.csv',
      Buffer.from([0x63, 0x69, 0x74, 0x79, 0x0a, 0x4c, 0x69, 0xe8, 0x67, 0x65, 0x20, 0x80, 0x0a]),
    );
    expect(await scanSheet(path)).toMatchObject({
      encoding: 'windows-1252',
      head: 'city\nLiège €\n',
    });
  });

  it('finds a Windows-1252 byte far beyond the head', async () => {
    const body = Buffer.concat([
      Buffer.from('a\n'),
      Buffer.alloc(300_000, 0x61),
      Buffer.from([0x0a, 0xe9, 0x0a]),
    ]);
    const path = await put(dir, 'late.csv', body);
    expect((await scanSheet(path)).encoding).toBe('windows-1252');
  });

  it('keeps UTF-8 when a character straddles two read chunks', async () => {
    // 64 KiB read chunks: put a 3-byte character across the first boundary.
    const body = Buffer.concat([Buffer.alloc(65_535, 0x61), Buffer.from('€'), Buffer.from('\n')]);
    const path = await put(dir, 'straddle.csv', body);
    expect((await scanSheet(path)).encoding).toBe('utf-8');
  });

  it.each([
    ['empty.csv', Buffer.alloc(0), /the sheet is empty/],
    ['utf16.csv', Buffer.from([0xff, 0xfe, 0x61, 0x00]), /UTF-16/],
    ['binary.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), /not a text sheet/],
  ])('refuses %s', async (name, content, message) => {
    const path = await put(dir, name, content);
    const error = await scanSheet(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SheetError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('Utf8Check', () => {
  const check = (...chunks: number[][]) => {
    const utf8 = new Utf8Check();
    for (const chunk of chunks) utf8.push(Buffer.from(chunk));
    return utf8.end();
  };

  it('accepts characters cut at any byte', () => {
    const euro = [0xe2, 0x82, 0xac];
    expect(check(euro.slice(0, 1), euro.slice(1))).toBe(true);
    expect(check(euro.slice(0, 2), euro.slice(2))).toBe(true);
    const emoji = [0xf0, 0x9f, 0x98, 0x80];
    expect(check([0x61, ...emoji.slice(0, 3)], emoji.slice(3), [0x62])).toBe(true);
  });

  it('refuses a character the input ends inside', () => {
    expect(check([0x61, 0xe2, 0x82])).toBe(false);
  });

  it.each([[[0xe9]], [[0x80]], [[0xc3, 0x28]], [[0xed, 0xa0, 0x80]]])('refuses %j', (bytes) => {
    expect(check(bytes)).toBe(false);
  });
});
