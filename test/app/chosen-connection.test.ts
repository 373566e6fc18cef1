/** Which of the config file's connections `import` and `validate` use (`--connection NAME`). */
import { describe, expect, it } from 'vitest';

import { UserError } from '../../src/errors.js';
import { chosenConnection } from '../../src/app/chosen-connection.js';
import { loadSettings } from '../../src/settings/load.js';
import { put, tempDir } from '../helpers/files.js';

const cwd = await tempDir('chosen-');

async function settingsWith(names: string[]) {
  const connections = names.map((name) => ({
    name,
    apiBaseUrl: 'https://api.example.be',
    tokenFile: `${name}.token`,
  }));
  const configFile = await put(
    cwd,
    `${names.join('-') || 'none'}.json`,
    JSON.stringify({ connections }),
  );
  return loadSettings({ cwd, ...(names.length > 0 && { configFile }) });
}

function refusal(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('chosenConnection', () => {
  it('is none without connections: API_BASE_URL’s', async () => {
    expect(chosenConnection(await settingsWith([]), undefined)).toBeUndefined();
  });

  it('is the only one there is, named or not', async () => {
    const settings = await settingsWith(['gent']);
    expect(chosenConnection(settings, undefined)?.name).toBe('gent');
    expect(chosenConnection(settings, 'gent')?.name).toBe('gent');
  });

  it('is the one named among several', async () => {
    const settings = await settingsWith(['gent', 'brugge']);
    expect(chosenConnection(settings, 'brugge')?.name).toBe('brugge');
  });

  it('is not guessed among several', async () => {
    const settings = await settingsWith(['gent', 'brugge']);
    expect(refusal(() => chosenConnection(settings, undefined))).toBe(
      '--connection NAME is needed: the config file has several connections (gent, brugge).',
    );
  });

  it('refuses a name that is not there, listing those that are (case counts)', async () => {
    const settings = await settingsWith(['gent', 'brugge']);
    expect(refusal(() => chosenConnection(settings, 'Gent'))).toBe(
      "--connection Gent is not one of the config file's connections: gent, brugge.",
    );
  });

  it('refuses a name when there are no connections', async () => {
    const settings = await settingsWith([]);
    expect(refusal(() => chosenConnection(settings, 'gent'))).toMatch(
      /^--connection gent: there are no "connections" in a config file \(give one with --config FILE\)\.$/,
    );
  });
});
