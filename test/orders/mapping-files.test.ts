import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { fieldOf } from '../../src/orders/columns.js';
import {
  checkMappingSources,
  isMappingFile,
  MAX_MAPPING_BYTES,
  resolveMapping,
} from '../../src/orders/mapping-files.js';
import { put, tempDir } from '../helpers/files.js';
import { knownError } from '../helpers/known-error.js';

const root = await tempDir('mapping-files-');
const flag = await put(root, 'flag.json', JSON.stringify({ Kolom: 'city' }));
const connection = await put(root, 'connection.json', JSON.stringify({ Kolom: 'remark' }));
const config = await put(root, 'config.json', JSON.stringify({ columns: { Kolom: 'address1' } }));
const beside = join(root, 'sheets');
await put(beside, 'mapping.json', JSON.stringify({ columns: { Kolom: 'postal_code' } }));
const bare = join(root, 'bare');
await mkdir(bare);

async function fieldFrom(sources: Parameters<typeof resolveMapping>[0], folder?: string) {
  const mapping = await resolveMapping(sources, folder);
  return mapping && { kind: mapping.source.kind, field: fieldOf('Kolom', mapping.columns) };
}

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toEqual(knownError('UserError', 'mapping.invalid'));
  return (error as Error).message;
}

describe('resolveMapping', () => {
  it('takes --mapping first, then the mapping.json beside the sheet, the connection’s, the config file’s', async () => {
    const all = { flag, connection, config };
    expect(await fieldFrom(all, beside)).toEqual({ kind: 'flag', field: 'city' });
    expect(await fieldFrom({ connection, config }, beside)).toEqual({
      kind: 'beside',
      field: 'postal_code',
    });
    expect(await fieldFrom({ connection, config }, bare)).toEqual({
      kind: 'connection',
      field: 'remark',
    });
    expect(await fieldFrom({ config }, bare)).toEqual({ kind: 'config', field: 'address1' });
    expect(await resolveMapping({}, bare)).toBeUndefined();
    expect(await resolveMapping({}, join(root, 'not-there'))).toBeUndefined();
  });

  it('names where the mapping beside the sheet is', async () => {
    const mapping = await resolveMapping({ config }, beside);
    expect(mapping?.source).toEqual({ kind: 'beside', file: join(beside, 'mapping.json') });
  });

  it('finds Mapping.json in any case, and refuses two of them', async () => {
    const dir = join(root, 'cased');
    await put(dir, 'MAPPING.JSON', JSON.stringify({ Kolom: 'city' }));
    expect(await fieldFrom({}, dir)).toEqual({ kind: 'beside', field: 'city' });
    await put(dir, 'mapping.json', JSON.stringify({ Kolom: 'remark' }));
    expect(await refusal(resolveMapping({}, dir))).toMatch(
      /the folder has "(MAPPING\.JSON|mapping\.json)" and "(MAPPING\.JSON|mapping\.json)"; keep one of them/,
    );
  });

  it('never skips a mapping that cannot be used for the next one', async () => {
    const dir = join(root, 'broken');
    await put(dir, 'mapping.json', '{ "Straat": "address1", ');
    const message = await refusal(resolveMapping({ config }, dir));
    expect(message).toMatch(
      new RegExp(`^Mapping ${join(dir, 'mapping.json')} is not valid JSON: .*A mapping looks like`),
    );
  });

  it('reads a mapping with a byte-order mark, or in Windows-1252', async () => {
    const dir = join(root, 'encodings');
    await put(
      dir,
      'mapping.json',
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(JSON.stringify({ Localité: 'city' })),
      ]),
    );
    expect(fieldOf('Localité', (await resolveMapping({}, dir))?.columns)).toBe('city');
    const ansi = await put(
      root,
      'ansi.json',
      Buffer.from('{ "values": { "contact_language": { "Français": "fr" } } }', 'latin1'),
    );
    const mapping = await resolveMapping({ flag: ansi }, undefined);
    expect(mapping?.values.get('contact_language')?.get('français')).toBe('fr');
  });

  it('refuses a mapping.json beside the sheet that is a link, or a folder', async () => {
    const linked = join(root, 'linked');
    await mkdir(linked);
    await symlink(flag, join(linked, 'mapping.json'));
    expect(await refusal(resolveMapping({}, linked))).toMatch(
      /mapping\.json cannot be read: it is a symbolic link, and a mapping beside a sheet is never read through one/,
    );
    const folder = join(root, 'folder');
    await mkdir(join(folder, 'mapping.json'), { recursive: true });
    expect(await refusal(resolveMapping({}, folder))).toMatch(/it is not a regular file/);
  });

  it('refuses a file too big to be a mapping', async () => {
    const big = await put(root, 'big.json', `{"a":"${'x'.repeat(MAX_MAPPING_BYTES)}"}`);
    expect(await refusal(resolveMapping({ flag: big }, undefined))).toMatch(
      /is over 64 KB, which no mapping needs/,
    );
    const dir = join(root, 'big');
    await put(dir, 'mapping.json', `{"a":"${'x'.repeat(MAX_MAPPING_BYTES)}"}`);
    expect(await refusal(resolveMapping({}, dir))).toMatch(/is over 64 KB/);
  });

  it('refuses a mapping.json of 500 KB: each sheet beside it would carry it in its record', async () => {
    // 200 small sheets beside one such file held 100 MB in Redis, read whole by every look
    // at the imports (the overview, the search, a sheet's progress).
    const columns = Object.fromEntries(
      Array.from({ length: 12_000 }, (_, i) => [`Kolom ${i} ${'x'.repeat(20)}`, 'remark']),
    );
    const dir = join(root, 'wide');
    await put(dir, 'mapping.json', JSON.stringify({ columns }));
    expect(await refusal(resolveMapping({}, dir))).toMatch(/is over 64 KB/);
  });

  it.each([
    ['lists', `${'['.repeat(30_000)}${']'.repeat(30_000)}`],
    ['objects under "columns"', `{"columns":${'{"a":'.repeat(6000)}1${'}'.repeat(6001)}`],
  ])('refuses %s nested deep with a plain error naming the file', async (_shape, text) => {
    const deep = await put(root, 'deep.json', text);
    expect(await refusal(resolveMapping({ flag: deep }, undefined))).toMatch(
      /^Mapping .*deep\.json nests objects or lists more than 64 levels deep;/,
    );
  });
});

describe('checkMappingSources', () => {
  it('reads every mapping file a command was given, and names one that is missing', async () => {
    await expect(checkMappingSources({ flag, connection, config })).resolves.toBeUndefined();
    expect(await refusal(checkMappingSources({ config: join(root, 'nowhere.json') }))).toMatch(
      /^Mapping .*nowhere\.json cannot be read: ENOENT/,
    );
    expect(await refusal(checkMappingSources({ flag: root }))).toMatch(/is not a file/);
  });
});

describe('isMappingFile', () => {
  it.each([
    ['mapping.json', true],
    ['/inbox/gent/Mapping.JSON', true],
    ['orders.json', false],
    ['mapping.json.csv', false],
    ['my-mapping.json', false],
  ])('%j → %j', (path, is) => {
    expect(isMappingFile(path)).toBe(is);
  });
});
