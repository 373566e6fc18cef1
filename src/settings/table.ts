/**
 * Every setting, written once: its key (in the config file), its environment variable, its flag,
 * its help text and its schema, whose `.default()` is the default (`--help` shows it from there).
 * The CLI's options and help are generated from this table; the importer's settings are loaded
 * from it (./load.ts), and so are the `sandbox` command's, which the CLI maps onto the sandbox's
 * own options.
 */
import { z } from 'zod';

import { normaliseBaseUrl } from '../connections/connection.js';
import { hostOfHeader } from '../dashboard/hosts.js';
import { cronProblem } from './cron.js';
import { readRedisUrl } from '../redis/target.js';
import { parseSize, sandboxOptionsSchema } from '../../sandbox/options.js';
import { DEMO_TOKEN, parseTokens } from '../../sandbox/tokens.js';
import {
  API_TIMEOUT_MS,
  API_WAIT_S,
  INBOX_STABLE_MS,
  JOB_LOCK_MS,
  LEDGER_DAYS,
  RETENTION_DAYS,
  NOTIFY_RETRY_HOURS,
  REDIS_WAIT_S,
  RETRY_DELAY_MS,
  ROW_ATTEMPTS,
  STATUS_DAYS,
} from '../policy.js';
import { isKnown } from '../errors.js';
import { languageOf } from '../language/languages.js';

export interface SettingEntry {
  env?: string;
  /** Its flag as commander spells it (`--concurrency <n>`), on the commands that list it. */
  flag?: string;
  /** A flag given more than once collects its values. */
  repeatable?: boolean;
  help: string;
  /** The default as `--help` says it, when the schema has none to show (a folder under DATA_DIR). */
  shownDefault?: string;
  /** How its errors name it, when not by the flag or variable it came from. */
  named?: string;
  schema: z.ZodType;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const positiveInt = z.coerce.number().int().positive();
const nonEmpty = z.string().trim().min(1);

/** What the sandbox does when not told otherwise: its own schema's defaults, said in `--help`. */
const SANDBOX_DEFAULTS = sandboxOptionsSchema.parse({});

/** A base URL in its one spelling; credentials and other mistakes are the setting's error. */
function normalisedUrl(text: string, context: z.RefinementCtx): string {
  try {
    return normaliseBaseUrl(text);
  } catch (error) {
    if (!isKnown(error, 'connection.url-invalid')) throw error;
    // Its variant names the issue, for the setting's error in a person's language.
    context.addIssue({ code: 'custom', message: error.message, params: { said: error.variant } });
    return z.NEVER;
  }
}

/** A REDIS_URL that cannot be used (redis/target.ts says why). */
function redisUrlProblem(text: string, context: z.RefinementCtx): void {
  const read = readRedisUrl(text);
  if ('problem' in read) context.addIssue({ code: 'custom', message: read.problem });
}

/** Yes or no, from a flag (true), a config file (a boolean) or the environment (`1`, `yes`…). */
const yesNo = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'yes', 'no'])])
  .transform((v) => v === true || v === '1' || v === 'true' || v === 'yes');

/** The sandbox's numbers, in the words its command has always used. */
function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .refine((v) => /^\s*\d+\s*$/.test(v) && Number(v) >= min && Number(v) <= max, {
      error: `must be a whole number from ${min} to ${max}`,
    })
    .transform(Number);
}

const probability = z
  .string()
  .refine((v) => v.trim() !== '' && Number(v) >= 0 && Number(v) <= 1, {
    error: 'must be a probability from 0 to 1',
  })
  .transform(Number);

/** Sizes as PHP's ini files write them (`2M`), in bytes. */
const size = z.string().transform((text, context) => {
  try {
    const bytes = parseSize(text);
    if (bytes > 0) return bytes;
    context.addIssue({ code: 'custom', message: 'must be more than 0' });
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    context.addIssue({ code: 'custom', message: error.message });
  }
  return z.NEVER;
});

const tokens = z.union([z.string(), z.array(z.string())]).transform((items, context) => {
  try {
    return parseTokens([items].flat());
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    context.addIssue({ code: 'custom', message: error.message });
    return z.NEVER;
  }
});

/** An address as people write it; the SMTP server has the last word. */
const EMAIL = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;

const bytesShown = (bytes: number) => `${bytes / 1024 / 1024}M`;

