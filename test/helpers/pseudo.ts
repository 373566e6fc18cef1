/**
 * Reading the pseudo-language (src/language/words.ts wraps every catalogue text in ⟦ ⟧): what a
 * text says outside its markers is text a person reads that is not from the catalogue.
 */

/** The text with every ⟦…⟧ span taken out, innermost first (nested spans too). */
export function unmarked(text: string, replacement = ''): string {
  let rest = text;
  for (let before = ''; before !== rest;) {
    before = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, replacement);
  }
  return rest;
}

/**
 * What a text says outside the markers once the given data (values from the sheet or the API,
 * shown as they are) is taken out too, less digits, punctuation and white space: empty when every
 * word of it came from the catalogue.
 */
export function outsideMarkers(text: string, data: readonly string[] = []): string {
  let outside = unmarked(text);
  for (const value of data) outside = outside.split(value).join('');
  return outside.replace(/[\s\p{P}\p{S}\d]/gu, '');
}
