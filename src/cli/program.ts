/** The command line's frame: the program, how a command is declared, and how a run ends. */
import type { Command } from 'commander';
import { CommanderError, Option } from 'commander';

import { packageVersion } from '../package-root.js';
import type { SettingKey } from '../settings/table.js';
import { KnownError, UserError } from '../errors.js';
import { type Words, wordsFor } from '../language/words.js';
import {
  errorMessage,
  type Heard,
  heardLanguage,
  machineFault,
  unexpectedLine,
  userErrorLine,
} from './error-line.js';
import { SaidCommand } from './commander-lines.js';
import { commandUsage, heardInArgv, helpCommand, helpIn, programUsage } from './help.js';
import type { CommandIo } from './io.js';
import { splitOptions, withSettings } from './setting-options.js';

export { Option };

/** A command: its arguments, the flags of its settings (from the table) and its own options. */
export interface CommandSpec {
  name: string;
  description: string;
  argument?: [name: string, description: string];
  settings: readonly SettingKey[];
  /** Whether it reads `--config FILE`. @defaultValue true */
  config?: boolean;
  options?: Option[];
  /** Printed after the options in `--help`. */
  afterHelp?: string;
}

/** What a command does with its arguments and options: its exit code. */
export type CommandRun<Options> = (args: string[], options: Options) => Promise<number>;

/**
 * The words a command line is helped in, before commander or the settings read it: its
 * `--language`, else its `--config` file's `language`, else the environment's (as error lines).
 */
export async function helpWords(
  argv: readonly string[],
  io: Pick<CommandIo, 'env' | 'cwd'>,
): Promise<Words> {
  return wordsFor(await heardLanguage(heardInArgv(argv), io));
}

/**
 * The program, writing to the command's IO, with --version and --help in `words`; `declare` adds
 * a command, `run` runs a command line to its exit code.
 */
export function commandLine(
  io: CommandIo,
  words: Words,
  description: string,
): {
  readonly words: Words;
  declare<Options>(spec: CommandSpec, run: CommandRun<Options>): void;
  run(argv: readonly string[]): Promise<number>;
} {
  let exitCode = 0;
  // What the command was told of its language, for the line it may end with.
  const heard: Heard = {};
  // Set before any command is declared: each command inherits the help option, the help's
  // words, the output and the line after an error.
  const program = new SaidCommand('order-importer', words)
    .description(description)
    .usage(programUsage(words))
    .version(packageVersion(), '-V, --version', words.t('cli.help.version'))
    .helpOption('-h, --help', words.t('cli.help.help'))
    .addHelpCommand(helpCommand(words))
    .configureHelp(helpIn(words))
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError(words.t('cli.help.after-error'));
  return {
    words,
    declare<Options>(spec: CommandSpec, run: CommandRun<Options>) {
      const command = program
        .command(spec.name)
        .description(spec.description)
        .usage(commandUsage(words, spec.argument?.[0]));
      if (spec.afterHelp !== undefined) command.addHelpText('after', `\n${spec.afterHelp}`);
      if (spec.argument) command.argument(...spec.argument);
      withSettings(command, spec.settings, { config: spec.config ?? true, words });
      for (const option of spec.options ?? []) command.addOption(option);
      command.action(async (...given: unknown[]) => {
        const args = spec.argument ? (given[0] as string[]) : [];
        // Commander checked the flags; their values are what Options declares.
        const options = splitOptions(command.opts(), spec.settings);
        heard.language = options.settings.language;
        heard.config = options.config;
        exitCode = await run(args, options as Options);
      });
    },
    run: (argv) => runProgram(program, argv, { io, heard }, () => exitCode),
  };
}

/**
 * An error whose message is for a person but that cannot extend UserError: the sandbox imports
 * nothing of src/. Known by name, so that no command loads the sandbox for it.
 */
const FOR_USER_BY_NAME = new Set(['ProductsFileError']);

/** The one place an error becomes one line for a person: its exit code, or undefined. */
function forUser(error: unknown): number | undefined {
  if (error instanceof UserError) return error.exitCode;
  return error instanceof Error && FOR_USER_BY_NAME.has(error.name) ? 1 : undefined;
}

/** Runs the command line: the exit code, with errors turned into one line on stderr. */
async function runProgram(
  program: Command,
  argv: readonly string[],
  told: { io: CommandIo; heard: Heard },
  exitCode: () => number,
): Promise<number> {
  const { io } = told;
  if (argv.length <= 2) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync([...argv]);
    return exitCode();
  } catch (thrown) {
    if (thrown instanceof CommanderError) {
      // --help and --version arrive here too, with exit code 0
      return thrown.exitCode;
    }
    const words = wordsFor(await heardLanguage(told.heard, io));
    // A folder it may not write, a full disk: one line naming the folder, not a stack.
    const error = machineFault(thrown) ?? thrown;
    const exitCode = forUser(error);
    if (exitCode !== undefined) {
      const message =
        error instanceof KnownError ? errorMessage(error, words) : (error as Error).message;
      io.stderr.write(userErrorLine(message));
      return exitCode;
    }
    io.stderr.write(unexpectedLine(error, words));
    return 1;
  }
}
