/**
 * The one line a command ends with, in the person's language: a known error that carries its
 * values is said from the catalogue, whose English is the message as thrown.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { errorMessage, errorMessageKey } from '../../src/cli/error-line.js';
import { KnownError, UserError } from '../../src/errors.js';
import { wordsFor } from '../../src/language/words.js';
import { loadSettings } from '../../src/settings/load.js';
import { runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';

async function thrown(work: () => Promise<unknown>): Promise<KnownError> {
  const error = await work().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof KnownError)) throw new Error(`no known error: ${String(error)}`);
  return error;
}

const settingsOf = (configFile: string | undefined, env: NodeJS.ProcessEnv = {}) =>
  thrown(() => loadSettings({ cwd: '/', env, ...(configFile !== undefined && { configFile }) }));

describe("the settings' errors", () => {
  it('carry their values: the English catalogue says the message, Dutch and French their own', async () => {
    const dir = await tempDir('error-line-');
    const cases = [
      await settingsOf(join(dir, 'none.json')),
      await settingsOf(await put(dir, 'broken.json', '{ "concurrency": 4,')),
      await settingsOf(await put(dir, 'list.json', '[1, 2]')),
      await settingsOf(await put(dir, 'unknown.json', '{ "concurrenzy": 4 }')),
      await settingsOf(await put(dir, 'low.json', '{ "concurrency": 0 }')),
      await settingsOf(undefined, { CONCURRENCY: 'many' }),
      await settingsOf(undefined, { LOG_LEVEL: 'loud' }),
    ];
    for (const error of cases) {
      const key = errorMessageKey(error);
      expect(key, error.message).toBeDefined();
      expect(error.values, error.message).toBeDefined();
      expect(wordsFor('en').t(key ?? 'cli.unexpected', error.values)).toBe(error.message);
      for (const language of ['nl', 'fr'] as const) {
        const said = errorMessage(error, wordsFor(language));
        expect(said).not.toBe(error.message);
        expect(said).not.toMatch(/[{}]/);
      }
    }
  });

  it('a setting out of range, in Dutch and French', async () => {
    const error = await settingsOf(undefined, { CONCURRENCY: '0' });
    expect(errorMessage(error, wordsFor('nl'))).toBe(
      'CONCURRENCY: moet meer dan 0 zijn (opgegeven: "0").',
    );
    expect(errorMessage(error, wordsFor('fr'))).toBe(
      'CONCURRENCY\u202f: doit valoir plus de 0 (reçu\u202f: "0").',
    );
  });

  it('an error without values yet is said in its English message', () => {
    const error = new UserError('mapping.invalid', 'Mapping m.json is not a file.');
    expect(errorMessage(error, wordsFor('nl'))).toBe('Mapping m.json is not a file.');
  });
});

describe('order-importer: the line, in the language of the command', () => {
  it('a sheet that does not exist, in Dutch from LANGUAGE', async () => {
    const finished = await runInProcess(['import', 'test/fixtures/none.csv'], { LANGUAGE: 'nl' });
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(/^order-importer: \/\S+\/none\.csv bestaat niet\.\n$/);
  });

  it('a config file that is not JSON, in French from --language', async () => {
    const dir = await tempDir('error-line-');
    const config = await put(dir, 'config.json', '{ "concurrency": ');
    const finished = await runInProcess([
      'import',
      '--language',
      'fr',
      '--config',
      config,
      'x.csv',
    ]);
    expect(finished.code).toBe(1);
    expect(finished.stderr).toContain('n’est pas du JSON valide');
  });

  it("a config file's own language says its mistakes", async () => {
    const dir = await tempDir('error-line-');
    const config = await put(dir, 'config.json', '{ "language": "nl", "concurrency": 0 }');
    const finished = await runInProcess(['validate', '--config', config, 'x.csv'], {
      LANG: 'fr_BE.UTF-8',
    });
    expect(finished.code).toBe(1);
    expect(finished.stderr).toBe(
      `order-importer: “concurrency” in ${config}: moet meer dan 0 zijn (opgegeven: 0).\n`,
    );
  });

  it('English as before', async () => {
    const finished = await runInProcess(['import', 'test/fixtures/none.csv']);
    expect(finished.stderr).toMatch(/^order-importer: \/\S+\/none\.csv does not exist\.\n$/);
  });
});
