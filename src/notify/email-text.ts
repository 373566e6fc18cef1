/**
 * An event in plain words, for the e-mail channel: a subject, the counts, and what to do next.
 * Made from the event's body (the same JSON the webhook sends), so both channels tell one story.
 */
import type { ChangedOrder, OrderSnapshot, SheetSummary } from './events.js';

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

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function connectionLine(body: BodyRead): string {
  const { name, apiHost, sandbox } = body.connection;
  return `Connection "${name}" (${sandbox ? `the embedded sandbox at ${apiHost}: no real order was made` : apiHost}).`;
}

/** The text of a `sheet.done`; `attached` says whether report.csv could be attached, or why not. */
export function sheetDoneText(body: BodyRead, attached: true | string): EmailText {
  const s = body.summary;
  if (s === undefined) throw new Error(`${body.id}: a sheet.done without a summary`);
  const name = baseName(s.sheet);
  const toFix = s.invalid + s.failed;
  const counts = [
    `${s.created} created`,
    s.duplicate > 0 && `${s.duplicate} imported before (duplicate)`,
    s.invalid > 0 && `${s.invalid} invalid`,
    s.failed > 0 && `${s.failed} failed`,
    s.needsReview > 0 && `${s.needsReview} to review`,
  ].filter((c): c is string => typeof c === 'string');
  const next: string[] = [];
  if (s.error !== undefined)
    next.push(`The sheet could not be read: ${s.error}. Fix it and drop it into the inbox again.`);
  if (toFix > 0)
    next.push(
      `${plural(toFix, 'row')} failed or ${toFix === 1 ? 'was' : 'were'} invalid: fix ${toFix === 1 ? 'it' : 'them'} in the failed/ folder of the report (the error column says what is wrong) and drop that folder back into the inbox.`,
    );
  if (s.needsReview > 0)
    next.push(
      `${plural(s.needsReview, 'row')} need${s.needsReview === 1 ? 's' : ''} review: the order may exist already. Check needs-review.csv before sending ${s.needsReview === 1 ? 'it' : 'them'} again, so that no order is made twice.`,
    );
  if (next.length === 0) next.push('Nothing: every row was created, or imported before.');
  const lines = [
    `The sheet ${name} is imported: ${plural(s.total, 'row')}, ${counts.join(', ')}.`,
    connectionLine(body),
    '',
    'What to do next:',
    ...next.map((n) => `- ${n}`),
    ...(s.warnings.length > 0 ? ['', 'Warnings:', ...s.warnings.map((w) => `- ${w}`)] : []),
    '',
    `The report is in ${s.reportDir}.`,
    attached === true
      ? 'report.csv is attached: one line per row of the sheet.'
      : `report.csv is not attached: ${attached}.`,
    '',
    `Sheet ${s.sheetId}, event ${body.id}.`,
  ];
  const subject =
    toFix + s.needsReview > 0 || s.error !== undefined
      ? `${name}: ${counts.join(', ')} (something to do)`
      : `${name}: ${counts.join(', ')}`;
  return { subject, text: `${lines.join('\n')}\n` };
}

export function sheetUnreadableText(body: BodyRead): EmailText {
  const s = body.summary;
  const name = baseName(s?.sheet ?? 'a sheet');
  const lines = [
    `The sheet ${name} cannot be read, so no order was made from it:`,
    '',
    `  ${s?.error ?? '(no reason given)'}`,
    '',
    `It was moved to ${s?.movedTo ?? 'failed/'}, with error.txt beside it.`,
    connectionLine(body),
    '',
    'What to do next: fix the sheet and drop it into the inbox again.',
    '',
    `Event ${body.id}.`,
  ];
  return { subject: `${name} cannot be read`, text: `${lines.join('\n')}\n` };
}

export function ordersChangedText(body: BodyRead): EmailText {
  const orders = body.orders ?? [];
  const where = body.sheet === undefined ? `sheet ${body.sheetId ?? ''}` : baseName(body.sheet);
  const lines = [
    `${plural(orders.length, 'order')} of ${where} changed:`,
    '',
    ...orders.map(orderLine),
    '',
    connectionLine(body),
    `Event ${body.id}.`,
  ];
  return {
    subject: `${where}: ${plural(orders.length, 'order')} changed`,
    text: `${lines.join('\n')}\n`,
  };
}

function orderLine(order: ChangedOrder): string {
  const ref = order.reference ? ` (${order.reference})` : '';
  const was = order.before === null ? '' : `${stateText(order.before)} → `;
  return `- row ${order.row}${ref}, order ${order.order_id}: ${was}${stateText(order.after)}`;
}

function stateText(state: OrderSnapshot): string {
  const reason = state.cancel_reason ? ` (${state.cancel_reason})` : '';
  const visits = state.inspections
    .filter((i) => i.inspection_date !== '' || i.inspector_name !== '')
    .map(
      (i) =>
        `${i.product_id} ${i.inspection_date || 'no date'}${i.inspector_name ? ` by ${i.inspector_name}` : ''}`,
    );
  return `${state.order_status}${reason}${visits.length > 0 ? ` [${visits.join('; ')}]` : ''}`;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
