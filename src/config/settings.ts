/**
 * The importer's settings (docs/design.md §2 "Configuration"): flags > environment > config file >
 * defaults, parsed once with zod into one typed object that is passed to whatever needs it.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';

import { z } from 'zod';

import { ConnectionUrlError, normaliseBaseUrl } from '../connections/connection.js';
import { hostOfHeader } from '../dashboard/hosts.js';
import { defaultProductsFile } from '../package-root.js';
import { issueText } from './issue-text.js';

/** A setting that cannot be used: the message is one line and names the setting. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const positiveInt = z.coerce.number().int().positive();
const nonEmpty = z.string().trim().min(1);

const scheduleSchema = z.object({
  name: nonEmpty,
  cron: nonEmpty,
  dir: nonEmpty,
});

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

/** A base URL in its one spelling; credentials and other mistakes are the setting's error. */
function normalisedUrl(text: string, context: z.RefinementCtx): string {
  try {
    return normaliseBaseUrl(text);
  } catch (error) {
    if (!(error instanceof ConnectionUrlError)) throw error;
    context.addIssue({ code: 'custom', message: error.message });
    return z.NEVER;
  }
}

/**
 * Every setting: its key in the config file, its environment variable, and its schema. Paths are
 * resolved against the working folder after parsing.
 */
const SETTINGS = {
  /** Order and File Service base URL. @defaultValue unset: the embedded sandbox */
  apiBaseUrl: {
    env: 'API_BASE_URL',
    schema: z.string().transform(normalisedUrl).optional(),
  },
  /** Bearer token. @defaultValue the sandbox's demo token when the sandbox is used */
  apiToken: { env: 'API_TOKEN', schema: nonEmpty.optional() },
  /** A file holding the bearer token. */
  apiTokenFile: { env: 'API_TOKEN_FILE', schema: nonEmpty.optional() },
  /** @defaultValue `redis://127.0.0.1:6379`, else a private redis-server */
  redisUrl: {
    env: 'REDIS_URL',
    schema: z
      .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
      .optional(),
  },
  /** Root of inbox/, work/, archive/, reports/, failed/. @defaultValue `./data` */
  dataDir: { env: 'DATA_DIR', schema: nonEmpty.default('data') },
  /** Watched folder. @defaultValue `$DATA_DIR/inbox` */
  inboxDir: { env: 'INBOX_DIR', schema: nonEmpty.optional() },
  /** Poll the inbox instead of waiting for file events (network shares). @defaultValue false */
  inboxPolling: {
    env: 'INBOX_POLLING',
    schema: z
      .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'yes', 'no'])])
      .default(false)
      .transform((v) => v === true || v === '1' || v === 'true' || v === 'yes'),
  },
  /** How long a sheet must stay unchanged before it is taken, in ms. @defaultValue 2000 */
  inboxStableMs: { env: 'INBOX_STABLE_MS', schema: z.coerce.number().int().min(0).default(2000) },
  /** @defaultValue `$DATA_DIR/reports` */
  reportsDir: { env: 'REPORTS_DIR', schema: nonEmpty.optional() },
  /** Product catalogue. @defaultValue `samples/products.json` */
  productsFile: { env: 'PRODUCTS_FILE', schema: nonEmpty.optional() },
  /** Row jobs in flight per worker process. @defaultValue 8 */
  concurrency: { env: 'CONCURRENCY', schema: positiveInt.max(1000).default(8) },
  /** Max API requests per minute over all workers. @defaultValue no cap */
  apiRateLimit: { env: 'API_RATE_LIMIT', schema: positiveInt.optional() },
  /** Per-request timeout in ms. @defaultValue 30000 */
  apiTimeoutMs: { env: 'API_TIMEOUT_MS', schema: positiveInt.default(30_000) },
  /** How long the API is waited for at start (refused, 429, 502, 503, timeouts), in seconds, before giving up. @defaultValue 300 */
  apiWaitS: { env: 'API_WAIT_S', schema: z.coerce.number().int().min(0).default(300) },
  /** How long `import` waits out a Redis that stopped answering, in seconds, before it stops. @defaultValue 300 */
  redisWaitS: { env: 'REDIS_WAIT_S', schema: z.coerce.number().int().min(0).default(300) },
  /** Largest attachment accepted, per file, in MB. @defaultValue 20 */
  maxAttachmentMb: { env: 'MAX_ATTACHMENT_MB', schema: z.coerce.number().positive().default(20) },
  /** @defaultValue `127.0.0.1` */
  dashboardHost: { env: 'DASHBOARD_HOST', schema: nonEmpty.default('127.0.0.1') },
  /** @defaultValue 3000 */
  dashboardPort: {
    env: 'DASHBOARD_PORT',
    schema: z.coerce.number().int().min(0).max(65_535).default(3000),
  },
  /**
   * Host names the dashboard answers besides the loopback names (`localhost`, `127.0.0.1`,
   * `::1`) and DASHBOARD_HOST when that is one address; comma-separated (a list in the config
   * file). A request for any other name is refused (421), so no web page can reach the
   * dashboard through DNS rebinding. @defaultValue none: only those names
   */
  dashboardHosts: {
    env: 'DASHBOARD_HOSTS',
    schema: z
      .union([z.string(), z.array(z.string())])
      .default([])
      .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((h) => h.trim()).filter(Boolean))
      .refine((hosts) => hosts.every((h) => hostOfHeader(h) !== undefined), {
        error:
          'must be host names or addresses separated by commas, e.g. "dash.example.com,10.0.0.5" (no scheme, path or *)',
      }),
  },
  dashboardUser: { env: 'DASHBOARD_USER', schema: nonEmpty.optional() },
  dashboardPassword: { env: 'DASHBOARD_PASSWORD', schema: nonEmpty.optional() },
  /** @defaultValue `info` */
  logLevel: { env: 'LOG_LEVEL', schema: z.enum(LOG_LEVELS).default('info') },
  /** Prefix of every Redis key; a `{hash tag}` keeps them in one Cluster slot. @defaultValue `{order-importer}` */
  queuePrefix: {
    env: 'QUEUE_PREFIX',
    schema: z
      .string()
      .trim()
      .regex(/^[^:\s]+$/, 'must not hold ":" or spaces')
      .default('{order-importer}'),
  },
  /** Attempts of a row job before it fails. @defaultValue 8 */
  rowAttempts: { env: 'ROW_ATTEMPTS', schema: positiveInt.max(100).default(8) },
  /** First retry delay of a row, in ms (doubling, with jitter). @defaultValue 1000 */
  retryDelayMs: { env: 'RETRY_DELAY_MS', schema: positiveInt.default(1000) },
  /** How long a worker holds a job before a stall is declared and another worker resumes it. @defaultValue 30000 */
  jobLockMs: { env: 'JOB_LOCK_MS', schema: positiveInt.min(500).default(30_000) },
} as const;

