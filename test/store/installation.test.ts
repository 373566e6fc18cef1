import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { INSTALLATION_FILE, installationOf } from '../../src/store/installation.js';
import { tempDir } from '../helpers/files.js';

describe('installationOf', () => {
  it('writes a marker the first time and reads the same one after', async () => {
    const dir = join(await tempDir('inst-'), 'data');
    const first = await installationOf(dir, () => Date.UTC(2026, 10, 27));
    expect(first.created).toBe(true);
    expect(first.id).toMatch(/^[0-9a-f]{16}$/);
    expect(first.createdAt).toBe('2026-11-27T00:00:00.000Z');
    const again = await installationOf(dir);
    expect(again).toEqual({ ...first, created: false });
    expect(JSON.parse(await readFile(join(dir, INSTALLATION_FILE), 'utf8'))).toEqual({
      id: first.id,
      createdAt: first.createdAt,
    });
  });

  it('gives racing processes on a new folder one and the same marker', async () => {
    const dir = await tempDir('inst-');
    const all = await Promise.all(Array.from({ length: 8 }, () => installationOf(dir)));
    expect(new Set(all.map((one) => one.id)).size).toBe(1);
    expect(all.filter((one) => one.created)).toHaveLength(1);
  });

  it('refuses a damaged marker and a linked one, naming the file', async () => {
    const dir = await tempDir('inst-');
    await writeFile(join(dir, INSTALLATION_FILE), '{"id":"../../etc"}');
    await expect(installationOf(dir)).rejects.toThrow(/installation\.json is damaged/);
    const other = await tempDir('inst-');
    await writeFile(join(other, 'elsewhere.json'), '{"id":"0123456789abcdef","createdAt":"x"}');
    await symlink(join(other, 'elsewhere.json'), join(other, INSTALLATION_FILE));
    await expect(installationOf(other)).rejects.toThrow(/is a link/);
  });
});
