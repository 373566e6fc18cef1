/**
 * `connections` in the config file (docs/design.md §2 "Connections"): each entry checked, with a
 * one-line error naming the entry and its field; names and inboxes checked against each other.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { parseConnections } from '../../src/settings/connections.js';
import { loadSettings } from '../../src/settings/load.js';
import { put, tempDir } from '../helpers/files.js';
import { knownError } from '../helpers/known-error.js';

const configDir = '/etc/order-importer';
const gent = { name: 'gent', apiBaseUrl: 'https://api.example.be', tokenFile: 'gent.token' };
const brugge = { name: 'brugge', apiBaseUrl: 'https://api.example.be', tokenFile: 'b.token' };

function parse(value: unknown) {
  return parseConnections(value, configDir);
}

function refusal(value: unknown): string {
  try {
    parse(value);
  } catch (error) {
    expect(error).toEqual(knownError('UserError', 'connections.invalid'));
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('not refused');
}

describe('parseConnections', () => {
  it('is empty when the config file has none', () => {
    expect(parse(undefined)).toEqual([]);
  });

  it('resolves tokenFile and mapping against the config file’s folder, inbox defaulting to the name', () => {
    expect(parse([{ ...gent, mapping: 'maps/gent.json' }])).toEqual([
      {
        name: 'gent',
        apiBaseUrl: 'https://api.example.be',
        tokenFile: join(configDir, 'gent.token'),
        inbox: 'gent',
        mapping: join(configDir, 'maps/gent.json'),
      },
    ]);
  });

  it('keeps absolute token and mapping paths as they are', () => {
    const [c] = parse([{ ...gent, tokenFile: '/run/secrets/gent', mapping: '/srv/gent.json' }]);
    expect(c?.tokenFile).toBe('/run/secrets/gent');
    expect(c?.mapping).toBe('/srv/gent.json');
  });

  it('has no mapping when none is given', () => {
    expect(parse([gent])[0]).not.toHaveProperty('mapping');
  });

  it('normalises the API URL as API_BASE_URL is', () => {
    const [c] = parse([{ ...gent, apiBaseUrl: ' HTTPS://API.Example.BE:443/v1/ ' }]);
    expect(c?.apiBaseUrl).toBe('https://api.example.be/v1');
  });

  it('takes an inbox of its own, nested folders too, without a trailing slash', () => {
    expect(parse([{ ...gent, inbox: 'oost/gent/' }])[0]?.inbox).toBe('oost/gent');
  });

  it('takes two offices on the same API with their own tokens', () => {
    expect(parse([gent, brugge]).map((c) => [c.name, c.inbox])).toEqual([
      ['gent', 'gent'],
      ['brugge', 'brugge'],
    ]);
  });

  it.each([
    [{}, /^must be a list of connections$/],
    ['gent', /^must be a list of connections$/],
    [[], /^must not be empty/],
    [['gent'], /^entry 1: must be an object like/],
    [[null], /^entry 1: must be an object like/],
  ])('refuses %j', (value, message) => {
    expect(refusal(value)).toMatch(message);
  });

  it.each([
    [{ apiBaseUrl: gent.apiBaseUrl, tokenFile: 't' }, /^entry 1: name is required$/],
    [{ ...gent, name: '' }, /^entry 1 \(""\): name must be 1 to 64 letters/],
    [{ ...gent, name: 'ge nt' }, /name must be 1 to 64 letters, digits/],
    [{ ...gent, name: '../gent' }, /name must be 1 to 64/],
    [{ ...gent, name: '.hidden' }, /name must be 1 to 64/],
    [{ ...gent, name: 'gent.' }, /name must be 1 to 64/],
    [{ ...gent, name: 'a/b' }, /name must be 1 to 64/],
    [{ ...gent, name: 'x'.repeat(65) }, /name must be 1 to 64/],
    [{ ...gent, name: 'NUL' }, /name must not be "NUL", a name Windows keeps/],
    [{ ...gent, name: 'com1' }, /a name Windows keeps for devices/],
    [{ ...gent, name: 42 }, /name must be text/],
    [{ ...gent, name: 'default' }, /name must not be "default": reports name the connection of/],
    [{ ...gent, name: 'Sandbox' }, /name must not be "Sandbox"/],
  ])('refuses the name of %j', (entry, message) => {
    expect(refusal([entry])).toMatch(message);
  });

  it.each([
    [{ name: 'gent', tokenFile: 't' }, /^entry 1 \("gent"\): apiBaseUrl is required$/],
    [{ ...gent, apiBaseUrl: 'api.example.be' }, /apiBaseUrl is not a URL/],
    [{ ...gent, apiBaseUrl: 'ftp://api.example.be' }, /apiBaseUrl must be an http/],
    [{ ...gent, apiBaseUrl: 'https://api.example.be/?x=1' }, /apiBaseUrl must not hold a query/],
    [{ ...gent, apiBaseUrl: 42 }, /apiBaseUrl must be text/],
  ])('refuses the URL of %j', (entry, message) => {
    expect(refusal([entry])).toMatch(message);
  });

  it('refuses a URL holding credentials, and does not repeat them', () => {
    const message = refusal([{ ...gent, apiBaseUrl: 'https://agent:s3cret@api.example.be' }]);
    expect(message).toMatch(/apiBaseUrl must not hold a user name or password .*tokenFile/);
    expect(message).not.toContain('s3cret');
  });

  it.each([
    [{ name: 'gent', apiBaseUrl: gent.apiBaseUrl }, /^entry 1 \("gent"\): tokenFile is required$/],
    [{ ...gent, tokenFile: ' ' }, /tokenFile must not be empty/],
    [{ ...gent, mapping: '' }, /mapping must not be empty/],
  ])('refuses the files of %j', (entry, message) => {
    expect(refusal([entry])).toMatch(message);
  });

  it('refuses a token written in the config file, pointing at tokenFile, without repeating it', () => {
    const message = refusal([{ ...gent, token: 'secret-token-123' }]);
    expect(message).toMatch(/^entry 1 \("gent"\): "token" is not taken here: .*"tokenFile"/);
    expect(message).not.toContain('secret-token-123');
  });

  it('takes an office’s calendar feed key, as long as a generated one and fit for a URL', () => {
    const key = 'Abc_-0123456789abcdefgh';
    expect(parse([{ ...gent, calendarKey: key }])[0]?.calendarKey).toBe(key);
    expect(parse([gent])[0]).not.toHaveProperty('calendarKey');
    expect(refusal([{ ...gent, calendarKey: 'short' }])).toMatch(
      /^entry 1 \("gent"\): calendarKey /,
    );
    expect(refusal([{ ...gent, calendarKey: `${key}&x=1` }])).toMatch(
      /calendarKey must be 22 to 200/,
    );
  });

  it('takes an office’s own language, and only one the importer speaks', () => {
    expect(parse([{ ...gent, language: 'nl' }])[0]?.language).toBe('nl');
    expect(parse([gent])[0]).not.toHaveProperty('language');
    expect(refusal([{ ...gent, language: 'de' }])).toMatch(/^entry 1 \("gent"\): language /);
  });

  it('refuses a field it does not know, naming the known ones', () => {
    expect(refusal([{ ...gent, inboxDir: 'x' }])).toMatch(
      /^entry 1 \("gent"\): unknown field "inboxDir"; known: name, apiBaseUrl, tokenFile, inbox, mapping, language, notify, calendarKey$/,
    );
  });

  it.each([
    ['../outside', /inbox must stay inside INBOX_DIR/],
    ['gent/../../x', /inbox must stay inside INBOX_DIR/],
    ['./gent', /inbox must stay inside INBOX_DIR/],
    ['/srv/inbox', /inbox must be a subfolder of INBOX_DIR, not an absolute path/],
    ['C:/inbox', /not an absolute path/],
    ['oost\\gent', /inbox must use "\/" between folders/],
    ['oost//gent', /inbox "" must be 1 to 64/],
    ['', /inbox "" must be 1 to 64/],
    ['we st', /inbox "we st" must be 1 to 64/],
    ['aux', /inbox "aux" must not be "aux"/],
  ])('refuses the inbox %j', (inbox, message) => {
    expect(refusal([{ ...gent, inbox }])).toMatch(message);
  });

  it('names the entry that is wrong, by its place and name', () => {
    expect(refusal([gent, { ...brugge, apiBaseUrl: 'nope' }])).toMatch(
      /^entry 2 \("brugge"\): apiBaseUrl /,
    );
  });

  it.each([
    [[gent, { ...brugge, name: 'gent' }], /^the name "gent" is given to two connections$/],
    [[gent, { ...brugge, name: 'Gent' }], /the name "Gent" is given to two connections/],
    [[gent, { ...brugge, inbox: 'gent' }], /"gent" and "brugge" have the same inbox "gent"/],
    [[gent, { ...brugge, inbox: 'GENT' }], /have the same inbox/],
    [[gent, { ...brugge, inbox: 'gent/brugge' }], /lie one inside the other/],
    [
      [
        { ...gent, inbox: 'west/gent' },
        { ...brugge, inbox: 'west' },
      ],
      /lie one inside the other/,
    ],
  ])('refuses connections that clash: %#', (value, message) => {
    expect(refusal(value)).toMatch(message);
  });

  it('takes inboxes that only share the start of a name', () => {
    expect(
      parse([
        { ...gent, inbox: 'gent' },
        { ...brugge, inbox: 'gent2' },
      ]),
    ).toHaveLength(2);
  });
});

describe('connections in loadSettings', () => {
  it('reads them from the config file, its paths against its own folder', async () => {
    const cwd = await tempDir('settings-connections-');
    const configFile = await put(
      cwd,
      'conf/importer.json',
      JSON.stringify({ connections: [{ ...gent, mapping: 'gent.json' }, brugge] }),
    );
    const settings = await loadSettings({ cwd, configFile });
    expect(settings.connections.map((c) => [c.name, c.tokenFile, c.mapping])).toEqual([
      ['gent', join(cwd, 'conf', 'gent.token'), join(cwd, 'conf', 'gent.json')],
      ['brugge', join(cwd, 'conf', 'b.token'), undefined],
    ]);
  });

  it('has none without a config file', async () => {
    expect((await loadSettings({ cwd: await tempDir('settings-none-') })).connections).toEqual([]);
  });

  it('says where a bad entry is, in one line', async () => {
    const cwd = await tempDir('settings-connections-');
    const configFile = await put(
      cwd,
      'c.json',
      JSON.stringify({ connections: [gent, { ...brugge, inbox: '../x' }] }),
    );
    await expect(loadSettings({ cwd, configFile })).rejects.toThrow(
      /^"connections" in .*c\.json: entry 2 \("brugge"\): inbox must stay inside INBOX_DIR \(no "\." or "\.\."\)\.$/,
    );
  });

  it.each([
    [{ API_BASE_URL: 'https://api.example.be' }, /^API_BASE_URL is set, and .* has "connections"/],
    [{ API_TOKEN: 'x' }, /^API_TOKEN is set, and .* has "connections"/],
    [{ API_TOKEN_FILE: 't' }, /^API_TOKEN_FILE is set/],
  ])('refuses %j beside connections: a second, unnamed connection', async (env, message) => {
    const cwd = await tempDir('settings-connections-');
    const configFile = await put(cwd, 'c.json', JSON.stringify({ connections: [gent] }));
    await expect(loadSettings({ cwd, configFile, env })).rejects.toThrow(message);
  });

  it('gives a schedule to the only connection, or to the one it names', async () => {
    const cwd = await tempDir('settings-connections-');
    const one = await put(
      cwd,
      'one.json',
      JSON.stringify({
        connections: [gent],
        schedules: [{ name: 'n', cron: '0 2 * * *', dir: 'share' }],
      }),
    );
    expect((await loadSettings({ cwd, configFile: one })).schedules[0]?.connection).toBeUndefined();
    const two = await put(
      cwd,
      'two.json',
      JSON.stringify({
        connections: [gent, brugge],
        schedules: [{ name: 'n', cron: '0 2 * * *', dir: 'share', connection: 'brugge' }],
      }),
    );
    expect((await loadSettings({ cwd, configFile: two })).schedules[0]?.connection).toBe('brugge');
  });

  it.each([
    [
      { connections: [gent, brugge], schedules: [{ name: 'n', cron: '* * * * *', dir: 'd' }] },
      /"n" must name its "connection" \(one of gent, brugge\)/,
    ],
    [
      {
        connections: [gent],
        schedules: [{ name: 'n', cron: '* * * * *', dir: 'd', connection: 'gnet' }],
      },
      /"n" names the connection "gnet", which is not one of gent/,
    ],
    [
      { schedules: [{ name: 'n', cron: '* * * * *', dir: 'd', connection: 'gent' }] },
      /but there are no "connections"/,
    ],
  ])('refuses a schedule whose connection is unclear: %#', async (config, message) => {
    const cwd = await tempDir('settings-connections-');
    const configFile = await put(cwd, 'c.json', JSON.stringify(config));
    await expect(loadSettings({ cwd, configFile })).rejects.toThrow(message);
  });

  it.each([
    ['the inbox itself', 'data/inbox'],
    ["another office's inbox", 'data/inbox/brugge'],
    ["a folder in another office's inbox", 'data/inbox/brugge/nightly/'],
    ['the data folder', 'data'],
  ])('refuses a schedule of one office that scans %s', async (_, dir) => {
    const cwd = await tempDir('settings-connections-');
    const configFile = await put(
      cwd,
      'c.json',
      JSON.stringify({
        connections: [gent, brugge],
        schedules: [{ name: 'nightly', cron: '0 2 * * *', dir, connection: 'gent' }],
      }),
    );
    await expect(loadSettings({ cwd, configFile, env: { DATA_DIR: 'data' } })).rejects.toThrow(
      `"nightly" scans ${join(cwd, dir).replace(/\/$/, '')} for connection "gent", and the inbox of "brugge" (${join(cwd, 'data/inbox/brugge')}) is there too`,
    );
  });

  it('takes a schedule of its own inbox, or of a folder outside the inbox', async () => {
    const cwd = await tempDir('settings-connections-');
    const schedules = [
      { name: 'own', cron: '0 2 * * *', dir: 'data/inbox/gent/nightly', connection: 'gent' },
      { name: 'share', cron: '0 2 * * *', dir: '/mnt/share/brugge', connection: 'brugge' },
      { name: 'lookalike', cron: '0 2 * * *', dir: 'data/inbox/brugge2', connection: 'gent' },
    ];
    const configFile = await put(
      cwd,
      'c.json',
      JSON.stringify({ connections: [gent, brugge], schedules }),
    );
    const settings = await loadSettings({ cwd, configFile, env: { DATA_DIR: 'data' } });
    expect(settings.schedules.map((s) => s.name)).toEqual(['own', 'share', 'lookalike']);
  });
});
