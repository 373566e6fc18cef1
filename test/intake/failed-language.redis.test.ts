/**
 * An unreadable sheet is told in its office's language (docs/design.md "Language"): `watch` in
 * process over a real inbox, a real Redis under its own prefix and the sandbox over HTTP, with two
 * offices in the config file, one Dutch and one French, the process itself in English. Each one's
 * unreadable sheet goes to `failed/` with an `error.txt` in its language, and the list of sheets not
 * taken says why in the same words; the log stays English.
 */
import { readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Keys } from '../../src/store/keys.js';
import { NotTaken } from '../../src/store/not-taken.js';
import { InProcessCli } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { put, tempDir } from '../helpers/files.js';
import { type SmtpReceiver, smtpReceiver, subjectOf, textOf } from '../helpers/receivers.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

let redis: TestRedis;
let sandbox: TestSandbox;
let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await smtpReceiver();
  redis = await useTestRedis();
  sandbox = await testSandbox({
    tokens: [
      { token: 'token-gent', org: 'gent' },
      { token: 'token-liege', org: 'liege' },
    ],
  });
});
afterAll(async () => {
  await sandbox.close();
  await redis.cleanup();
  await smtp.close();
});

/** The error.txt of the sheet named `name` in failed/, once it is written. */
async function errorText(failedDir: string, name: string, cli: InProcessCli): Promise<string> {
  return eventually(
    async () => {
      const folders = await readdir(failedDir).catch(() => []);
      const folder = folders.find((f) => f.endsWith(`-${name}`));
      if (folder === undefined) return undefined;
      const text = await readFile(join(failedDir, folder, 'error.txt'), 'utf8').catch(() => '');
      return text === '' ? undefined : text;
    },
    () => `no error.txt for ${name}:\n${cli.stderr}`,
  );
}

describe('an unreadable sheet in its office’s language', () => {
  it('failed/…/error.txt and the not-taken list in Dutch for a Dutch office, French for a French one', async () => {
    const dir = await tempDir('offices-lang-');
    await put(dir, 'secrets/gent.token', 'token-gent\n');
    await put(dir, 'secrets/liege.token', 'token-liege\n');
    const config = await put(
      dir,
      'importer.json',
      JSON.stringify({
        connections: [
          {
            name: 'gent',
            apiBaseUrl: sandbox.url,
            tokenFile: 'secrets/gent.token',
            inbox: 'gent',
            language: 'nl',
          },
          {
            name: 'liege',
            apiBaseUrl: sandbox.url,
            tokenFile: 'secrets/liege.token',
            inbox: 'liege',
            language: 'fr',
          },
        ],
      }),
    );
    const dataDir = join(dir, 'data');
    const prefix = `{${redis.prefix}-lang}`;
    const cli = new InProcessCli(['watch', '--config', config, '--no-dashboard'], {
      REDIS_URL: redis.url,
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      INBOX_STABLE_MS: '300',
      JOB_LOCK_MS: '2000',
      LANGUAGE: 'en',
      LOG_FORMAT: 'json',
    });
    try {
      await cli.waitForStderr(/Watching /, 30_000);
      const inbox = join(dataDir, 'inbox');
      await put(join(inbox, 'gent'), 'leeg.csv', '\n;;;\n\n');
      await put(join(inbox, 'liege'), 'commandes.xlsx', 'adresse;ville\nRue Haute;Liège\n');
      await put(join(inbox, 'gent'), 'oud.xls', 'an old workbook');

      const failed = join(dataDir, 'failed');
      const dutch = await errorText(failed, 'leeg.csv', cli);
      expect(dutch).toBe(
        'leeg.csv kan niet gelezen worden; er werd dus geen enkele opdracht van aangemaakt:\n\n' +
          'de lijst heeft geen rij met kolomnamen: er staan alleen lege regels in.\n\n' +
          'Verbeter de lijst en zet ze opnieuw in de inbox.\n',
      );
      const french = await errorText(failed, 'commandes.xlsx', cli);
      expect(french).toBe(
        'La liste commandes.xlsx ne peut pas être lue\u202f; aucune commande n’en a donc été créée\u202f:\n\n' +
          'ce fichier n’est pas un classeur Excel (.xlsx)\u202f: ouvrez-le dans Excel et enregistrez-le à nouveau en .xlsx, ou enregistrez-le en CSV.\n\n' +
          'Corrigez la liste et déposez-la à nouveau dans le dossier inbox.\n',
      );

      const notTaken = await new NotTaken(redis.client, new Keys(prefix)).recent();
      const reason = (name: string) => notTaken.find((e) => e.path.endsWith(name))?.reason;
      expect(reason('leeg.csv')).toMatch(
        /^kan niet gelezen worden en werd daarom verplaatst naar \S+-leeg\.csv: de lijst heeft geen rij met kolomnamen/,
      );
      expect(reason('commandes.xlsx')).toMatch(
        /^ne peut pas être lu et a donc été déplacé vers \S+-commandes\.xlsx\u202f: ce fichier n’est pas un classeur Excel/,
      );
      const old = await eventually(
        async () =>
          (await new NotTaken(redis.client, new Keys(prefix)).recent()).find((e) =>
            e.path.endsWith('oud.xls'),
          )?.reason,
        () => 'oud.xls not in the list of sheets not taken',
      );
      expect(old).toBe(
        'oud.xls is een rekenbladformaat dat de importer niet leest (het bestand blijft waar het is): sla het op als .xlsx of als CSV (UTF-8) en zet dat bestand in de inbox.',
      );
      // What operators search stays English.
      expect(cli.stderr).toContain('the sheet has no header row: it holds only blank lines.');
    } finally {
      cli.stop('SIGTERM');
      const finished = await cli.finished;
      expect(finished.code, finished.stderr).toBe(0);
    }
  });
});

