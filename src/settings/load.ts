/**
 * The importer's settings (docs/design.md §2 "Configuration"): flags > environment > config file >
 * defaults, parsed once with zod (the schemas of ./table.ts) into one typed object that is passed
 * to whatever needs it. The `sandbox` command's settings come from the same table, through flags
 * and the environment only.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

import { z } from 'zod';

import { defaultProductsFile } from '../package-root.js';
import { type ConfiguredConnection, parseConnections } from './connections.js';
import { cronProblem } from './cron.js';
import { issueText, issueValues } from './issue-text.js';
import {
  IMPORTER_KEYS,
  type ImporterSettingKey,
  SANDBOX_KEYS,
  SETTINGS,
  type SettingEntry,
  type SettingKey,
  type SettingValue,
} from './table.js';
import { jsonMistake } from '../orders/json-mistake.js';
import { MAX_NESTING, nestsDeeperThan } from '../orders/json-depth.js';
import { isKnown, UserError } from '../errors.js';
import { languageOfEnvironment, type Speech } from '../language/languages.js';

const nonEmpty = z.string().trim().min(1);
/** `connection`: which of the config file's connections its sheets go to (see connections.ts). */
const scheduleSchema = z.object({
  name: nonEmpty,
  cron: nonEmpty,
  dir: nonEmpty,
  connection: nonEmpty.optional(),
});

/** Values from command-line flags, by setting key; undefined means "not given". */
export type SettingFlags = Partial<Record<SettingKey, string | boolean | string[] | undefined>>;

type Values<K extends SettingKey> = { [P in K]: SettingValue<P> };

export type Settings = Omit<
  Values<ImporterSettingKey>,
  'productsFile' | 'inboxDir' | 'reportsDir' | 'language'
> & {
  /**
   * What a person reads is in: `--language`, else `language` in the config file, else the
   * environment as gettext reads it (language/languages.ts).
   */
  language: Speech;
  productsFile: string;
  inboxDir: string;
  reportsDir: string;
  /** Where the hot folder keeps a sheet (and its attachments) while it is imported. */
  workDir: string;
  /** Where the hot folder puts a sheet once its report is written. */
  archiveDir: string;
  /** Where the hot folder puts a sheet that cannot be read, with an error file. */
  failedDir: string;
  /** Scheduled imports, from the config file only. */
  schedules: Array<z.output<typeof scheduleSchema>>;
  /** The offices of one installation, from the config file only; empty: one from API_BASE_URL. */
  connections: ConfiguredConnection[];
  /**
   * `mapping` in the config file (absolute; written relative to the config file): the mapping of
   * sheets that find none closer (orders/mapping-files.ts).
   */
  mappingFile?: string;
  /** The config file read, if any. */
  configFile?: string;
};

/** What `order-importer sandbox` is told: its own settings, the catalogue and the log level. */
export type SandboxSettings = Values<(typeof SANDBOX_KEYS)[number]>;

export interface LoadSettingsInput {
  flags?: SettingFlags;
  env?: NodeJS.ProcessEnv;
  /** `--config FILE`. */
  configFile?: string;
  /** Folder that relative paths are resolved against. */
  cwd: string;
}

