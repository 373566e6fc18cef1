/**
 * The agenda's page (`/agenda`, docs/design.md "The agenda"): its filters, the planned
 * inspections by date and time in Brussels (a cancelled one struck through), those not planned
 * yet apart, the same list to download, and the calendar feeds of the viewer's offices.
 */
import type { MessageKey, Words } from '../language/words.js';
import { statusText } from '../notify/status-words.js';
import type { AgendaEntry } from '../store/agenda.js';
import type { AgendaList, AgendaQuery } from './agenda-filter.js';
import { count, escapeHtml, markup, say, sheetHref, shown, titled } from './html.js';
import type { FramedPage } from './pages.js';

export interface AgendaView {
  list: AgendaList;
  query: AgendaQuery;
  /** The filters asked were not understood: the default ones are shown. */
  bad: boolean;
  statusDays: number;
  /** The viewer's offices' feeds: the address to subscribe to. */
  feeds: ReadonlyArray<{ office: string; url: string }>;
}

/** A wall-clock day (`YYYY-MM-DD…`) as the language writes it, with its weekday. */
export function dayText(words: Words, date: string): string {
  const ms = Date.UTC(
    Number(date.slice(0, 4)),
    Number(date.slice(5, 7)) - 1,
    Number(date.slice(8, 10)),
  );
  if (Number.isNaN(ms)) return date.slice(0, 10);
  return new Intl.DateTimeFormat(words.locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(ms);
}

/** The query string of the filters, for the downloads' links. */
export function queryString(query: AgendaQuery): string {
  const params = new URLSearchParams();
  for (const key of ['office', 'from', 'to', 'status'] as const) {
    const value = query[key];
    if (value !== undefined) params.set(key, value);
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export function agendaPage(words: Words, view: AgendaView): FramedPage {
  const heading = say(words, 'dashboard.agenda.heading');
  const intro = say(words, 'dashboard.agenda.intro', { days: view.statusDays });
  const { list } = view;
  const counted = say(words, 'dashboard.agenda.counted', {
    count: list.planned.length,
    from: markup(escapeHtml(dayText(words, list.period.from))),
    to: markup(escapeHtml(dayText(words, list.period.to))),
  });
  const main = [
    `<header class="title"><h1>${heading}</h1></header>`,
    `<p class="sub">${intro}</p>`,
    view.bad ? `<p class="bad">${say(words, 'dashboard.agenda.badQuery')}</p>` : '',
    filterForm(words, view),
    `<p class="sub" id="counted">${counted} ${downloads(words, view.query)}</p>`,
    list.planned.length === 0 ? '' : agendaTable(words, list.planned, 'planned'),
    `<h2 id="unplanned-count">${say(words, 'dashboard.agenda.unplanned', { count: list.unplanned.length })}</h2>`,
    list.unplanned.length === 0 ? '' : agendaTable(words, list.unplanned, 'unplanned'),
    feedsPart(words, view.feeds),
  ];
  return { title: titled(words, markup(heading)), main: main.filter((p) => p !== '').join('\n') };
}

function downloads(words: Words, query: AgendaQuery): string {
  const q = escapeHtml(queryString(query));
  return [
    say(words, 'dashboard.agenda.download'),
    `<a href="/agenda.csv${q}" download>${say(words, 'dashboard.agenda.csvFile')}</a>`,
    `<a href="/agenda.xlsx${q}" download>${say(words, 'dashboard.agenda.xlsxFile')}</a>`,
    `<a href="/agenda.ics${q}" download>${say(words, 'dashboard.agenda.calendarFile')}</a>`,
  ].join(' ');
}

function options(
  values: readonly string[],
  chosen: string | undefined,
  all: string,
  label: (v: string) => string,
): string {
  const first = `<option value="">${all}</option>`;
  const rest = values.map(
    (v) =>
      `<option value="${escapeHtml(v)}"${v === chosen ? ' selected' : ''}>${shown(label(v))}</option>`,
  );
  return [first, ...rest].join('');
}

function filterForm(words: Words, view: AgendaView): string {
  const { list, query } = view;
  const field = (key: MessageKey, control: string) =>
    `<label>${say(words, key)} ${control}</label>`;
  return [
    '<form class="agenda-filter" action="/agenda" method="get">',
    field(
      'dashboard.agenda.office',
      `<select name="office">${options(list.offices, query.office, say(words, 'dashboard.agenda.allOffices'), (v) => v)}</select>`,
    ),
    field(
      'dashboard.agenda.from',
      `<input type="date" name="from" value="${escapeHtml(list.period.from)}" />`,
    ),
    field(
      'dashboard.agenda.to',
      `<input type="date" name="to" value="${escapeHtml(list.period.to)}" />`,
    ),
    field(
      'dashboard.agenda.status',
      `<select name="status">${options(list.statuses, query.status, say(words, 'dashboard.agenda.allStatuses'), (v) => statusText(words, v))}</select>`,
    ),
    `<button type="submit">${say(words, 'dashboard.agenda.show')}</button>`,
    '</form>',
  ].join('');
}

const COLUMNS: readonly MessageKey[] = [
  'dashboard.agenda.col.day',
  'dashboard.agenda.col.time',
  'dashboard.agenda.col.product',
  'dashboard.agenda.col.address',
  'dashboard.agenda.col.contact',
  'dashboard.agenda.col.inspector',
  'dashboard.agenda.col.status',
  'dashboard.agenda.col.reference',
  'dashboard.agenda.col.sheet',
];

function agendaTable(words: Words, entries: readonly AgendaEntry[], id: string): string {
  const labels = COLUMNS.map((key) => say(words, key));
  const head = `<thead><tr>${labels.map((l) => `<th>${l}</th>`).join('')}</tr></thead>`;
  const rows = entries.map((e) => agendaRow(words, e, labels));
  return `<table class="agenda" id="${id}">${head}<tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

function agendaRow(words: Words, e: AgendaEntry, labels: readonly string[]): string {
  const cancelled = e.status === 'cancelled';
  const cell = (i: number, html: string, cls = 'text') =>
    `<td class="${cls}" data-label="${labels[i] ?? ''}">${cancelled && html !== '' ? `<del>${html}</del>` : html}</td>`;
  const contact = [
    shown(e.contact),
    e.phone === ''
      ? ''
      : `<a href="tel:${escapeHtml(e.phone.replace(/[^+\d]/g, ''))}">${shown(e.phone)}</a>`,
  ]
    .filter((p) => p !== '')
    .join('<br />');
  const status = `<span class="order-status">${shown(statusText(words, e.status))}</span>`;
  return [
    `<tr data-uid="${escapeHtml(e.uid)}" data-office="${escapeHtml(e.office)}"${cancelled ? ' class="cancelled"' : ''}>`,
    cell(0, e.date === '' ? '' : escapeHtml(dayText(words, e.date)), 'when'),
    cell(1, escapeHtml(e.date.slice(11, 16)), 'n'),
    cell(2, shown(e.productName || e.productId)),
    cell(3, shown(e.address)),
    cell(4, contact),
    cell(5, shown(e.inspector)),
    `<td data-label="${labels[6] ?? ''}">${status}</td>`,
    cell(7, shown(e.reference)),
    `<td class="sheet" data-label="${labels[8] ?? ''}"><a href="${escapeHtml(sheetHref(e.sheetId))}">${shown(e.sheetName)}</a> <span class="note">${count(words, e.row)}</span></td>`,
    '</tr>',
  ].join('');
}

function feedsPart(words: Words, feeds: AgendaView['feeds']): string {
  if (feeds.length === 0) return '';
  const items = feeds.map(
    ({ office, url }) =>
      `<li><strong>${shown(office)}</strong> <code class="feed">${escapeHtml(url)}</code></li>`,
  );
  return [
    `<h2>${say(words, 'dashboard.agenda.feeds')}</h2>`,
    `<p class="sub">${say(words, 'dashboard.agenda.feedsText')}</p>`,
    `<ul class="feeds" id="feeds">${items.join('')}</ul>`,
  ].join('\n');
}
