/**
 * docs/reference.md, generated: every command's `--help` as the command line prints it, and every
 * setting of src/settings/table.ts. `npm run docs` writes it; test/scripts/docs-reference.test.ts
 * fails when the file is not what this script would write, so the reference cannot drift.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

import { main } from '../src/cli/main.js';
import { packageRoot } from '../src/package-root.js';
import {
  SETTINGS,
  type SettingEntry,
  type SettingKey,
  settingHelp,
} from '../src/settings/table.js';

export const REFERENCE_FILE = 'docs/reference.md';

/** The settings table, or a changed copy of it (the tests show that a change makes the file stale). */
export type SettingsTable = Record<SettingKey, SettingEntry>;

interface CommandHelp {
  name: string;
  /** As `order-importer <name> --help` prints it. */
  help: string;
}

/** What `order-importer …args` prints on stdout, run in this process, in English. */
async function printed(args: readonly string[]): Promise<string> {
  const chunks: string[] = [];
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const stderr = new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
  const io = {
    stdout,
    stderr,
    env: { LANGUAGE: 'en', LC_ALL: 'C' },
    cwd: packageRoot(),
    stopSignal: () => new Promise<string>(() => undefined),
  };
  const exit = await main(['node', 'order-importer', ...args], io);
  if (exit !== 0) throw new Error(`order-importer ${args.join(' ')} exited with ${exit}`);
  return chunks.join('');
}

/**
 * Commander fits help to the width of process.stdout when that is a terminal; the reference is
 * rendered as for a pipe (80 columns) wherever it is made, so that it reads the same for everyone.
 */
async function asForAPipe<T>(render: () => Promise<T>): Promise<T> {
  const stdout = process.stdout as { isTTY?: boolean };
  const own = Object.getOwnPropertyDescriptor(stdout, 'isTTY');
  stdout.isTTY = false;
  try {
    return await render();
  } finally {
    if (own === undefined) delete stdout.isTTY;
    else Object.defineProperty(stdout, 'isTTY', own);
  }
}

/** The program's help, then each command's, in the order the program lists them. */
async function commandHelps(): Promise<{ program: string; commands: CommandHelp[] }> {
  const program = await printed(['--help']);
  const listed = program.slice(program.indexOf('\nCommands:\n'));
  const names = [...listed.matchAll(/^ {2}([a-z][\w-]*)/gm)]
    .map((m) => m[1] ?? '')
    .filter((name) => name !== 'help');
  const commands: CommandHelp[] = [];
  for (const name of names) commands.push({ name, help: await printed([name, '--help']) });
  return { program, commands };
}

/** Text with its runs of white space made one space (commander wraps help at spaces only). */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** The commands whose help lists this setting's flag. */
function commandsTaking(key: SettingKey, commands: readonly CommandHelp[]): string[] {
  const entry: SettingEntry = SETTINGS[key];
  const flag = entry.flag;
  if (flag === undefined) return [];
  const line = flat(`${flag} ${settingHelp(key)}`);
  return commands.filter((c) => flat(c.help).includes(line)).map((c) => c.name);
}

/** Prose for a table cell: `|` escaped, and `<`, `*` kept literal outside code spans. */
function cell(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\*/g, '\\*'),
    )
    .join('')
    .replace(/\|/g, '\\|');
}

const code = (text: string | undefined) => (text === undefined ? '' : `\`${text}\``);

/** A setting's default as a table cell: a value as code, words as words. */
function defaultOf(entry: SettingEntry): string {
  if (entry.shownDefault !== undefined) return cell(entry.shownDefault);
  const parsed = entry.schema.safeParse(undefined);
  const value: unknown = parsed.success ? parsed.data : undefined;
  if (typeof value === 'boolean') {
    // `--no-quirks` turns off what is on by default.
    const off = entry.flag?.startsWith('--no-') === true ? '; the flag turns it off' : '';
    return `${value ? 'on' : 'off'}${off}`;
  }
  if (Array.isArray(value)) return value.length === 0 ? 'none' : code(value.join(','));
  if (typeof value === 'string' || typeof value === 'number') return code(String(value));
  return 'unset';
}