export async function loadSettings(input: LoadSettingsInput): Promise<Settings> {
  const file = input.configFile === undefined ? undefined : resolve(input.cwd, input.configFile);
  const fromFile = file === undefined ? {} : await readConfigFile(file);
  const where = file ?? 'the config file';
  const sources: Sources = {
    flags: input.flags ?? {},
    env: input.env ?? {},
    file: fromFile,
    where,
  };
  const values = parseAll(IMPORTER_KEYS, sources, 'label') as Values<ImporterSettingKey>;
  const schedules = z
    .array(scheduleSchema)
    .default([])
    .safeParse(fromFile.schedules, { reportInput: true });
  if (!schedules.success) {
    const problem = describe(schedules.error);
    throw new UserError('config.invalid', `"schedules" in ${where}: ${problem}.`, {
      variant: 'schedules',
      values: { file: where, problem },
    });
  }
  refuseBadCrons(schedules.data, where);
  const connections = connectionsOf(fromFile.connections, file, values);
  refuseHalfNotify(values, connections);
  refuseScheduleConnections(schedules.data, connections, where);
  const mappingFile = configMapping(fromFile.mapping, file, where);
  const at = (path: string) => (isAbsolute(path) ? path : resolve(input.cwd, path));
  const dataDir = at(values.dataDir);
  const inboxDir = at(values.inboxDir ?? resolve(dataDir, 'inbox'));
  refuseScansOfOtherInboxes(schedules.data, connections, { inboxDir, at, where });
  const folders = {
    work: resolve(dataDir, 'work'),
    archive: resolve(dataDir, 'archive'),
    failed: resolve(dataDir, 'failed'),
    reports: at(values.reportsDir ?? resolve(dataDir, 'reports')),
  };
  // The sheets' private copies (app/process-parts.ts) too.
  refuseInboxHoldingOwnFolders(inboxDir, { ...folders, sheets: resolve(dataDir, 'sheets') });
  return {
    ...values,
    dataDir,
    inboxDir,
    reportsDir: folders.reports,
    workDir: folders.work,
    archiveDir: folders.archive,
    failedDir: folders.failed,
    language: values.language ?? languageOfEnvironment(input.env ?? {}),
    productsFile: at(values.productsFile ?? defaultProductsFile()),
    ...(values.apiTokenFile !== undefined && { apiTokenFile: at(values.apiTokenFile) }),
    ...(values.dashboardUsersFile !== undefined && {
      dashboardUsersFile: at(values.dashboardUsersFile),
    }),
    ...(values.redisTlsCaFile !== undefined && { redisTlsCaFile: at(values.redisTlsCaFile) }),
    schedules: schedules.data.map((s) => ({ ...s, dir: at(s.dir) })),
    connections,
    ...(file !== undefined && { configFile: file }),
    ...(mappingFile !== undefined && { mappingFile }),
  };
}

/** The config file's `mapping`: a path, relative to the config file's own folder. */
function configMapping(value: unknown, file: string | undefined, where: string) {
  if (value === undefined || file === undefined) return undefined;
  const parsed = nonEmpty.safeParse(value);
  if (!parsed.success) {
    throw new UserError(
      'config.invalid',
      `"mapping" in ${where}: must be the path of a mapping file, relative to the config file (got ${JSON.stringify(value)}).`,
      { variant: 'mapping', values: { file: where, got: JSON.stringify(value) } },
    );
  }
  return resolve(dirname(file), parsed.data);
}

/**
 * The config file's connections, checked. Beside them, an API_BASE_URL or a token of the
 * environment would be a second, unnamed connection nobody asked for: refused.
 */
function connectionsOf(
  value: unknown,
  file: string | undefined,
  values: Values<ImporterSettingKey>,
): ConfiguredConnection[] {
  if (file === undefined || value === undefined) return [];
  let connections: ConfiguredConnection[];
  try {
    connections = parseConnections(value, dirname(file));
  } catch (error) {
    if (!isKnown(error, 'connections.invalid')) throw error;
    throw new UserError('config.invalid', `"connections" in ${file}: ${error.message}.`, {
      cause: error,
      ...(error.values !== undefined && {
        variant: `connections.${error.variant ?? 'entry'}`,
        values: { ...error.values, file },
      }),
    });
  }
  const single = [
    ['API_BASE_URL', values.apiBaseUrl],
    ['API_TOKEN', values.apiToken],
    ['API_TOKEN_FILE', values.apiTokenFile],
  ].find(([, v]) => v !== undefined)?.[0];
  if (single !== undefined)
    throw new UserError(
      'config.invalid',
      `${single} is set, and ${file} has "connections": each connection has its own API and token file there; unset ${single} (and its kin), or leave "connections" out.`,
      { variant: 'connections-and-single', values: { single, file } },
    );
  return connections;
}

/**
 * A channel of notifications is set whole or not at all: half of one would never deliver. An
 * office's own recipients (`notify.email.to` of its connection) are sent to through the top
 * level's sender and SMTP server: those two may then stand without NOTIFY_EMAIL_TO, and must be set.
 */