describe('a Dutch office watched by a French process', { timeout: 90_000 }, () => {
  it('hears its unreadable sheet’s reason in Dutch by e-mail; the terminal says what is not taken in French', async () => {
    const dir = await tempDir('office-process-lang-');
    await put(dir, 'secrets/gent.token', 'token-gent\n');
    const outside = await put(dir, 'elsewhere/orders.csv', 'street;city\n');
    const config = await put(
      dir,
      'importer.json',
      JSON.stringify({
        connections: [
          {
            name: 'gent',
            apiBaseUrl: sandbox.url,
            tokenFile: 'secrets/gent.token',
            inbox: 'gent',
            language: 'nl',
          },
        ],
      }),
    );
    const dataDir = join(dir, 'data');
    const cli = new InProcessCli(['watch', '--config', config, '--no-dashboard'], {
      REDIS_URL: redis.url,
      QUEUE_PREFIX: `{${redis.prefix}-office-process}`,
      DATA_DIR: dataDir,
      INBOX_STABLE_MS: '300',
      JOB_LOCK_MS: '2000',
      LANGUAGE: 'fr',
      NOTIFY_EMAIL_TO: 'kantoor@gent.test',
      NOTIFY_EMAIL_FROM: 'importer@gent.test',
      SMTP_URL: smtp.url,
    });
    try {
      await cli.waitForStderr(/Surveillance de /, 30_000);
      const inbox = join(dataDir, 'inbox', 'gent');
      await put(inbox, 'leeg.csv', '\n;;;\n\n');
      await put(inbox, 'oud.xls', 'an old workbook');
      await symlink(outside, join(inbox, 'gelinkt.csv'));

      // The e-mail is the office's: Dutch, its reason too.
      const mail = await eventually(
        () => smtp.mails.find((m) => subjectOf(m.raw).startsWith('leeg.csv')),
        () => 'no e-mail for leeg.csv',
      );
      expect(subjectOf(mail.raw)).toBe('leeg.csv kan niet gelezen worden');
      const text = textOf(mail.raw);
      expect(text).toContain(
        '  de lijst heeft geen rij met kolomnamen: er staan alleen lege regels in.',
      );
      expect(text).not.toContain('header row');
      // The terminal is the process's: French, for the workbook and the linked sheet alike.
      await cli.waitForStderr(/oud\.xls est dans un format de tableur/, 30_000);
      await cli.waitForStderr(/gelinkt\.csv est un lien symbolique/, 30_000);
      // Only the log's JSON lines stay English.
      const said = cli.stderr.split('\n').filter((line) => !line.startsWith('{'));
      expect(said.filter((line) => /spreadsheet format|symbolic link/.test(line))).toEqual([]);
    } finally {
      cli.stop('SIGTERM');
      const finished = await cli.finished;
      expect(finished.code, finished.stderr).toBe(0);
    }
  });
});
