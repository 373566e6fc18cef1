import { describe, expect, it } from 'vitest';

import { SheetError } from '../../src/sheets/errors.js';
import { ArraySplitter, readJsonArray, readNdjson } from '../../src/sheets/json.js';
import { scanSheet } from '../../src/sheets/scan.js';
import type { SourceRecord } from '../../src/sheets/types.js';
import { put, tempDir } from '../helpers/files.js';

const dir = await tempDir('json-');
let n = 0;

async function read(kind: 'json' | 'ndjson', content: string): Promise<SourceRecord[]> {
  const path = await put(dir, `sheet-${(n += 1)}.${kind}`, content);
  const scan = await scanSheet(path);
  const records: SourceRecord[] = [];
  for await (const batch of kind === 'json' ? readJsonArray(path, scan) : readNdjson(path, scan)) {
    records.push(...batch);
  }
  return records;
}

function split(text: string, chunkSize: number): string[] {
  const splitter = new ArraySplitter();
  const out: string[] = [];
  for (let i = 0; i < text.length; i += chunkSize) {
    for (const element of splitter.push(text.slice(i, i + chunkSize))) out.push(element.text);
  }
  splitter.end();
  return out;
}

describe('ArraySplitter', () => {
  const text = ' [ {"a": "x,]}\\"y", "b": [1, {"c": "["}]},\n  {"d": "\\\\"} , 3, "s" ,null]  \n';

  it('cuts a JSON array into its elements, wherever the chunks break', () => {
    const expected = [
      '{"a": "x,]}\\"y", "b": [1, {"c": "["}]}',
      '{"d": "\\\\"} ',
      '3',
      '"s" ',
      'null',
    ];
    for (const size of [1, 2, 3, 5, 7, 64, text.length]) {
      expect(split(text, size).map((e) => e.trim())).toEqual(expected.map((e) => e.trim()));
    }
  });

  it('knows the line each element starts on', () => {
    const splitter = new ArraySplitter();
    const lines = [...splitter.push('[\n{"a":1},\n\n{"b":\n2}\n]')].map((e) => e.line);
    expect(lines).toEqual([2, 4]);
  });

  it.each([
    ['{"a": 1}', /must be a JSON array of orders/],
    ['[{"a": 1}', /not closed/],
    ['[{"a": 1}] x', /more text after the end/],
    ['[{"a": 1},,{"b": 2}]', /unexpected ","/],
    ['[{"a": 1},]', /unexpected "\]"/],
    ['', /empty/],
  ])('refuses %j', (text, message) => {
    expect(() => split(text, 4)).toThrow(message);
  });
});

describe('readJsonArray', () => {
  it('gives each object with its record number and no line', async () => {
    const records = await read('json', '[{"city": "Gent"}, {"city": "Leuven"}]');
    expect(records).toEqual([
      { row: 1, line: null, data: { city: 'Gent' } },
      { row: 2, line: null, data: { city: 'Leuven' } },
    ]);
  });

  it('marks an element that is not an object as a row problem', async () => {
    const records = await read('json', '[{"city": "Gent"}, [1], 5, null]');
    expect(records.map((r) => r.problem)).toEqual([
      undefined,
      'each order must be a JSON object ({…}), not a list.',
      'each order must be a JSON object ({…}), not a number.',
      'each order must be a JSON object ({…}), not null.',
    ]);
  });

  it('refuses broken JSON inside an element, naming its line', async () => {
    const error = await read('json', '[\n{"city": "Gent"},\n{"city": Leuven}\n]').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SheetError);
    expect((error as Error).message).toMatch(/^line 3: the JSON is broken in order 2/);
  });

  it('refuses an empty array', async () => {
    await expect(read('json', '[ ]')).rejects.toThrow(/empty/);
  });
});

describe('readNdjson', () => {
  it('gives one object per line, with its line, skipping blank lines', async () => {
    const records = await read('ndjson', '{"city": "Gent"}\r\n\n{"city": "Leuven"}');
    expect(records).toEqual([
      { row: 1, line: 1, data: { city: 'Gent' } },
      { row: 2, line: 3, data: { city: 'Leuven' } },
    ]);
  });

  it('makes a broken line a problem of its row only', async () => {
    const records = await read('ndjson', '{"city": "Gent"}\n{"city": \n[1]\n{"city": "Leuven"}\n');
    expect(records.map((r) => [r.row, r.line, r.problem?.slice(0, 32)])).toEqual([
      [1, 1, undefined],
      [2, 2, 'this line is not valid JSON (Une'],
      [3, 3, 'each order must be a JSON object'],
      [4, 4, undefined],
    ]);
  });

  it('refuses a sheet of blank lines', async () => {
    await expect(read('ndjson', '\n  \n')).rejects.toThrow(/every line is blank/);
  });
});

/** An order nested `levels` (at least 2) deep: the object is level 1, each list inside one more. */
function nested(levels: number, key = 'remark'): string {
  return `{"city": "Gent", "${key}": ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
}

describe('nesting', () => {
  const problems = (records: SourceRecord[]) => records.map((r) => [r.row, r.problem]);
  const tooDeep = (row: number) =>
    `row ${row} nests objects or lists more than 64 levels deep; an order needs only a few levels: flatten it.`;

  it('deeper than 64 levels is a problem of its row only, in NDJSON', async () => {
    const lines = [nested(2), nested(64), nested(65, 'files'), nested(400_000), nested(2)];
    const records = await read('ndjson', `${lines.join('\n')}\n`);
    expect(problems(records)).toEqual([
      [1, undefined],
      [2, undefined],
      [3, tooDeep(3)],
      [4, tooDeep(4)],
      [5, undefined],
    ]);
    expect(records[2]?.data).toEqual({});
  });

  it('deeper than 64 levels is a problem of its row only, in a JSON array', async () => {
    const elements = [nested(64), nested(65, 'order_products'), nested(400_000), nested(3)];
    const records = await read('json', `[\n${elements.join(',\n')}\n]\n`);
    expect(problems(records)).toEqual([
      [1, undefined],
      [2, tooDeep(2)],
      [3, tooDeep(3)],
      [4, undefined],
    ]);
  });

  it('counts objects and lists alike, however wide', async () => {
    const deepObject = `{"a": ${'{"b": '.repeat(64)}1${'}'.repeat(64)}}`;
    const wide = `{"files": [${Array.from({ length: 5000 }, () => '[[1]]').join(',')}]}`;
    const records = await read('ndjson', `${deepObject}\n${wide}\n`);
    expect(problems(records)).toEqual([
      [1, tooDeep(1)],
      [2, undefined],
    ]);
  });
});
