/**
 * The one line a command ends with when it cannot go on, in the person's language: a known
 * error that carries its values is said from the catalogue (`cli.error.<key>`, or
 * `cli.error.<key>.<variant>`); one that does not yet is said in its English message. The
 * language is the one the command would have read its settings in, found again here: a config
 * file that cannot be read is itself such an error.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

import type { KnownError } from '../errors.js';
import { languageOf, languageOfEnvironment, type Speech } from '../language/languages.js';
import { CATALOGUES, type MessageKey, type Words } from '../language/words.js';
import { machineFault } from '../machine-fault.js';
import { terminalLines, terminalText } from './terminal-text.js';

/** What a command was given that says its language: `--language`, `--config`. */
export interface Heard {
  language?: unknown;
  config?: unknown;
}

/** The catalogue's key for this error, if the catalogue has one. */
export function errorMessageKey(
  error: Pick<KnownError, 'key' | 'variant'>,
): MessageKey | undefined {
  const key = `cli.error.${error.key}${error.variant === undefined ? '' : `.${error.variant}`}`;
  return key in CATALOGUES.en ? (key as MessageKey) : undefined;
}

/**
 * A known error's message in `words`' language: English is its message as thrown (the catalogue's
 * English says the same, test/cli/error-line.test.ts); another language needs its values.
 */
export function errorMessage(error: KnownError, words: Words): string {
  const key = errorMessageKey(error);
  if (words.language === 'en' || key === undefined || error.values === undefined)
    return error.message;
  return words.t(key, error.values);
}

// A fault of the machine is said as an error a person fixes, where unexpected ones are caught.
export { machineFault };

/** `order-importer: <message>` for an error a person fixes. */
export function userErrorLine(message: string): string {
  return `order-importer: ${terminalText(message)}\n`;
}

/** `order-importer: unexpected error: <stack>`, in the person's words. */
export function unexpectedLine(error: unknown, words: Words): string {
  const details = terminalLines(
    error instanceof Error ? (error.stack ?? String(error)) : String(error),
  );
  return `order-importer: ${words.t('cli.unexpected', { details })}\n`;
}

/**
 * The language a command's settings are read in: `--language`, else the config file's `language`,
 * else the environment (settings/load.ts, in the same order). A config file that cannot be read
 * says nothing here: its error is the one being said.
 */
export async function heardLanguage(
  heard: Heard,
  io: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<Speech> {
  const flag = typeof heard.language === 'string' ? languageOf(heard.language) : undefined;
  if (flag !== undefined) return flag;
  if (typeof heard.config === 'string') {
    const fromFile = await configLanguage(resolve(io.cwd, heard.config));
    if (fromFile !== undefined) return fromFile;
  }
  return languageOfEnvironment(io.env);
}

async function configLanguage(file: string): Promise<Speech | undefined> {
  // Unreadable or not JSON: that is the error being said, by load.ts; nothing to learn here.
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  const language =
    typeof json === 'object' && json !== null
      ? (json as { language?: unknown }).language
      : undefined;
  return typeof language === 'string' ? languageOf(language) : undefined;
}
