/**
 * The kinds of error the importer throws on purpose, with what the one that catches it needs:
 * whether trying again may help (`retryable`: a job processor in jobs/ hands a job back or gives
 * it up by it), the exit code of a command, and a message that is the plain text a person reads.
 * A module's own error class extends one of these for its name (ConfigError, MappingError…); the
 * API's failures keep their own table (src/api/errors.ts: permanent, retryable, ambiguous…).
 * Of layer 0: it imports nothing, every layer may import it.
 */

/** An error of a known kind: anything else is unexpected, and said with its stack. */
export abstract class KnownError extends Error {
  /** Whether the same work may succeed later, as it is. */
  abstract readonly retryable: boolean;
  /** A command stopped by it ends with this code. */
  readonly exitCode: number = 1;
}

/**
 * Something a person must fix (a setting, a file, a mapping, a catalogue, a sheet still being
 * written): its message says what, in one line, and a command ends with it (exit 1 unless said).
 */
export class UserError extends KnownError {
  override name = 'UserError';
  /** A person's to fix; a sheet still being written (SheetUnsettledError) says true. */
  readonly retryable: boolean = false;
  override readonly exitCode: number;

  /** `new UserError(message, 2)`, or as any error (`{ cause }`), exit 1. */
  constructor(message: string, exitCode?: number | ErrorOptions, options?: ErrorOptions) {
    super(message, typeof exitCode === 'object' ? exitCode : options);
    this.exitCode = typeof exitCode === 'number' ? exitCode : 1;
  }
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

  /** `new NotYet(message, ms)`, or as any error (`{ cause }`): looked at again at once. */
  constructor(message: string, retryInMs?: number | ErrorOptions, options?: ErrorOptions) {
    super(message, typeof retryInMs === 'object' ? retryInMs : options);
    this.retryInMs = typeof retryInMs === 'number' ? retryInMs : undefined;
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
