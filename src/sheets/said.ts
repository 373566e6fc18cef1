/**
 * A text about a sheet kept as its catalogue key and values, not yet in words: a parser says what
 * is wrong once, cheaply, and each reader has it in their own language — the office its
 * `failed/…/error.txt`, the log its English line.
 */
import type { MessageKey, Words } from '../language/words.js';
import type { MappingSource } from '../orders/mapping.js';

/**
 * What fills a placeholder: data as it is (a file name, a line), another text said in the same
 * words, or words made by a function of them (a part written by another module).
 */
export type SaidValue = string | number | Said | ((words: Words) => string);

export interface Said {
  readonly key: MessageKey;
  readonly values?: Readonly<Record<string, SaidValue>>;
}

export function said(key: MessageKey, values?: Readonly<Record<string, SaidValue>>): Said {
  return values === undefined ? { key } : { key, values };
}

/** The text in `words`, its parts said in the same words. */
export function say(words: Words, text: Said): string {
  if (text.values === undefined) return words.t(text.key);
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(text.values)) {
    values[name] =
      typeof value === 'function'
        ? value(words)
        : typeof value === 'object'
          ? say(words, value)
          : value;
  }
  return words.t(text.key, values);
}

/** A line number as data, not a quantity: `1234`, not `1,234`. */
export function lineValue(line: number): string {
  return String(line);
}

/** Which mapping a sheet was read with, as describeMapping says it, in a person's words. */
export function mappingSource(source: MappingSource): Said {
  return said('sheets.mapping.source', { kind: source.kind, file: source.file });
}