export const SETTINGS = {
  apiBaseUrl: {
    env: 'API_BASE_URL',
    help: 'Order and File Service base URL',
    shownDefault: 'unset: the embedded sandbox',
    schema: z.string().transform(normalisedUrl).optional(),
  },
  apiToken: {
    env: 'API_TOKEN',
    help: 'bearer token',
    shownDefault: "the sandbox's demo token when the sandbox is used",
    schema: nonEmpty.optional(),
  },
  apiTokenFile: {
    env: 'API_TOKEN_FILE',
    help: 'a file holding the bearer token',
    schema: nonEmpty.optional(),
  },
  redisUrl: {
    env: 'REDIS_URL',
    help: 'Redis to queue on: redis://host:port, rediss:// over TLS, a Sentinel set as redis+sentinel://host:port[,host:port…]/<master name>, a Cluster as redis+cluster://host:port[,host:port…]; an ACL user as user:password@ before the host',
    shownDefault: 'redis://127.0.0.1:6379, else a private redis-server',
    schema: z.string().trim().superRefine(redisUrlProblem).optional(),
  },
  redisTlsCaFile: {
    env: 'REDIS_TLS_CA_FILE',
    help: 'the CA certificate (PEM) that signed the certificate of a rediss:// Redis, when no CA of the system did',
    shownDefault: "the system's CAs",
    schema: nonEmpty.optional(),
  },
  dataDir: {
    env: 'DATA_DIR',
    flag: '--data-dir <dir>',
    help: 'root of the data folders (inbox/, work/, archive/, reports/, failed/, sheets/; sandbox/ and redis/ when those are embedded)',
    schema: nonEmpty.default('data'),
  },
  inboxDir: {
    env: 'INBOX_DIR',
    help: 'watched folder',
    shownDefault: 'DATA_DIR/inbox',
    schema: nonEmpty.optional(),
  },
  inboxPolling: {
    env: 'INBOX_POLLING',
    flag: '--poll',
    help: 'poll the inbox instead of waiting for file events (network shares)',
    shownDefault: 'off: file events',
    schema: yesNo.default(false),
  },
  inboxStableMs: {
    env: 'INBOX_STABLE_MS',
    help: 'how long a sheet must stay unchanged before it is taken, in ms',
    schema: z.coerce.number().int().min(0).default(INBOX_STABLE_MS),
  },
  reportsDir: {
    env: 'REPORTS_DIR',
    flag: '--reports-dir <dir>',
    help: 'where reports go',
    shownDefault: 'DATA_DIR/reports',
    schema: nonEmpty.optional(),
  },
  productsFile: {
    env: 'PRODUCTS_FILE',
    flag: '--products <file>',
    help: 'product catalogue (JSON)',
    shownDefault: 'samples/products.json',
    schema: nonEmpty.optional(),
  },
  concurrency: {
    env: 'CONCURRENCY',
    flag: '--concurrency <n>',
    help: 'row jobs in flight per process',
    schema: positiveInt.max(1000).default(8),
  },
  apiRateLimit: {
    env: 'API_RATE_LIMIT',
    help: 'max API requests per minute over all workers',
    shownDefault: "learned from the API's X-RateLimit-* headers; 429s are obeyed either way",
    schema: positiveInt.optional(),
  },
  apiTimeoutMs: {
    env: 'API_TIMEOUT_MS',
    help: 'per-request timeout in ms',
    schema: positiveInt.default(API_TIMEOUT_MS),
  },
  apiWaitS: {
    env: 'API_WAIT_S',
    flag: '--api-wait-s <seconds>',
    help: 'how long an API that is away or busy at start is waited for',
    schema: z.coerce.number().int().min(0).default(API_WAIT_S),
  },
  redisWaitS: {
    env: 'REDIS_WAIT_S',
    flag: '--redis-wait-s <seconds>',
    help: 'how long `import` waits for Redis when it goes away, before it stops',
    schema: z.coerce.number().int().min(0).default(REDIS_WAIT_S),
  },
  ledgerDays: {
    env: 'LEDGER_DAYS',
    flag: '--ledger-days <days>',
    help: 'how long the duplicates ledger remembers a row imported',
    schema: positiveInt.max(100_000).default(LEDGER_DAYS),
  },
  retentionDays: {
    env: 'RETENTION_DAYS',
    flag: '--retention-days <days>',
    help: '`watch` removes once a day every sheet reported more than this many days ago (its report, archive, copies and records; 0 keeps them for ever)',
    schema: z.coerce.number().int().min(0).max(100_000).default(RETENTION_DAYS),
  },
  statusDays: {
    env: 'STATUS_DAYS',
    flag: '--status-days <days>',
    help: '`status` (and the scheduled refresh) reads back the sheets reported within this many days',
    schema: positiveInt.max(100_000).default(STATUS_DAYS),
  },
  inspectionMinutes: {
    env: 'INSPECTION_MINUTES',
    help: "how long an inspection lasts in the agenda's calendars (.ics, the offices' feeds), in minutes",
    schema: positiveInt.max(24 * 60).default(60),
  },
  statusSyncCron: {
    env: 'STATUS_SYNC_CRON',
    help: "when `watch` reads back the orders of the last STATUS_DAYS (cron, 5 fields or 6 with seconds; 'off' for never)",
    schema: z
      .string()
      .trim()
      .superRefine((v, context) => {
        const problem = v === 'off' ? undefined : cronProblem(v);
        if (problem !== undefined)
          context.addIssue({
            code: 'custom',
            message: `must be a cron pattern of 5 or 6 fields (e.g. '0 * * * *'), or 'off': ${problem}`,
          });
      })
      .default('0 * * * *'),
  },
  statusFinal: {
    env: 'STATUS_FINAL',
    help: 'comma-separated order statuses that never change again: a sheet whose orders all have one is not read again by the scheduled refresh or by `status` without arguments',
    schema: z
      .union([z.string(), z.array(z.string())])
      .default('cancelled,done')
      .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean)),
  },
  maxAttachmentMb: {
    env: 'MAX_ATTACHMENT_MB',
    flag: '--max-attachment-mb <mb>',
    help: 'largest attachment accepted, per file',
    schema: z.coerce.number().positive().default(20),
  },
  dashboardHost: {
    env: 'DASHBOARD_HOST',
    flag: '--host <host>',
    help: 'address the dashboard listens on (any other than loopback needs DASHBOARD_USER and DASHBOARD_PASSWORD)',
    schema: nonEmpty.default('127.0.0.1'),
  },
  dashboardPort: {
    env: 'DASHBOARD_PORT',
    flag: '--port <port>',
    help: 'port the dashboard listens on',
    schema: z.coerce.number().int().min(0).max(65_535).default(3000),
  },
  /**
   * A request for any other name than these and the loopback ones is refused (421), so no web
   * page can reach the dashboard through DNS rebinding.
   */
  dashboardHosts: {
    env: 'DASHBOARD_HOSTS',
    flag: '--hosts <names>',
    help: 'comma-separated host names the dashboard answers besides localhost, 127.0.0.1, ::1 and --host; any other is refused',
    shownDefault: 'only those',
    schema: z
      .union([z.string(), z.array(z.string())])
      .default([])
      .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((h) => h.trim()).filter(Boolean))
      .refine((hosts) => hosts.every((h) => hostOfHeader(h) !== undefined), {
        error:
          'must be host names or addresses separated by commas, e.g. "dash.example.com,10.0.0.5" (no scheme, path or *)',
      }),
  },
  /**
   * `worker`'s /metrics, /healthz and /readyz: a port of their own, since a worker serves no
   * dashboard. Unset: not served.
   */
  metricsPort: {
    env: 'METRICS_PORT',
    flag: '--metrics-port <port>',
    help: 'port on which `worker` serves /metrics, /healthz and /readyz (unset: none)',
    schema: z.coerce.number().int().min(0).max(65_535).optional(),
  },
  /**
   * Every address by default: a scraper or a supervisor reaches a worker from another host or
   * container. It serves counts and up or down only, never a sheet or an order.
   */
  metricsHost: {
    env: 'METRICS_HOST',
    flag: '--metrics-host <host>',
    help: 'address the METRICS_PORT server listens on',
    schema: nonEmpty.default('0.0.0.0'),
  },
  dashboardUser: {
    env: 'DASHBOARD_USER',
    help: "the dashboard's login",
    schema: nonEmpty.optional(),
  },
  dashboardPassword: {
    env: 'DASHBOARD_PASSWORD',
    help: "the dashboard's password",
    schema: nonEmpty.optional(),
  },
  dashboardUsersFile: {
    env: 'DASHBOARD_USERS_FILE',
    help: "the dashboard's users and the offices each sees (JSON, written by order-importer dashboard-user); replaces DASHBOARD_USER/DASHBOARD_PASSWORD",
    schema: nonEmpty.optional(),
  },
  language: {
    flag: '--language <code>',
    help: 'language of what a person reads: nl, fr or en (log lines stay English)',
    shownDefault: 'from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en',
    named: '--language',
    schema: z
      .string()
      .transform((text, context) => {
        const language = languageOf(text);
        if (language !== undefined) return language;
        context.addIssue({ code: 'custom', message: 'must be nl, fr or en' });
        return z.NEVER;
      })
      .optional(),
  },
  logLevel: {
    env: 'LOG_LEVEL',
    flag: '--log-level <level>',
    help: 'log level',
    schema: z.enum(LOG_LEVELS).default('info'),
  },
  queuePrefix: {
    env: 'QUEUE_PREFIX',
    help: 'prefix of every Redis key; a {hash tag} keeps them in one Cluster slot',
    schema: z
      .string()
      .trim()
      .regex(/^[^:\s]+$/, 'must not hold ":" or spaces')
      .default('{order-importer}'),
  },
  rowAttempts: {
    env: 'ROW_ATTEMPTS',
    help: 'attempts of a row job before it fails',
    schema: positiveInt.max(100).default(ROW_ATTEMPTS),
  },
  retryDelayMs: {
    env: 'RETRY_DELAY_MS',
    help: 'first retry delay of a row, in ms (doubling, with jitter)',
    schema: positiveInt.default(RETRY_DELAY_MS),
  },
  /** Read where the embedded sandbox starts (app/api-connection.ts); `sandbox` takes --planning. */
  embeddedSandboxPlanningS: {
    env: 'SANDBOX_PLANNING_S',
    flag: '--sandbox-planning <seconds>',
    help: 'without API_BASE_URL: the embedded sandbox plans each order (dates, inspectors, a new status) this long after it is created; 0: never',
    schema: z.coerce.number().int().min(0).default(60),
  },
  jobLockMs: {
    env: 'JOB_LOCK_MS',
    help: 'how long a worker holds a job before a stall is declared and another worker resumes it',
    schema: positiveInt.min(500).default(JOB_LOCK_MS),
  },

  notifyWebhookUrl: {
    env: 'NOTIFY_WEBHOOK_URL',
    help: 'where events (sheet.done, sheet.unreadable, orders.changed) are POSTed as JSON',
    shownDefault: 'none',
    schema: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  },
  notifyWebhookSecret: {
    env: 'NOTIFY_WEBHOOK_SECRET',
    help: 'signs each webhook body: X-Order-Importer-Signature: sha256=<HMAC-SHA256 of the body>',
    shownDefault: 'unsigned',
    schema: nonEmpty.optional(),
  },
  notifyEmailTo: {
    env: 'NOTIFY_EMAIL_TO',
    help: 'comma-separated addresses that get an e-mail per event (with NOTIFY_EMAIL_FROM and SMTP_URL)',
    shownDefault: 'none',
    schema: z
      .union([z.string(), z.array(z.string())])
      .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((a) => a.trim()).filter(Boolean))
      .refine((list) => list.length > 0 && list.every((a) => EMAIL.test(a)), {
        error: 'must be e-mail addresses separated by commas, e.g. "ops@agency.be,jan@agency.be"',
      })
      .optional(),
  },
  notifyEmailFrom: {
    env: 'NOTIFY_EMAIL_FROM',
    help: 'the sender of those e-mails',
    schema: z
      .string()
      .trim()
      .refine((v) => EMAIL.test(v) || /^[^<>]*<[^<>\s]+@[^<>\s]+>$/.test(v), {
        error: 'must be an e-mail address, or "Name <address>"',
      })
      .optional(),
  },
  smtpUrl: {
    env: 'SMTP_URL',
    help: 'the SMTP server of those e-mails: smtp://user:password@host:587 or smtps://… (its credentials are never shown)',
    schema: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  },
  notifyRetryHours: {
    env: 'NOTIFY_RETRY_HOURS',
    help: 'how long a notification that cannot be delivered is tried again',
    schema: z.coerce
      .number()
      .positive()
      .max(24 * 365)
      .default(NOTIFY_RETRY_HOURS),
  },

  // `order-importer sandbox`: read from flags and the environment only.
  sandboxHost: {
    env: 'SANDBOX_HOST',
    flag: '--host <host>',
    help: 'address to listen on',
    schema: nonEmpty.default(SANDBOX_DEFAULTS.host),
  },
  sandboxPort: {
    env: 'SANDBOX_PORT',
    flag: '--port <port>',
    help: 'port to listen on, 0 for any free one',
    schema: wholeNumber(0, 65_535).default(4010),
  },
  sandboxDataDir: {
    env: 'SANDBOX_DATA_DIR',
    flag: '--data <dir>',
    help: 'keep orders and files in this folder',
    shownDefault: 'in memory',
    schema: nonEmpty.optional(),
  },
  sandboxTokens: {
    env: 'SANDBOX_TOKENS',
    flag: '--token <token[:org]>',
    repeatable: true,
    help: 'accepted bearer token and its organisation; repeatable (the variable comma-separated)',
    shownDefault: `the demo token ${DEMO_TOKEN.token}:${DEMO_TOKEN.org}`,
    named: '--token / SANDBOX_TOKENS',
    schema: tokens.optional(),
  },
  sandboxRateLimit: {
    env: 'SANDBOX_RATE_LIMIT',
    flag: '--rate-limit <n>',
    help: 'requests per window per token, then 429',
    shownDefault: 'none',
    schema: wholeNumber(1).optional(),
  },
  sandboxRateWindow: {
    env: 'SANDBOX_RATE_WINDOW',
    flag: '--rate-window <seconds>',
    help: 'rate-limit window',
    schema: wholeNumber(1).default(SANDBOX_DEFAULTS.rateWindowMs / 1000),
  },
  sandboxPostMaxSize: {
    env: 'SANDBOX_POST_MAX_SIZE',
    flag: '--post-max-size <size>',
    help: "PHP's post_max_size: larger bodies get a JSON 413",
    shownDefault: bytesShown(SANDBOX_DEFAULTS.postMaxBytes),
    schema: size.optional(),
  },
  sandboxProxyBodyLimit: {
    env: 'SANDBOX_PROXY_BODY_LIMIT',
    flag: '--proxy-body-limit <size>',
    help: "a front proxy's limit: larger bodies get nginx's HTML 413 (nginx's own is 1M)",
    shownDefault: 'off',
    schema: size.optional(),
  },
  sandboxUploadMaxFilesize: {
    env: 'SANDBOX_UPLOAD_MAX_FILESIZE',
    flag: '--upload-max-filesize <size>',
    help: "PHP's upload_max_filesize: a larger file gets 422 'failed to upload' (PHP's own is 2M)",
    shownDefault: 'off',
    schema: size.optional(),
  },
  sandboxMaxFileUploads: {
    env: 'SANDBOX_MAX_FILE_UPLOADS',
    flag: '--max-file-uploads <n>',
    help: "PHP's max_file_uploads: files past it are silently dropped (PHP's own is 20)",
    shownDefault: 'off',
    schema: wholeNumber(1).optional(),
  },
  sandboxPhpDefaults: {
    flag: '--php-defaults',
    help: "PHP's stock limits where not given: upload_max_filesize 2M, max_file_uploads 20, post_max_size 8M",
    schema: z.boolean().default(false),
  },
  sandboxRedirectTrailingSlash: {
    flag: '--redirect-trailing-slash',
    help: "answer /api/orders/ with Apache's 301 to /api/orders",
    schema: z.boolean().default(SANDBOX_DEFAULTS.redirectTrailingSlash),
  },
  sandboxQuirks: {
    flag: '--no-quirks',
    help: 'return retrieved orders without the documented quirks',
    schema: z.boolean().default(SANDBOX_DEFAULTS.quirks),
  },
  sandboxPlanning: {
    flag: '--planning <seconds>',
    help: 'plan each order this long after it is created: a date and an inspector per inspection, and a new status (scheduled, a few cancelled, later done); 0: never',
    shownDefault: 'never',
    schema: wholeNumber(0).default(SANDBOX_DEFAULTS.planning),
  },
  sandboxSeed: {
    env: 'SANDBOX_SEED',
    flag: '--seed <n>',
    help: 'seed of the injected faults and of the planning',
    schema: wholeNumber(0).default(SANDBOX_DEFAULTS.faults.seed),
  },
  sandboxLatency: {
    env: 'SANDBOX_LATENCY_MS',
    flag: '--latency <ms>',
    help: 'delay added to every API request',
    shownDefault: '0',
    schema: wholeNumber(0).optional(),
  },
  sandboxJitter: {
    env: 'SANDBOX_JITTER_MS',
    flag: '--jitter <ms>',
    help: 'random extra delay, up to this much',
    shownDefault: '0',
    schema: wholeNumber(0).optional(),
  },
  sandboxP503: {
    env: 'SANDBOX_P503',
    flag: '--p503 <p>',
    help: 'probability of a 503 with Retry-After before any work',
    shownDefault: '0',
    schema: probability.optional(),
  },
  sandboxRetryAfter: {
    env: 'SANDBOX_RETRY_AFTER',
    flag: '--retry-after <seconds>',
    help: 'Retry-After of injected 503s',
    schema: wholeNumber(0).default(SANDBOX_DEFAULTS.faults.retryAfterSeconds),
  },
  sandboxPResetBefore: {
    env: 'SANDBOX_P_RESET_BEFORE',
    flag: '--p-reset-before <p>',
    help: 'probability of a connection reset before any work',
    shownDefault: '0',
    schema: probability.optional(),
  },
  sandboxP500After: {
    env: 'SANDBOX_P500_AFTER',
    flag: '--p500-after <p>',
    help: 'probability of a 500 after an order or file is stored',
    shownDefault: '0',
    schema: probability.optional(),
  },
  sandboxPResetAfter: {
    env: 'SANDBOX_P_RESET_AFTER',
    flag: '--p-reset-after <p>',
    help: 'probability of a connection reset after an order or file is stored',
    shownDefault: '0',
    schema: probability.optional(),
  },
} as const satisfies Record<string, SettingEntry>;

