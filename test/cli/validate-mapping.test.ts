/**
 * `validate` with a user's mapping (docs/design.md §2 "Mapping"): a mapping.json beside the sheet
 * is found without a flag, the sheet's problems name the user's own columns and the mapping, and
 * a mapping that cannot be used is said, never skipped.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { ValidateSummary } from '../../src/cli/commands/validate.js';
import { runInProcess } from '../helpers/cli.js';
import { DUTCH_MAPPING, writeDutchSheet } from '../helpers/dutch-sheet.js';
import { put, tempDir } from '../helpers/files.js';

describe('order-importer validate with a mapping', () => {
  it('reads a Dutch sheet through the mapping.json beside it, naming the user’s columns', async () => {
    const dir = await tempDir('validate-nl-');
    const { sheet, mapping } = await writeDutchSheet(dir);
    const finished = await runInProcess(['validate', sheet]);
    expect(finished.code, finished.stderr).toBe(2);
    const out = finished.stdout;
    expect(out).toContain('(CSV, ";"-separated, windows-1252)');
    expect(out).toContain('row 3 (line 4)  reference D-3');
    expect(out).toContain(
      `    Taal must be one of "nl", "en", "fr", or one of its words under "values" in ${mapping ?? ''} (got "Duits").`,
    );
    expect(out).toContain(
      `warning: Read with the mapping ${mapping ?? ''} (beside the sheet): columns "Uw referentie" → reference,`,
    );
    expect(out).toContain(
      'words for the values of contact_language, invoice_to, is_contact_owner, property_type.',
    );
    expect(out).toContain(
      `warning: Unknown column ignored: "Opmerkingen": it is not an order field. Did you mean remark? Add "Opmerkingen": "remark" to "columns" in ${mapping ?? ''}.`,
    );
    expect(out).toContain('3 rows: 2 valid, 1 invalid');
  });

  it('says a mapping it cannot use in the person’s language', async () => {
    const dir = await tempDir('validate-bad-mapping-');
    const sheet = await put(dir, 'lijst.csv', 'Referentie;Type\nR1;house\n');
    await put(dir, 'mapping.json', JSON.stringify({ columns: { Type: 'type' } }));
    const finished = await runInProcess(['validate', '--language', 'nl', sheet]);
    expect(finished.code, finished.stderr).toBe(2);
    expect(finished.stdout).toContain('kan niet gelezen worden');
    expect(finished.stdout).not.toContain('which is not an order field');
  });

  it('takes --mapping over the mapping.json beside the sheet, in the flat form too', async () => {
    const dir = await tempDir('validate-flat-');
    const { sheet } = await writeDutchSheet(dir);
    const flat = await put(
      await tempDir('flat-'),
      'flat.json',
      JSON.stringify({ ...DUTCH_MAPPING.columns, Taal: 'remark' }),
    );
    const finished = await runInProcess(['validate', '--json', sheet, '--mapping', flat]);
    const [summary] = JSON.parse(finished.stdout) as ValidateSummary[];
    expect(summary?.warnings[0]).toMatch(
      new RegExp(`^Read with the mapping --mapping ${flat}: columns`),
    );
    // Without the beside file's words, the values are checked as written.
    expect(summary?.problems).toContainEqual(
      expect.objectContaining({
        row: 1,
        column: 'Factuur aan',
        // A flat mapping has no words for values: nothing points at them.
        message:
          'Factuur aan must be one of "tenant" (the contact person), "salesman" (you, the API user), "other" (someone else) (got "verkoper").',
      }),
    );
    expect(summary?.invalid).toBe(3);
  });

  it('says a mapping.json beside the sheet that cannot be used, and goes on with the other sheets', async () => {
    const broken = await tempDir('validate-broken-');
    const { sheet } = await writeDutchSheet(broken, {
      mapping: { values: { invoice_to: { verkoper: 'seller' } } },
    });
    const fine = await tempDir('validate-fine-');
    const other = await writeDutchSheet(fine);
    const finished = await runInProcess(['validate', sheet, other.sheet]);
    expect(finished.code).toBe(2);
    expect(finished.stdout).toContain(
      `cannot be read: Mapping ${join(broken, 'mapping.json')}: "values"."invoice_to" maps "verkoper" to "seller", which invoice_to does not allow: it must be one of "tenant" (the contact person), "salesman" (you, the API user), "other" (someone else).`,
    );
    expect(finished.stdout).toContain('3 rows: 2 valid, 1 invalid');
  });

  it('says the mapping to write when the header names no field and no mapping is there', async () => {
    const dir = await tempDir('validate-none-');
    const { sheet } = await writeDutchSheet(dir, { mapping: null });
    const finished = await runInProcess(['validate', sheet]);
    expect(finished.code).toBe(2);
    expect(finished.stdout).toContain(
      'cannot be read: line 1: the header row names no order field ("Uw referentie", "Type woning", "Straat", "Huisnummer", "Postcode"): the row above the orders must name the columns, e.g. address1, city, order_products. To map your own names, add { "columns": { "Uw referentie": "reference", "Type woning": "property_type", "Straat": "address1", ',
    );
    expect(finished.stdout).toContain(
      '"E-mail contact": "contact_email", "E-mail facturatie": "inv_mail", "Geen factuurmail": "no_inv_mail", "Factuur aan": "invoice_to", "Eigenaar": "is_contact_owner", "Producten": "order_products", "Zekeringkasten": "breaker_boxes", "Bijlagen": "files", "Opmerkingen": "remark" } } to a mapping.json beside the sheet.',
    );
  });

  it('never reads a mapping.json as a sheet', async () => {
    const dir = await tempDir('validate-itself-');
    const { mapping } = await writeDutchSheet(dir);
    const finished = await runInProcess(['validate', mapping ?? '']);
    expect(finished.code).toBe(2);
    expect(finished.stdout).toMatch(
      /cannot be read: mapping\.json is a mapping .*not a sheet of orders/,
    );
  });

  it('reads a sheet with no mapping.json beside it through the config file’s mapping', async () => {
    const dir = await tempDir('validate-config-ok-');
    await put(dir, 'etc/dutch.json', JSON.stringify(DUTCH_MAPPING));
    const config = await put(dir, 'etc/config.json', JSON.stringify({ mapping: 'dutch.json' }));
    const { sheet } = await writeDutchSheet(join(dir, 'sheets'), { mapping: null });
    const finished = await runInProcess(['validate', '--json', sheet, '--config', config]);
    const [summary] = JSON.parse(finished.stdout) as ValidateSummary[];
    expect(summary?.warnings[0]).toMatch(
      `Read with the mapping ${join(dir, 'etc', 'dutch.json')} (the config file's "mapping"): columns`,
    );
    expect(summary).toMatchObject({ total: 3, valid: 2, invalid: 1 });
  });

  it('refuses a mapping nested 6,000 levels deep in one plain line: beside the sheet, or given', async () => {
    const dir = await tempDir('validate-deep-');
    const { sheet } = await writeDutchSheet(dir, { mapping: null });
    const deep = `{"columns":${'{"a":'.repeat(6000)}"address1"${'}'.repeat(6001)}`;
    const mapping = await put(dir, 'mapping.json', deep);
    const beside = await runInProcess(['validate', sheet]);
    expect(beside.code, beside.stderr).toBe(2);
    expect(beside.stdout).toContain(
      `cannot be read: Mapping ${mapping} nests objects or lists more than 64 levels deep;`,
    );
    expect(`${beside.stdout}${beside.stderr}`).not.toMatch(/RangeError|call stack|\n\s+at /);

    const given = await runInProcess(['validate', sheet, '--mapping', mapping]);
    expect(given.code).toBe(1);
    expect(given.stderr).toMatch(
      new RegExp(`^order-importer: Mapping ${mapping} nests objects or lists more than 64`),
    );
    expect(given.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 1 with one line for a config file whose mapping cannot be read', async () => {
    const dir = await tempDir('validate-config-');
    const config = await put(dir, 'config.json', JSON.stringify({ mapping: 'gone.json' }));
    const { sheet } = await writeDutchSheet(dir, { mapping: null });
    const finished = await runInProcess(['validate', sheet, '--config', config]);
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(
      new RegExp(`^order-importer: Mapping ${join(dir, 'gone.json')} cannot be read: ENOENT`),
    );
  });
});
