/** The dashboard's users file read as hostile input: one clear line naming the file and entry. */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { errorMessage } from '../../src/cli/error-line.js';
import { UserError } from '../../src/errors.js';
import { readUsersFile } from '../../src/dashboard/users.js';
import { wordsFor } from '../../src/language/words.js';
import { put, tempDir } from '../helpers/files.js';

const HASH = `scrypt$16384$8$1$${Buffer.alloc(16, 1).toString('base64')}$${Buffer.alloc(32, 2).toString('base64')}`;

async function fileWith(text: string): Promise<string> {
  const dir = await tempDir('users-');
  await put(dir, 'users.json', text);
  return join(dir, 'users.json');
}

async function refusal(text: string): Promise<UserError> {
  const file = await fileWith(text);
  const error = await readUsersFile(file).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserError);
  const known = error as UserError;
  expect(known.key).toBe('dashboard.users-invalid');
  expect(known.message).toContain(file);
  expect(known.message).not.toContain('\n');
  return known;
}

describe('the users file', () => {
  it('reads each user with their offices, or every office for "*"', async () => {
    const file = await fileWith(
      JSON.stringify([
        { user: 'gent', password: HASH, offices: ['gent'] },
        { user: 'ops', password: HASH, offices: '*' },
      ]),
    );
    expect(await readUsersFile(file)).toEqual([
      { user: 'gent', password: HASH, offices: ['gent'] },
      { user: 'ops', password: HASH, offices: '*' },
    ]);
  });

  it.each([
    ['not JSON', '[{', /is not valid JSON/],
    ['not a list', '{"user":"gent"}', /must hold a JSON list of users/],
    ['an entry not an object', '[1]', /entry 1: must be an object/],
    [
      'an unknown field',
      `[{"user":"a","password":"${HASH}","offices":"*","admin":true}]`,
      /entry 1/,
    ],
    [
      'a user with a colon',
      `[{"user":"a:b","password":"${HASH}","offices":"*"}]`,
      /entry 1: "user"/,
    ],
    [
      'a plain password',
      '[{"user":"gent","password":"secret","offices":["gent"]}]',
      /entry 1 \(gent\): "password"/,
    ],
    [
      'an absurd cost',
      `[{"user":"gent","password":"${HASH.replace('16384', String(2 ** 30))}","offices":["gent"]}]`,
      /entry 1 \(gent\): "password".*power of two/,
    ],
    [
      'offices neither list nor *',
      `[{"user":"gent","password":"${HASH}","offices":"gent"}]`,
      /entry 1 \(gent\): "offices"/,
    ],
    ['an empty office', `[{"user":"gent","password":"${HASH}","offices":[""]}]`, /"offices"/],
    [
      'a user twice',
      `[{"user":"gent","password":"${HASH}","offices":"*"},{"user":"gent","password":"${HASH}","offices":"*"}]`,
      /entry 2 \(gent\): this user is already entry 1/,
    ],
  ])('refuses %s in one line naming the file and the entry', async (_, text, said) => {
    expect((await refusal(text)).message).toMatch(said);
  });

  it('refuses a file that is not there, naming it', async () => {
    const file = join(await tempDir('users-'), 'missing.json');
    await expect(readUsersFile(file)).rejects.toThrow(file);
  });

  it('says its refusal in Dutch and French too', async () => {
    const error = await refusal('[{"user":"gent","password":"secret","offices":["gent"]}]');
    for (const language of ['nl', 'fr'] as const) {
      const said = errorMessage(error, wordsFor(language));
      expect(said).not.toBe(error.message);
      expect(said).toContain('gent');
    }
  });
});
