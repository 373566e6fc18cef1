/**
 * A sheet that cannot be read at all (binary, empty, no header, broken quoting, broken JSON): one
 * plain message for the whole sheet, naming the line where that is known.
 */
export class SheetError extends Error {
  override name = 'SheetError';

  constructor(
    message: string,
    readonly line?: number,
    options?: ErrorOptions,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`, options);
  }
}
