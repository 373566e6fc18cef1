/**
 * `--help` in the person's language: the program's and each command's, commander's own words
 * included; flags, variable names and defaults as they are. English reads as it always has
 * (./help-en/, the help as printed before it was translated).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ROOT, runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { outsideMarkers } from '../helpers/pseudo.js';

const COMMANDS = [
  'import',
  'watch',
  'worker',
  'ledger',
  'dashboard',
  'dashboard-user',
  'status',
  'validate',
  'purge',
];
const english = (name: string) =>
  readFileSync(join(ROOT, 'test', 'cli', 'help-en', `${name}.txt`), 'utf8');

// Commander fits help to process.stdout when it is a terminal: these read it as a pipe does.
const stdout = process.stdout as { isTTY?: boolean };
let wasTTY: boolean | undefined;
beforeEach(() => {
  wasTTY = stdout.isTTY;
  stdout.isTTY = false;
});
afterEach(() => {
  stdout.isTTY = wasTTY;
});

/** `--help` of the program (no name) or of a command, in this environment. */
async function help(name: string | undefined, env: NodeJS.ProcessEnv = {}, more: string[] = []) {
  const finished = await runInProcess(
    [...(name === undefined ? [] : [name]), ...more, '--help'],
    env,
  );
  expect(finished.code).toBe(0);
  expect(finished.stderr).toBe('');
  return finished.stdout;
}

/** The option terms a help lists (`--concurrency <n>`, `-h, --help`), in order. */
const flags = (text: string) =>
  [...text.matchAll(/^ {2}(-[^ ].*?)(?= {2}|$)/gm)].map((m) => m[1] ?? '');
/** Data taken out of a text longest first, so that `-h` does not eat into `--help`. */
const longestFirst = (data: string[]) => [...data].sort((a, b) => b.length - a.length);
/** The commands a program's help lists, with their usage. */
const commandTerms = (text: string) =>
  [...text.matchAll(/^ {2}([a-z]\S*)/gm)].map((m) => m[1] ?? '');

describe('--help in English', () => {
  it('the program, as it always read', async () => {
    expect(await help(undefined)).toBe(english('program'));
    expect(await help(undefined, { LANGUAGE: 'en' })).toBe(english('program'));
  });

  it.each([...COMMANDS, 'sandbox'])('%s, as it always read', async (name) => {
    expect(await help(name, { LANG: 'en_GB.UTF-8' })).toBe(english(name));
  });

  it('an unknown option, as it always read', async () => {
    const finished = await runInProcess(['import', '--bogus']);
    expect(finished.code).toBe(1);
    expect(finished.stderr).toBe(english('unknown-option'));
  });
});

describe('--help in Dutch', () => {
  it('the program: headings, descriptions and commander’s words in Dutch, flags as they are', async () => {
    const text = await help(undefined, { LANGUAGE: 'nl' });
    expect(text).toMatch(/^Gebruik: order-importer \[opties\] \[commando\]\n/);
    expect(text).toContain('\nOpties:\n');
    expect(text).toContain('\nCommando’s:\n');
    expect(text).toContain('Zet lijsten met opdrachten om in keuringsopdrachten');
    expect(text).toMatch(/-V, --version +toont de versie en stopt/);
    expect(text).toMatch(/-h, --help +toont de hulp bij een commando/);
    expect(text).toMatch(/help \[commando\] +toont de hulp bij een commando/);
    expect(flags(text)).toEqual(flags(english('program')));
    expect(commandTerms(text).map((term) => term.split(' ')[0])).toEqual(
      commandTerms(english('program')).map((term) => term.split(' ')[0]),
    );
    for (const word of ['Usage:', 'Options:', 'Commands:', 'display help', 'Import sheets'])
      expect(text).not.toContain(word);
  });

  it('import: its description, argument, own options and every setting in Dutch', async () => {
    const text = await help('import', { LANGUAGE: 'nl' });
    expect(text).toMatch(/^Gebruik: order-importer import \[opties\] <sheet\.\.\.>\n/);
    expect(text).toContain('\nArgumenten:\n');
    expect(text).toContain('\nOpties:\n');
    expect(text).toMatch(/Lijsten importeren: per geldige rij wordt een opdracht/);
    expect(text).toMatch(
      /--concurrency <n> +aantal\s+rijen\s+tegelijk\s+in\s+verwerking,\s+per\s+proces\s+\(variabele\s+CONCURRENCY;\s+standaard 8\)/,
    );
    expect(text).toMatch(/--allow-duplicates +maakt ook opdrachten aan voor rijen die al/);
    expect(text).toContain('Waar de opdrachten naartoe gaan: API_BASE_URL');
    expect(text).toContain('docs/reference.md');
    expect(flags(text)).toEqual(flags(english('import')));
    for (const word of ['Usage:', 'Options:', 'Arguments:', 'display help', ' env ', 'default'])
      expect(text).not.toContain(word);
  });

  it('from --language, over the environment, and from the config file', async () => {
    const dir = await tempDir('help-language-');
    const config = await put(dir, 'config.json', '{ "language": "nl" }');
    expect(await help('import', { LANGUAGE: 'fr' }, ['--language', 'nl'])).toMatch(/^Gebruik:/);
    expect(await help('import', { LANGUAGE: 'fr' }, ['--language=nl'])).toMatch(/^Gebruik:/);
    expect(await help('import', {}, ['--config', config])).toMatch(/^Gebruik:/);
  });

  it('an unknown option ends with a pointer to --help in Dutch', async () => {
    const finished = await runInProcess(['import', '--bogus'], { LANGUAGE: 'nl' });
    expect(finished.code).toBe(1);
    expect(finished.stderr).toContain('\n(zie --help voor het gebruik)\n');
  });
});

