/** The overview names each sheet's connection beside its API host (docs/design.md, "Connections"). */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { assetsDir } from '../../src/dashboard/assets.js';
import { overviewPage } from '../../src/dashboard/page.js';
import { wordsFor } from '../../src/language/words.js';
import type { SheetProgress } from '../../src/store/progress.js';

const template = await readFile(join(assetsDir(), 'page.html'), 'utf8');

function sheet(overrides: Partial<SheetProgress>): SheetProgress {
  return {
    sheetId: 's1',
    name: 'orders.csv',
    startedAt: '2025-03-04T10:20:30.000Z',
    state: 'done',
    total: 1,
    final: 1,
    counts: { created: 1, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 },
    apiHost: 'api.example.be',
    sandbox: false,
    ...overrides,
  };
}

function apiCell(progress: SheetProgress): string {
  const page = overviewPage(template, {
    words: wordsFor('en'),
    sheets: [progress],
    notTaken: undefined,
    now: new Date(),
  });
  return /<td class="api">(.*?)<\/td>/.exec(page)?.[1] ?? '';
}

describe('the connection cell', () => {
  it('names the connection, then its API host', () => {
    expect(apiCell(sheet({ connection: 'gent' }))).toBe(
      '<span class="connection">gent</span> api.example.be',
    );
  });

  it('escapes the name', () => {
    expect(apiCell(sheet({ connection: '<b>&' }))).toBe(
      '<span class="connection">&lt;b&gt;&amp;</span> api.example.be',
    );
  });

  it('lets the badge name the embedded sandbox', () => {
    expect(apiCell(sheet({ connection: 'sandbox', sandbox: true }))).toBe(
      'api.example.be<span class="sandbox">sandbox</span>',
    );
  });

  it('shows the host alone for the connection of API_BASE_URL, which has no name of its own', () => {
    expect(apiCell(sheet({ connection: 'default' }))).toBe('api.example.be');
  });

  it('shows the host alone for a sheet queued before connections had names', () => {
    expect(apiCell(sheet({}))).toBe('api.example.be');
  });
});
