/**
 * The fix loop on the dashboard's pages: a sheet dropped back from failed/ names the sheet it
 * fixes, the original says how many of its rows were fixed later and where, and those rows count
 * no more among its open problems. Linked sheets are named so that two of one name are told
 * apart: their name, when they were taken and their short id. What is shown comes from the store
 * (store/fix-links.ts); the original's report stays as it was written.
 */
import type { MessageKey, Words } from '../language/words.js';
import type { SheetDetail, SheetLink, SheetProgress } from '../store/progress.js';
import { count, data, escapeHtml, markup, say, sheetHref, shown, timeElement } from './html.js';

/** The end of a sheet's id, unique enough to tell sheets of one name apart (`3fa9c1`). */
export function shortId(sheetId: string): string {
  return sheetId.slice(sheetId.lastIndexOf('-') + 1) || sheetId;
}

/** A sheet's short id, beside its name; its whole id in the tooltip. */
export function shortIdTag(words: Words, sheetId: string): string {
  const title = escapeHtml(words.t('dashboard.sheet.idTitle', { id: sheetId }));
  return ` <span class="short-id" title="${title}">${shown(shortId(sheetId))}</span>`;
}

/**
 * A link to another sheet: its name, when it was taken and its short id, or its id alone;
 * `compact`, its name and short id only (in a row's narrow first cell).
 */
export function sheetLink(words: Words, link: SheetLink, compact = false): string {
  let label = shown(link.sheetId);
  if (link.name !== undefined && link.startedAt !== undefined && !compact) {
    label = say(words, 'dashboard.fix.sheet', {
      name: data(link.name),
      time: markup(timeElement(words, link.startedAt)),
      id: data(shortId(link.sheetId)),
    });
  } else if (link.name !== undefined)
    label = `${shown(link.name)} (${shown(shortId(link.sheetId))})`;
  return `<a href="${escapeHtml(sheetHref(link.sheetId))}">${label}</a>`;
}

/** The invalid and failed rows no later sheet fixed. */
export function openCounts(sheet: Pick<SheetProgress, 'counts' | 'fixedLater'>): {
  invalid: number;
  failed: number;
} {
  const fixed = sheet.fixedLater ?? { invalid: 0, failed: 0 };
  return {
    invalid: Math.max(0, sheet.counts.invalid - fixed.invalid),
    failed: Math.max(0, sheet.counts.failed - fixed.failed),
  };
}

/** "fixes rows of <sheet>", for a sheet dropped back from another's failed/. */
export function fixesNote(words: Words, sheet: Pick<SheetProgress, 'fixes'>): string {
  if (sheet.fixes === undefined) return '';
  return say(words, 'dashboard.fix.fixes', { sheet: markup(sheetLink(words, sheet.fixes)) });
}

/** "3 rows fixed later in <sheet>, <sheet>". */
export function fixedLaterNote(words: Words, sheet: Pick<SheetProgress, 'fixedLater'>): string {
  const later = sheet.fixedLater;
  if (later === undefined) return '';
  const sheets = later.by.map((link) => sheetLink(words, link)).join(', ');
  return say(words, 'dashboard.fix.fixedLater', {
    count: later.invalid + later.failed,
    sheets: markup(sheets),
  });
}

/** The sheet page's facts of the fix loop: what it fixes, what was fixed of it, what is open. */
export function fixFacts(words: Words, sheet: SheetDetail): Array<[MessageKey, string]> {
  const facts: Array<[MessageKey, string]> = [];
  if (sheet.fixes !== undefined) {
    facts.push(['dashboard.fact.fixes', `<span id="fixes">${fixesNote(words, sheet)}</span>`]);
  }
  if (sheet.fixedLater !== undefined) {
    const note = fixedLaterNote(words, sheet);
    facts.push(['dashboard.fact.fixedLater', `<span id="fixed-later">${note}</span>`]);
  }
  const problems = sheet.counts.invalid + sheet.counts.failed;
  if (problems > 0 && sheet.state === 'done') {
    const open = openCounts(sheet);
    const n = count(words, open.invalid + open.failed);
    facts.push(['dashboard.fact.open', `<span id="open-problems">${n}</span>`]);
  }
  return facts;
}

/** A row fixed later: the attribute and the note its line carries, else nothing. */
export function fixedRowMark(
  words: Words,
  sheet: Pick<SheetDetail, 'fixedRows' | 'fixedLater'>,
  row: number,
): { attribute: string; note: string } {
  const by = sheet.fixedRows?.get(row);
  if (by === undefined) return { attribute: '', note: '' };
  const link = sheet.fixedLater?.by.find((l) => l.sheetId === by) ?? { sheetId: by };
  const said = say(words, 'dashboard.fix.row', { sheet: markup(sheetLink(words, link, true)) });
  return {
    attribute: ` data-fixed-by="${escapeHtml(by)}"`,
    note: `<div class="note fixed-later">${said}</div>`,
  };
}