function refuseHalfNotify(
  values: Values<ImporterSettingKey>,
  connections: readonly ConfiguredConnection[],
): void {
  const email = {
    NOTIFY_EMAIL_TO: values.notifyEmailTo,
    NOTIFY_EMAIL_FROM: values.notifyEmailFrom,
    SMTP_URL: values.smtpUrl,
  };
  const office = connections.find((c) => (c.notify?.email ?? undefined) !== undefined);
  const server = values.notifyEmailFrom !== undefined && values.smtpUrl !== undefined;
  if (office !== undefined && !server)
    throw new UserError(
      'config.invalid',
      `the connection "${office.name}" has its own "notify.email" recipients, and its e-mails need NOTIFY_EMAIL_FROM and SMTP_URL (the sender and the SMTP server every office's e-mails go through): set both, or leave "email" out of its "notify".`,
      { variant: 'office-email', values: { name: office.name } },
    );
  const set = Object.entries(email).filter(([, v]) => v !== undefined);
  const officesOnly = office !== undefined && set.length === 2 && server;
  if (set.length > 0 && set.length < 3 && !officesOnly) {
    const missing = Object.keys(email).filter((k) => !set.some(([name]) => name === k));
    const given = set.map(([name]) => name);
    throw new UserError(
      'config.invalid',
      `${given.join(' and ')} ${set.length === 1 ? 'is' : 'are'} set without ${missing.join(' and ')}: e-mail notifications need all three of NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM and SMTP_URL.`,
      {
        variant: 'half-email',
        values: {
          set1: given[0] ?? '',
          set2: given[1] ?? 'none',
          missing1: missing[0] ?? '',
          missing2: missing[1] ?? 'none',
        },
      },
    );
  }
  if (values.notifyWebhookSecret !== undefined && values.notifyWebhookUrl === undefined)
    throw new UserError(
      'config.invalid',
      'NOTIFY_WEBHOOK_SECRET is set without NOTIFY_WEBHOOK_URL: set the URL the events are POSTed to, or unset the secret.',
      { variant: 'half-webhook', values: {} },
    );
}

/** A schedule whose pattern no scheduler can run on: refused before anything starts. */
function refuseBadCrons(
  schedules: ReadonlyArray<z.output<typeof scheduleSchema>>,
  where: string,
): void {
  for (const s of schedules) {
    const problem = cronProblem(s.cron);
    if (problem === undefined) continue;
    throw new UserError(
      'config.invalid',
      `"schedules" in ${where}: "${s.name}" has the cron pattern "${s.cron}", which cannot be used: ${problem}. A pattern has 5 fields (minute hour day month weekday), or 6 with seconds first, e.g. "0 2 * * *".`,
      { variant: 'cron', values: { file: where, name: s.name, cron: s.cron, problem } },
    );
  }
}

/** With several connections a schedule must say whose sheets it finds; it may name only those. */
function refuseScheduleConnections(
  schedules: ReadonlyArray<z.output<typeof scheduleSchema>>,
  connections: readonly ConfiguredConnection[],
  where: string,
): void {
  const names = connections.map((c) => c.name);
  for (const s of schedules) {
    if (s.connection === undefined) {
      if (connections.length > 1)
        throw new UserError(
          'config.invalid',
          `"schedules" in ${where}: "${s.name}" must name its "connection" (one of ${names.join(', ')}).`,
          {
            variant: 'schedule-connection',
            values: { file: where, name: s.name, names: names.join(', ') },
          },
        );
    } else if (!names.includes(s.connection)) {
      throw new UserError(
        'config.invalid',
        `"schedules" in ${where}: "${s.name}" names the connection "${s.connection}", ${names.length === 0 ? 'but there are no "connections"' : `which is not one of ${names.join(', ')}`}.`,
        {
          variant: 'schedule-connection-unknown',
          values: {
            file: where,
            name: s.name,
            connection: s.connection,
            count: names.length,
            names: names.join(', '),
          },
        },
      );
    }
  }
}

