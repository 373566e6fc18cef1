/**
 * The command line: which commands there are, their arguments, settings and own options. Each
 * command is a function in commands/; the flags of settings and their help come from the
 * settings table; only bin/ exits.
 */
import { SANDBOX_KEYS, type SettingKey } from '../settings/table.js';
// Each command's module is loaded when it runs (below): `validate` must not carry the importer,
// the dashboard and the sandbox it never uses (most of a process's memory before its first row).
import type { DashboardCommandOptions } from './commands/dashboard.js';
import type { ImportCommandOptions } from './commands/import.js';
import type { SandboxCommandOptions } from './commands/sandbox.js';
import type { StatusCommandOptions } from './commands/status.js';
import type { ValidateCommandOptions } from './commands/validate.js';
import type { WatchCommandOptions } from './commands/watch.js';
import type { WorkerCommandOptions } from './commands/worker.js';
import { type CommandIo, processIo } from './io.js';
import { commandLine, Option } from './program.js';

/** The kinds of sheet `import` and `validate` read (sheets/records.ts), as their help names them. */
const SHEETS =
  'sheets: Excel workbooks (.xlsx, .xlsm), CSV (.csv), JSON (.json) or NDJSON (.ndjson, .jsonl)';

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

/** Where an importing command sends orders: settings with no flag of their own. */
const WHERE_TO = [
  'Where orders go: API_BASE_URL with API_TOKEN or API_TOKEN_FILE, in the environment or the',
  '--config file; with none, the embedded sandbox. Several offices: "connections" in the --config',
  'file. Redis: REDIS_URL (else 127.0.0.1:6379, else a private redis-server). Every setting:',
  'docs/reference.md.',
].join('\n');

const mapping = () =>
  new Option(
    '--mapping <file>',
    'JSON mapping of your own column names (and words for values) to the API\'s, e.g. { "columns": { "Straat": "address1" } }; without it, a mapping.json beside the sheet, then the config file\'s "mapping"',
  );
const connection = () =>
  new Option(
    '--connection <name>',
    "which of the config file's connections (its API, token and mapping); needed when it has several",
  );
const json = () =>
  new Option('--json', 'print one JSON summary per sheet on stdout (human output goes to stderr)');

type CommandLine = ReturnType<typeof commandLine>;

/** Runs a command line (`process.argv`) to its exit code. */
export async function main(argv: readonly string[], io: CommandIo = processIo()): Promise<number> {
  const cli = commandLine(
    io,
    'Turns order sheets into property-inspection orders through the Order and File Service API.',
  );
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
  cli.declare<ImportCommandOptions>(
    {
      name: 'import',
      description:
        'Import sheets: create an order per valid row and attach its files, then write a report per sheet. Exit 0 all created or duplicate, 2 some invalid, failed or needs-review, 1 fatal.',
      argument: ['<sheet...>', SHEETS],
      settings: IMPORTING,
      afterHelp: WHERE_TO,
      options: [
        new Option(
          '--no-workers',
          'only queue the sheets and wait: `order-importer worker` processes do the work',
        ),
        new Option('--allow-duplicates', 'create orders even for rows imported before'),
        mapping(),
        connection(),
        json(),
      ],
    },
    async (sheets, options) =>
      (await import('./commands/import.js')).importCommand(sheets, options, io),
  );
  cli.declare<WatchCommandOptions>(
    {
      name: 'watch',
      description:
        'The hot folder: take every sheet dropped into INBOX_DIR (and each scheduled folder), import it, serve the dashboard; until SIGINT/SIGTERM.',
      settings: [...IMPORTING, 'inboxPolling', 'statusDays'],
      afterHelp: WHERE_TO,
      options: [new Option('--no-dashboard', 'do not serve the dashboard'), mapping()],
    },
    async (_, options) => (await import('./commands/watch.js')).watchCommand(options, io),
  );
  cli.declare<WorkerCommandOptions>(
    {
      name: 'worker',
      description:
        'Run workers only, for scale-out: any number of processes on any hosts sharing one Redis.',
      settings: [...IMPORTING, 'statusDays', 'metricsPort', 'metricsHost'],
      afterHelp: WHERE_TO,
    },
    async (_, options) => (await import('./commands/worker.js')).workerCommand(options, io),
  );
  // `ledger rebuild` takes what `import` does of these: which config, settings, connection.
  cli.declare<Pick<ImportCommandOptions, 'config' | 'settings' | 'connection'>>(
    {
      name: 'ledger',
      description:
        "ledger rebuild: after Redis lost its data (a restart without AOF), rebuild each connection's duplicates ledger from the reports (REPORTS_DIR) and the record of creates (DATA_DIR/creates), so that rows imported before are duplicates again; imports are refused until it has run. Exit 0 rebuilt, 1 fatal.",
      argument: ['<action...>', '"rebuild"'],
      settings: ['dataDir', 'reportsDir', 'ledgerDays', 'embeddedSandboxPlanningS', 'language'],
      afterHelp: WHERE_TO,
      options: [
        new Option(
          '--connection <name>',
          "rebuild only this one of the config file's connections (default: every one)",
        ),
      ],
    },
    async (action, options) =>
      (await import('./commands/ledger.js')).ledgerCommand(action, options, io),
  );
}

/** The commands beside the imports: the dashboard alone, a dry run, the sandbox. */
function declareTools(cli: CommandLine, io: CommandIo): void {
  cli.declare<DashboardCommandOptions>(
    {
      name: 'dashboard',
      description:
        'Serve the dashboard alone (imports overview, queues, /healthz, /readyz, /metrics) for the watch and worker processes sharing Redis; it imports nothing.',
      settings: ['dataDir', 'dashboardHost', 'dashboardPort', 'dashboardHosts', 'language'],
    },
    async (_, options) => (await import('./commands/dashboard.js')).dashboardCommand(options, io),
  );
  cli.declare<StatusCommandOptions>(
    {
      name: 'status',
      description:
        "Read back the orders of imported sheets (each with its own connection's token) into each report's status.csv. Exit 0 all read, 2 some order or sheet could not be read, 1 fatal.",
      argument: [
        '[sheet...]',
        'report folders or sheet ids; none: every sheet reported in the last STATUS_DAYS (those whose orders are all final, STATUS_FINAL, are not read again)',
      ],
      settings: ['dataDir', 'reportsDir', 'statusDays', 'apiWaitS', 'productsFile', 'language'],
      afterHelp: WHERE_TO,
      options: [
        new Option(
          '--json',
          'print [{ sheetId, orders, byStatus, changed }] on stdout (human output goes to stderr)',
        ),
      ],
    },
    async (sheets, options) =>
      (await import('./commands/status.js')).statusCommand(sheets, options, io),
  );
  cli.declare<ValidateCommandOptions>(
    {
      name: 'validate',
      description:
        'Dry run: read, map and validate sheets and check their attachments, without any API call. Exit 0 all valid, 2 some invalid, 1 fatal.',
      argument: ['<sheet...>', SHEETS],
      settings: ['productsFile', 'maxAttachmentMb', 'language'],
      options: [mapping(), connection(), json()],
    },
    async (sheets, options) =>
      (await import('./commands/validate.js')).validateCommand(sheets, options, io),
  );
  cli.declare<SandboxCommandOptions>(
    {
      name: 'sandbox',
      description:
        'Run the sandbox of the Order and File Service in the foreground and print its base URL and tokens.',
      settings: SANDBOX_KEYS,
      config: false,
    },
    async (_, options) => (await import('./commands/sandbox.js')).sandboxCommand(options, io),
  );
}
