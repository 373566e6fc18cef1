/**
 * The command line: which commands there are, their arguments, settings and own options. Each
 * command is a function in commands/; the flags of settings and their help come from the
 * settings table; only bin/ exits.
 */
import type { SettingKey } from '../settings/table.js';
// Each command's module is loaded when it runs (below): `validate` must not carry the importer,
// the dashboard and the sandbox it never uses (most of a process's memory before its first row).
import type { ImportCommandOptions } from './commands/import.js';
import type { WatchCommandOptions } from './commands/watch.js';
import type { WorkerCommandOptions } from './commands/worker.js';
import { type CommandIo, processIo } from './io.js';
import { connection, json, mapping, sheets } from './command-options.js';
import { commandLine, helpWords, Option } from './program.js';
import { declareTools } from './tools.js';

type CommandLine = ReturnType<typeof commandLine>;

/** The settings of every command that imports. */
const IMPORTING: readonly SettingKey[] = [
  'concurrency',
  'productsFile',
  'maxAttachmentMb',
  'ledgerDays',
  'dataDir',
  'reportsDir',
  'apiWaitS',
  // Only `import` stops on a Redis away; `watch` and `worker` accept it (scripts pass the same
  // flags to every command) and wait for Redis however long it takes.
  'redisWaitS',
  'embeddedSandboxPlanningS',
  'language',
];

/** Runs a command line (`process.argv`) to its exit code. */
export async function main(argv: readonly string[], io: CommandIo = processIo()): Promise<number> {
  const words = await helpWords(argv, io);
  const cli = commandLine(io, words, words.t('cli.help.program.description'));
  declareImporting(cli, io);
  declareTools(cli, io);
  try {
    return await cli.run(argv);
  } finally {
    // The log is written in the background: every line of it out before bin/ exits.
    await io.log?.flush();
  }
}

/** The commands that import: once, as a hot folder, or as workers for the others. */
function declareImporting(cli: CommandLine, io: CommandIo): void {
  const { words } = cli;
  const whereTo = words.t('cli.help.where-to');
  cli.declare<ImportCommandOptions>(
    {
      name: 'import',
      description: words.t('cli.help.import.description'),
      argument: sheets(words),
      settings: IMPORTING,
      afterHelp: whereTo,
      options: [
        new Option('--no-workers', words.t('cli.help.import.no-workers')),
        new Option('--allow-duplicates', words.t('cli.help.import.allow-duplicates')),
        mapping(words),
        connection(words),
        json(words),
      ],
    },
    async (sheets, options) =>
      (await import('./commands/import.js')).importCommand(sheets, options, io),
  );
  cli.declare<WatchCommandOptions>(
    {
      name: 'watch',
      description: words.t('cli.help.watch.description'),
      settings: [...IMPORTING, 'inboxPolling', 'statusDays', 'retentionDays'],
      afterHelp: whereTo,
      options: [
        new Option('--no-dashboard', words.t('cli.help.watch.no-dashboard')),
        mapping(words),
      ],
    },
    async (_, options) => (await import('./commands/watch.js')).watchCommand(options, io),
  );
  cli.declare<WorkerCommandOptions>(
    {
      name: 'worker',
      description: words.t('cli.help.worker.description'),
      settings: [...IMPORTING, 'statusDays', 'metricsPort', 'metricsHost'],
      afterHelp: whereTo,
    },
    async (_, options) => (await import('./commands/worker.js')).workerCommand(options, io),
  );
  // `ledger rebuild` takes what `import` does of these: which config, settings, connection.
  cli.declare<Pick<ImportCommandOptions, 'config' | 'settings' | 'connection'>>(
    {
      name: 'ledger',
      description: words.t('cli.help.ledger.description'),
      argument: ['<action...>', words.t('cli.help.ledger.argument')],
      settings: ['dataDir', 'reportsDir', 'ledgerDays', 'embeddedSandboxPlanningS', 'language'],
      afterHelp: whereTo,
      options: [new Option('--connection <name>', words.t('cli.help.ledger.connection'))],
    },
    async (action, options) =>
      (await import('./commands/ledger.js')).ledgerCommand(action, options, io),
  );
}
