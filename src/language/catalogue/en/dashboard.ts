/** What a person reads in English: dashboard. The key set of every language's dashboard.ts. */
export const dashboard = {
  'dashboard.language': 'Language',

  // The frame of every page.
  'dashboard.nav.imports': 'Imports',
  'dashboard.nav.queues': 'Queues',
  'dashboard.nav.health': 'Health',
  'dashboard.title': '{page} · order-importer',
  'dashboard.unreachable': 'Cannot reach the importer:',

  // The overview.
  'dashboard.overview.title': 'order-importer: imports',
  'dashboard.overview.heading': 'Imports',
  'dashboard.overview.updated': '{count, plural, one {# sheet} other {# sheets}}, updated {time}',
  'dashboard.overview.unreadable': 'The imports cannot be read now: {reason}',
  'dashboard.column.sheet': 'Sheet',
  'dashboard.column.received': 'Received',
  'dashboard.column.state': 'State',
  'dashboard.column.progress': 'Progress',
  'dashboard.column.created': 'Created',
  'dashboard.column.invalid': 'Invalid',
  'dashboard.column.failed': 'Failed',
  'dashboard.column.needsReview': 'Needs review',
  'dashboard.column.duplicate': 'Duplicate',
  'dashboard.column.duration': 'Duration',
  'dashboard.column.reportOrders': 'Report · orders',
  'dashboard.column.connection': 'Connection · API',
  'dashboard.duplicateOf': 'duplicate of {sheet}',
  'dashboard.sandbox': 'sandbox',
  'dashboard.pace': '{rate} rows/s',
  'dashboard.pace.left': '{rate} rows/s · {left} left',
  'dashboard.failedZip': 'failed/ (zip)',
  'dashboard.duration.seconds': '{seconds} s',
  'dashboard.duration.minutes': '{minutes} min {seconds} s',
  'dashboard.duration.hours': '{hours} h {minutes} min',

  // A sheet's state, as its badge says it.
  'dashboard.state.queued': 'queued',
  'dashboard.state.reading': 'reading',
  'dashboard.state.processing': 'processing',
  'dashboard.state.reporting': 'reporting',
  'dashboard.state.done': 'done',
  'dashboard.state.unreadable': 'unreadable',

  // A row's status, as its badge and the filter say it.
  'dashboard.status.created': 'created',
  'dashboard.status.invalid': 'invalid',
  'dashboard.status.failed': 'failed',
  'dashboard.status.needsReview': 'needs-review',
  'dashboard.status.duplicate': 'duplicate',
  'dashboard.status.pending': 'pending',
  'dashboard.status.all': 'all',

  // The sheets the hot folder did not take.
  'dashboard.notTaken.heading': 'Sheets not taken',
  'dashboard.notTaken.intro':
    'The hot folder left these where they are. Fix what is said and drop them again.',
  'dashboard.notTaken.unreadable': 'The sheets not taken cannot be read now: {reason}',
  'dashboard.notTaken.seen': 'Seen',
  'dashboard.notTaken.file': 'File',
  'dashboard.notTaken.why': 'Why',

  // What a sheet's status.csv says of its orders.
  'dashboard.orders.unreadable': 'status.csv could not be read: {reason}',
  'dashboard.orders.none': 'no orders',
  'dashboard.orders.ofStatus': '{count} {status}',
  'dashboard.orders.noStatus': '(no status)',
  'dashboard.orders.others':
    '{orders} of {statuses, plural, one {# other status} other {# other statuses}}',
  'dashboard.orders.nextInspection': 'next inspection {date}',
  'dashboard.orders.noneAhead': 'no inspection ahead',
  'dashboard.orders.checked': 'checked {time}',
  'dashboard.orders.more': 'and {count} more',
  'dashboard.orders.notPlanned': 'not planned yet',
  'dashboard.orders.noInspector': 'no inspector yet',

  // A sheet's page.
  'dashboard.fact.connection': 'Connection',
  'dashboard.fact.received': 'Received',
  'dashboard.fact.reported': 'Reported',
  'dashboard.fact.duration': 'Duration',
  'dashboard.fact.rows': 'Rows',
  'dashboard.fact.rowsEnded': '{ended} of {total} ended',
  'dashboard.fact.sameContent': 'Same content as',
  'dashboard.fact.workedBy': 'Worked by',
  'dashboard.fact.workers': 'workers of data folder {folder} (installation {installation})',
  'dashboard.fact.workersOf': 'workers of data folder (installation {installation})',
  'dashboard.fact.report': 'Report',
  'dashboard.fact.orders': 'Orders',
  'dashboard.sheet.unreadable': 'This sheet could not be read: {reason}',
  'dashboard.sheet.byStatus': 'Rows by status',
  'dashboard.rows.unreadable': 'The rows cannot be read now: {reason}',
  'dashboard.rows.noReport': 'its report.csv is not in its report folder (moved or removed?).',
  'dashboard.rows.notCounted': 'Its rows are shown once they are counted.',
  'dashboard.rows.noRows': 'It has no rows to show.',
  'dashboard.rows.none':
    '{status, select, created {No created rows here.} invalid {No invalid rows here.} failed {No failed rows here.} needsReview {No needs-review rows here.} duplicate {No duplicate rows here.} other {No rows here.}}',
  'dashboard.rows.range':
    '{status, select, created {Created rows} invalid {Invalid rows} failed {Failed rows} needsReview {Needs-review rows} duplicate {Duplicate rows} other {Rows}} {from}–{to} of {matching}.',
  'dashboard.rows.running':
    'This sheet is still being imported: its rows appear here as they end, and their address and contact once its report is written.',
  'dashboard.rows.partly':
    'Only {looked} of its {ended} rows ended so far were looked through for this status; all are in its report once written.',
  'dashboard.rows.firstRow': 'first row {row}',
  'dashboard.rows.previous': '‹ Previous',
  'dashboard.rows.next': 'Next ›',
  'dashboard.rows.page': 'Page {page} of {pages}',
  'dashboard.rows.pages': 'Pages',
  'dashboard.head.row': 'Row',
  'dashboard.head.status': 'Status',
  'dashboard.head.reference': 'Reference',
  'dashboard.head.address': 'Address',
  'dashboard.head.contact': 'Contact',
  'dashboard.head.error': 'Error',
  'dashboard.head.order': 'Order',
  'dashboard.head.files': 'Files',
  'dashboard.head.orderStatus': 'Order status',
  'dashboard.head.sheet': 'Sheet',
  'dashboard.unknownSheet.heading': 'No such sheet',
  'dashboard.unknownSheet.text': 'No import here has the id “{id}”.',
  'dashboard.unknownSheet.back': 'All imports',
  'dashboard.badQuery.heading': 'Not a page of this sheet',
  'dashboard.badQuery.text':
    'Its rows are shown by one status ({statuses}) and a page number from 1.',
  'dashboard.badQuery.back': 'All its rows',

  // The search.
  'dashboard.search.heading': 'Search',
  'dashboard.search.button': 'Search',
  'dashboard.search.box': 'Reference, address or contact',
  'dashboard.search.intro': 'Look for a reference, an address or a contact in the latest reports.',
  'dashboard.search.unreadable': 'The reports cannot be searched now: {reason}',
  'dashboard.search.tooLong': 'a search is one text of at most 100 characters.',
  'dashboard.search.busy':
    '{count, plural, one {# search is running already} other {# searches are running already}}; try again in a few seconds.',
  'dashboard.search.searched':
    '{found, plural, =0 {Nothing found} other {# found}} for “{query}” in {sheets, plural, one {# reported sheet} other {# reported sheets}}, {rows, plural, one {# row} other {# rows}}{stopped, select, yes {; {why}} other {}}.',
  'dashboard.search.stoppedSheets': 'only the latest {count} reported sheets are searched',
  'dashboard.search.stoppedHits': 'it stopped at {count} rows found',
  'dashboard.search.stoppedRows': 'it stopped after {count} rows',
  'dashboard.search.stoppedTime': 'it stopped after {seconds} s',
  'dashboard.search.running': 'Sheets still being imported ({count}) are searched once reported.',
  'dashboard.search.unreadableReports':
    'The report of {names} could not be read to its end (changed on disk since it was written?).',

  // Pages of errors.
  'dashboard.login.heading': 'Log in',
  'dashboard.login.text':
    'This dashboard asks for a user name and password: those of DASHBOARD_USER and DASHBOARD_PASSWORD.',
  'dashboard.notFound.heading': 'No such page',
  'dashboard.notFound.text': 'The dashboard has no page here.',
  'dashboard.foreignHost':
    "This dashboard does not answer to {named, select, yes {the host name {host}} other {no host name}}. If that name is this machine's, add it to DASHBOARD_HOSTS (comma-separated), or open the dashboard at http://localhost.",
  'dashboard.writeRefused':
    'The dashboard only shows the imports: it does not add, retry, change or remove jobs or queues.',
  'dashboard.noReportFile.heading': 'No such file',
  'dashboard.noReportFile.text': 'No {file} for this sheet (yet).',
  'dashboard.noFailed.text': 'This sheet has no failed/ bundle.',
  // The search: each row found with its order as status.csv says it.
  'dashboard.search.next': 'Next inspection',
  'dashboard.search.notRead': 'not read back yet',

  // The fix loop: a failed/ sheet dropped back, linked with the sheet it fixes.
  'dashboard.fix.sheet': '{name} of {time} ({id})',
  'dashboard.fix.fixes': 'fixes rows of {sheet}',
  'dashboard.fix.fixedLater':
    '{count, plural, one {# row fixed later} other {# rows fixed later}} in {sheets}',
  'dashboard.fix.row': 'fixed later in {sheet}',
  'dashboard.fact.fixes': 'Fixes',
  'dashboard.fact.fixedLater': 'Fixed later',
  'dashboard.fact.open': 'Open problems',

  // The agenda (who comes when).
  'dashboard.nav.agenda': 'Agenda',
  'dashboard.agenda.heading': 'Agenda',
  'dashboard.agenda.intro':
    'Who comes when: every inspection of the orders read back in the last {days, plural, one {# day} other {# days}}, by date and time (Brussels time).',
  'dashboard.agenda.office': 'Office',
  'dashboard.agenda.allOffices': 'All offices',
  'dashboard.agenda.from': 'From',
  'dashboard.agenda.to': 'To',
  'dashboard.agenda.status': 'Status',
  'dashboard.agenda.allStatuses': 'All statuses',
  'dashboard.agenda.show': 'Show',
  'dashboard.agenda.col.day': 'Day',
  'dashboard.agenda.col.time': 'Time',
  'dashboard.agenda.col.product': 'Inspection',
  'dashboard.agenda.col.address': 'Address',
  'dashboard.agenda.col.contact': 'Contact',
  'dashboard.agenda.col.phone': 'Phone',
  'dashboard.agenda.col.inspector': 'Inspector',
  'dashboard.agenda.col.status': 'Order status',
  'dashboard.agenda.col.reference': 'Reference',
  'dashboard.agenda.col.sheet': 'Sheet',
  'dashboard.agenda.col.row': 'Row',
  'dashboard.agenda.col.office': 'Office',
  'dashboard.agenda.col.orderId': 'Order',
  'dashboard.agenda.counted':
    '{count, plural, =0 {No inspection} one {# inspection} other {# inspections}} from {from} to {to}.',
  'dashboard.agenda.unplanned':
    '{count, plural, =0 {No inspection waits to be planned.} one {# inspection not planned yet} other {# inspections not planned yet}}',
  'dashboard.agenda.cancelled': 'cancelled',
  'dashboard.agenda.download': 'Download:',
  'dashboard.agenda.calendarFile': 'calendar (.ics)',
  'dashboard.agenda.feeds': 'Calendar feeds',
  'dashboard.agenda.feedsText':
    "Subscribe to an office's inspections in Outlook or Google Calendar with its address below. Keep it to yourselves: whoever has it sees that office's visits.",
  'dashboard.agenda.badQuery':
    'These filters are not understood: a date is written as YYYY-MM-DD. The agenda of the coming 30 days is shown instead.',
  'dashboard.agenda.ics.contact': 'Contact',
  'dashboard.agenda.ics.phone': 'Phone',
  'dashboard.agenda.ics.inspector': 'Inspector',
  'dashboard.agenda.ics.reference': 'Reference',
  'dashboard.agenda.ics.order': 'Order',
  'dashboard.agenda.ics.name': 'Inspections {office}',
  'dashboard.agenda.csvFile': 'CSV',
  'dashboard.agenda.xlsxFile': 'Excel',
  'dashboard.login.users':
    'This dashboard asks for your own user name and password: those written for you with order-importer dashboard-user.',
  // Tooltips: a sheet's whole id beside its short one, an attachment's id at its name.
  'dashboard.sheet.idTitle': 'Sheet {id}',
  'dashboard.file.idTitle': 'File id {id}',
  'dashboard.redis.away':
    'Redis does not answer (since {since}): {asOf, select, none {nothing could be read from it yet} other {what is shown was read at {asOf}}}. The page is up to date again once Redis is back.',
} as const;
