/** The settings table as commander options: each flag and its help generated from its entry. */
import { type Command, Option } from 'commander';

import type { Words } from '../language/words.js';
import type { SettingFlags } from '../settings/load.js';
import { SETTINGS, type SettingEntry, type SettingKey } from '../settings/table.js';
import { settingHelpIn } from './help.js';

function optionOf(key: SettingKey, description?: string): Option {
  const entry: SettingEntry = SETTINGS[key];
  if (entry.flag === undefined) throw new Error(`the setting ${key} has no flag`);
  const option = new Option(entry.flag, description);
  if (entry.repeatable === true)
    option.argParser((value: string, previous: string[] | undefined) => [
      ...(previous ?? []),
      value,
    ]);
  return option;
}

/**
 * Adds the flags of these settings (and `--config` when `config`) to a command, their help in
 * `words`.
 */
export function withSettings(
  command: Command,
  keys: readonly SettingKey[],
  { config = true, words }: { config?: boolean; words: Words },
): Command {
  if (config) command.option('--config <file>', words.t('cli.help.option.config'));
  for (const key of keys) command.addOption(optionOf(key, settingHelpIn(key, words)));
  return command;
}

/**
 * A command's options as commander gives them, split: the setting flags (by setting key, for
 * the settings loader) and the command's own.
 */
export function splitOptions(
  given: Record<string, unknown>,
  keys: readonly SettingKey[],
): Record<string, unknown> & { settings: SettingFlags } {
  const byName = new Map(keys.map((key) => [optionOf(key).attributeName(), key]));
  const own: Record<string, unknown> = {};
  const settings: SettingFlags = {};
  for (const [name, value] of Object.entries(given)) {
    const key = byName.get(name);
    if (key === undefined) own[name] = value;
    else settings[key] = value as SettingFlags[SettingKey];
  }
  return { ...own, settings };
}
