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