type SettingKey = keyof typeof SETTINGS;

/** Every environment variable the importer's settings read. */
export const SETTING_ENV: readonly string[] = Object.values(SETTINGS).map((s) => s.env);

export type Settings = {
  [K in SettingKey]: z.output<(typeof SETTINGS)[K]['schema']>;
} & {
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
  /** The config file read, if any. */
  configFile?: string;
};

export interface LoadSettingsInput {
  /** Values from command-line flags, by setting key; undefined means "not given". */
  flags?: Partial<Record<SettingKey, string | number | undefined>>;
  env?: NodeJS.ProcessEnv;
  /** `--config FILE`. */
  configFile?: string;
  /** Folder that relative paths are resolved against. */
  cwd: string;
}

export async function loadSettings(input: LoadSettingsInput): Promise<Settings> {
  const env = input.env ?? {};
  const file = input.configFile === undefined ? undefined : resolve(input.cwd, input.configFile);
  const fromFile = file === undefined ? {} : await readConfigFile(file);

  const values: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as Array<
    [SettingKey, (typeof SETTINGS)[SettingKey]]
  >) {
    const flag = input.flags?.[key];
    const fromEnv = env[setting.env];
    const [raw, source] =
      flag !== undefined
        ? [flag, `--${kebab(key)}`]
        : fromEnv !== undefined && fromEnv !== ''
          ? [fromEnv, setting.env]
          : fromFile[key] !== undefined
            ? [fromFile[key], `"${key}" in ${file ?? 'the config file'}`]
            : [undefined, setting.env];
    const parsed = (setting.schema as z.ZodType).safeParse(raw, { reportInput: true });
    if (!parsed.success) {
      const shown = typeof raw === 'string' ? `"${withoutCredentials(raw)}"` : JSON.stringify(raw);
      throw new ConfigError(`${source}: ${describe(parsed.error)} (got ${shown}).`);
    }
    values[key] = parsed.data;
  }
  const schedules = z
    .array(scheduleSchema)
    .default([])
    .safeParse(fromFile.schedules, { reportInput: true });
  if (!schedules.success) {
    throw new ConfigError(
      `"schedules" in ${file ?? 'the config file'}: ${describe(schedules.error)}.`,
    );
  }

  const at = (path: string) => (isAbsolute(path) ? path : resolve(input.cwd, path));
  const dataDir = at(values.dataDir as string);
  return {
    ...(values as Omit<
      Settings,
      | 'productsFile'
      | 'inboxDir'
      | 'reportsDir'
      | 'workDir'
      | 'archiveDir'
      | 'failedDir'
      | 'schedules'
    >),
    dataDir,
    inboxDir: at((values.inboxDir as string | undefined) ?? resolve(dataDir, 'inbox')),
    reportsDir: at((values.reportsDir as string | undefined) ?? resolve(dataDir, 'reports')),
    workDir: resolve(dataDir, 'work'),
    archiveDir: resolve(dataDir, 'archive'),
    failedDir: resolve(dataDir, 'failed'),
    productsFile: at((values.productsFile as string | undefined) ?? defaultProductsFile()),
    ...(values.apiTokenFile !== undefined && { apiTokenFile: at(values.apiTokenFile as string) }),
    schedules: schedules.data.map((s) => ({ ...s, dir: at(s.dir) })),
    ...(file !== undefined && { configFile: file }),
  };
}

async function readConfigFile(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`--config ${file} cannot be read: ${(error as Error).message}.`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`--config ${file} is not valid JSON: ${(error as Error).message}.`, {
      cause: error,
    });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ConfigError(`--config ${file} must hold a JSON object of settings.`);
  }
  const known = new Set<string>([...Object.keys(SETTINGS), 'schedules']);
  const unknown = Object.keys(json).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw new ConfigError(
      `--config ${file}: unknown setting ${unknown.map((k) => `"${k}"`).join(', ')}; known: ${[...known].join(', ')}.`,
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

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
