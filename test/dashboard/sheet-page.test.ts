import { describe, expect, it } from 'vitest';

import { sheetPage } from '../../src/dashboard/sheet-page.js';
import { wordsFor } from '../../src/language/words.js';
import type { SheetDetail } from '../../src/store/progress.js';

function detail(overrides: Partial<SheetDetail> = {}): SheetDetail {
  return {
    sheetId: 's1',
    name: 'orders.csv',
    startedAt: '2025-03-04T10:20:30.000Z',
    state: 'processing',
    total: 4,
    final: 1,
    counts: { created: 1, invalid: 0, failed: 0, 'needs-review': 0, duplicate: 0 },
    apiHost: 'api.example.be',
    sandbox: false,
    warnings: [],
    ...overrides,
  };
}

function facts(sheet: SheetDetail): string {
  const { main } = sheetPage({
    words: wordsFor('en'),
    sheet,
    query: { status: undefined, page: 1 },
    rows: undefined,
    now: new Date('2025-03-04T10:21:00.000Z'),
  });
  return /<dl class="facts">.*?<\/dl>/s.exec(main)?.[0] ?? '';
}

describe("a sheet's page", () => {
  it('says which data folder the workers of a sheet not yet reported must have', () => {
    const page = facts(detail({ installation: '0123456789abcdef', dataDir: '/srv/b <data>' }));
    expect(page).toContain(
      '<dt>Worked by</dt><dd>workers of data folder /srv/b &lt;data&gt; (installation 0123456789abcdef)</dd>',
    );
  });

  it('says nothing of it once the sheet is reported, or for a sheet of an older version', () => {
    const done = detail({ state: 'done', installation: '0123456789abcdef', dataDir: '/srv/b' });
    expect(facts(done)).not.toContain('Worked by');
    expect(facts(detail())).not.toContain('Worked by');
    expect(facts(detail())).toContain('<dt>Connection</dt>'); // the facts were found
  });
});
