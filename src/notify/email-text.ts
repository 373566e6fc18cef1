/**
 * An event in plain words, for the e-mail channel: a subject, the counts, and what to do next, in
 * the office's words (its catalogue's `email.*`: docs/design.md "Language"). Made from the event's
 * body (the same JSON the webhook sends), so both channels tell one story; the values it carries
 * (sheet names, paths, references, the API's statuses) are shown as they are.
 */
import type { Words } from '../language/words.js';
import type { ChangedOrder, OrderSnapshot, SheetSummary } from './events.js';
import { statusText } from './status-words.js';

/** The parts of a body the e-mail reads (events.ts writes them). */
export interface BodyRead {
  event: string;
  id: string;
  connection: { name: string; apiHost: string; sandbox: boolean };
  summary?: SheetSummary & { movedTo?: string };
  sheetId?: string;
  sheet?: string;
  orders?: ChangedOrder[];
}

export interface EmailText {
  subject: string;
  text: string;
}

function connectionLine(words: Words, body: BodyRead): string {
  const { name, apiHost, sandbox } = body.connection;
  return words.t('email.connection', { name, host: apiHost, sandbox: sandbox ? 'yes' : 'no' });
}

/** `1 created, 1 invalid`: the counts a sheet.done tells, in its subject and its first line. */
function countsOf(words: Words, s: SheetSummary): string {
  const counts = [
    words.t('email.done.created', { count: s.created }),
    s.duplicate > 0 && words.t('email.done.duplicate', { count: s.duplicate }),
    s.invalid > 0 && words.t('email.done.invalid', { count: s.invalid }),
    s.failed > 0 && words.t('email.done.failed', { count: s.failed }),
    s.needsReview > 0 && words.t('email.done.review', { count: s.needsReview }),
  ];
  return counts.filter((c): c is string => typeof c === 'string').join(', ');
}

/** What the office should do about a done sheet, one line each. */
function nextSteps(words: Words, s: SheetSummary): string[] {
  const toFix = s.invalid + s.failed;
  const next: string[] = [];
  if (s.error !== undefined) next.push(words.t('email.done.unreadable', { reason: s.error }));
  if (toFix > 0) next.push(words.t('email.done.to-fix', { count: toFix }));
  if (s.needsReview > 0) next.push(words.t('email.done.review-next', { count: s.needsReview }));
  if (next.length === 0) next.push(words.t('email.done.nothing'));
  return next;
}

/**
 * The text of a `sheet.done`; `attached` says whether report.csv could be attached, or why not
 * (in the office's words).
 */
export function sheetDoneText(words: Words, body: BodyRead, attached: true | string): EmailText {
  const s = body.summary;
  if (s === undefined) throw new Error(`${body.id}: a sheet.done without a summary`);
  const sheet = baseName(s.sheet);
  const counts = countsOf(words, s);
  const lines = [
    words.t('email.done.imported', { sheet, total: s.total, counts }),
    connectionLine(words, body),
    '',
    words.t('email.next'),
    ...nextSteps(words, s).map((n) => `- ${n}`),
    ...(s.warnings.length > 0
      ? ['', words.t('email.warnings'), ...s.warnings.map((w) => `- ${w}`)]
      : []),
    '',
    words.t('email.done.report-in', { folder: s.reportDir }),
    attached === true
      ? words.t('email.done.attached')
      : words.t('email.done.not-attached', { reason: attached }),
    '',
    words.t('email.done.ids', { sheetId: s.sheetId, event: body.id }),
  ];
  const todo = s.invalid + s.failed + s.needsReview > 0 || s.error !== undefined;
  const subject = words.t(todo ? 'email.done.subject-todo' : 'email.done.subject', {
    sheet,
    counts,
  });
  return { subject, text: `${lines.join('\n')}\n` };
}

export function sheetUnreadableText(words: Words, body: BodyRead): EmailText {
  const s = body.summary;
  const sheet = s?.sheet === undefined ? words.t('email.unnamed-sheet') : baseName(s.sheet);
  const lines = [
    words.t('email.unreadable.intro', { sheet }),
    '',
    `  ${s?.error ?? words.t('email.unreadable.no-reason')}`,
    '',
    words.t('email.unreadable.moved', { folder: s?.movedTo ?? 'failed/' }),
    connectionLine(words, body),
    '',
    words.t('email.unreadable.next'),
    '',
    words.t('email.event', { event: body.id }),
  ];
  return {
    subject: words.t('email.unreadable.subject', { sheet }),
    text: `${lines.join('\n')}\n`,
  };
}

export function ordersChangedText(words: Words, body: BodyRead): EmailText {
  const orders = body.orders ?? [];
  const sheet =
    body.sheet === undefined
      ? words.t('email.changed.sheet-id', { sheetId: body.sheetId ?? '' })
      : baseName(body.sheet);
  const lines = [
    words.t('email.changed.intro', { count: orders.length, sheet }),
    '',
    ...orders.map((order) => `- ${orderLine(words, order)}`),
    '',
    connectionLine(words, body),
    words.t('email.event', { event: body.id }),
  ];
  return {
    subject: words.t('email.changed.subject', { count: orders.length, sheet }),
    text: `${lines.join('\n')}\n`,
  };
}

function orderLine(words: Words, order: ChangedOrder): string {
  const after = stateText(words, order.after);
  const state =
    order.before === null
      ? after
      : words.t('email.changed.from-to', { before: stateText(words, order.before), after });
  // Ids and row numbers as the sheet and the API write them, not grouped like an amount.
  const values = { row: String(order.row), order: String(order.order_id), state };
  const line = order.reference
    ? words.t('email.changed.order-reference', { ...values, reference: order.reference })
    : words.t('email.changed.order', values);
  // Where the inspector goes, first: the office knows a visit by its address. A body of an
  // earlier version has none.
  const address = typeof order.address === 'string' ? order.address : '';
  return address === '' ? line : words.t('email.changed.at', { address, order: line });
}

function stateText(words: Words, state: OrderSnapshot): string {
  const status = statusText(words, state.order_status);
  const said = state.cancel_reason
    ? words.t('email.state.reason', { status, reason: state.cancel_reason })
    : status;
  const visits = state.inspections
    .filter((i) => i.inspection_date !== '' || i.inspector_name !== '')
    .map((i) => {
      const date =
        i.inspection_date === ''
          ? words.t('email.visit.no-date')
          : words.wallClock(i.inspection_date);
      return i.inspector_name
        ? words.t('email.visit.by', { product: i.product_id, date, inspector: i.inspector_name })
        : words.t('email.visit', { product: i.product_id, date });
    });
  return visits.length > 0
    ? words.t('email.state.visits', { state: said, visits: visits.join('; ') })
    : said;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
