import { describe, expect, it } from 'vitest';

import { jsonMistake } from '../../src/orders/json-mistake.js';

function mistakeIn(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonMistake(text, error);
  }
  throw new Error('parsed');
}

describe('jsonMistake', () => {
  it.each([
    ['{ "a": 1 "b": 2 }', /after property value at line 1, column 10$/],
    ['{\n  "columns": {\n    "Straat": "address1",\n  }\n}', / at line 4, column 3$/],
    ['{\r\n  "a": 1,\r\n  b: 2\r\n}', / at line 3, column 3$/],
    ['{ "a": [1, 2 }', / at line 1, column 14$/],
  ])('says where the mistake in %j is as an editor counts', (text, where) => {
    const said = mistakeIn(text);
    expect(said).toMatch(where);
    expect(said).not.toMatch(/position/);
  });

  it('keeps a message that names no position as it is', () => {
    expect(mistakeIn('')).toBe('Unexpected end of JSON input');
    expect(jsonMistake('', new Error('something else'))).toBe('something else');
  });
});