describe('--help in French', () => {
  it('the program: headings, descriptions and commander’s words in French, flags as they are', async () => {
    const text = await help(undefined, { LC_ALL: 'fr_BE.UTF-8' });
    expect(text).toMatch(/^Utilisation\u202f: order-importer \[options\] \[commande\]\n/);
    expect(text).toContain('\nOptions\u202f:\n');
    expect(text).toContain('\nCommandes\u202f:\n');
    expect(text).toContain('Transforme des listes de commandes en commandes de contrôle');
    expect(text).toMatch(/-h, --help +afficher l’aide\n/);
    expect(flags(text)).toEqual(flags(english('program')));
    for (const word of ['Usage:', 'Options:', 'Commands:', 'display help', 'Import sheets'])
      expect(text).not.toContain(word);
  });

  it('import: its description, argument, own options and every setting in French', async () => {
    const text = await help('import', {}, ['--language', 'fr']);
    expect(text).toMatch(/^Utilisation\u202f: order-importer import \[options\] <sheet\.\.\.>\n/);
    expect(text).toContain('\nArguments\u202f:\n');
    expect(text).toMatch(/Importer des listes\u202f: créer une commande par ligne valable/);
    expect(text).toMatch(
      /--concurrency <n> +lignes traitées à la fois, par processus\s+\(variable\s+CONCURRENCY\u202f;\s+par\s+défaut\s+8\)/,
    );
    expect(text).toContain('Où vont les commandes\u202f: API_BASE_URL');
    expect(flags(text)).toEqual(flags(english('import')));
    for (const word of ['Usage:', 'Options:', 'Arguments:', 'display help', ' env ', 'default'])
      expect(text).not.toContain(word);
  });
});

describe('--help in the pseudo-language', () => {
  it('import: every description inside the markers; only flags and names outside', async () => {
    const text = await help('import', { LANGUAGE: 'qps' });
    const terms = flags(english('import')).flatMap((term) => term.split(/,? /));
    const data = ['order-importer', 'import', '<sheet...>', 'sheet', ...terms];
    expect(outsideMarkers(text, longestFirst(data))).toBe('');
    expect(text).toContain('⟦Usage:⟧');
  });

  it('the program: every description inside the markers', async () => {
    const text = await help(undefined, { LANGUAGE: 'qps' });
    const names = [...COMMANDS, 'sandbox', 'help'];
    const data = [
      'order-importer',
      '<sheet...>',
      '[sheet...]',
      '<action...>',
      '<name>',
      '-V',
      '--version',
      '-h',
      '--help',
      ...names,
    ];
    expect(outsideMarkers(text, longestFirst(data))).toBe('');
  });
});

describe('commander’s error lines', () => {
  it('are said in the person’s language, what was typed as it was typed', async () => {
    const fr = await runInProcess(['import', '--bogus'], { LANGUAGE: 'fr' });
    expect(fr.stderr).toMatch(/^erreur\u202f: option inconnue «\u202f--bogus\u202f»\n/);
    expect(fr.stderr).toContain('(relancez avec --help pour afficher l’aide)');
    const nl = await runInProcess(['import', '--concurency', '4'], { LANGUAGE: 'nl' });
    expect(nl.stderr).toMatch(
      /^fout: onbekende optie “--concurency”\n\(Bedoelde u --concurrency\?\)\n/,
    );
    const missing = await runInProcess(['import'], { LANGUAGE: 'nl' });
    expect(missing.stderr).toMatch(/^fout: het argument “sheet” ontbreekt\n/);
    const command = await runInProcess(['imprt'], { LANGUAGE: 'fr' });
    expect(command.stderr).toMatch(
      /^erreur\u202f: commande inconnue «\u202fimprt\u202f»\n\(Vouliez-vous dire import\u202f\?\)\n/,
    );
  });

  it('in the pseudo-language, every word from the catalogue', async () => {
    const finished = await runInProcess(['import', '--bogus'], { LANGUAGE: 'qps' });
    const [line = ''] = finished.stderr.split('\n');
    expect(outsideMarkers(line, ['--bogus'])).toBe('');
  });
});
