import { describe, expect, it } from 'vitest';

import { sheetNotes } from '../../src/dashboard/sheet-notes.js';
import { wordsFor } from '../../src/language/words.js';

const FILE = '/srv/order-importer/inbox/gent/mapping.json';

describe("a sheet's warnings on its page", () => {
  it('shows the mapping used as a note in any office language, naming the file, never its path', () => {
    const said = wordsFor('fr').t('rows.warning.mappingUsed', { mapping: `${FILE} (à côté)` });
    const unknown = `Column "Gemeente" is not known: add it to ${FILE}.`;
    const html = sheetNotes({ warnings: [said, unknown], mappingFile: FILE });
    expect(html).not.toContain('/srv/');
    expect(html).toMatch(
      /^<ul class="warnings"><li>Column &quot;Gemeente&quot; is not known: add it to mapping\.json\.<\/li><\/ul>/,
    );
    expect(html).toContain('<p class="note mapping-note">');
    expect(html).toContain('mapping.json (à côté)');
  });

  it('leaves warnings without a mapping as they are, escaped', () => {
    expect(sheetNotes({ warnings: ['<b>3 rows</b> were empty'] })).toBe(
      '<ul class="warnings"><li>&lt;b&gt;3 rows&lt;/b&gt; were empty</li></ul>',
    );
  });
});
