/** Options and arguments several commands declare alike, their help in the process's words. */
import { type commandLine, Option } from './program.js';

type Words = ReturnType<typeof commandLine>['words'];

/** The kinds of sheet `import` and `validate` read (sheets/records.ts), as their help names them. */
export const sheets = (words: Words): [string, string] => [
  '<sheet...>',
  words.t('cli.help.sheets'),
];

export const mapping = (words: Words) =>
  new Option('--mapping <file>', words.t('cli.help.option.mapping'));
export const connection = (words: Words) =>
  new Option('--connection <name>', words.t('cli.help.option.connection'));
export const json = (words: Words) => new Option('--json', words.t('cli.help.option.json'));
