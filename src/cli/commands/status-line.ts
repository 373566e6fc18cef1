/**
 * A one-line "still working" note on a terminal's stderr, rewritten in place at most twice a
 * second; nothing at all when stderr is not a terminal (logs and pipes get only real output).
 */
export class StatusLine {
  readonly #stream: NodeJS.WritableStream;
  readonly #on: boolean;
  #shown = false;
  #last = 0;

  constructor(
    stream: NodeJS.WritableStream,
    private readonly now: () => number = Date.now,
  ) {
    this.#stream = stream;
    this.#on = (stream as { isTTY?: boolean }).isTTY === true;
  }

  /** Shows `text` unless a note was shown less than half a second ago. */
  update(text: string): void {
    if (!this.#on || this.now() - this.#last < 500) return;
    this.#last = this.now();
    this.#stream.write(`\r\u001b[K${text}`);
    this.#shown = true;
  }

  /** Wipes the note, so that what is written next starts on a clean line. */
  clear(): void {
    if (!this.#shown) return;
    this.#stream.write('\r\u001b[K');
    this.#shown = false;
  }
}
