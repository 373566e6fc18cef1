/** The command line's frame: the program, how a command is declared, and how a run ends. */
import { Command, CommanderError, Option } from 'commander';

import { packageVersion } from '../package-root.js';
import type { SettingKey } from '../settings/table.js';
import { UserError } from '../errors.js';
import type { CommandIo } from './io.js';
import { splitOptions, withSettings } from './setting-options.js';
import { terminalLines, terminalText } from './terminal-text.js';

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
 * The program, writing to the command's IO, with --version and --help; `declare` adds a command,
 * `run` runs a command line to its exit code.
 */
export function commandLine(
  io: CommandIo,
  description: string,
): {
  declare<Options>(spec: CommandSpec, run: CommandRun<Options>): void;
  run(argv: readonly string[]): Promise<number>;
} {
  let exitCode = 0;
  const program = new Command('order-importer')
    .description(description)
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run with --help for usage)');
  return {
    declare<Options>(spec: CommandSpec, run: CommandRun<Options>) {
      const command = program.command(spec.name).description(spec.description);
      if (spec.afterHelp !== undefined) command.addHelpText('after', `\n${spec.afterHelp}`);
      if (spec.argument) command.argument(...spec.argument);
      withSettings(command, spec.settings, { config: spec.config ?? true });
      for (const option of spec.options ?? []) command.addOption(option);
      command.action(async (...given: unknown[]) => {
        const args = spec.argument ? (given[0] as string[]) : [];
        // Commander checked the flags; their values are what Options declares.
        const options = splitOptions(command.opts(), spec.settings) as Options;
        exitCode = await run(args, options);
      });
    },
    run: (argv) => runProgram(program, argv, io, () => exitCode),
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
  io: CommandIo,
  exitCode: () => number,
): Promise<number> {
  if (argv.length <= 2) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync([...argv]);
    return exitCode();
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version arrive here too, with exit code 0
      return error.exitCode;
    }
    const exitCode = forUser(error);
    if (exitCode !== undefined) {
      io.stderr.write(`order-importer: ${terminalText((error as Error).message)}\n`);
      return exitCode;
    }
    io.stderr.write(
      `order-importer: unexpected error: ${terminalLines((error as Error).stack ?? String(error))}\n`,
    );
    return 1;
  }
}
