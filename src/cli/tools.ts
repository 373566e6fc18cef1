/**
 * The commands beside the imports, declared for main.ts: the dashboard alone and its users, the
 * orders' status, a dry run, the sandbox. Each command's module is loaded when it runs.
 */
import { SANDBOX_KEYS } from '../settings/table.js';
import type { DashboardCommandOptions } from './commands/dashboard.js';
import type { DashboardUserCommandOptions } from './commands/dashboard-user.js';
import type { PurgeCommandOptions } from './commands/purge.js';
import type { SandboxCommandOptions } from './commands/sandbox.js';
import type { StatusCommandOptions } from './commands/status.js';
import type { ValidateCommandOptions } from './commands/validate.js';
import { connection, json, mapping, sheets } from './command-options.js';
import type { CommandIo } from './io.js';
import { type commandLine, Option } from './program.js';

type CommandLine = ReturnType<typeof commandLine>;

/** The commands beside the imports: the dashboard alone, a dry run, the sandbox. */
export function declareTools(cli: CommandLine, io: CommandIo): void {
  const { words } = cli;
  cli.declare<DashboardCommandOptions>(
    {
      name: 'dashboard',
      description: words.t('cli.help.dashboard.description'),
      settings: ['dataDir', 'dashboardHost', 'dashboardPort', 'dashboardHosts', 'language'],
    },
    async (_, options) => (await import('./commands/dashboard.js')).dashboardCommand(options, io),
  );
  cli.declare<DashboardUserCommandOptions>(
    {
      name: 'dashboard-user',
      description: words.t('cli.help.dashboard-user.description'),
      argument: ['<name>', words.t('cli.help.dashboard-user.argument')],
      settings: ['language'],
      options: [new Option('--offices <list>', words.t('cli.help.dashboard-user.offices'))],
    },
    async (name, options) =>
      (await import('./commands/dashboard-user.js')).dashboardUserCommand(name, options, io),
  );
  cli.declare<StatusCommandOptions>(
    {
      name: 'status',
      description: words.t('cli.help.status.description'),
      argument: ['[sheet...]', words.t('cli.help.status.argument')],
      settings: ['dataDir', 'reportsDir', 'statusDays', 'apiWaitS', 'productsFile', 'language'],
      afterHelp: words.t('cli.help.where-to'),
      options: [new Option('--json', words.t('cli.help.status.json'))],
    },
    async (sheets, options) =>
      (await import('./commands/status.js')).statusCommand(sheets, options, io),
  );
  cli.declare<ValidateCommandOptions>(
    {
      name: 'validate',
      description: words.t('cli.help.validate.description'),
      argument: sheets(words),
      settings: ['productsFile', 'maxAttachmentMb', 'language'],
      options: [mapping(words), connection(words), json(words)],
    },
    async (sheets, options) =>
      (await import('./commands/validate.js')).validateCommand(sheets, options, io),
  );
  cli.declare<PurgeCommandOptions>(
    {
      name: 'purge',
      description: words.t('cli.help.purge.description'),
      settings: ['dataDir', 'reportsDir', 'language'],
      options: [
        new Option('--before <date>', words.t('cli.help.purge.before')).makeOptionMandatory(),
        new Option('--connection <name>', words.t('cli.help.purge.connection')),
        new Option('--dry-run', words.t('cli.help.purge.dry-run')),
      ],
    },
    async (_, options) => (await import('./commands/purge.js')).purgeCommand(options, io),
  );
  cli.declare<SandboxCommandOptions>(
    {
      name: 'sandbox',
      description: words.t('cli.help.sandbox.description'),
      settings: SANDBOX_KEYS,
      config: false,
    },
    async (_, options) => (await import('./commands/sandbox.js')).sandboxCommand(options, io),
  );
}
