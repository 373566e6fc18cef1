/**
 * `connections` in the config file (docs/design.md §2 "Connections"): several offices in one
 * installation, each with its API, its token file, its inbox subfolder and its mapping. Checked
 * whole at start: an entry that could send one office's sheet with another's token, or take a
 * sheet from outside the inbox, is refused before anything runs.
 */
import { isAbsolute, resolve } from 'node:path';

import { z } from 'zod';

import { normaliseBaseUrl } from '../connections/connection.js';
import { issueText } from './issue-text.js';
import { SETTINGS } from './table.js';
import { isKnown, UserError } from '../errors.js';
import { type Language, LANGUAGES } from '../language/languages.js';

/** One office's connection, as the config file gives it, checked and with its paths resolved. */
export interface ConfiguredConnection {
  /** Its name: in reports, the dashboard, `--connection NAME`. */
  name: string;
  /** Normalised, without credentials. */
  apiBaseUrl: string;
  /** The file holding its token (absolute); read when the connection is opened, never logged. */
  tokenFile: string;
  /** Its subfolder of INBOX_DIR, as `/`-separated names (`gent`, `west/brugge`). */
  inbox: string;
  /** Its column mapping file (absolute), when it has one. */
  mapping?: string;
  /** The language of its reports and e-mails, when not the process's (nl, fr, en). */
  language?: Language;
  /**
   * Where its events are told, in place of the top-level notifications, channel by channel: a
   * channel given is this office's (null: none), one left out is the top level's.
   */
  notify?: OfficeNotify;
  /** The key of its calendar feed (`/agenda/<name>.ics?key=…`); else one kept in DATA_DIR. */
  calendarKey?: string;
}

/** An office's own notification channels (`notify` in its connection entry). */
export interface OfficeNotify {
  webhook?: { url: string; secret?: string } | null;
  /** Its recipients; the sender and SMTP server are the top level's (NOTIFY_EMAIL_FROM, SMTP_URL). */
  email?: { to: string[] } | null;
}

/**
 * A name that is a folder on any system the inbox may be shared with: letters, digits, `-`, `_`
 * and inner dots, not a name Windows keeps for devices.
 */
const SAFE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,62}[A-Za-z0-9_-])?$/;
const DEVICE_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

function folderNameProblem(name: string): string | undefined {
  if (!SAFE_NAME.test(name))
    return 'must be 1 to 64 letters, digits, "-", "_" or inner "." (a folder name)';
  if (DEVICE_NAMES.test(name)) return `must not be "${name}", a name Windows keeps for devices`;
  return undefined;
}

/** What the unnamed connections are called (API_BASE_URL's, the embedded sandbox's). */
const RESERVED = ['default', 'sandbox'];

const name = z
  .string()
  .trim()
  .superRefine((text, context) => {
    const problem = RESERVED.includes(text.toLowerCase())
      ? `must not be "${text}": reports name the connection of API_BASE_URL "default" and the embedded sandbox "sandbox"`
      : folderNameProblem(text);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  });

/** A subfolder of INBOX_DIR: relative, never leaving it, each part a safe folder name. */
const inbox = z
  .string()
  .trim()
  .transform((text, context) => {
    const problem = inboxProblem(text);
    if (problem === undefined) return text.replace(/\/+$/, '');
    context.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  });

function inboxProblem(text: string): string | undefined {
  if (text.includes('\\')) return 'must use "/" between folders, not "\\"';
  if (isAbsolute(text) || /^[A-Za-z]:/.test(text))
    return 'must be a subfolder of INBOX_DIR, not an absolute path';
  const parts = text.replace(/\/+$/, '').split('/');
  if (parts.some((part) => part === '..' || part === '.'))
    return 'must stay inside INBOX_DIR (no "." or "..")';
  for (const part of parts) {
    const problem = folderNameProblem(part);
    if (problem !== undefined) return `"${part}" ${problem}`;
  }
  return undefined;
}

/** The API's URL in its one spelling; credentials are refused, pointing at `tokenFile`. */
const apiBaseUrl = z
  .string()
  .trim()
  .transform((text, context) => {
    if (URL.canParse(text)) {
      const url = new URL(text);
      if (url.username !== '' || url.password !== '') {
        context.addIssue({
          code: 'custom',
          message:
            'must not hold a user name or password (user:pass@): give the token in tokenFile',
        });
        return z.NEVER;
      }
    }
    try {
      return normaliseBaseUrl(text);
    } catch (error) {
      if (!isKnown(error, 'connection.url-invalid')) throw error;
      context.addIssue({ code: 'custom', message: error.message });
      return z.NEVER;
    }
  });

const path = z.string().trim().min(1);

/** The same values as the top-level NOTIFY_WEBHOOK_URL, NOTIFY_WEBHOOK_SECRET, NOTIFY_EMAIL_TO. */
const notifySchema = z.strictObject({
  webhook: z
    .strictObject({
      url: SETTINGS.notifyWebhookUrl.schema.unwrap(),
      secret: SETTINGS.notifyWebhookSecret.schema,
    })
    .nullable()
    .optional(),
  email: z.strictObject({ to: SETTINGS.notifyEmailTo.schema.unwrap() }).nullable().optional(),
});