/** Whether `b` is `a` or lies inside it (by name: links are not resolved here). */
function overlap(a: string, b: string): boolean {
  const rel = relative(a, b);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The watcher takes every sheet under INBOX_DIR: with the importer's own folders there (a data
 * folder put on the share), it would take its reports, archives and failed/ bundles as sheets,
 * and move them away, without end.
 */
function refuseInboxHoldingOwnFolders(inboxDir: string, folders: Record<string, string>): void {
  for (const [what, dir] of Object.entries(folders)) {
    if (!overlap(inboxDir, dir) && !overlap(dir, inboxDir)) continue;
    throw new UserError(
      'config.invalid',
      `INBOX_DIR (${inboxDir}) and the importer's own ${what} folder (${dir}) lie one in the other: the hot folder would take the importer's own files as sheets. Give the inbox a folder of its own, beside DATA_DIR's work, archive, failed and reports folders.`,
      { variant: 'inbox-overlap', values: { inbox: inboxDir, what, dir } },
    );
  }
}

/**
 * A schedule scans with its own connection: a folder that is (or holds, or lies in) another
 * office's inbox would have that office's sheets taken, whenever the scan came before the
 * watcher, and sent with this connection's token, to its organisation.
 */
function refuseScansOfOtherInboxes(
  schedules: ReadonlyArray<z.output<typeof scheduleSchema>>,
  connections: readonly ConfiguredConnection[],
  paths: { inboxDir: string; at: (path: string) => string; where: string },
): void {
  for (const s of schedules) {
    // Without `connection`, there is one connection at most: no other office's inbox.
    if (s.connection === undefined) continue;
    const dir = paths.at(s.dir);
    const other = connections.find((c) => {
      const inbox = resolve(paths.inboxDir, c.inbox);
      return c.name !== s.connection && (overlap(dir, inbox) || overlap(inbox, dir));
    });
    if (other === undefined) continue;
    throw new UserError(
      'config.invalid',
      `"schedules" in ${paths.where}: "${s.name}" scans ${dir} for connection "${s.connection}", and the inbox of "${other.name}" (${resolve(paths.inboxDir, other.inbox)}) is there too: its sheets would be sent with the token of "${s.connection}". Give the schedule a folder of its own, or its own connection's inbox.`,
      {
        variant: 'schedule-scans-inbox',
        values: {
          file: paths.where,
          name: s.name,
          dir,
          connection: s.connection,
          other: other.name,
          inbox: resolve(paths.inboxDir, other.inbox),
        },
      },
    );
  }
}

/**
 * The `sandbox` command's settings, from its flags and the environment. Its errors keep the
 * wording that command has always had: `--port must be a whole number from 0 to 65535 (got "x").`
 */
export function loadSandboxSettings(
  input: Omit<LoadSettingsInput, 'configFile' | 'cwd'>,
): SandboxSettings {
  const sources: Sources = { flags: input.flags ?? {}, env: input.env ?? {}, file: {}, where: '' };
  return parseAll(SANDBOX_KEYS, sources, 'sentence') as SandboxSettings;
}

interface Sources {
  flags: SettingFlags;
  env: NodeJS.ProcessEnv;
  file: Record<string, unknown>;
  /** The config file, as its errors name it. */
  where: string;
}

/** `label`: `CONCURRENCY: must be …`; `sentence`: `--port must be …`, the sandbox's wording. */
type Wording = 'label' | 'sentence';

function parseAll(keys: readonly SettingKey[], sources: Sources, wording: Wording) {
  return Object.fromEntries(keys.map((key) => [key, parseOne(key, sources, wording)]));
}

