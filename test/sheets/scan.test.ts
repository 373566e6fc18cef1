import { createHash } from 'node:crypto';

import { join } from 'node:path';

import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';

import { SheetError } from '../../src/sheets/errors.js';
import { scanSheet, Utf8Check } from '../../src/sheets/scan.js';
import { ROOT } from '../helpers/cli.js';
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

describe('scanSheet on a sheet that mixes encodings', () => {
  const utf8Lines = (n: number) =>
    Array.from({ length: n }, (_, i) => `R${i + 1};Liège;Françoise Dubœuf ${i + 1}`).join('\n');

  it('refuses a mostly UTF-8 sheet with one stray byte, naming its line', async () => {
    const body = Buffer.concat([
      Buffer.from(`reference;city;contact_name\n${utf8Lines(2)}\nR3;Li`),
      Buffer.from([0xe8]), // è in Windows-1252, pasted into a UTF-8 sheet
      Buffer.from(`ge;Jan\n${utf8Lines(3)}\n`),
    ]);
    const path = await put(dir, 'stray.csv', body);
    const error = await scanSheet(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SheetError);
    expect((error as Error).message).toBe(
      'the sheet is UTF-8 except for bytes on line 4 that are not UTF-8 (text pasted from another encoding, or a damaged file): correct those characters and save the sheet as UTF-8 (in Excel: "CSV UTF-8").',
    );
  });

  it('names the first five lines with stray bytes, and how many more there are', async () => {
    const parts: Buffer[] = [Buffer.from(`reference;city\n${utf8Lines(20)}\n`)];
    for (let line = 22; line <= 28; line++) {
      parts.push(Buffer.from('R;Gen'), Buffer.from([0x92, 0x92]), Buffer.from('t\n'));
    }
    parts.push(Buffer.from(`${utf8Lines(20)}\n`));
    const path = await put(dir, 'strays.csv', Buffer.concat(parts));
    await expect(scanSheet(path)).rejects.toThrow(
      /^the sheet is UTF-8 except for bytes on lines 22, 23, 24, 25, 26 and 2 more lines that are not UTF-8/,
    );
  });

  it('finds the line of a stray byte far beyond the first read', async () => {
    const body = Buffer.concat([
      Buffer.from(`reference;city\n${utf8Lines(120_000)}\n`),
      Buffer.from([0x61, 0xe9, 0x0a]),
    ]);
    expect(body.length).toBeGreaterThan(3 * 1024 * 1024);
    const path = await put(dir, 'stray-late.csv', body);
    await expect(scanSheet(path)).rejects.toThrow(/ on line 120002 that are not UTF-8/);
  });

  it('refuses a sheet that starts with a UTF-8 byte-order mark but holds a stray byte', async () => {
    const body = Buffer.concat([Buffer.from('\uFEFFcity\nGent\n'), Buffer.from([0xe9, 0x0a])]);
    const path = await put(dir, 'bom-stray.csv', body);
    await expect(scanSheet(path)).rejects.toThrow(/ on line 3 that are not UTF-8/);
  });

  it('still reads a Windows-1252 sheet whose bytes happen to pair like UTF-8 once', async () => {
    // "CAFÉ" and a non-breaking space are C9 A0: a valid UTF-8 pair (U+0260) by accident.
    const text = 'name;city\nCAFÉ\u00a0DE KLOK;Liège\nCrème brûlée;Mons\nHôtel;Gent\n';
    const path = await put(dir, 'cp1252-pair.csv', iconv.encode(text, 'win1252'));
    expect(await scanSheet(path)).toMatchObject({ encoding: 'windows-1252', head: text });
  });

  it('still reads the sample sheet as Windows-1252', async () => {
    expect((await scanSheet(join(ROOT, 'samples', 'orders.csv'))).encoding).toBe('windows-1252');
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
