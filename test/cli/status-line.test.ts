import { describe, expect, it } from 'vitest';

import { StatusLine } from '../../src/cli/commands/status-line.js';
import { terminal } from '../helpers/terminal.js';

describe('StatusLine', () => {
  it('rewrites one line on a terminal, at most twice a second, and wipes it', () => {
    let now = 10_000;
    const tty = terminal(true);
    const progress = new StatusLine(tty.stream, () => now);
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
    const progress = new StatusLine(pipe.stream, () => 0);
    progress.update('1 row');
    progress.clear();
    expect(pipe.written()).toBe('');
  });
});
