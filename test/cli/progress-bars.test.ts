import { describe, expect, it } from 'vitest';

import { ProgressBars } from '../../src/cli/commands/progress-bars.js';
import type { SheetProgress } from '../../src/store/progress.js';
import { terminal } from '../helpers/terminal.js';

const sheet = (name: string, final: number): SheetProgress => ({
  sheetId: name,
  name,
  startedAt: '2026-11-26T09:00:00.000Z',
  state: 'processing',
  total: 10,
  final,
  counts: { created: final, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 },
});

describe('ProgressBars.printAbove', () => {
  it('puts a line above the progress lines on a terminal and draws them again below it', () => {
    const tty = terminal(true);
    const progress = new ProgressBars(tty.stream, () => 0);
    progress.update([sheet('a.csv', 1), sheet('b.csv', 2)]);
    const before = tty.written();
    progress.printAbove('Redis at redis://127.0.0.1:6379 does not answer.');
    const drawn = [sheet('a.csv', 1), sheet('b.csv', 2)]
      .map((s) => `\u001b[2K${progress.line(s, 0)}\n`)
      .join('');
    expect(tty.written().slice(before.length)).toBe(
      `\u001b[2F\u001b[0JRedis at redis://127.0.0.1:6379 does not answer.\n${drawn}`,
    );
    // The next update redraws those two lines in place, under the line said.
    progress.update([sheet('a.csv', 3), sheet('b.csv', 4)]);
    const after = tty.written().slice(tty.written().indexOf('does not answer.'));
    expect(after.split('\n')[3]?.startsWith('\u001b[2F\u001b[2Ka.csv')).toBe(true);
  });

  it('writes a plain line when nothing is drawn yet, or off a terminal', () => {
    const tty = terminal(true);
    new ProgressBars(tty.stream, () => 0).printAbove('first');
    expect(tty.written()).toBe('first\n');
    const pipe = terminal(false);
    const progress = new ProgressBars(pipe.stream, () => 20_000);
    progress.update([sheet('a.csv', 1)]);
    progress.printAbove('second');
    expect(pipe.written()).toBe(`${progress.line(sheet('a.csv', 1), 20_000)}\nsecond\n`);
  });
});

const hostile: SheetProgress = {
  sheetId: 'S1',
  name: 'orders\u001b]0;owned\u0007\u001b[2J.csv',
  startedAt: '2026-11-26T10:00:00.000Z',
  state: 'processing',
  total: 10,
  final: 5,
  counts: { created: 5, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 },
};

describe('ProgressBars', () => {
  it.each([true, false])(
    'writes out control characters of a sheet’s name (terminal: %s)',
    (isTTY) => {
      const out = terminal(isTTY);
      new ProgressBars(out.stream, () => 60_000).update([hostile]);
      // Only its own sequences (erase the line, move up) reach the terminal.
      const own = out.written().replaceAll('\u001b[2K', '');
      expect(own.match(/[^\P{Cc}\n]/gu)).toBeNull();
      expect(own).toContain('orders\\u001b]0;owned\\u0007\\u001b[2J.csv  [');
    },
  );
});

describe('ProgressBars.line', () => {
  it('gives no rate before a second of progress has been seen, rather than 0.0 rows/s', () => {
    let now = 0;
    const progress = new ProgressBars(terminal(true).stream, () => now);
    progress.update([sheet('a.csv', 10)]);
    expect(progress.line(sheet('a.csv', 10), now)).not.toMatch(/rows\/s/);
    now = 2000;
    progress.update([sheet('a.csv', 10)]);
    expect(progress.line(sheet('a.csv', 10), now)).toMatch(/ 0\.0 rows\/s/);
  });

  it('gives the rate over what it has seen', () => {
    let now = 0;
    const progress = new ProgressBars(terminal(true).stream, () => now);
    progress.update([sheet('a.csv', 2)]);
    now = 2000;
    progress.update([sheet('a.csv', 6)]);
    expect(progress.line(sheet('a.csv', 6), now)).toMatch(/ 2\.0 rows\/s ETA 2s/);
  });
});
