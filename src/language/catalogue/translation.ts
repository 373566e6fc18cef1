/** A language's texts for one part of the catalogue: exactly the English part's keys. */
export type Translation<English> = { readonly [K in keyof English]: string };