/** The importer's settings: one line each, with the config file's key and the commands. */
function importerTable(settings: SettingsTable, commands: readonly CommandHelp[]): string[] {
  const keys = (Object.keys(settings) as SettingKey[]).filter((key) => !key.startsWith('sandbox'));
  return [
    '| variable | flag (commands) | config file | default | what it sets |',
    '|---|---|---|---|---|',
    ...keys.map((key) => {
      const entry = settings[key];
      const on = commandsTaking(key, commands);
      const flag = entry.flag === undefined ? '' : `${code(entry.flag)} (${on.join(', ')})`;
      return `| ${code(entry.env)} | ${flag} | ${code(key)} | ${defaultOf(entry)} | ${cell(entry.help)} |`;
    }),
  ];
}

/** The sandbox's own settings: flags and the environment only. */
function sandboxTable(settings: SettingsTable): string[] {
  const keys = (Object.keys(settings) as SettingKey[]).filter((key) => key.startsWith('sandbox'));
  return [
    '| variable | flag | default | what it sets |',
    '|---|---|---|---|',
    ...keys.map((key) => {
      const entry = settings[key];
      return `| ${code(entry.env)} | ${code(entry.flag)} | ${defaultOf(entry)} | ${cell(entry.help)} |`;
    }),
  ];
}

const PREAMBLE = [
  '<!-- Generated by scripts/docs-reference.ts (`npm run docs`) from src/settings/table.ts and the',
  "commands' --help. Do not edit by hand: test/scripts/docs-reference.test.ts fails when this file",
  'is not what the script writes. -->',
  '',
  '# Reference',
  '',
  'Every command with its options, as `--help` prints them, and every setting. What they are for:',
  '[the guide](guide.md) (sheets, mapping, reports, the hot folder, the dashboard) and',
  '[operations](operations.md) (Redis, workers, metrics, outages, upgrades).',
  '',
  'In a checkout the command is `node bin/order-importer.js` (after `npm ci`, which builds it); in',
  'the Docker image it is `order-importer`.',
  '',
  '## How settings are given',
  '',
  'A flag wins over the environment, the environment over the config file (`--config FILE`: JSON,',
  'keys as in the "config file" column below, e.g. `{"concurrency": 4}`), and the config file over',
  'the defaults. A bad value stops the command with one line naming the setting. Three things are',
  'given in the config file only: `schedules` ([scheduled imports](guide.md#scheduled-imports)),',
  '`connections` ([several offices](operations.md#several-offices-in-one-installation)) and',
  '`mapping` (the [mapping](guide.md#your-own-names-a-mapping-file) of sheets that find none closer,',
  "relative to the config file). The sandbox's own settings are read from its flags and the",
  'environment only.',
];

/** docs/reference.md as `npm run docs` writes it, from this settings table. */
export async function renderReference(settings: SettingsTable = SETTINGS): Promise<string> {
  const { program, commands } = await asForAPipe(commandHelps);
  const block = (help: string) => ['```text', help.trimEnd(), '```'];
  return [
    ...PREAMBLE,
    '',
    '## Commands',
    '',
    ...block(program),
    ...commands.flatMap((c) => ['', `### \`${c.name}\``, '', ...block(c.help)]),
    '',
    '## Settings',
    '',
    "### The importer's",
    '',
    ...importerTable(settings, commands),
    '',
    "### The sandbox's",
    '',
    'The `sandbox` command reads `PRODUCTS_FILE` and `LOG_LEVEL` too.',
    '',
    ...sandboxTable(settings),
    '',
  ].join('\n');
}

/** The first line (1-based, with both versions) where `written` is not `fresh`. */
export function staleLine(written: string, fresh: string): string | undefined {
  if (written === fresh) return undefined;
  const a = written.split('\n');
  const b = fresh.split('\n');
  const index = a.findIndex((line, i) => line !== b[i]);
  const at = index < 0 ? a.length : index;
  return `line ${at + 1}: written ${JSON.stringify(a[at])}, would be ${JSON.stringify(b[at])}`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = join(packageRoot(), REFERENCE_FILE);
  await writeFile(file, await renderReference());
  process.stdout.write(`${REFERENCE_FILE} written.\n`);
}
