/**
 * A mapping that cannot be used, said in Dutch and French: each of its mistakes carries the
 * file and what it quotes, the English catalogue says the message as thrown.
 */
import { link, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { mapHeader, parseMapping } from '../../src/orders/columns.js';
import { parseMappingFile, type MappingSource } from '../../src/orders/mapping.js';
import {
  loadMappingFile,
  mappingBeside,
  parseMappingBytes,
} from '../../src/orders/mapping-files.js';
import { expectSaid, thrown } from '../helpers/error-said.js';
import { put, tempDir } from '../helpers/files.js';

const source: MappingSource = { kind: 'flag', file: '/lijsten/mapping.json' };
const parsed = (json: unknown) => thrown(() => parseMappingFile(json, source));

describe("a mapping file's mistakes", () => {
  it('its file: not a file, missing, too big, not JSON, nested too deep, a link beside a sheet', async () => {
    const dir = await tempDir('mapping-said-');
    const big = await put(dir, 'big.json', `{"a":"${'x'.repeat(70 * 1024)}"}`);
    const linked = join(dir, 'linked');
    await mkdir(linked);
    await symlink(big, join(linked, 'mapping.json'));
    const hard = join(dir, 'hard');
    await mkdir(hard);
    await link(await put(dir, 'other.json', '{}'), join(hard, 'mapping.json'));
    const cases = [
      await thrown(() => loadMappingFile(dir, 'flag')),
      await thrown(() => loadMappingFile(join(dir, 'none.json'), 'flag')),
      await thrown(() => loadMappingFile(big, 'flag')),
      await thrown(() => parseMappingBytes(Buffer.from('{ "columns": '), source)),
      await thrown(() =>
        parseMappingBytes(Buffer.from('{"a":'.repeat(40) + '1' + '}'.repeat(40)), source),
      ),
      await thrown(() => mappingBeside(linked)),
      await thrown(() => mappingBeside(hard)),
    ];
    for (const error of cases) expectSaid(error);
  });

  it('its parts and words: every one in Dutch and French', async () => {
    const cases = [
      await parsed([]),
      await parsed({ columns: {}, Straat: 'address1' }),
      await parsed({ columns: 'address1x' }),
      await parsed({ columns: {}, worksheet: 3 }),
      await parsed({ columns: {}, values: [] }),
      await parsed({ values: { contact_language: {}, 'Contact Language': {} } }),
      await parsed({ values: { kleur: {} } }),
      await parsed({ values: { city: {} } }),
      await parsed({ values: { contact_language: 'nl' } }),
      await parsed({ values: { contact_language: { ' ': 'nl' } } }),
      await parsed({ values: { contact_language: { Nederlands: 'dutch' } } }),
      await parsed({ values: { contact_language: { Frans: 'fr', frans: 'nl' } } }),
      await thrown(() => parseMapping([], 'x.json')),
      await parsed({ Straat: 'adres1' }),
      await parsed({ Straat: 'address1', straat: 'city' }),
      await thrown(() => mapHeader(['Straat', 'address1'], new Map([['straat', 'address1']]))),
    ];
    for (const error of cases) expectSaid(error);
  });

  it('a column mapped to no field, in Dutch and French', async () => {
    const said = expectSaid(await parsed({ Straat: 'adress1' }));
    expect(said.nl).toMatch(
      /^Mappingbestand \/lijsten\/mapping\.json: "Straat" wijst naar "adress1", dat geen veld van een opdracht is; bedoelt u address1\? De velden zijn /,
    );
    expect(said.fr).toMatch(
      /^Fichier de correspondance \/lijsten\/mapping\.json\u202f: "Straat" renvoie à "adress1", qui n’est pas un champ de commande\u202f; vouliez-vous dire address1\u202f\? Les champs sont\u202f: /,
    );
  });

  it('a stray part, its example quoting the braces', async () => {
    const said = expectSaid(await parsed({ columns: {}, Straat: 'x' }));
    expect(said.nl).toContain('zoals { "columns": { "Straat": "address1" } }.');
  });
});
