/**
 * The imports overview as HTML, rendered on the server into page.html's marked places: one line
 * per sheet, then the sheets the hot folder did not take. Every text is escaped (sheet names and
 * paths are the users' own); the page's script only asks for it again (assets/overview.js).
 */
import type { SheetProgress } from '../store/progress.js';

/** A sheet the hot folder left where it was. */
export interface NotTakenSheet {
  path: string;
  reason: string;
  /** When it was seen, ISO 8601. */
  at: string;
}

/** What the page shows; an Error where a part cannot be read now (the page is shown anyway). */
export interface OverviewView {
  sheets: SheetProgress[] | Error;
  notTaken: NotTakenSheet[] | Error | undefined;
  now: Date;
}

/** The places page.html marks for the server, each written once in it. */
export const PLACES = {
  updated: '<!-- updated -->',
  imports: '<!-- imports -->',
  notTaken: '<!-- sheets not taken -->',
} as const;

/** `&`, `<`, `>`, `"` and `'` as entities: safe in text and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** page.html with its places filled. */
export function overviewPage(template: string, view: OverviewView): string {
  const filled: Record<keyof typeof PLACES, string> = {
    updated: updatedLine(view.sheets, view.now),
    imports: view.sheets instanceof Error ? '' : importRows(view.sheets, view.now),
    notTaken: notTakenSection(view.notTaken),
  };
  let page = template;
  for (const [place, html] of Object.entries(filled)) {
    // A function, not a string: `$&` or `$'` in a sheet name must stay text.
    page = page.replace(PLACES[place as keyof typeof PLACES], () => html);
  }
  return page;
}

function updatedLine(sheets: SheetProgress[] | Error, now: Date): string {
  if (sheets instanceof Error) {
    return `<span class="bad">The imports cannot be read now: ${escapeHtml(sheets.message)}</span>`;
  }
  return `${sheets.length} sheet(s), updated ${timeElement(now.toISOString(), 'time')}`;
}

/** One table row per sheet, cells as the table's head names them. */
export function importRows(sheets: SheetProgress[], now: Date): string {
  return sheets.map((sheet) => importRow(sheet, now)).join('\n');
}

function importRow(sheet: SheetProgress, now: Date): string {
  const c = sheet.counts;
  const count = (n: number, flagged = false) =>
    `<td class="${flagged && n > 0 ? 'n bad' : 'n'}">${n}</td>`;
  const state = sheet.error ? 'unreadable' : sheet.state;
  const end = sheet.finishedAt ? Date.parse(sheet.finishedAt) : now.getTime();
  const sandbox = sheet.sandbox ? '<span class="sandbox">sandbox</span>' : '';
  // Only a connection of the config file has a name worth showing (settings/connections.ts
  // keeps "default" for API_BASE_URL's); the embedded sandbox's is named by its badge.
  const connection =
    sheet.connection === undefined || sheet.connection === 'default' || sheet.sandbox === true
      ? ''
      : `<span class="connection">${escapeHtml(sheet.connection)}</span> `;
  return [
    `<tr data-sheet-id="${escapeHtml(sheet.sheetId)}">`,
    `<td>${escapeHtml(sheet.name)}</td>`,
    `<td>${timeElement(sheet.startedAt, 'date-time')}</td>`,
    `<td><span class="${escapeHtml(`state ${sheet.state}`)}">${escapeHtml(state)}</span></td>`,
    `<td>${progress(sheet)}</td>`,
    count(c.created),
    count(c.invalid, true),
    count(c.failed, true),
    count(c['needs-review'], true),
    count(c.duplicate),
    `<td>${duration(end - Date.parse(sheet.startedAt))}</td>`,
    `<td>${reportLinks(sheet)}</td>`,
    `<td class="api">${connection}${escapeHtml(sheet.apiHost ?? '')}${sandbox}</td>`,
    '</tr>',
  ].join('');
}

/**
 * A moment in UTC, which the page's script shows in the browser's own zone (`time` only the
 * clock, `date-time` both); a text that is not a moment as it is.
 */
function timeElement(iso: string, show: 'time' | 'date-time'): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return escapeHtml(iso);
  const [date = '', clock = ''] = at.toISOString().slice(0, 19).split('T');
  const text = show === 'time' ? `${clock} UTC` : `${date} ${clock} UTC`;
  return `<time datetime="${escapeHtml(iso)}" data-show="${show}">${text}</time>`;
}

function progress(sheet: SheetProgress): string {
  const total = sheet.total ?? 0;
  const bar = `<progress max="${Math.max(total, 1)}" value="${Math.min(sheet.final, total)}"></progress>`;
  return `${bar}${sheet.final}/${sheet.total ?? '?'}`;
}

function duration(ms: number): string {
  if (!(ms >= 0)) return '';
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The report's files once there is a report, each only when it has something in it. */
function reportLinks(sheet: SheetProgress): string {
  if (!sheet.reportDir) return '';
  const c = sheet.counts;
  const files: [file: string, text: string][] = [['report.csv', 'report.csv']];
  if (c.invalid + c.failed > 0) files.push(['failed.zip', 'failed/ (zip)']);
  if (c['needs-review'] > 0) files.push(['needs-review.csv', 'needs-review.csv']);
  files.push(['summary.json', 'summary.json']);
  const base = `/reports/${encodeURIComponent(sheet.sheetId)}/`;
  return files
    .map(([file, text]) => `<a href="${escapeHtml(base + file)}">${escapeHtml(text)}</a> `)
    .join('');
}

/**
 * The sheets not taken as a section, nothing when there are none or none are known, and one
 * line saying so when they cannot be read now.
 */
export function notTakenSection(notTaken: NotTakenSheet[] | Error | undefined): string {
  if (notTaken === undefined || (Array.isArray(notTaken) && notTaken.length === 0)) return '';
  if (notTaken instanceof Error) {
    return `<p class="bad" id="not-taken">The sheets not taken cannot be read now: ${escapeHtml(notTaken.message)}</p>\n`;
  }
  const rows = notTaken
    .map(
      (s) =>
        `    <tr><td>${escapeHtml(s.at)}</td><td class="path">${escapeHtml(s.path)}</td><td>${escapeHtml(s.reason)}</td></tr>`,
    )
    .join('\n');
  return `<h2>Sheets not taken</h2>
<p class="sub">The hot folder left these where they are. Fix what is said and drop them again.</p>
<table id="not-taken">
  <thead><tr><th>Seen</th><th>File</th><th>Why</th></tr></thead>
  <tbody>
${rows}
  </tbody>
</table>
`;
}
