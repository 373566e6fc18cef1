/** What a person reads in English: email. The key set of every language's email.ts. */
export const email = {
  'email.signature': '— order-importer',
  // Said of every event.
  'email.connection':
    'Connection "{name}" ({sandbox, select, yes {the embedded sandbox at {host}: no real order was made} other {{host}}}).',
  'email.unnamed-sheet': 'a sheet',
  'email.event': 'Event {event}.',
  'email.next': 'What to do next:',
  'email.warnings': 'Warnings:',
  // sheet.done: its counts, each a part of the subject and of the first line.
  'email.done.subject': '{sheet}: {counts}',
  'email.done.subject-todo': '{sheet}: {counts} (something to do)',
  'email.done.created': '{count, plural, other {# created}}',
  'email.done.duplicate': '{count, plural, other {# imported before (duplicate)}}',
  'email.done.invalid': '{count, plural, other {# invalid}}',
  'email.done.failed': '{count, plural, other {# failed}}',
  'email.done.review': '{count, plural, other {# to review}}',
  'email.done.imported':
    'The sheet {sheet} is imported: {total, plural, one {# row} other {# rows}}, {counts}.',
  'email.done.unreadable':
    'The sheet could not be read: {reason}. Fix it and drop it into the inbox again.',
  'email.done.to-fix':
    '{count, plural, one {# row failed or was invalid: fix it in the failed/ folder of the report (the error column says what is wrong) and drop that folder back into the inbox.} other {# rows failed or were invalid: fix them in the failed/ folder of the report (the error column says what is wrong) and drop that folder back into the inbox.}}',
  'email.done.review-next':
    '{count, plural, one {# row needs review: the order may exist already. Check needs-review.csv before sending it again, so that no order is made twice.} other {# rows need review: the order may exist already. Check needs-review.csv before sending them again, so that no order is made twice.}}',
  'email.done.nothing': 'Nothing: every row was created, or imported before.',
  'email.done.report-in': 'The report is in {folder}.',
  'email.done.attached': 'report.csv is attached: one line per row of the sheet.',
  'email.done.not-attached': 'report.csv is not attached: {reason}.',
  'email.done.ids': 'Sheet {sheetId}, event {event}.',
  // Why report.csv is not attached.
  'email.attach.no-folder': 'the event names no report folder',
  'email.attach.outside': 'its folder {folder} is not in REPORTS_DIR ({reportsDir})',
  'email.attach.not-file': '{path} is not a plain file',
  'email.attach.gone': 'it is no longer at {path} (moved or removed since)',
  'email.attach.denied': '{path} cannot be read ({code})',
  // sheet.unreadable
  'email.unreadable.subject': '{sheet} cannot be read',
  'email.unreadable.intro': 'The sheet {sheet} cannot be read, so no order was made from it:',
  'email.unreadable.no-reason': '(no reason given)',
  'email.unreadable.moved': 'It was moved to {folder}, with error.txt beside it.',
  'email.unreadable.next': 'What to do next: fix the sheet and drop it into the inbox again.',
  // orders.changed: the API's statuses and product ids are shown as the API says them.
  'email.changed.subject': '{sheet}: {count, plural, one {# order} other {# orders}} changed',
  'email.changed.intro': '{count, plural, one {# order} other {# orders}} of {sheet} changed:',
  'email.changed.sheet-id': 'sheet {sheetId}',
  'email.changed.order': 'row {row}, order {order}: {state}',
  'email.changed.order-reference': 'row {row} ({reference}), order {order}: {state}',
  'email.changed.from-to': '{before} → {after}',
  'email.state.reason': '{status} ({reason})',
  'email.state.visits': '{state} [{visits}]',
  'email.visit': '{product} {date}',
  'email.visit.by': '{product} {date} by {inspector}',
  'email.visit.no-date': 'no date',
  // The order_status the importer itself writes into status.csv (the API's own stay verbatim).
  'email.order-status.not-found': 'not found',
  // orders.changed: a changed order's line, the address of its visits first.
  'email.changed.at': '{address} — {order}',
} as const;
