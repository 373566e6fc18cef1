/**
 * The imports overview as HTML, rendered on the server into page.html's marked places: one line
 * per sheet, then the sheets the hot folder did not take. Every text is escaped (sheet names and
 * paths are the users' own); the page's script only asks for it again (assets/page.js).
 */
import type { MessageKey, Words } from '../language/words.js';
import type { SheetProgress } from '../store/progress.js';
import {
  count as counted,
  data,
  duration,
  escapeHtml,
  markup,
  say,
  sheetHref,
  shown,
  timeElement,
} from './html.js';
import { fixedLaterNote, fixesNote, openCounts, shortIdTag } from './fix-html.js';
import type { Pace } from './rate.js';
import type { OrdersSeen } from './status-cache.js';
import { ordersSummary } from './status-html.js';

export { escapeHtml } from './html.js';

/** A sheet the hot folder left where it was. */
export interface NotTakenSheet {
  path: string;
  reason: string;
  /** When it was seen, ISO 8601. */
  at: string;
  /** The connection whose intake left it: only its installation's dashboard lists it. */
  connectionId?: string;
}

/** What the page shows; an Error where a part cannot be read now (the page is shown anyway). */
export interface OverviewView {
  /** The language the page is in. */
  words: Words;
  sheets: SheetProgress[] | Error;
  notTaken: NotTakenSheet[] | Error | undefined;
  now: Date;
  /** How fast each running sheet goes, by sheetId (rate.ts). */
  paces?: ReadonlyMap<string, Pace>;
  /** What each reported sheet's status.csv says of its orders, by sheetId. */
  orders?: ReadonlyMap<string, OrdersSeen>;
}

/** The places page.html marks for the server, each written once in it. */
export const PLACES = {
  updated: '<!-- updated -->',
  imports: '<!-- imports -->',
  notTaken: '<!-- sheets not taken -->',
} as const;

/** page.html with its places filled. */
export function overviewPage(template: string, view: OverviewView): string {
  const filled: Record<keyof typeof PLACES, string> = {
    updated: updatedLine(view.words, view.sheets, view.now),
    imports:
      view.sheets instanceof Error
        ? ''
        : importRows(view.words, view.sheets, view.now, view.paces, view.orders),
    notTaken: notTakenSection(view.words, view.notTaken),
  };
  let page = template;
  for (const [place, html] of Object.entries(filled)) {
    // A function, not a string: `$&` or `$'` in a sheet name must stay text.
    page = page.replace(PLACES[place as keyof typeof PLACES], () => html);
  }
  return page;
}

function updatedLine(words: Words, sheets: SheetProgress[] | Error, now: Date): string {
  if (sheets instanceof Error) {
    const said = say(words, 'dashboard.overview.unreadable', { reason: data(sheets.message) });
    return `<span class="bad">${said}</span>`;
  }
  return say(words, 'dashboard.overview.updated', {
    count: sheets.length,
    time: markup(timeElement(words, now.toISOString(), 'time')),
  });
}

/** One table row per sheet, cells as the table's head names them. */
export function importRows(
  words: Words,
  sheets: SheetProgress[],
  now: Date,
  paces?: ReadonlyMap<string, Pace>,
  orders?: ReadonlyMap<string, OrdersSeen>,
): string {
  const names = new Map(sheets.map((s) => [s.sheetId, s.name]));
  return sheets
    .map((sheet) =>
      importRow(
        words,
        sheet,
        now,
        { pace: paces?.get(sheet.sheetId), orders: orders?.get(sheet.sheetId) },
        names,
      ),
    )
    .join('\n');
}

function importRow(
  words: Words,
  sheet: SheetProgress,
  now: Date,
  { pace, orders }: { pace: Pace | undefined; orders: OrdersSeen },
  names: ReadonlyMap<string, string>,
): string {
  const c = sheet.counts;
  const count = (n: number, flagged = false) =>
    `<td class="${flagged && n > 0 ? 'n bad' : 'n'}">${counted(words, n)}</td>`;
  // Rows fixed later by another sheet are no open problem of this one (its note says where).
  const open = openCounts(sheet);
  const problem = (status: 'invalid' | 'failed') =>
    count(open[status], true).replace('>', ` data-status="${status}">`);
  const end = sheet.finishedAt ? Date.parse(sheet.finishedAt) : now.getTime();
  return [
    `<tr data-sheet-id="${escapeHtml(sheet.sheetId)}">`,
    `<td class="sheet">${sheetCell(words, sheet, names)}</td>`,
    `<td class="when">${timeElement(words, sheet.startedAt, 'date-time')}</td>`,
    `<td>${stateBadge(words, sheet)}</td>`,
    `<td class="progress">${progress(words, sheet)}${paceLine(words, pace)}</td>`,
    count(c.created),
    problem('invalid'),
    problem('failed'),
    count(c['needs-review'], true),
    count(c.duplicate),
    `<td class="duration">${duration(words, end - Date.parse(sheet.startedAt))}</td>`,
    `<td class="links">${reportLinks(words, sheet)}${sheetOrders(words, orders)}</td>`,
    `<td class="api">${connectionCell(words, sheet)}</td>`,
    '</tr>',
  ].join('');
}

/**
 * Under its report's files, what its status.csv says of its orders (a column of its own would
 * widen the table past what a 1280 px window shows).
 */
function sheetOrders(words: Words, orders: OrdersSeen): string {
  const said = ordersSummary(words, orders);
  return said === '' ? '' : `<div class="sheet-orders">${said}</div>`;
}

