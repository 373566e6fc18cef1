/**
 * The kinds of error the importer throws on purpose, with what the one that catches it needs:
 * whether trying again may help (`retryable`: a job processor in jobs/ hands a job back or gives
 * it up by it), the exit code of a command, a message that is the plain text a person reads, and
 * the message's `key`. Three kinds: UserError, NotYet, Refused. A few classes carry more than that
 * for their catcher (an API failure's status, a row job's interruption, a sheet's line…): they
 * extend KnownError or one of the kinds, and test/errors.test.ts lists them; any other error thrown
 * on purpose is one of the kinds with its own key. Of layer 0: it imports nothing, every layer may
 * import it.
 */

/**
 * What went wrong, as a stable name: the same whatever the message's words, so that a message can
 * be said in another language by its key, and a catcher can tell one error of a kind from another
 * (`isKnown`). Named `key`, not `code`: Node's own errors carry a `code` (ENOENT, ECONNRESET) that
 * several catchers take as the mark of a file or network error.
 */
export type ErrorKey =
  // Settings, connections and what a process needs to start.
  | 'config.invalid'
  | 'connections.invalid'
  | 'connections.same-api'
  | 'connection.url-invalid'
  | 'connection.not-chosen'
  | 'connection.none-configured'
  | 'connection.unknown'
  | 'catalogue.invalid'
  | 'mapping.invalid'
  | 'installation.marker-unusable'
  | 'schedule.invalid'
  | 'status.schedule-invalid'
  | 'inbox.symbolic-link'
  | 'dashboard.exposed'
  | 'dashboard.port-unavailable'
  | 'dashboard.users-invalid'
  | 'dashboard-user.no-file'
  | 'dashboard-user.no-offices'
  | 'dashboard-user.bad-offices'
  | 'dashboard-user.bad-name'
  | 'dashboard-user.no-password'
  | 'dashboard-user.short-password'
  | 'dashboard-user.mismatch'
  | 'metrics.port-unavailable'
  | 'sandbox.identity-unreadable'
  | 'sandbox.port-unavailable'
  // Redis.
  | 'redis.unavailable'
  | 'redis.forgot'
  | 'redis.data-lost'
  | 'redis.no-answer'
  | 'dashboard.redis-away'
  // The API: its token, its start, and a request's failure by kind (src/api/errors.ts).
  | 'api.token-missing'
  | 'api.token-unreadable'
  | 'api.token-empty'
  | 'api.token-unfit'
  | 'api.token-refused'
  | 'api.unusable'
  | 'api.no-answer'
  | 'api.wait-stopped'
  | 'api.permanent'
  | 'api.retryable'
  | 'api.ambiguous'
  | 'api.auth'
  | 'api.config'
  | 'request.aborted'
  | 'process.stopping'
  // Sheets, their files, their rows.
  | 'sheet.unreadable'
  | 'sheet.unsettled'
  | 'sheet.foreign'
  | 'sheet.elsewhere'
  | 'sheet.waits-for-earlier'
  | 'sheet.gives-way'
  | 'sheet.gone'
  | 'attachment.invalid'
  | 'attachment.absolute'
  | 'attachment.outside'
  | 'attachment.link'
  | 'attachment.hard-link'
  | 'attachment.not-file'
  | 'attachment.too-large'
  | 'row.foreign-job'
  | 'row.delay'
  | 'row.rate-limit'
  | 'row.stop'
  // Commands, reports, status, notifications.
  | 'import.stopped'
  | 'import.no-such-file'
  | 'ledger.unknown-action'
  | 'purge.bad-date'
  | 'report-folder.unusable'
  | 'report-csv.unreadable'
  | 'status-csv.unreadable'
  | 'status.api-unusable'
  | 'status.target-unknown'
  | 'status.not-a-report-folder'
  | 'status.target-missing'
  | 'status.no-report'
  | 'notify.not-delivered'
  | 'notify.refused'
  // A fault of the machine: a folder it may not write, a full disk, too many open files.
  | 'machine';

/** What fills the placeholders of an error's message in a person's language. */
export type ErrorValues = Readonly<Record<string, string | number>>;

export interface KnownErrorOptions extends ErrorOptions {
  /**
   * The message's parts that are not words (a file, a URL, a number): with them the message is
   * said in a person's language, from the catalogue's `cli.error.<key>` (src/cli/program.ts).
   * Without them, the English message is said as it is.
   */
  values?: ErrorValues;
  /** Which of the key's messages, when one key has several: `cli.error.<key>.<variant>`. */
  variant?: string;
}

/** An error of a known kind: anything else is unexpected, and said with its stack. */
export abstract class KnownError extends Error {
  /** Whether the same work may succeed later, as it is. */
  abstract readonly retryable: boolean;
  /** A command stopped by it ends with this code. */
  readonly exitCode: number = 1;
  /** What went wrong, whatever the message's words. */
  readonly key: ErrorKey;
  /** What the message says that is no word of a language; none: it is said in English only. */
  readonly values: ErrorValues | undefined;
  readonly variant: string | undefined;

  constructor(key: ErrorKey, message: string, options: KnownErrorOptions = {}) {
    const { values, variant, ...rest } = options;
    super(message, rest);
    this.key = key;
    this.values = values;
    this.variant = variant;
  }
}

/** Whether `error` is a known error with this key: how a catcher picks one out of its kind. */
export function isKnown(error: unknown, key: ErrorKey): error is KnownError {
  return error instanceof KnownError && error.key === key;
}

export interface UserErrorOptions extends KnownErrorOptions {
  /** @defaultValue 1 */
  exitCode?: number;
  /** True when the same work succeeds once the person is done (a sheet still being written). */
  retryable?: boolean;
}

/**
 * Something a person must fix (a setting, a file, a mapping, a catalogue, a sheet still being
 * written): its message says what, in one line, and a command ends with it (exit 1 unless said).
 */
export class UserError extends KnownError {
  override name = 'UserError';
  readonly retryable: boolean;
  override readonly exitCode: number;

  constructor(key: ErrorKey, message: string, options: UserErrorOptions = {}) {
    const { exitCode = 1, retryable = false, ...rest } = options;
    super(key, message, rest);
    this.exitCode = exitCode;
    this.retryable = retryable;
  }
}

export interface NotYetOptions extends KnownErrorOptions {
  /** How long to wait before it is looked at again; none: at once. */
  retryInMs?: number;
}

/**
 * The work cannot go on yet (another installation's disk, an earlier import of the same content, a
 * stop under way): its job goes back to its queue, no attempt spent, and is tried again later.
 */
export class NotYet extends KnownError {
  override name = 'NotYet';
  readonly retryable = true;
  /** How long to wait before it is looked at again; none: at once. */
  readonly retryInMs: number | undefined;

  constructor(key: ErrorKey, message: string, options: NotYetOptions = {}) {
    const { retryInMs, ...rest } = options;
    super(key, message, rest);
    this.retryInMs = retryInMs;
  }
}

/**
 * This work can never succeed as it is (a job of another connection, a sheet gone, a file refused,
 * a Redis that forgot): trying it again changes nothing, so it is not.
 */
export class Refused extends KnownError {
  override name = 'Refused';
  readonly retryable = false;
}
