/**
 * What a text says outside the pseudo-language's markers (⟦ ⟧, src/language/words.ts): the
 * marked spans (nested ones inside them) taken out, then the given data (values from the sheet or
 * the API, shown as they are), then punctuation and white space. Empty when every word of it came
 * from the catalogue.
 */
export function outsideMarkers(text: string, data: readonly string[] = []): string {
  let outside = '';
  let depth = 0;
  for (const char of text) {
    if (char === '⟦') depth += 1;
    else if (char === '⟧') depth = Math.max(0, depth - 1);
    else if (depth === 0) outside += char;
  }
  for (const value of data) outside = outside.split(value).join('');
  return outside.replace(/[\s\p{P}\p{S}\d]/gu, '');
}
