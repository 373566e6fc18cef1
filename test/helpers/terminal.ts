import { Writable } from 'node:stream';

/** A stream that keeps what is written to it, a terminal or not. */
export function terminal(isTTY: boolean): {
  stream: Writable & { isTTY: boolean };
  written(): string;
} {
  let written = '';
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    }),
    { isTTY },
  );
  return { stream, written: () => written };
}