export type SettingKey = keyof typeof SETTINGS;
/** The `sandbox` command's own settings; it reads PRODUCTS_FILE and LOG_LEVEL too. */
export type SandboxSettingKey = Extract<SettingKey, `sandbox${string}`>;
/** The importer's settings: everything but the sandbox's own. */
export type ImporterSettingKey = Exclude<SettingKey, SandboxSettingKey>;

export type SettingValue<K extends SettingKey> = z.output<(typeof SETTINGS)[K]['schema']>;

const keys = Object.keys(SETTINGS) as SettingKey[];
export const SANDBOX_KEYS = [
  ...keys.filter((k): k is SandboxSettingKey => k.startsWith('sandbox')),
  'productsFile',
  'logLevel',
] as const;
export const IMPORTER_KEYS = keys.filter((k): k is ImporterSettingKey => !k.startsWith('sandbox'));

/** Every environment variable a setting is read from. */
export const SETTING_ENV: readonly string[] = Object.values(SETTINGS).flatMap((s: SettingEntry) =>
  s.env === undefined ? [] : [s.env],
);

/**
 * A setting's default as `--help` says it: its `shownDefault`, else its schema's default when that
 * is a text or a number. Booleans are flags, whose help says what they turn on; a list is not said.
 */
export function shownDefault(key: SettingKey): string | undefined {
  const entry: SettingEntry = SETTINGS[key];
  if (entry.shownDefault !== undefined) return entry.shownDefault;
  const parsed = entry.schema.safeParse(undefined);
  const value: unknown = parsed.success ? parsed.data : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/**
 * A setting's line in `--help`, in English (the CLI says it in the person's language from the
 * catalogue, src/cli/help.ts): its text, the variable it is also read from, and its default.
 */
export function settingHelp(key: SettingKey): string {
  const entry: SettingEntry = SETTINGS[key];
  const shown = shownDefault(key);
  const notes = [
    entry.env !== undefined && `env ${entry.env}`,
    shown !== undefined && `default ${shown}`,
  ].filter((n): n is string => typeof n === 'string');
  return notes.length === 0 ? entry.help : `${entry.help} (${notes.join('; ')})`;
}
