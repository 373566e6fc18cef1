/** The settings' help lines, from the catalogue: English is the settings table's, word for word. */
import { describe, expect, it } from 'vitest';

import { heardInArgv, settingHelpIn } from '../../src/cli/help.js';
import { runInProcess } from '../helpers/cli.js';
import { CATALOGUES, type MessageKey, wordsFor } from '../../src/language/words.js';
import {
  SETTINGS,
  type SettingEntry,
  type SettingKey,
  settingHelp,
} from '../../src/settings/table.js';

const keys = Object.keys(SETTINGS) as SettingKey[];
const english: Readonly<Record<string, string>> = CATALOGUES.en;

describe('every setting’s help', () => {
  it('has its cli.help.setting.<key>, in English the table’s help', () => {
    const en = wordsFor('en');
    for (const key of keys) expect(en.t(`cli.help.setting.${key}`), key).toBe(SETTINGS[key].help);
  });

  it('reads in English as the table writes it, notes included', () => {
    for (const key of keys) expect(settingHelpIn(key, wordsFor('en')), key).toBe(settingHelp(key));
  });

  it('has a default said in words in the catalogue; a value (a path, a number) stays as it is', () => {
    for (const key of keys) {
      const shown = (SETTINGS[key] as SettingEntry).shownDefault;
      const said = english[`cli.help.default.${key}`];
      if (shown === undefined) expect(said, key).toBeUndefined();
      else if (said === undefined)
        expect(shown, key).toMatch(/^([A-Z_]+\/[a-z]+|[\w-]+\/[\w.]+|\d+M?)$/);
    }
  });

  it('in Dutch and French: the table’s flags and variables stay, the words do not', () => {
    for (const language of ['nl', 'fr'] as const) {
      const words = wordsFor(language);
      for (const key of keys) {
        const said = settingHelpIn(key, words);
        expect(said, key).not.toBe(settingHelp(key));
        const env = (SETTINGS[key] as SettingEntry).env;
        if (env !== undefined) expect(said, key).toContain(env);
      }
    }
    expect(settingHelpIn('concurrency', wordsFor('nl'))).toBe(
      'aantal rijen tegelijk in verwerking, per proces (variabele CONCURRENCY; standaard 8)',
    );
    expect(settingHelpIn('reportsDir', wordsFor('fr'))).toBe(
      'dossier des rapports (variable REPORTS_DIR\u202f; par défaut DATA_DIR/reports)',
    );
  });

  it('has no catalogue key of the help that names no setting', () => {
    const named = Object.keys(english).filter((key) => /^cli\.help\.(setting|default)\./.test(key));
    for (const key of named) expect(keys, key).toContain(key.split('.')[3]);
    expect(named.length).toBeGreaterThan(keys.length);
    const typed: MessageKey = `cli.help.setting.${keys[0] ?? 'concurrency'}`;
    expect(english[typed]).toBeDefined();
  });
});

describe('the language --help is read in, from the command line', () => {
  it('takes --language and --config, the last given, up to --', () => {
    const argv = (...args: string[]) => ['node', 'order-importer', ...args];
    expect(heardInArgv(argv('import', '--language', 'nl', '--help'))).toEqual({ language: 'nl' });
    expect(heardInArgv(argv('--language=fr', '--language', 'nl'))).toEqual({ language: 'nl' });
    expect(heardInArgv(argv('status', '--config', 'c.json'))).toEqual({ config: 'c.json' });
    expect(heardInArgv(argv('import', '--config=c.json', '--', '--language', 'nl'))).toEqual({
      config: 'c.json',
    });
    expect(heardInArgv(argv('import', '--language'))).toEqual({});
  });
});

describe('help wrapped in French', () => {
  it('never breaks a line at a no-break space (before « ; » and « : »)', async () => {
    const stdout = process.stdout as { isTTY?: boolean };
    const wasTTY = stdout.isTTY;
    stdout.isTTY = false;
    try {
      for (const name of ['import', 'sandbox', 'status']) {
        const help = (await runInProcess([name, '--help'], { LANGUAGE: 'fr' })).stdout;
        expect(help, name).not.toMatch(/^\s*[;:»]/m);
        expect(help, name).not.toMatch(/[\u00a0\u202f]$/m);
      }
    } finally {
      stdout.isTTY = wasTTY;
    }
  });
});
