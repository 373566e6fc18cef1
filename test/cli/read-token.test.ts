import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { readToken } from '../../src/cli/api-connection.js';
import { loadSettings } from '../../src/settings/load.js';
import { put, tempDir } from '../helpers/files.js';

const cwd = await tempDir('token-');
const settingsWith = (env: Record<string, string>) =>
  loadSettings({ cwd, env: { API_BASE_URL: 'https://api.example.be', ...env } });

describe('readToken', () => {
  it.each(['tokA', ' tokA ', 'Bearer tokA', 'bearer  tokA'])(
    'reads API_TOKEN %j as the one token tokA (one connection, one ledger)',
    async (given) => {
      expect(await readToken(await settingsWith({ API_TOKEN: given }))).toBe('tokA');
    },
  );

  it('reads API_TOKEN_FILE the same way, line end and "Bearer " left out', async () => {
    const file = await put(cwd, 'token.txt', 'Bearer tokA\r\n');
    expect(await readToken(await settingsWith({ API_TOKEN_FILE: join(cwd, 'token.txt') }))).toBe(
      'tokA',
    );
    expect(file).toContain('token.txt');
  });
});
