export type Delimiter = ',' | ';' | '\t';

const CANDIDATES: readonly Delimiter[] = [',', ';', '\t'];

/**
 * The delimiter of a CSV sheet, from its header line (the first that is not blank): the candidate
 * that occurs most often outside quotes (Excel on Belgian and French Windows writes `;`). A
 * one-column header gives `,`.
 */
export function detectDelimiter(head: string): Delimiter {
  const counts = new Map<Delimiter, number>(CANDIDATES.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of head.replace(/^\s+/, '')) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch as Delimiter)) {
      counts.set(ch as Delimiter, (counts.get(ch as Delimiter) ?? 0) + 1);
    }
  }
  let best: Delimiter = ',';
  for (const d of CANDIDATES) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

/**
 * Excel's own hint line, `sep=;`, which some users put above the header so that Excel opens the
 * file right: it names the delimiter and is not part of the data.
 */
export function separatorHint(head: string): Delimiter | undefined {
  const match = /^sep=(.)\r?\n/i.exec(head);
  const hinted = match?.[1];
  return CANDIDATES.find((d) => d === hinted);
}
