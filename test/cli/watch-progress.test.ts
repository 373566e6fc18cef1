import { describe, expect, it } from 'vitest';

import { doneLine } from '../../src/cli/commands/done-lines.js';
import { leftOverLine, WatchProgress } from '../../src/cli/commands/watch-progress.js';
import type { SheetProgress } from '../../src/store/progress.js';
import { terminal } from '../helpers/terminal.js';

const sheet = (sheetId: string, final: number, total = 100): SheetProgress => ({
  sheetId,
  name: `${sheetId}.csv`,
  startedAt: '2026-11-26T09:00:00.000Z',
  state: 'processing',
  total,
  final,
  counts: { created: final, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 },
});

/** Any control character but the line break: what a log or a pipe must never get. */
const ANSI = /[^\P{Cc}\n]/u;

describe('WatchProgress on a terminal', () => {
  it('draws one line per sheet in work, rewritten in place, at most once per interval', async () => {
    const tty = terminal(true);
    const progress = new WatchProgress(tty.stream, { now: () => 0, everyMs: 200 });
    progress.show(sheet('a', 10));
    const a = '\u001b[2Ka.csv  [##------------------] 10/100 rows\n';
    expect(tty.written()).toBe(a);
    // Another sheet at once: drawn once the interval has passed, not now.
    progress.show(sheet('b', 5));
    expect(tty.written()).toBe(a);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(tty.written()).toBe(
      `${a}\u001b[1F${a}\u001b[2Kb.csv  [#-------------------] 5/100 rows\n`,
    );
    progress.close();
  });

  it('says the watch’s lines above the progress lines, and wipes a sheet’s line once it is done', () => {
    let now = 0;
    const tty = terminal(true);
    const progress = new WatchProgress(tty.stream, { now: () => now, everyMs: 0 });
    progress.show(sheet('a', 10));
    progress.show(sheet('b', 20));
    const drawn = tty.written();
    expect(
      drawn.endsWith(
        '\u001b[2Ka.csv  [##------------------] 10/100 rows\n\u001b[2Kb.csv  [####----------------] 20/100 rows\n',
      ),
    ).toBe(true);
    const before = tty.written().length;
    progress.drop('a');
    // Up two lines, b's line again, then what is left below wiped.
    expect(tty.written().slice(before)).toBe(
      '\u001b[2F\u001b[2Kb.csv  [####----------------] 20/100 rows\n\u001b[0J',
    );
    const said = tty.written().length;
    progress.say('Done: a.csv (sheet a): 100 created.');
    expect(tty.written().slice(said)).toBe(
      '\u001b[1F\u001b[0JDone: a.csv (sheet a): 100 created.\n\u001b[2Kb.csv  [####----------------] 20/100 rows\n',
    );
    now = 2000;
    progress.show(sheet('b', 60));
    expect(tty.written()).toMatch(
      /b\.csv {2}\[#{12}-{8}\] 60\/100 rows {2}20\.0 rows\/s ETA 2s\n$/,
    );
    const closing = tty.written().length;
    progress.close();
    expect(tty.written().slice(closing)).toBe('\u001b[1F\u001b[0J');
    // Closed: shown no more, and what is said goes on plain lines.
    progress.show(sheet('b', 70));
    progress.say('Stopped.');
    expect(tty.written().slice(closing)).toBe('\u001b[1F\u001b[0JStopped.\n');
  });
});

/**
 * What a terminal `columns` wide shows after `text`: its rows, with the sequences the progress
 * lines use obeyed (erase line, up n lines, erase below) and a line longer than the terminal
 * wrapped onto the next row, as a terminal does.
 */
function screenOf(text: string, columns: number): string[] {
  const rows: string[] = [''];
  let [r, c] = [0, 0];
  const put = (ch: string) => {
    if (c === columns) [r, c] = [r + 1, 0];
    while (rows.length <= r) rows.push('');
    const row = rows[r] ?? '';
    rows[r] = row.padEnd(c).slice(0, c) + ch + row.slice(c + 1);
    c += 1;
  };
  const ESC = '\u001b';
  for (const part of text.split(new RegExp(`(${ESC}\\[\\d*[A-Za-z]|\n)`))) {
    const escape = new RegExp(`^${ESC}\\[(\\d*)([A-Za-z])$`).exec(part);
    if (part === '\n') [r, c] = [r + 1, 0];
    else if (escape?.[2] === 'F') [r, c] = [Math.max(0, r - Number(escape[1] || 1)), 0];
    else if (escape?.[2] === 'K') rows[r] = '';
    else if (escape?.[2] === 'J') {
      rows.splice(r + 1);
      rows[r] = (rows[r] ?? '').slice(0, c);
    } else for (const ch of part) put(ch);
    while (rows.length <= r) rows.push('');
  }
  return rows.filter((row) => row.trim() !== '');
}

describe('WatchProgress on a narrow terminal', () => {
  it('keeps a sheet with a long name on one line, so redrawing leaves nothing behind', () => {
    let now = 0;
    const tty = terminal(true);
    Object.assign(tty.stream, { columns: 60 });
    const progress = new WatchProgress(tty.stream, { now: () => now, everyMs: 0 });
    const long = {
      ...sheet('long', 10),
      name: 'Bestellingen kantoor Gent - november 2026 (definitieve versie).csv',
    };
    for (const final of [10, 20, 30, 40]) {
      now += 1000;
      progress.show({ ...long, final });
    }
    progress.say('Took new.csv as sheet n for connection "gent".');
    progress.show({ ...long, final: 50 });
    const screen = screenOf(tty.written(), 60);
    expect(screen).toHaveLength(2);
    expect(screen[0]).toBe('Took new.csv as sheet n for connection "gent".');
    expect(screen[1]).toMatch(/^Bestellingen kantoor Gent/);
    expect(screen[1]?.length).toBeLessThan(60);
    progress.close();
    expect(screenOf(tty.written(), 60)).toEqual([screen[0]]);
  });
});

describe('WatchProgress off a terminal', () => {
  it('writes no escape sequence: a plain line for a sheet in work a minute, then every minute', () => {
    let now = 0;
    const pipe = terminal(false);
    const progress = new WatchProgress(pipe.stream, { now: () => now });
    progress.show(sheet('a', 10));
    progress.say('Took a.csv as sheet a.');
    now = 59_000;
    progress.show(sheet('a', 50));
    expect(pipe.written()).toBe('Took a.csv as sheet a.\n');
    now = 60_000;
    progress.show(sheet('a', 55));
    now = 90_000;
    progress.show(sheet('a', 70));
    now = 120_000;
    progress.show(sheet('a', 90));
    const lines = pipe.written().split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    // The rate over the last 30 s seen: 5 rows in the last second.
    expect(lines[1]).toBe('a.csv  [###########---------] 55/100 rows  5.0 rows/s ETA 9s');
    expect(lines[2]).toMatch(/^a\.csv {2}\[#+-*\] 90\/100 rows/);
    expect(pipe.written()).not.toMatch(ANSI);
    progress.drop('a');
    progress.close();
    expect(pipe.written()).not.toMatch(ANSI);
  });
});

describe('doneLine with the dashboard', () => {
  it('ends with the sheet’s page, and only when there is one', () => {
    const done: SheetProgress = { ...sheet('S1', 4, 4), state: 'done', reportDir: '/r/orders-S1' };
    expect(doneLine(done, (p) => p, 'http://127.0.0.1:3000/sheets/S1')).toBe(
      'Done: S1.csv (sheet S1): 4 created. Report: /r/orders-S1/ — see http://127.0.0.1:3000/sheets/S1',
    );
    expect(doneLine(done, (p) => p)).toBe(
      'Done: S1.csv (sheet S1): 4 created. Report: /r/orders-S1/',
    );
  });
});

describe('leftOverLine', () => {
  it('says how many rows the next start has to do, or that none are left', () => {
    const none = { rows: 0, sheets: 0, uncounted: 0, unreported: 0 };
    expect(leftOverLine({ ...none, rows: 12, sheets: 2 })).toBe(
      '12 rows left for the next start (in 2 sheets).',
    );
    expect(leftOverLine({ ...none, rows: 1, sheets: 1 })).toBe(
      '1 row left for the next start (in 1 sheet).',
    );
    expect(leftOverLine(none)).toBe('No rows left for the next start: every sheet taken is done.');
    expect(leftOverLine({ ...none, rows: 3, sheets: 1, uncounted: 1 })).toBe(
      '3 rows left for the next start (in 1 sheet), and 1 sheet not read far enough to count.',
    );
    expect(leftOverLine({ ...none, unreported: 2 })).toBe(
      'Left for the next start: the report of 2 sheets.',
    );
    expect(leftOverLine(undefined)).toMatch(/could not be counted/);
  });
});