const entrySchema = z.strictObject({
  name,
  apiBaseUrl,
  tokenFile: path,
  inbox: inbox.optional(),
  mapping: path.optional(),
  language: z.enum(LANGUAGES).optional(),
  notify: notifySchema.optional(),
  // As long as a generated one (128 bits), and in a URL's query as it is.
  calendarKey: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{22,200}$/, 'must be 22 to 200 letters, digits, "-" or "_"')
    .optional(),
});

/**
 * The config file's `connections` (undefined: none), checked: each entry, then the names and
 * inboxes against each other. `configDir` is where `tokenFile` and `mapping` are relative to.
 */
export function parseConnections(value: unknown, configDir: string): ConfiguredConnection[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new UserError('connections.invalid', 'must be a list of connections', {
      variant: 'not-list',
      values: {},
    });
  if (value.length === 0)
    throw new UserError(
      'connections.invalid',
      'must not be empty (leave it out to use API_BASE_URL and API_TOKEN)',
      { variant: 'empty', values: {} },
    );
  const connections = value.map((entry: unknown, index) => parseEntry(entry, index, configDir));
  refuseClashes(connections);
  return connections;
}

function parseEntry(entry: unknown, index: number, configDir: string): ConfiguredConnection {
  const named =
    typeof entry === 'object' && entry !== null && 'name' in entry && typeof entry.name === 'string'
      ? ` ("${entry.name.trim()}")`
      : '';
  const where = `entry ${index + 1}${named}`;
  const at = {
    entry: index + 1,
    name: named === '' ? 'none' : (entry as { name: string }).name.trim(),
  };
  if (typeof entry === 'object' && entry !== null && 'token' in entry) {
    throw new UserError(
      'connections.invalid',
      `${where}: "token" is not taken here: put the token in a file and name it with "tokenFile" (a config file is copied into backups and tickets)`,
      { variant: 'token', values: at },
    );
  }
  const parsed = entrySchema.safeParse(entry, { reportInput: true });
  if (!parsed.success) {
    const problem = entryIssue(parsed.error);
    throw new UserError('connections.invalid', `${where}: ${problem}`, {
      variant: 'entry',
      values: { ...at, problem },
    });
  }
  const { data } = parsed;
  return {
    name: data.name,
    apiBaseUrl: data.apiBaseUrl,
    tokenFile: resolve(configDir, data.tokenFile),
    inbox: data.inbox ?? data.name,
    ...(data.mapping !== undefined && { mapping: resolve(configDir, data.mapping) }),
    ...(data.language !== undefined && { language: data.language }),
    ...(data.notify !== undefined && { notify: officeNotify(data.notify) }),
    ...(data.calendarKey !== undefined && { calendarKey: data.calendarKey }),
  };
}

/** The entry's `notify` as the context takes it: the keys given, and only those. */
function officeNotify(given: z.output<typeof notifySchema>): OfficeNotify {
  const { webhook, email } = given;
  return {
    ...(webhook !== undefined && {
      webhook:
        webhook === null
          ? null
          : { url: webhook.url, ...(webhook.secret !== undefined && { secret: webhook.secret }) },
    }),
    ...(email !== undefined && { email }),
  };
}

function entryIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'is invalid';
  if (issue.code === 'unrecognized_keys') {
    const fields = issue.keys.map((k) => `"${k}"`).join(', ');
    if (issue.path.length > 0) return `${issue.path.join('.')}: unknown field ${fields}`;
    return `unknown field ${fields}; known: name, apiBaseUrl, tokenFile, inbox, mapping, language, notify, calendarKey`;
  }
  if (issue.path.length === 0) return `must be an object like { "name": "gent", … }`;
  return `${issue.path.join('.')} ${issueText(issue)}`;
}

/**
 * Two connections with one name (compared as a case-insensitive file system would), or one
 * inbox inside another, would leave it open which office a sheet belongs to.
 */
function refuseClashes(connections: readonly ConfiguredConnection[]): void {
  for (const [i, a] of connections.entries()) {
    for (const b of connections.slice(i + 1)) {
      if (a.name.toLowerCase() === b.name.toLowerCase())
        throw new UserError(
          'connections.invalid',
          `the name "${b.name}" is given to two connections`,
          { variant: 'same-name', values: { name: b.name } },
        );
      const [x, y] = [a.inbox.toLowerCase(), b.inbox.toLowerCase()];
      if (x === y)
        throw new UserError(
          'connections.invalid',
          `"${a.name}" and "${b.name}" have the same inbox "${b.inbox}": each office needs its own`,
          { variant: 'same-inbox', values: { a: a.name, b: b.name, inbox: b.inbox } },
        );
      if (y.startsWith(`${x}/`) || x.startsWith(`${y}/`))
        throw new UserError(
          'connections.invalid',
          `the inbox of "${a.name}" (${a.inbox}) and of "${b.name}" (${b.inbox}) lie one inside the other: a sheet there would belong to both`,
          {
            variant: 'nested-inbox',
            values: { a: a.name, aInbox: a.inbox, b: b.name, bInbox: b.inbox },
          },
        );
    }
  }
}
