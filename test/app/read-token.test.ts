import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { connectApi, readToken } from '../../src/app/api-connection.js';
import { UserError } from '../../src/errors.js';
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

  it.each([
    ['API_TOKEN_FILE', 'T1\r\nX\r\n', /^API_TOKEN_FILE \S+ holds a line break inside the token/],
    ['API_TOKEN_FILE', 'T1\nX', /^API_TOKEN_FILE \S+ holds a line break inside the token/],
    ['API_TOKEN', 'T1\r\nX', /^API_TOKEN holds a line break inside the token/],
    [
      'API_TOKEN',
      'T1\u0007X',
      /^API_TOKEN holds a character a request header cannot carry \(U\+0007\)/,
    ],
    ['API_TOKEN_FILE', 'T1\u0000X', /holds a character a request header cannot carry \(U\+0000\)/],
  ])('refuses %s holding %j at once, as a bad setting (exit 1)', async (name, value, said) => {
    const env: Record<string, string> =
      name === 'API_TOKEN'
        ? { API_TOKEN: value }
        : { API_TOKEN_FILE: await put(cwd, 'bad.txt', value) };
    const refused = await readToken(await settingsWith(env)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as UserError).message).toMatch(said);
    expect((refused as UserError).message).toMatch(/keep the token alone on one line/);
    expect((refused as UserError).exitCode).toBe(1);
  });

  it("refuses a connection's tokenFile with a line break inside the token, naming the connection", async () => {
    const tokenFile = await put(cwd, 'gent.token', 'T1\r\nX');
    const settings = await settingsWith({});
    const refused = await connectApi(settings, () => undefined, {
      name: 'gent',
      apiBaseUrl: 'https://api.example.be',
      tokenFile,
      inbox: 'gent',
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as Error).message).toMatch(
      /^The token file of connection "gent" \(.*gent\.token\) holds a line break inside the token/,
    );
  });
});
