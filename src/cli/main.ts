import { Command, CommanderError, Option } from 'commander';

import { packageVersion } from '../package-root.js';
import { dashboardCommand, type DashboardCommandOptions } from './dashboard.js';
import { CliError } from './errors.js';
import { type CommandIo, processIo } from './io.js';
import { terminalLines, terminalText } from './terminal-text.js';
import { DEFAULT_SANDBOX_PORT, sandboxCommand, type SandboxCommandOptions } from './sandbox.js';
import { importCommand, type ImportCommandOptions } from './import.js';
import { validateCommand, type ValidateCommandOptions } from './validate.js';
import { watchCommand, type WatchCommandOptions } from './watch.js';
import { workerCommand, type WorkerCommandOptions } from './worker.js';

/** Declares the commands; each one is a function in its own module. */
export function buildProgram(io: CommandIo, setExitCode: (code: number) => void): Command {
  const program = new Command('order-importer')
    .description(
      'Turns order sheets into property-inspection orders through the Order and File Service API.',
    )
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run with --help for usage)');

  const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
  const settingOptions = (command: Command) =>
    command
      .option('--config <file>', 'JSON config file of settings')
      .option('--concurrency <n>', 'row jobs in flight per process (env CONCURRENCY; default 8)')
      .option(
        '--products <file>',
        'product catalogue (env PRODUCTS_FILE; default samples/products.json)',
      )
      .option(
        '--max-attachment-mb <mb>',
        'largest attachment, per file (env MAX_ATTACHMENT_MB; default 20)',
      )
      .option('--data-dir <dir>', 'root of the data folders (env DATA_DIR; default ./data)')
      .option('--reports-dir <dir>', 'where reports go (env REPORTS_DIR; default DATA_DIR/reports)')
      .option(
        '--api-wait-s <seconds>',
        'how long an API that is away or busy at start is waited for (env API_WAIT_S; default 300)',
      )
      .option(
        '--redis-wait-s <seconds>',
        'how long `import` waits for Redis when it goes away, before it stops (env REDIS_WAIT_S; default 300)',
      );
  settingOptions(
    program
      .command('import')
      .description(
        'Import sheets: create an order per valid row and attach its files, then write a report per sheet. Exit 0 all created or duplicate, 2 some invalid, failed or needs-review, 1 fatal.',
      )
      .argument('<sheet...>', 'CSV, JSON or NDJSON sheets')
      .option(
        '--no-workers',
        'only queue the sheets and wait: `order-importer worker` processes do the work',
      )
      .option('--allow-duplicates', 'create orders even for rows imported before')
      .option('--mapping <file>', 'JSON mapping of your own column names to API names')
      .option(
        '--json',
        'print one summary.json object per sheet on stdout (human output goes to stderr)',
      ),
  ).action(async (sheets: string[], opts: ImportCommandOptions) => {
    setExitCode(await importCommand(sheets, opts, io));
  });
  settingOptions(
    program
      .command('watch')
      .description(
        'The hot folder: take every sheet dropped into INBOX_DIR (and each scheduled folder), import it, serve the dashboard; until SIGINT/SIGTERM.',
      )
      .option('--no-dashboard', 'do not serve the dashboard')
      .option(
        '--poll',
        'poll the inbox instead of waiting for file events (network shares; env INBOX_POLLING)',
      ),
  ).action(async (opts: WatchCommandOptions) => {
    setExitCode(await watchCommand(opts, io));
  });
  settingOptions(
    program
      .command('worker')
      .description(
        'Run workers only, for scale-out: any number of processes on any hosts sharing one Redis.',
      ),
  ).action(async (opts: WorkerCommandOptions) => {
    setExitCode(await workerCommand(opts, io));
  });
  program
    .command('dashboard')
    .description(
      'Serve the dashboard alone (imports overview, queues, /healthz) for the watch and worker processes sharing Redis; it imports nothing.',
    )
    .option('--config <file>', 'JSON config file of settings')
    .option('--data-dir <dir>', "data folder, where a private Redis's address is (env DATA_DIR)")
    .option(
      '--host <host>',
      'address to listen on (env DASHBOARD_HOST; default 127.0.0.1; any other needs DASHBOARD_USER and DASHBOARD_PASSWORD)',
    )
    .option('--port <port>', 'port to listen on (env DASHBOARD_PORT; default 3000)')
    .option(
      '--hosts <names>',
      'comma-separated host names it answers besides localhost, 127.0.0.1, ::1 and --host (env DASHBOARD_HOSTS); any other is refused',
    )
    .action(async (opts: DashboardCommandOptions) => {
      setExitCode(await dashboardCommand(opts, io));
    });
  program
    .command('validate')
    .description(
      'Dry run: read, map and validate sheets and check their attachments, without any API call. Exit 0 all valid, 2 some invalid, 1 fatal.',
    )
    .argument('<sheet...>', 'CSV (.csv), JSON (.json) or NDJSON (.ndjson, .jsonl) sheets')
    .option(
      '--mapping <file>',
      'JSON mapping of your own column names to API names, e.g. { "Straat": "address1" }',
    )
    .option('--json', 'print one JSON summary per sheet on stdout (human output goes to stderr)')
    .option('--config <file>', 'JSON config file of settings')
    .option(
      '--products <file>',
      'product catalogue (env PRODUCTS_FILE; default samples/products.json)',
    )
    .option(
      '--max-attachment-mb <mb>',
      'largest attachment accepted, per file (env MAX_ATTACHMENT_MB; default 20)',
    )
    .action(async (sheets: string[], opts: ValidateCommandOptions) => {
      setExitCode(await validateCommand(sheets, opts, io));
    });

  program
    .command('sandbox')
    .description(
      'Run the sandbox of the Order and File Service in the foreground and print its base URL and tokens.',
    )
    .option('--host <host>', 'address to listen on (env SANDBOX_HOST)', undefined)
    .option(
      '--port <port>',
      `port to listen on, 0 for any free one (env SANDBOX_PORT; default ${DEFAULT_SANDBOX_PORT})`,
    )
    .option(
      '--data <dir>',
      'keep orders and files in this folder (env SANDBOX_DATA_DIR; default: in memory)',
    )
    .option(
      '--token <token[:org]>',
      'accepted bearer token and its organisation; repeatable (env SANDBOX_TOKENS, comma-separated; default: the demo token)',
      collect,
    )
    .option(
      '--products <file>',
      'product catalogue JSON (env PRODUCTS_FILE; default samples/products.json)',
    )
    .option(
      '--rate-limit <n>',
      'requests per window per token, then 429 (env SANDBOX_RATE_LIMIT; default none)',
    )
    .option('--rate-window <seconds>', 'rate-limit window (env SANDBOX_RATE_WINDOW; default 60)')
    .option(
      '--post-max-size <size>',
      "PHP's post_max_size: larger bodies get a JSON 413 (default 100M)",
    )
    .option(
      '--proxy-body-limit <size>',
      "a front proxy's limit: larger bodies get nginx's HTML 413 (default off; nginx's own is 1M)",
    )
    .option(
      '--upload-max-filesize <size>',
      "PHP's upload_max_filesize: a larger file gets 422 'failed to upload' (default off; PHP's own is 2M)",
    )
    .option(
      '--max-file-uploads <n>',
      "PHP's max_file_uploads: files past it are silently dropped (default off; PHP's own is 20)",
    )
    .option(
      '--php-defaults',
      "PHP's stock limits where not given: upload_max_filesize 2M, max_file_uploads 20, post_max_size 8M",
    )
    .option('--redirect-trailing-slash', "answer /api/orders/ with Apache's 301 to /api/orders")
    .option('--no-quirks', 'return retrieved orders without the documented quirks')
    .option('--seed <n>', 'seed of the injected faults (default 1)')
    .option('--latency <ms>', 'delay added to every API request')
    .option('--jitter <ms>', 'random extra delay, up to this much')
    .option('--p503 <p>', 'probability of a 503 with Retry-After before any work')
    .option('--retry-after <seconds>', 'Retry-After of injected 503s (default 1)')
    .option('--p-reset-before <p>', 'probability of a connection reset before any work')
    .option('--p500-after <p>', 'probability of a 500 after an order or file is stored')
    .option(
      '--p-reset-after <p>',
      'probability of a connection reset after an order or file is stored',
    )
    .addOption(new Option('--log-level <level>', 'log level (env LOG_LEVEL; default info)'))
    .action(async (opts: SandboxCommandOptions) => {
      setExitCode(await sandboxCommand(opts, io));
    });
  return program;
}

/** The entry point's work: run the command line, turn errors into messages and exit codes. */
export async function main(argv: readonly string[], io: CommandIo = processIo()): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  if (argv.length <= 2) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version arrive here too, with exit code 0
      return error.exitCode;
    }
    if (error instanceof CliError) {
      io.stderr.write(`order-importer: ${terminalText(error.message)}\n`);
      return error.exitCode;
    }
    io.stderr.write(
      `order-importer: unexpected error: ${terminalLines((error as Error).stack ?? String(error))}\n`,
    );
    return 1;
  }
}
