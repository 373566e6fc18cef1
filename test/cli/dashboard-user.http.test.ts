/**
 * `order-importer dashboard-user NAME [--offices …]`, run in process with the password piped
 * in: it writes the users file (created, mode 0600, an entry replaced in place), says what it did
 * in the process's language, refuses with one line what it cannot do, and the file it writes lets
 * its users into a real dashboard over HTTP.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { verifyPassword } from '../../src/dashboard/password.js';
import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { readUsersFile } from '../../src/dashboard/users.js';
import { createLogger } from '../../src/logger.js';
import { InProcessCli, ROOT, runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await tempDir('dashboard-user-');
  file = join(dir, 'conf', 'users.json');
});

function run(args: string[], password: string | undefined, env: NodeJS.ProcessEnv = {}) {
  return new InProcessCli(
    ['dashboard-user', ...args],
    { DASHBOARD_USERS_FILE: file, ...env },
    ROOT,
    password === undefined ? {} : { stdin: password },
  ).finished;
}

interface Entry {
  user: string;
  password: string;
  offices: string[] | '*';
}

const entries = async () => JSON.parse(await readFile(file, 'utf8')) as Entry[];

describe('dashboard-user', () => {
  it('creates the users file, readable by its owner only, with the hash of the piped password', async () => {
    const done = await run(['gent', '--offices', 'gent, antwerpen'], 'geheim-genoeg\n');
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toBe(`Added dashboard user gent in ${file}: sees gent and antwerpen.\n`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const [entry, ...rest] = await entries();
    expect(rest).toEqual([]);
    expect(entry?.user).toBe('gent');
    expect(entry?.offices).toEqual(['gent', 'antwerpen']);
    expect(entry?.password).toMatch(/^scrypt\$/);
    expect(await verifyPassword('geheim-genoeg', entry?.password ?? '')).toBe(true);
  });

  it('replaces a user in place, keeping their offices when none are given, and says so in Dutch', async () => {
    await run(['ops', '--offices', '*'], 'eerste-wachtwoord');
    await run(['gent', '--offices', 'gent'], 'gent-wachtwoord');
    const done = await run(['ops'], 'tweede-wachtwoord\n', { LANGUAGE: 'nl' });
    expect(done.code).toBe(0);
    expect(done.stdout).toBe(
      `Dashboardgebruiker ops gewijzigd in ${file}: ziet alle kantoren, /queues en /metrics.\n`,
    );
    const [ops, gent] = await entries();
    expect(ops?.user).toBe('ops');
    expect(ops?.offices).toBe('*');
    expect(await verifyPassword('tweede-wachtwoord', ops?.password ?? '')).toBe(true);
    expect(gent?.user).toBe('gent');
  });

  it.each([
    ['a new user without --offices', ['gent'], 'lang-genoeg', /is new: say which offices/],
    ['an empty office', ['gent', '--offices', 'gent,,'], 'lang-genoeg', /--offices gent,,: give/],
    ['a name with a colon', ['a:b', '--offices', '*'], 'lang-genoeg', /user name a:b/],
    ['no password', ['gent', '--offices', '*'], '', /no password was given/],
    ['a short password', ['gent', '--offices', '*'], 'kort', /at least 8 characters/],
  ])('refuses %s in one line, writing nothing', async (_, args, password, said) => {
    const done = await run(args, password);
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(said);
    expect(done.stderr.trim().split('\n')).toHaveLength(1);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  it('says which setting it needs when DASHBOARD_USERS_FILE is not set', async () => {
    const done = await runInProcess(['dashboard-user', 'gent', '--offices', '*']);
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(
      /^order-importer: order-importer dashboard-user writes into DASHBOARD_USERS_FILE/,
    );
  });

  it('leaves a users file it cannot read as it was, saying why in one line', async () => {
    const broken = await put(dir, 'users.json', '[{"user": "gent"}]');
    file = broken;
    const done = await run(['gent', '--offices', 'gent'], 'lang-genoeg');
    expect(done.code).toBe(1);
    expect(done.stderr).toBe(
      `order-importer: DASHBOARD_USERS_FILE ${broken}, entry 1: must be an object with "user", "password" and "offices", nothing else.\n`,
    );
    expect(await readFile(broken, 'utf8')).toBe('[{"user": "gent"}]');
  });

  it('explains itself in --help, in French too', async () => {
    const english = await runInProcess(['dashboard-user', '--help']);
    expect(english.stdout).toMatch(/Usage: order-importer dashboard-user \[options\] <name>/);
    expect(english.stdout).toMatch(/--offices <list>/);
    const french = await runInProcess(['dashboard-user', '--help'], { LANGUAGE: 'fr' });
    expect(french.stdout).toMatch(/Ajouter un utilisateur du tableau de bord/);
    expect(french.stdout).toMatch(/les bureaux que l’utilisateur voit/);
  });
});

describe('the users file it writes', () => {
  let dashboard: RunningDashboard | undefined;
  afterEach(async () => {
    await dashboard?.close();
    dashboard = undefined;
  });

  it('lets its users into the dashboard, and no wrong password', async () => {
    expect((await run(['gent', '--offices', 'gent'], 'gent-wachtwoord')).code).toBe(0);
    dashboard = await startDashboard({
      host: '127.0.0.1',
      port: 0,
      users: await readUsersFile(file),
      overview: () => Promise.resolve([]),
      health: () => Promise.resolve({ redis: true, api: null }),
      queues: [],
      logger: createLogger({ level: 'silent' }),
    });
    const as = (password: string) =>
      fetch(`${dashboard?.url ?? ''}/`, {
        headers: { authorization: `Basic ${Buffer.from(`gent:${password}`).toString('base64')}` },
      });
    expect((await as('gent-wachtwoord')).status).toBe(200);
    expect((await as('gent-wachtwoord2')).status).toBe(401);
  });
});