/** The sheet's name, linking to its page, and what sets it apart: a duplicate, unreadable. */
function sheetCell(words: Words, sheet: SheetProgress, names: ReadonlyMap<string, string>): string {
  const name = `<a href="${escapeHtml(sheetHref(sheet.sheetId))}">${shown(sheet.name)}</a>${shortIdTag(words, sheet.sheetId)}`;
  const notes: string[] = [fixesNote(words, sheet), fixedLaterNote(words, sheet)].filter(Boolean);
  const earlier = sheet.duplicateOf;
  if (earlier !== undefined) notes.push(duplicateNote(words, earlier, names.get(earlier)));
  if (sheet.error !== undefined) notes.push(`<span class="bad">${shown(sheet.error)}</span>`);
  return notes.length === 0 ? name : `${name}<div class="note">${notes.join(' ')}</div>`;
}

/** Which import a duplicate sheet repeats, linked, by its name when known and its id. */
export function duplicateNote(words: Words, earlier: string, name?: string): string {
  const said = name === undefined ? earlier : `${name} (${earlier})`;
  const link = `<a href="${escapeHtml(sheetHref(earlier))}">${shown(said)}</a>`;
  return say(words, 'dashboard.duplicateOf', { sheet: markup(link) });
}

const STATE_WORDS: Record<SheetProgress['state'] | 'unreadable', MessageKey> = {
  queued: 'dashboard.state.queued',
  reading: 'dashboard.state.reading',
  processing: 'dashboard.state.processing',
  reporting: 'dashboard.state.reporting',
  done: 'dashboard.state.done',
  unreadable: 'dashboard.state.unreadable',
};

/** The sheet's state; `unreadable` for a sheet that could not be read at all. */
export function stateBadge(words: Words, sheet: Pick<SheetProgress, 'state' | 'error'>): string {
  const state = sheet.error ? 'unreadable' : sheet.state;
  const key = STATE_WORDS[state] as MessageKey | undefined;
  const word = key === undefined ? shown(state) : say(words, key);
  return `<span class="${escapeHtml(`state ${state}`)}">${word}</span>`;
}

/** Which connection the sheet went through: its name, its API host, a badge for the sandbox. */
export function connectionCell(
  words: Words,
  sheet: Pick<SheetProgress, 'connection' | 'apiHost' | 'sandbox'>,
): string {
  // Only a connection of the config file has a name worth showing (settings/connections.ts
  // keeps "default" for API_BASE_URL's); the embedded sandbox's is named by its badge.
  const name =
    sheet.connection === undefined || sheet.connection === 'default' || sheet.sandbox === true
      ? ''
      : `<span class="connection">${shown(sheet.connection)}</span> `;
  const sandbox = sheet.sandbox
    ? `<span class="sandbox">${say(words, 'dashboard.sandbox')}</span>`
    : '';
  return `${name}${shown(sheet.apiHost ?? '')}${sandbox}`;
}

/** How fast a running sheet goes, and when it should be done at that pace. */
export function paceLine(words: Words, pace: Pace | undefined): string {
  if (pace === undefined) return '';
  const rate = markup(
    counted(
      words,
      pace.perSecond >= 10 ? Math.round(pace.perSecond) : Math.round(pace.perSecond * 10) / 10,
    ),
  );
  const said =
    pace.secondsLeft === undefined
      ? say(words, 'dashboard.pace', { rate })
      : say(words, 'dashboard.pace.left', {
          rate,
          left: markup(duration(words, pace.secondsLeft * 1000)),
        });
  return `<div class="pace">${said}</div>`;
}

function progress(words: Words, sheet: SheetProgress): string {
  const total = sheet.total ?? 0;
  const bar = `<progress max="${Math.max(total, 1)}" value="${Math.min(sheet.final, total)}"></progress>`;
  const of = sheet.total === undefined ? '?' : counted(words, sheet.total);
  return `${bar}${counted(words, sheet.final)}/${of}`;
}

/** The report's files once there is a report, each only when it has something in it. */
export function reportLinks(words: Words, sheet: SheetProgress): string {
  if (!sheet.reportDir) return '';
  const c = sheet.counts;
  // The files by their names, which are the same in every language; the bundle's in words.
  const files: [file: string, html: string][] = [['report.csv', 'report.csv']];
  if (c.invalid + c.failed > 0) files.push(['failed.zip', say(words, 'dashboard.failedZip')]);
  if (c['needs-review'] > 0) files.push(['needs-review.csv', 'needs-review.csv']);
  files.push(['summary.json', 'summary.json']);
  const base = `/reports/${encodeURIComponent(sheet.sheetId)}/`;
  return files.map(([file, html]) => `<a href="${escapeHtml(base + file)}">${html}</a> `).join('');
}

/**
 * The sheets not taken as a section, nothing when there are none or none are known, and one
 * line saying so when they cannot be read now.
 */
export function notTakenSection(
  words: Words,
  notTaken: NotTakenSheet[] | Error | undefined,
): string {
  if (notTaken === undefined || (Array.isArray(notTaken) && notTaken.length === 0)) return '';
  if (notTaken instanceof Error) {
    const said = say(words, 'dashboard.notTaken.unreadable', { reason: data(notTaken.message) });
    return `<p class="bad" id="not-taken">${said}</p>\n`;
  }
  const rows = notTaken
    .map(
      (s) =>
        `    <tr><td class="when">${timeElement(words, s.at, 'date-time')}</td><td class="path">${shown(s.path)}</td><td>${shown(s.reason)}</td></tr>`,
    )
    .join('\n');
  const head = (['seen', 'file', 'why'] as const)
    .map((column) => `<th>${say(words, `dashboard.notTaken.${column}`)}</th>`)
    .join('');
  return `<h2>${say(words, 'dashboard.notTaken.heading')}</h2>
<p class="sub">${say(words, 'dashboard.notTaken.intro')}</p>
<table id="not-taken">
  <thead><tr>${head}</tr></thead>
  <tbody>
${rows}
  </tbody>
</table>
`;
}
