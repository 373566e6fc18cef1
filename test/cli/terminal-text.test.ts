import { describe, expect, it } from 'vitest';

import { terminalLines, terminalText } from '../../src/cli/terminal-text.js';

describe('terminalText', () => {
  it.each([
    ['a colour', 'R\u001b[31m1', 'R\\u001b[31m1'],
    ['a window title', '\u001b]0;owned\u0007', '\\u001b]0;owned\\u0007'],
    ['a clear screen', '\u001b[2J\u001b[H', '\\u001b[2J\\u001b[H'],
    ['a line break', 'a\nb', 'a\\nb'],
    ['a carriage return', 'fake\rreal', 'fake\\rreal'],
    ['a tab', 'a\tb', 'a\\tb'],
    ['a NUL and a backspace', 'a\u0000\u0008', 'a\\u0000\\u0008'],
    ['DEL', 'a\u007f', 'a\\u007f'],
    ['an 8-bit CSI', 'a\u009b31m', 'a\\u009b31m'],
    ['a right-to-left override', 'cod\u202eexe.pdf', 'cod\\u202eexe.pdf'],
    ['a line separator', 'a\u2028b', 'a\\u2028b'],
  ])('writes out %s', (_what, text, shown) => {
    expect(terminalText(text)).toBe(shown);
  });

  it.each(['', 'Gent', 'Liège', 'Françoise Dubœuf', 'C:\\docs\\plan.pdf', '€ 12,50', '日本', '😀'])(
    'leaves %j as it is',
    (text) => {
      expect(terminalText(text)).toBe(text);
    },
  );

  it('writes out exactly the code units of its list, each of the 65,536', () => {
    const listed = /[\p{Cc}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;
    const wrong: number[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      const text = `a${String.fromCharCode(unit)}b`;
      if ((terminalText(text) === text) === listed.test(text)) wrong.push(unit);
    }
    expect(wrong).toEqual([]);
  });

  it('is the same when applied twice', () => {
    const once = terminalText('\u001b[31mred\u0007\n');
    expect(terminalText(once)).toBe(once);
  });
});

describe('terminalLines', () => {
  it('keeps line breaks and writes out every other control character', () => {
    expect(terminalLines('Error: \u001b[2J\n    at x\r\n')).toBe(
      'Error: \\u001b[2J\n    at x\\r\n',
    );
  });
});
