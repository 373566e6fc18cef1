/**
 * Commander's own error lines (an unknown option, a missing argument…) in the person's words.
 * Commander builds them in English inside its parser and hands each to `error()` with a stable
 * code; a command of this class says the ones it knows by that code, what was typed taken from
 * the English line, and leaves any other as commander wrote it.
 */
import { Command, type ErrorOptions } from 'commander';

import type { MessageKey, Words } from '../language/words.js';

/** Per code: the catalogue's message, and how its values are read off commander's line. */
const LINES: Record<string, { key: MessageKey; read: RegExp; names: readonly string[] }> = {
  'commander.unknownOption': {
    key: 'cli.commander.unknownOption',
    read: /^error: unknown option '(.*?)'(?:\n\(Did you mean (?:one of )?(.*)\?\))?$/s,
    names: ['flag', 'suggestion'],
  },
  'commander.unknownCommand': {
    key: 'cli.commander.unknownCommand',
    read: /^error: unknown command '(.*?)'(?:\n\(Did you mean (?:one of )?(.*)\?\))?$/s,
    names: ['command', 'suggestion'],
  },
  'commander.missingArgument': {
    key: 'cli.commander.missingArgument',
    read: /^error: missing required argument '(.*)'$/s,
    names: ['argument'],
  },
  'commander.optionMissingArgument': {
    key: 'cli.commander.optionMissingArgument',
    read: /^error: option '(.*)' argument missing$/s,
    names: ['option'],
  },
  'commander.excessArguments': {
    key: 'cli.commander.excessArguments',
    read: /^error: too many arguments.*?\. Expected (\d+) arguments? but got (\d+)\.$/s,
    names: ['expected', 'got'],
  },
};

/** Commander's line in `words`, or as it is when its code or its shape is not one known here. */
export function commanderLine(message: string, code: string | undefined, words: Words): string {
  const line = code === undefined ? undefined : LINES[code];
  if (words.language === 'en' || line === undefined) return message;
  const match = line.read.exec(message);
  if (match === null) return message;
  const values: Record<string, string | number> = {};
  line.names.forEach((name, i) => {
    const value = match[i + 1];
    values[name] = value === undefined ? 'none' : /^\d+$/.test(value) ? Number(value) : value;
  });
  return words.t(line.key, values);
}

/** A command, and every command it declares, whose error lines are said in `words`. */
export class SaidCommand extends Command {
  readonly #words: Words;

  constructor(name: string | undefined, words: Words) {
    super(name);
    this.#words = words;
  }

  override createCommand(name?: string): Command {
    return new SaidCommand(name, this.#words);
  }

  override error(message: string, options?: ErrorOptions): never {
    return super.error(commanderLine(message, options?.code, this.#words), options);
  }
}
