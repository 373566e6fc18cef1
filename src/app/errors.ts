/**
 * A command that cannot go on: its message is for the user (one line, naming what to fix), and
 * only the entry point turns it into an exit code.
 */
export class CliError extends Error {
  override name = 'CliError';

  constructor(
    message: string,
    readonly exitCode = 1,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** An error class whose messages are written for the user (a setting, a catalogue, a mapping…). */
export type UserErrorClass = abstract new (...args: never[]) => Error;

/**
 * What `work` gives, with an error of one of `kinds` turned into a CliError of the same message
 * (exit 1); any other error goes on as it is, to be reported as unexpected.
 */
export async function forUser<T>(
  work: Promise<T> | (() => T | Promise<T>),
  ...kinds: UserErrorClass[]
): Promise<T> {
  try {
    return await (typeof work === 'function' ? work() : work);
  } catch (error) {
    if (kinds.some((kind) => error instanceof kind)) {
      throw new CliError((error as Error).message, 1, { cause: error });
    }
    throw error;
  }
}