function parseOne(key: SettingKey, sources: Sources, wording: Wording): unknown {
  const entry: SettingEntry = SETTINGS[key];
  const flag = sources.flags[key];
  const fromEnv = entry.env === undefined ? undefined : sources.env[entry.env];
  const inFile = flag === undefined && !(fromEnv !== undefined && fromEnv !== '');
  const [raw, source] =
    flag !== undefined
      ? [flag, entry.named ?? flagName(entry, key)]
      : fromEnv !== undefined && fromEnv !== ''
        ? [fromEnv, entry.named ?? entry.env ?? key]
        : sources.file[key] !== undefined
          ? [sources.file[key], `"${key}" in ${sources.where}`]
          : [undefined, entry.named ?? entry.env ?? key];
  const parsed = entry.schema.safeParse(raw, { reportInput: true });
  if (parsed.success) return parsed.data;
  const message = errorLine(source, describe(parsed.error), raw, wording);
  if (wording !== 'label') throw new UserError('config.invalid', message);
  const issue = parsed.error.issues[0];
  const from =
    inFile && sources.file[key] !== undefined
      ? { from: 'file', setting: key, file: sources.where, source: '' }
      : { from: 'name', setting: key, file: '', source };
  throw new UserError('config.invalid', message, {
    variant: 'setting',
    values: {
      ...from,
      at: issue !== undefined && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '',
      ...(issue === undefined ? { issue: 'other', why: 'is invalid' } : issueValues(issue)),
      got: shownValue(raw),
    },
  });
}

/** A setting's value as its error quotes it. */
function shownValue(raw: unknown): string {
  return typeof raw === 'string' ? `"${withoutCredentials(raw)}"` : JSON.stringify(raw);
}

function errorLine(source: string, why: string, raw: unknown, wording: Wording): string {
  const shown = shownValue(raw);
  if (wording === 'label') return `${source}: ${why} (got ${shown}).`;
  // The sandbox's old wording: a size of 0 was "--x: must be more than 0.", levels unquoted.
  if (!why.startsWith('must ') || why === 'must be more than 0')
    return `${source}: ${why.replace(/\.$/, '')}.`;
  const listed = why.startsWith('must be one of ') ? why.replace(/"([^"]*)"/g, '$1') : why;
  return `${source} ${listed} (got ${shown}).`;
}

function flagName(entry: SettingEntry, key: string): string {
  return entry.flag?.split(' ')[0] ?? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/**
 * A value as an error may quote it. Anything with an `@` may hold a password (`user:pw@host`, in
 * any of the spellings a URL parser accepts): it is shown as parsed with the credentials taken
 * out, or not at all when it does not parse.
 */
function withoutCredentials(text: string): string {
  if (!text.includes('@')) return text;
  try {
    const url = new URL(text.trim());
    const hidden = url.username !== '' || url.password !== '';
    url.username = '';
    url.password = '';
    return hidden ? url.toString().replace('//', '//***@') : url.toString();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return '(not shown: it may hold a password)';
  }
}

async function readConfigFile(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as Error).message;
    throw new UserError('config.invalid', `--config ${file} cannot be read: ${reason}.`, {
      cause: error,
      variant: 'unreadable',
      values: { file, reason },
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const mistake = jsonMistake(text, error);
    throw new UserError('config.invalid', `--config ${file} is not valid JSON: ${mistake}.`, {
      cause: error,
      variant: 'json',
      values: { file, mistake },
    });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new UserError('config.invalid', `--config ${file} must hold a JSON object of settings.`, {
      variant: 'not-object',
      values: { file },
    });
  }
  // Before anything recursive (zod, JSON.stringify in messages) sees it: it would overflow the stack.
  if (nestsDeeperThan(json, MAX_NESTING)) {
    throw new UserError(
      'config.invalid',
      `--config ${file} is nested more than ${MAX_NESTING} levels deep: no setting is; check that it is the importer's config file.`,
    );
  }
  const known = new Set<string>([...IMPORTER_KEYS, 'schedules', 'connections', 'mapping']);
  const unknown = Object.keys(json).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    const values = {
      file,
      unknown: unknown.map((k) => `"${k}"`).join(', '),
      known: [...known].join(', '),
    };
    throw new UserError(
      'config.invalid',
      `--config ${file}: unknown setting ${values.unknown}; known: ${values.known}.`,
      { variant: 'unknown', values },
    );
  }
  return json as Record<string, unknown>;
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'is invalid';
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issueText(issue)}`;
}
