/**
 * The errors a new user meets after the first: the config file's schedules, connections,
 * notifications and mapping, the chosen connection, the token file. Each carries its values:
 * the English catalogue says its message as thrown, Dutch and French their own.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { connectApi, readToken } from '../../src/app/api-connection.js';
import { chosenConnection } from '../../src/app/chosen-connection.js';
import {
  readCsvRecords,
  readReportedOrders,
  readReportedSheet,
} from '../../src/status/report-folder.js';
import type { KnownError } from '../../src/errors.js';
import { loadSettings, type Settings } from '../../src/settings/load.js';
import { runInProcess } from '../helpers/cli.js';
import { expectSaid, thrown } from '../helpers/error-said.js';
import { put, tempDir } from '../helpers/files.js';

const connection = (name: string, extra: object = {}) => ({
  name,
  apiBaseUrl: `https://${name}.example.test`,
  tokenFile: `${name}.token`,
  ...extra,
});

async function configError(config: object, env: NodeJS.ProcessEnv = {}): Promise<KnownError> {
  const dir = await tempDir('error-more-');
  const file = await put(dir, 'config.json', JSON.stringify(config));
  return thrown(() =>
    loadSettings({ cwd: dir, env: { DATA_DIR: join(dir, 'data'), ...env }, configFile: file }),
  );
}

describe("the config file's errors", () => {
  it('schedules, notifications, inboxes, the mapping: every one in Dutch and French', async () => {
    const two = [connection('gent'), connection('namur')];
    const cases = [
      await configError({ schedules: [{ name: 'x' }] }),
      await configError({ schedules: [{ name: 'nightly', cron: 'every night', dir: 'in' }] }),
      await configError({
        connections: two,
        schedules: [{ name: 'n', cron: '0 2 * * *', dir: 'in' }],
      }),
      await configError({
        schedules: [{ name: 'n', cron: '0 2 * * *', dir: 'in', connection: 'x' }],
      }),
      await configError({
        connections: two,
        schedules: [{ name: 'n', cron: '0 2 * * *', dir: 'in', connection: 'x' }],
      }),
      await configError({
        connections: two,
        schedules: [{ name: 'n', cron: '0 2 * * *', dir: 'data/inbox', connection: 'gent' }],
      }),
      await configError({ mapping: 42 }),
      await configError({}, { NOTIFY_EMAIL_TO: 'a@b.test' }),
      await configError({}, { NOTIFY_EMAIL_TO: 'a@b.test', SMTP_URL: 'smtp://x' }),
      await configError({}, { NOTIFY_WEBHOOK_SECRET: 's' }),
      await configError({ inboxDir: 'data' }),
      await configError({ connections: two }, { API_BASE_URL: 'https://x.test' }),
    ];
    for (const error of cases) expectSaid(error);
  });

  it('its connections: every one in Dutch and French', async () => {
    const cases = [
      await configError({ connections: {} }),
      await configError({ connections: [] }),
      await configError({ connections: [connection('gent', { token: 't' })] }),
      await configError({ connections: [connection('gent', { colour: 'red' })] }),
      await configError({ connections: [{ apiBaseUrl: 'https://x.test' }] }),
      await configError({ connections: [connection('gent'), connection('Gent')] }),
      await configError({
        connections: [connection('gent'), connection('namur', { inbox: 'gent' })],
      }),
      await configError({
        connections: [connection('gent'), connection('namur', { inbox: 'gent/namur' })],
      }),
    ];
    for (const error of cases) expectSaid(error);
  });

  it('half of the e-mail notifications, in Dutch and French', async () => {
    const said = expectSaid(await configError({}, { NOTIFY_EMAIL_TO: 'a@b.test' }));
    expect(said.nl).toBe(
      'NOTIFY_EMAIL_TO is ingesteld, maar NOTIFY_EMAIL_FROM en SMTP_URL niet: voor e-mailmeldingen moeten alle drie ingesteld zijn (NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM en SMTP_URL).',
    );
    expect(said.fr).toBe(
      'NOTIFY_EMAIL_TO est défini sans NOTIFY_EMAIL_FROM ni SMTP_URL\u202f: les notifications par e-mail nécessitent NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM et SMTP_URL. Définissez les trois, ou aucun.',
    );
  });

  it('two connections with one inbox, in Dutch', async () => {
    const error = await configError({
      connections: [connection('gent'), connection('namur', { inbox: 'gent' })],
    });
    expect(expectSaid(error).nl).toMatch(
      /^“connections” in \S+config\.json: “gent” en “namur” hebben dezelfde inbox “gent”: elk kantoor heeft een eigen inbox nodig\.$/,
    );
  });
});

describe('the chosen connection and its token', () => {
  const settings = (connections: object[], configFile?: string) =>
    ({ connections, ...(configFile !== undefined && { configFile }) }) as unknown as Settings;

  it('none chosen of several, none configured, an unknown one', async () => {
    const two = [connection('gent'), connection('namur')];
    expectSaid(await thrown(() => chosenConnection(settings(two), undefined)));
    expectSaid(await thrown(() => chosenConnection(settings([]), 'gent')));
    expectSaid(await thrown(() => chosenConnection(settings([], '/x/config.json'), 'gent')));
    const unknown = expectSaid(await thrown(() => chosenConnection(settings(two), 'brugge')));
    expect(unknown.fr).toBe(
      '--connection brugge\u202f: cette connexion n’existe pas dans le fichier de configuration, qui définit\u202f: gent, namur.',
    );
  });

  it('a token file that cannot be read, or is empty', async () => {
    const dir = await tempDir('token-');
    const empty = await put(dir, 'empty.token', '\n');
    expectSaid(await thrown(() => readToken({ apiTokenFile: join(dir, 'none') } as Settings)));
    const said = expectSaid(await thrown(() => readToken({ apiTokenFile: empty } as Settings)));
    expect(said.nl).toBe(`API_TOKEN_FILE ${empty} is leeg: zet het token erin.`);
    const ofGent = { ...connection('gent'), tokenFile: empty, inbox: 'gent' };
    const gent = expectSaid(
      await thrown(() => connectApi({} as Settings, () => undefined, ofGent)),
    );
    expect(gent.fr).toBe(
      `Le fichier de jeton de la connexion «\u202fgent\u202f» (${empty}) est vide\u202f: mettez-y le jeton de l’API.`,
    );
    expectSaid(
      await thrown(() =>
        connectApi({} as Settings, () => undefined, { ...ofGent, tokenFile: join(dir, 'none') }),
      ),
    );
  });
});

describe('through the CLI', () => {
  it('ledger with an action it does not know, in Dutch', async () => {
    const finished = await runInProcess(['ledger', 'clear'], { LANGUAGE: 'nl' });
    expect(finished.code).toBe(1);
    expect(finished.stderr).toBe(
      'order-importer: order-importer ledger clear bestaat niet: de enige mogelijkheid is `order-importer ledger rebuild`.\n',
    );
  });
});

describe("status's targets and the report folders it reads", () => {
  it('each said in Dutch and French', async () => {
    const dir = await tempDir('status-said-');
    const file = await put(dir, 'notes.txt', 'x');
    const empty = join(dir, 'empty');
    await put(empty, '.keep', '');
    const notJson = join(dir, 'not-json');
    await put(notJson, 'summary.json', '{');
    await put(notJson, 'report.csv', 'row\n');
    const foreign = join(dir, 'foreign');
    await put(foreign, 'summary.json', '{}');
    await put(foreign, 'report.csv', 'row\n');
    const cases = [
      await thrown(() => readReportedSheet(notJson)),
      await thrown(() => readReportedSheet(foreign)),
      await thrown(() => readReportedOrders(empty)),
      await thrown(() => readCsvRecords('a,"b\n', ',', `${dir}/report.csv`)),
    ];
    for (const error of cases) expectSaid(error);
    const env = { DATA_DIR: join(dir, 'data'), LANGUAGE: 'fr' };
    const said = async (target: string) => (await runInProcess(['status', target], env)).stderr;
    expect(await said(file)).toBe(
      `order-importer: ${file} n’est ni un dossier de rapport (un dossier contenant summary.json et report.csv), ni un identifiant de liste.\n`,
    );
    expect(await said(empty)).toContain('n’est pas un dossier de rapport\u202f:');
    expect(await said('a/b')).toBe('order-importer: a/b n’existe pas.\n');
    expect(await said('S1')).toMatch(/^order-importer: Aucun rapport de la liste S1 dans /);
  });
});
