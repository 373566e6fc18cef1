import { Writable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { Progress } from '../../src/cli/progress.js';

function terminal(isTTY: boolean) {
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

describe('Progress', () => {
  it('rewrites one line on a terminal, at most twice a second, and wipes it', () => {
    let now = 10_000;
    const tty = terminal(true);
    const progress = new Progress(tty.stream, () => now);
    progress.update('1 row');
    progress.update('2 rows');
    now += 600;
    progress.update('3 rows');
    progress.clear();
    progress.clear();
    expect(tty.written()).toBe('\r\u001b[K1 row\r\u001b[K3 rows\r\u001b[K');
  });

  it('writes nothing when stderr is not a terminal', () => {
    const pipe = terminal(false);
    const progress = new Progress(pipe.stream, () => 0);
    progress.update('1 row');
    progress.clear();
    expect(pipe.written()).toBe('');
  });
});
