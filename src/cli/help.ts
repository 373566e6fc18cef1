/**
 * `--help` in the person's language: commander's own words (its headings, `[options]`, the help
 * and version options, the help command) through its hooks, and every setting's line from the
 * catalogue (`cli.help.setting.<key>`, whose English is the settings table's help, the source of
 * docs/reference.md). Help is printed before any setting is read: the language is the one the
 * command line and the environment say (error-line.ts reads them the same way for error lines).
 */
import { Command, Help, type HelpConfiguration } from 'commander';

import { DEMO_TOKEN } from '../../sandbox/tokens.js';
import { CATALOGUES, type MessageKey, type MessageValues, type Words } from '../language/words.js';
import { SETTINGS, type SettingKey, shownDefault } from '../settings/table.js';
import type { Heard } from './error-line.js';

/**
 * What a command line says of its language before commander reads it: the last `--language` and
 * `--config` given (as `--flag value` or `--flag=value`), up to `--`.
 */
export function heardInArgv(argv: readonly string[]): Heard {
  const heard: Heard = {};
  const args = argv.slice(2);
  for (let i = 0; i < args.length && args[i] !== '--'; i += 1) {
    const arg = args[i] ?? '';
    for (const name of ['language', 'config'] as const) {
      if (arg === `--${name}` && i + 1 < args.length) heard[name] = args[(i += 1)];
      else if (arg.startsWith(`--${name}=`)) heard[name] = arg.slice(name.length + 3);
    }
  }
  return heard;
}

/** The values of a default said in words that holds one (the demo token is the sandbox's). */
const DEFAULT_VALUES: Partial<Record<SettingKey, MessageValues>> = {
  sandboxTokens: { token: `${DEMO_TOKEN.token}:${DEMO_TOKEN.org}` },
};

/** A setting's default in `words`: words from the catalogue, a value (a path, a number) as is. */
function defaultIn(key: SettingKey, words: Words): string | undefined {
  const said = `cli.help.default.${key}`;
  if (said in CATALOGUES.en) return words.t(said as MessageKey, DEFAULT_VALUES[key]);
  return shownDefault(key);
}

/** A setting's line in `--help` in `words`: in English, settingHelp's (settings/table.ts). */
export function settingHelpIn(key: SettingKey, words: Words): string {
  const help = words.t(`cli.help.setting.${key}`);
  const env: string | undefined = (SETTINGS[key] as { env?: string }).env;
  const shown = defaultIn(key, words);
  if (env === undefined && shown === undefined) return help;
  const notes = env === undefined ? 'default' : shown === undefined ? 'env' : 'both';
  return words.t('cli.help.notes', { help, notes, env: env ?? '', shown: shown ?? '' });
}

/** Commander's headings, by the English it passes them in. */
const HEADINGS: Readonly<Record<string, MessageKey>> = {
  'Usage:': 'cli.help.heading.usage',
  'Arguments:': 'cli.help.heading.arguments',
  'Options:': 'cli.help.heading.options',
  'Commands:': 'cli.help.heading.commands',
};

/**
 * The no-break spaces French writes before `:` and `;`, as characters commander does not take for
 * white space while it wraps (it breaks at any `\s`), one for one so that widths stay the same.
 */
const HELD: Readonly<Record<string, string>> = { '\u00a0': '\ue000', '\u202f': '\ue001' };
const FREED: Readonly<Record<string, string>> = { '\ue000': '\u00a0', '\ue001': '\u202f' };

/**
 * How commander writes help in `words`: its headings, each command listed with its usage (which
 * `commandUsage` gives in the language) where commander would write `[options]` itself, and its
 * lines wrapped at spaces that may break only.
 */
export function helpIn(words: Words): HelpConfiguration {
  return {
    styleTitle: (title) => {
      const key = HEADINGS[title];
      return key === undefined ? title : words.t(key);
    },
    subcommandTerm: (command) => `${command.name()} ${command.usage()}`.trimEnd(),
    boxWrap(this: Help, text: string, width: number): string {
      const held = text.replace(/[\u00a0\u202f]/g, (space) => HELD[space] ?? space);
      const wrapped = Help.prototype.boxWrap.call(this, held, width);
      return wrapped.replace(/[\ue000\ue001]/g, (space) => FREED[space] ?? space);
    },
  };
}

/** A command's usage after its name: `[options]` in `words`, then its argument. */
export function commandUsage(words: Words, argument?: string): string {
  return [words.t('cli.help.usage.options'), ...(argument === undefined ? [] : [argument])].join(
    ' ',
  );
}

/** The program's usage, `[options] [command]`, in `words`. */
export function programUsage(words: Words): string {
  return `${words.t('cli.help.usage.options')} ${words.t('cli.help.usage.command')}`;
}

/** `help [command]`, the command that prints another's help, described in `words`. */
export function helpCommand(words: Words): Command {
  return new Command('help')
    .argument('[command]')
    .usage(words.t('cli.help.usage.command'))
    .description(words.t('cli.help.help'))
    .helpOption(false);
}
