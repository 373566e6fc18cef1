import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { REFERENCE_FILE, renderReference, staleLine } from '../../scripts/docs-reference.js';
import { packageRoot } from '../../src/package-root.js';
import { SETTINGS, type SettingEntry } from '../../src/settings/table.js';

const written = () => readFileSync(join(packageRoot(), REFERENCE_FILE), 'utf8');

/** Runs `render` while process.stdout says it is a terminal this many columns wide. */
async function onTerminal<T>(columns: number, render: () => Promise<T>): Promise<T> {
  const stdout = process.stdout as { isTTY?: boolean; columns?: number };
  const before = { isTTY: stdout.isTTY, columns: stdout.columns };
  Object.assign(stdout, { isTTY: true, columns });
  try {
    return await render();
  } finally {
    Object.assign(stdout, before);
  }
}

describe('docs/reference.md', () => {
  it('is what `npm run docs` writes from the settings table and the commands’ help', async () => {
    const stale = staleLine(written(), await renderReference());
    expect(stale, `${REFERENCE_FILE} is stale: run \`npm run docs\``).toBeUndefined();
  });

  it('names every setting, by its variable and its flag', async () => {
    const reference = await renderReference();
    for (const [key, entry] of Object.entries(SETTINGS) as [string, SettingEntry][]) {
      if (entry.env !== undefined) expect(reference, key).toContain(`\`${entry.env}\``);
      if (entry.flag !== undefined) expect(reference, key).toContain(`\`${entry.flag}\``);
    }
  });

  it('has every command’s help, as the command line prints it', async () => {
    const reference = await renderReference();
    for (const command of ['import', 'watch', 'worker', 'ledger', 'dashboard', 'status'])
      expect(reference).toContain(`Usage: order-importer ${command} [options]`);
    expect(reference).toContain('Usage: order-importer validate [options] <sheet...>');
    expect(reference).toContain('Usage: order-importer sandbox [options]');
  });

  it('is stale as soon as a setting changes in the table', async () => {
    const changed = {
      ...SETTINGS,
      concurrency: { ...SETTINGS.concurrency, help: 'row jobs in flight, changed' },
    };
    expect(staleLine(written(), await renderReference(changed))).toMatch(/CONCURRENCY/);
  });

  it('reads the same whatever terminal it is made on, and holds no date', async () => {
    const narrow = await onTerminal(60, () => renderReference());
    const wide = await onTerminal(200, () => renderReference());
    expect(wide).toBe(narrow);
    expect(wide).toBe(await renderReference());
    expect(wide).not.toMatch(/\b20\d\d-\d\d-\d\d\b/);
  });
});
