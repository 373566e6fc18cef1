import { Writable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { ImportProgress } from '../../src/cli/import-progress.js';
import type { SheetProgress } from '../../src/pipeline/runtime.js';

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

const sheet: SheetProgress = {
  sheetId: 'S1',
  name: 'orders\u001b]0;owned\u0007\u001b[2J.csv',
  startedAt: '2026-11-26T10:00:00.000Z',
  state: 'processing',
  total: 10,
  final: 5,
  counts: { created: 5, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 },
};

describe('ImportProgress', () => {
  it.each([true, false])(
    'writes out control characters of a sheet’s name (terminal: %s)',
    (isTTY) => {
      const out = terminal(isTTY);
      new ImportProgress(out.stream, () => 60_000).update([sheet]);
      // Only its own sequences (erase the line, move up) reach the terminal.
      const own = out.written().replaceAll('\u001b[2K', '');
      expect(own.match(/[^\P{Cc}\n]/gu)).toBeNull();
      expect(own).toContain('orders\\u001b]0;owned\\u0007\\u001b[2J.csv  [');
    },
  );
});
