import { describe, expect, it } from 'vitest';

import { commanderLine } from '../../src/cli/commander-lines.js';
import { wordsFor } from '../../src/language/words.js';

/** Commander's own lines, as it writes them (node_modules/commander/lib/command.js). */
const LINES: Array<[code: string, line: string]> = [
  ['commander.unknownOption', "error: unknown option '--bogus'"],
  [
    'commander.unknownOption',
    "error: unknown option '--concurency'\n(Did you mean --concurrency?)",
  ],
  ['commander.unknownCommand', "error: unknown command 'imprt'\n(Did you mean import?)"],
  ['commander.missingArgument', "error: missing required argument 'sheet'"],
  ['commander.optionMissingArgument', "error: option '--mapping <file>' argument missing"],
  ['commander.excessArguments', 'error: too many arguments. Expected 1 argument but got 2.'],
  ['commander.excessArguments', 'error: too many arguments. Expected 0 arguments but got 3.'],
];

describe('commander’s lines in the catalogue', () => {
  it.each(LINES)('%s: its English catalogue text is commander’s line', (code, line) => {
    // The pseudo-language reads the English catalogue: markers off, it is commander's line again.
    const said = commanderLine(line, code, wordsFor('qps'));
    expect(said.startsWith('⟦')).toBe(true);
    expect(said.slice(1, -1)).toBe(line);
  });

  it('leaves English, and a line of a code or shape it does not know, as commander wrote it', () => {
    expect(
      commanderLine("error: unknown option '--x'", 'commander.unknownOption', wordsFor('en')),
    ).toBe("error: unknown option '--x'");
    expect(commanderLine('error: something new', 'commander.new', wordsFor('nl'))).toBe(
      'error: something new',
    );
    expect(commanderLine('error: changed wording', 'commander.unknownOption', wordsFor('nl'))).toBe(
      'error: changed wording',
    );
  });

  it('says one expected argument and one received in French', () => {
    expect(
      commanderLine(
        'error: too many arguments. Expected 1 argument but got 1.',
        'commander.excessArguments',
        wordsFor('fr'),
      ),
    ).toBe('erreur\u202f: trop d’arguments\u202f: 1 argument attendu, 1 reçu.');
  });
});
