/**
 * A sheet's own page (`/sheets/<sheetId>`): what the sheet is (its state, connection, times,
 * whether it repeats an earlier import, its warnings), then its rows a page at a time, filtered
 * by status, each with its reference, address, contact, error in plain words, order and files.
 * Rendered whole on the server, every text escaped; while the sheet runs the page's script
 * refreshes it.
 */
import type { MessageKey, Words } from '../language/words.js';
import type { SheetDetail } from '../store/progress.js';
import { fixFacts, shortIdTag } from './fix-html.js';
import { count, data, duration, markup, say, shown, timeElement, titled } from './html.js';
import { connectionCell, duplicateNote, paceLine, reportLinks, stateBadge } from './page.js';
import type { Pace } from './rate.js';
import type { RowsPage, RowsQuery } from './sheet-rows.js';
import { sheetNotes } from './sheet-notes.js';
import { rowsPart, statusFilter } from './sheet-rows-html.js';
import { ordersSummary, type PageOrders } from './status-html.js';

export interface SheetView {
  words: Words;
  sheet: SheetDetail;
  /** The name of the sheet this one repeats, when known. */
  earlierName?: string;
  pace?: Pace;
  query: RowsQuery;
  /** The page's rows; an Error when they cannot be read now, undefined when there are none to read. */
  rows: RowsPage | Error | undefined;
  /** What its status.csv says of its orders, once it is reported. */
  orders?: PageOrders;
  now: Date;
}

/** The page's title and main part (frame.html's places). */
export function sheetPage(view: SheetView): { title: string; main: string } {
  const { sheet, words } = view;
  const live = sheet.state === 'done' ? '' : ' data-live';
  const main = [
    `<div id="sheet" data-part${live}>`,
    `<header class="title"><div class="name"><h1>${shown(sheet.name)}</h1>${shortIdTag(words, sheet.sheetId)}${stateBadge(words, sheet)}</div></header>`,
    facts(view),
    problems(words, sheet),
    statusFilter(words, sheet, view.query),
    rowsPart(words, view),
    '</div>',
  ].join('\n');
  return { title: titled(words, data(sheet.name)), main };
}

function facts(view: SheetView): string {
  const { sheet, now, words } = view;
  const end = sheet.finishedAt === undefined ? now.getTime() : Date.parse(sheet.finishedAt);
  const items: Array<[MessageKey, string]> = [
    ['dashboard.fact.connection', connectionCell(words, sheet)],
    ['dashboard.fact.received', timeElement(words, sheet.startedAt)],
  ];
  if (sheet.finishedAt !== undefined) {
    items.push(['dashboard.fact.reported', timeElement(words, sheet.finishedAt)]);
  }
  items.push(['dashboard.fact.duration', duration(words, end - Date.parse(sheet.startedAt))]);
  const total = sheet.total === undefined ? '?' : count(words, sheet.total);
  const ended = say(words, 'dashboard.fact.rowsEnded', {
    ended: markup(count(words, sheet.final)),
    total: markup(total),
  });
  items.push(['dashboard.fact.rows', `${ended}${paceLine(words, view.pace)}`]);
  if (sheet.duplicateOf !== undefined) {
    items.push([
      'dashboard.fact.sameContent',
      duplicateNote(words, sheet.duplicateOf, view.earlierName),
    ]);
  }
  // Its files are on one data folder's disk: until it is reported, only that folder's workers
  // work it, and this is the folder it waits for.
  if (sheet.installation !== undefined && sheet.state !== 'done') {
    const installation = data(sheet.installation);
    const workers =
      sheet.dataDir === undefined
        ? say(words, 'dashboard.fact.workersOf', { installation })
        : say(words, 'dashboard.fact.workers', { folder: data(sheet.dataDir), installation });
    items.push(['dashboard.fact.workedBy', workers]);
  }
  if (sheet.reportDir !== undefined) {
    items.push(['dashboard.fact.report', reportLinks(words, sheet)]);
  }
  const orders = ordersSummary(words, view.orders?.seen);
  if (orders !== '') items.push(['dashboard.fact.orders', orders]);
  items.push(...fixFacts(words, sheet));
  const rows = items.map(
    ([term, value]) => `<div><dt>${say(words, term)}</dt><dd>${value}</dd></div>`,
  );
  return `<dl class="facts">${rows.join('')}</dl>`;
}

/** Why the sheet could not be read, and what its import warned of. */
function problems(words: Words, sheet: SheetDetail): string {
  const parts: string[] = [];
  if (sheet.error !== undefined) {
    const said = say(words, 'dashboard.sheet.unreadable', { reason: data(sheet.error) });
    parts.push(`<p class="bad" id="sheet-error">${said}</p>`);
  }
  if (sheet.warnings.length > 0) parts.push(sheetNotes(sheet));
  return parts.join('\n');
}
