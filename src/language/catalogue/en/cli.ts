/** What a person reads in English: cli. The key set of every language's cli.ts. */
export const cli = {
  'cli.unexpected': 'unexpected error: {details}',

  // The one line a command ends with (src/cli/error-line.ts): `cli.error.<error key>[.<variant>]`.
  'cli.error.import.no-such-file':
    '{path} {kind, select, not_file {is not a file} other {does not exist}}.',
  'cli.error.import.stopped': 'the import stopped: {reason}',
  'cli.error.config.invalid.unreadable': '--config {file} cannot be read: {reason}.',
  'cli.error.config.invalid.json': '--config {file} is not valid JSON: {mistake}.',
  'cli.error.config.invalid.not-object': '--config {file} must hold a JSON object of settings.',
  'cli.error.config.invalid.unknown': '--config {file}: unknown setting {unknown}; known: {known}.',
  'cli.error.config.invalid.setting':
    '{from, select, file {"{setting}" in {file}} other {{source}}}: {at}{issue, select, required {is required} type {must be {expected, select, number {a number} int {a whole number} string {text} boolean {true or false} array {a list} object {an object} other {a {expected}}}} empty {must not be empty} at_least {must be at least {limit}} more_than {must be more than {limit}} at_most {must be at most {limit}} less_than {must be less than {limit}} one_of {must be one of {choices}} url {must be a URL} not_url {is not a URL: give it as https://host[:port][/path]} scheme {must be an http:// or https:// URL} credentials {must not hold a user name or password (user:pass@): give the token with API_TOKEN or API_TOKEN_FILE} query {must not hold a query (?…) or fragment (#…)} other {{why}}} (got {got}).',
  'cli.error.api.token-missing':
    'API_BASE_URL is set but no token is: set API_TOKEN or API_TOKEN_FILE.',
  'cli.error.api.token-refused':
    'The API at {url} refused the token ({reason}): check {connection, select, none {API_TOKEN / API_TOKEN_FILE} other {the token file of connection "{connection}" ({file})}}.',
  'cli.error.api.unusable': 'The API at {url} cannot be used: {reason}',
  'cli.error.api.no-answer':
    'The API at {url} did not answer within {seconds} s (API_WAIT_S): {reason} Check that it runs and that API_BASE_URL is right, or raise API_WAIT_S.',
  'cli.error.redis.unavailable.configured':
    'REDIS_URL {url} does not answer ({problem}): start that Redis, or unset REDIS_URL to use a local one.',
  'cli.error.redis.unavailable.no-private':
    "no Redis answers at {url}, and no importer's private redis-server runs under {dir}: start order-importer watch (or worker) first, or set REDIS_URL.",
  'cli.error.redis.unavailable.not-installed':
    'no Redis answers at {url} and redis-server is not installed: install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL.',
  'cli.error.redis.unavailable.not-started':
    'could not start a private redis-server in {dir}: {reason}',
  'cli.error.redis.no-answer':
    'Redis at {url} has not answered for {seconds} s (REDIS_WAIT_S): the import stops. Once Redis is back, run the same import again: it resumes where it stopped.',
  'cli.error.redis.data-lost':
    'Redis at {url} lost its data (sheet {sheetId} is no longer known: it restarted without AOF, or the keys were removed): the import stops. Creates whose answer was lost are left for review, never sent again. Run `order-importer ledger rebuild` before importing again, so that the orders made are duplicates, not second orders.',

  // A row's status as the importer names it (glossary.ts), in a line a person reads.
  'cli.status':
    '{status, select, created {created} duplicate {duplicate} invalid {invalid} failed {failed} needs_review {needs-review} pending {pending} other {{status}}}',
  'cli.status.count':
    '{count, plural, other {#}} {status, select, created {created} duplicate {duplicate} invalid {invalid} failed {failed} needs_review {needs-review} pending {pending} other {{status}}}',
  'cli.row': 'row {row}',
  'cli.row.line': 'row {row} (line {line})',
  'cli.row.reference': 'reference {reference}',
  'cli.row.order': '(order {order})',

  // import
  'cli.import.queued':
    '{resumed, select, yes {Resuming} other {Queued}} {sheet} as sheet {sheetId}.',
  'cli.import.queued-awaits':
    "{resumed, select, yes {Resuming} other {Queued}} {sheet} as sheet {sheetId}: the same content is being imported by sheet {other} of data folder {dataDir} (installation {installation}); this sheet waits until that import ends, for that folder's workers, then reports its rows as duplicate.",
  'cli.import.no-workers':
    'No workers in this process (--no-workers): waiting for `order-importer worker` processes with {connection, select, none {the same API_BASE_URL and token} other {the connection "{connection}" in their config file}} (connection {id}, {url}) and this data folder {dataDir} (installation {installation}), where the sheets\' copies are; workers of other connections or data folders leave these rows alone.',
  'cli.import.interrupted':
    'Interrupted: rows in flight finish; run the same import again to resume the rest.',
  'cli.import.planning':
    'The sandbox plans these orders {seconds} s after they are created: run `order-importer status` after that to see the dates and inspectors.',
  'cli.import.notifications-waiting':
    'Waiting for {count, plural, one {# notification} other {# notifications}} to be delivered…',
  'cli.import.notifications-left':
    '{count, plural, one {# notification} other {# notifications}} not delivered yet (the receiver is away or busy): they stay queued, and the next `order-importer watch` or `worker` on this Redis delivers them.',
  'cli.summary.sheet': 'sheet',
  'cli.summary.rows': 'rows',
  'cli.summary.unreadable': '{sheet}: cannot be read: {error}',
  'cli.summary.duplicate': '{sheet}: imported before as sheet {other}; nothing was sent again.',
  'cli.summary.warning': '{sheet}: warning: {warning}',
  'cli.summary.report': 'Report: {dir}',
  'cli.reasons.head': '{count, plural, one {# row} other {# rows}} not created',
  'cli.reasons.unreadable': '{file} cannot be read ({code}): the reasons are not shown.',
  'cli.reasons.more': '… and {count, number} more — see {file}',

  // Progress: `orders.csv  [#####-----] 1,234/5,000 rows  42.0 rows/s  ETA 1m30s`
  'cli.progress.done': 'done: {count, plural, one {# row} other {# rows}}',
  'cli.progress.queued': 'queued',
  'cli.progress.reading': 'reading…',
  'cli.progress.rows': '{final}/{total, plural, one {# row} other {# rows}}',
  'cli.progress.rate': '{rate} rows/s',
  'cli.progress.eta': 'ETA {duration}',
  'cli.progress.not-created': 'not created so far: {count, number}',

  // validate
  'cli.validate.missing': 'cannot be validated: {reason}',
  'cli.validate.unreadable': 'cannot be read: {reason}',
  'cli.validate.not-a-file': '{path} is not a file.',
  'cli.validate.no-such-file': '{path} does not exist.',
  'cli.validate.cannot-open': '{path} cannot be opened ({code}).',
  'cli.validate.checked': '{name}: {count, plural, one {# row} other {# rows}} checked…',
  'cli.validate.warning': 'warning: {warning}',
  'cli.validate.counts':
    '{total, plural, one {# row} other {# rows}}: {valid, plural, other {# valid}}, {invalid, plural, other {# invalid}}',

  // watch
  'cli.done.counts': 'Done: {name} (sheet {sheetId}): {counts}.',
  'cli.done.unreadable': 'Done: {name} (sheet {sheetId}): it cannot be read: {error}',
  'cli.done.no-rows': 'no rows',
  'cli.done.report': 'Report: {dir}/',
  'cli.done.see': '— see {page}',
  'cli.watch.sandbox': 'Orders go to the embedded sandbox at {url}, not to the inspection company.',
  'cli.watch.api': 'Orders go to the API at {url} (connection "{name}").',
  'cli.watch.watching':
    'Watching {inbox}{polling, select, yes { (polling it every second)} other {}}: drop a sheet (with its documents) there.',
  'cli.watch.watching-offices':
    "Watching {inbox}{polling, select, yes { (polling it every second)} other {}}: drop a sheet (with its documents) into its office's subfolder ({offices}); a sheet anywhere else is not taken.",
  'cli.watch.office-inbox': '{folder}/ for "{name}"',
  'cli.watch.mapping-every': 'Every sheet is read with the mapping {file}.',
  'cli.watch.mapping-config':
    "Sheets without a mapping.json beside them{connections, select, yes { or their connection's} other {}} are read with the mapping {file}.",
  'cli.watch.reports': 'Reports go to {dir}.',
  'cli.dashboard.url': 'Dashboard: {url}/  (queues: {url}/queues)',
  'cli.dashboard.hosts':
    'The dashboard answers only the host names {hosts}{advice, select, yes {: add the names it is reached by to DASHBOARD_HOSTS} other {}}.',
  'cli.stop-hint': 'Stop with Ctrl+C.',
  'cli.stopped': 'Stopped.',
  'cli.watch.stopping':
    '{signal}: no more sheets are taken; rows in flight finish (Ctrl+C again to stop at once)…',
  'cli.watch.stop-now':
    'Stopping now; rows in flight resume from their last recorded step at the next start.',
  'cli.left.unknown':
    'What is left could not be counted (Redis did not answer); the next start resumes it.',
  'cli.left.rows':
    '{rows, plural, one {# row} other {# rows}} left for the next start (in {sheets, plural, one {# sheet} other {# sheets}}).',
  'cli.left.rows-also':
    '{rows, plural, one {# row} other {# rows}} left for the next start (in {sheets, plural, one {# sheet} other {# sheets}}), and {also}.',
  'cli.left.uncounted':
    '{count, plural, one {# sheet} other {# sheets}} not read far enough to count',
  'cli.left.unreported': 'the report of {count, plural, one {# sheet} other {# sheets}}',
  'cli.left.none': 'No rows left for the next start: every sheet taken is done.',
  'cli.left.only': 'Left for the next start: {also}.',
  'cli.intake.took': 'Took {file} as sheet {sheetId}.',
  'cli.intake.took-for': 'Took {file} as sheet {sheetId} for connection "{connection}".',
  'cli.intake.unreadable': '{file} cannot be read: moved to {folder}.',
  'cli.intake.recovered':
    'Finished {count, plural, one {# intake} other {# intakes}} an earlier stop interrupted.',
  'cli.intake.stranded':
    '{folder} was queued, but Redis has no record of it (did Redis lose its data?): it is left alone. Check which of its rows have orders, then drop its sheet into the inbox again.',
  'cli.schedule':
    'Schedule "{name}" ({cron}) scans {dir}{connection, select, none {} other { for connection "{connection}"}}{missing, select, yes {, which is not there (yet): scans fail until it is} other {}}.',
  'cli.status-sync.off':
    'Orders are not read back on a schedule (STATUS_SYNC_CRON off): `order-importer status` does it.',
  'cli.status-sync.on':
    'The orders of the sheets reported in the last {days} days are read back on "{cron}" (STATUS_SYNC_CRON) into each report\'s status.csv.',
  'cli.redis.private':
    'Redis: a private redis-server at {url} (data under DATA_DIR/redis, AOF on).',
  'cli.redis.url':
    'Redis: {url}{local, select, yes { (the local default; set REDIS_URL to use another)} other {}}.',
  'cli.redis.forgetful':
    '{where} {kind, select, none {keeps nothing on disk (no AOF, no snapshots): } snapshots {keeps only snapshots{rules}, no AOF: what was written since the last snapshot is lost on a restart; } other {has no AOF, and whether it takes snapshots cannot be asked (CONFIG is refused): if it keeps nothing on disk, }}a restart of it loses the imports in flight and the duplicates ledger; the importer then stops that work and refuses to import until `order-importer ledger rebuild` has rebuilt the ledger from the reports. Turn AOF on (appendonly yes) to keep them.',
  'cli.redis.at': 'Redis at {url}',
  'cli.sandbox.banner':
    '*** No API_BASE_URL is set: orders go to the EMBEDDED SANDBOX, not to the inspection company. ***',
  'cli.sandbox.where':
    '*** Sandbox at {url} (its data under DATA_DIR/sandbox). Set API_BASE_URL and API_TOKEN for real orders. ***',
  'cli.connection':
    'Connection "{name}": orders to {sandbox, select, yes {the EMBEDDED SANDBOX ({host})} other {{host} ({url}), not the embedded sandbox}}{mapping, select, none {} other {; its sheets mapped by {mapping}}}.',
  'cli.outage.away':
    '{what, select, api {The API at {url}} other {Redis at {url}}} does not answer ({reason}): {meanwhile, select, api_wait {waiting up to {seconds} s for it (API_WAIT_S)} rows {rows wait for it and are retried} other {the work waits for it and goes on once it is back}}.',
  'cli.outage.back':
    '{what, select, api {The API at {url}} other {Redis at {url}}} answers now, after {minutes, select, none {{seconds} s} other {{minutes} min {seconds} s}}.',
  'cli.redis.forgot':
    'Redis came back without its data (it keeps nothing on disk): the work of connection "{connection}" stops, no create is sent again, and creates whose answer was lost are left for review. Run `order-importer ledger rebuild` before importing again.',
  // status
  'cli.status.none': 'No sheet reported in the last {days} days (STATUS_DAYS) in {dir}.',
  'cli.status.sheet.final':
    '{sheetId} ({dir}): {orders, plural, other {# orders}}, all final ({statuses}): not read again.',
  'cli.status.sheet.read': '{sheetId} ({dir}): {parts}.',
  'cli.status.sheet.error': '{sheetId} ({dir}): {error}',
  'cli.status.orders': '{count, plural, other {# orders}}',
  'cli.status.by-status': '{count, number} {status}',
  'cli.status.changed': '{count, plural, other {# changed}}',
  'cli.status.unreadable':
    '{count, plural, other {# not readable now (their previous lines kept)}}',
  'cli.status.not-configured':
    'imported through connection{name, select, none {} other { "{name}"}} ({id, select, none {not named in its summary.json} other {{id}}}), which is not configured here: not read (its orders are read only with that connection\'s token).',
  'cli.status.unreadable-order': 'row {row}, order {order}: {reason}',
  'cli.status.more': '… and {count, number} more',
  'cli.status.reading': '{sheetId}: reading orders {done, number}/{total, number}',
  'cli.status.interrupted': 'Interrupted: the sheets not read yet keep their previous status.csv.',
  'cli.status.then': '{before}; {after}',
  // worker, dashboard, monitoring, start
  'cli.worker.ready':
    'Worker ready: {concurrency, plural, other {# rows}} at a time per connection, orders to {served}: only their sheets are worked here. Stop with Ctrl+C.',
  'cli.worker.served': '{url} (connection {name} {id})',
  'cli.worker.stopping': '{signal}: finishing the rows in flight (Ctrl+C again to stop at once)…',
  'cli.worker.stop-now': 'Stopping now; rows in flight resume from their last recorded step.',
  'cli.dashboard.shows':
    'It shows the imports on Redis {url} (prefix {prefix}); it runs none itself.',
  'cli.dashboard.no-api': 'No API_BASE_URL is set: /healthz leaves the API out ("api": null).',
  'cli.metrics': 'Metrics: {url}/metrics  (health: {url}/healthz, {url}/readyz)',
  'cli.forgot.waiting': '{forgot} Waiting: sheets stay in the inbox, no row is worked.',
  'cli.stop.lifted': 'An earlier stop ({reason}) is lifted: the API takes the token now.',

  // ledger rebuild
  'cli.ledger.rebuilt':
    'Connection "{name}": the duplicates ledger rebuilt from {reports, plural, one {# report} other {# reports}} and {unreported, plural, one {# sheet} other {# sheets}} cut short: {created, plural, other {# orders}} and {unknown, plural, other {# creates}} of unknown outcome written, {kept, number} already there.',
  'cli.ledger.rekeyed':
    '{count, plural, other {# orders}} of rows without a reference keyed again from their sheets on disk.',
  'cli.ledger.keyless':
    '{count, plural, other {# orders}} of reported rows without a reference could not be filed (no record of their key, no sheet to key them from): their rows are not known as imported.',
  'cli.ledger.skipped': 'Skipped: {what}',
  'cli.ledger.done':
    'Imports may run again: rows imported before are duplicates, not second orders.',
  'cli.error.redis.forgot':
    'Redis has none of this data folder\'s imports (it restarted without its data, or it is another Redis): the duplicates ledger of connection "{connection}" is gone, so its imports are refused until you run `order-importer ledger rebuild`.',
  'cli.error.ledger.unknown-action': 'order-importer ledger {action}: the one action is "rebuild".',
  // The settings' remaining errors, connections, the token.
  'cli.error.config.invalid.schedules': '"schedules" in {file}: {problem}.',
  'cli.error.config.invalid.cron':
    '"schedules" in {file}: "{name}" has the cron pattern "{cron}", which cannot be used: {problem}. A pattern has 5 fields (minute hour day month weekday), or 6 with seconds first, e.g. "0 2 * * *".',
  'cli.error.config.invalid.schedule-connection':
    '"schedules" in {file}: "{name}" must name its "connection" (one of {names}).',
  'cli.error.config.invalid.schedule-connection-unknown':
    '"schedules" in {file}: "{name}" names the connection "{connection}", {count, plural, =0 {but there are no "connections"} other {which is not one of {names}}}.',
  'cli.error.config.invalid.schedule-scans-inbox':
    '"schedules" in {file}: "{name}" scans {dir} for connection "{connection}", and the inbox of "{other}" ({inbox}) is there too: its sheets would be sent with the token of "{connection}". Give the schedule a folder of its own, or its own connection\'s inbox.',
  'cli.error.config.invalid.mapping':
    '"mapping" in {file}: must be the path of a mapping file, relative to the config file (got {got}).',
  'cli.error.config.invalid.half-email':
    '{set1}{set2, select, none {} other { and {set2}}} {set2, select, none {is} other {are}} set without {missing1}{missing2, select, none {} other { and {missing2}}}: e-mail notifications need all three of NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM and SMTP_URL.',
  'cli.error.config.invalid.half-webhook':
    'NOTIFY_WEBHOOK_SECRET is set without NOTIFY_WEBHOOK_URL: set the URL the events are POSTed to, or unset the secret.',
  'cli.error.config.invalid.inbox-overlap':
    "INBOX_DIR ({inbox}) and the importer's own {what} folder ({dir}) lie one in the other: the hot folder would take the importer's own files as sheets. Give the inbox a folder of its own, beside DATA_DIR's work, archive, failed and reports folders.",
  'cli.error.config.invalid.connections-and-single':
    '{single} is set, and {file} has "connections": each connection has its own API and token file there; unset {single} (and its kin), or leave "connections" out.',
  'cli.error.config.invalid.connections.not-list':
    '"connections" in {file}: must be a list of connections.',
  'cli.error.config.invalid.connections.empty':
    '"connections" in {file}: must not be empty (leave it out to use API_BASE_URL and API_TOKEN).',
  'cli.error.config.invalid.connections.token':
    '"connections" in {file}: entry {entry}{name, select, none {} other { ("{name}")}}: "token" is not taken here: put the token in a file and name it with "tokenFile" (a config file is copied into backups and tickets).',
  'cli.error.config.invalid.connections.entry':
    '"connections" in {file}: entry {entry}{name, select, none {} other { ("{name}")}}: {problem}.',
  'cli.error.config.invalid.connections.same-name':
    '"connections" in {file}: the name "{name}" is given to two connections.',
  'cli.error.config.invalid.connections.same-inbox':
    '"connections" in {file}: "{a}" and "{b}" have the same inbox "{inbox}": each office needs its own.',
  'cli.error.config.invalid.connections.nested-inbox':
    '"connections" in {file}: the inbox of "{a}" ({aInbox}) and of "{b}" ({bInbox}) lie one inside the other: a sheet there would belong to both.',
  'cli.error.connection.not-chosen':
    '--connection NAME is needed: the config file has several connections ({names}).',
  'cli.error.connection.none-configured':
    '--connection {name}: there are no "connections" in {file, select, none {a config file (give one with --config FILE)} other {{file}}}.',
  'cli.error.connection.unknown':
    "--connection {name} is not one of the config file's connections: {names}.",
  'cli.error.api.token-unreadable':
    '{connection, select, none {API_TOKEN_FILE {file}} other {The token file of connection "{connection}" ({file})}} cannot be read: {reason}.',
  'cli.error.api.token-empty':
    '{connection, select, none {API_TOKEN_FILE {file}} other {The token file of connection "{connection}" ({file})}} is empty.',
  // A mapping that cannot be used (src/orders/mapping*.ts, columns.ts).
  'cli.error.mapping.invalid.not-file': 'Mapping {file} is not a file.',
  'cli.error.mapping.invalid.unreadable': 'Mapping {file} cannot be read: {reason}',
  'cli.error.mapping.invalid.link':
    'Mapping {file} cannot be read: it is a symbolic link, and a mapping beside a sheet is never read through one: put the file itself there.',
  'cli.error.mapping.invalid.hard-link':
    'Mapping {file} cannot be read: it is a hard link, whose other name may be outside the folder: copy the file there instead of linking it.',
  'cli.error.mapping.invalid.not-regular':
    'Mapping {file} cannot be read: it is not a regular file.',
  'cli.error.mapping.invalid.too-big':
    'Mapping {file} is over {kb} KB, which no mapping needs: is it the right file?',
  'cli.error.mapping.invalid.json':
    'Mapping {file} is not valid JSON: {mistake}. A mapping looks like \'{ "columns": { "Straat": "address1" } }\'.',
  'cli.error.mapping.invalid.nesting':
    'Mapping {file} nests objects or lists more than {levels} levels deep; a mapping needs three at most, like \'{ "columns": { "Straat": "address1" } }\': is it the right file?',
  'cli.error.mapping.invalid.not-object':
    'Mapping {file} must be a JSON object, like \'{ "columns": { "Straat": "address1" } }\' (or the flat \'{ "Straat": "address1" }\').',
  'cli.error.mapping.invalid.stray':
    'Mapping {file}: {key} is not a part of a mapping (those are "columns", "values" and "worksheet"); a column name goes under "columns", like \'{ "columns": {\' {key}: "address1" \'} }\'.',
  'cli.error.mapping.invalid.columns':
    'Mapping {file}: "columns" must be an object of your column names and the fields they hold, like \'{ "Straat": "address1" }\'.',
  'cli.error.mapping.invalid.worksheet':
    'Mapping {file}: "worksheet" must be the name of a worksheet, as text.',
  'cli.error.mapping.invalid.values':
    'Mapping {file}: "values" must be an object of fields and your words for their values, like \'{ "contact_language": { "Nederlands": "nl" } }\'.',
  'cli.error.mapping.invalid.values-twice':
    'Mapping {file}: "values" gives {field} twice; keep one of them.',
  'cli.error.mapping.invalid.values-field':
    'Mapping {file}: "values" names {name}, which {known, select, yes {takes no value synonyms} other {is not an order field}}; synonyms are for {fields}.',
  'cli.error.mapping.invalid.words':
    'Mapping {file}: "values".{name} must be an object of your words and the values they stand for, like \'{ "Nederlands": "nl" }\'.',
  'cli.error.mapping.invalid.empty-word':
    'Mapping {file}: "values".{name} has an empty word; give the word as the sheet writes it.',
  'cli.error.mapping.invalid.not-allowed':
    'Mapping {file}: "values".{name} maps {word} to {target}, which {field} does not allow: it {problem}.',
  'cli.error.mapping.invalid.word-twice':
    'Mapping {file}: "values".{name} gives {word} twice (case and spaces are ignored), for two values; keep one of them.',
  'cli.error.mapping.invalid.flat-not-object':
    'Mapping {file} must be a JSON object like \'{ "Straat": "address1" }\'.',
  'cli.error.mapping.invalid.not-field':
    'Mapping {file}: {column} maps to {target}, which is not an order field; {like, select, none {use one of} other {did you mean {like}? The fields are}} {fields}.',
  'cli.error.mapping.invalid.mapped-twice': 'Mapping {file}: the column {column} is mapped twice.',
  'cli.error.mapping.invalid.both-give':
    'the columns "{first}" and "{second}" both give {field}; keep one of them.',
  // status's targets, and a report folder it cannot use.
  'cli.error.status.target-unknown':
    '{target} is not a report folder (a folder with summary.json and report.csv), nor a sheet id.',
  'cli.error.status.not-a-report-folder':
    '{target} is not a report folder: it has no summary.json and report.csv.',
  'cli.error.status.target-missing': '{target} does not exist.',
  'cli.error.status.no-report':
    'No report of sheet {sheetId} in {dir} (REPORTS_DIR): give a sheet id as summary.json names it, or a report folder.',
  'cli.error.report-folder.unusable.too-big':
    "{file} is {mib} MiB, more than the {limit} MiB a report's file is read up to: not read.",
  'cli.error.report-folder.unusable.summary-json':
    '{dir}: its summary.json is not JSON ({reason}).',
  'cli.error.report-folder.unusable.summary-foreign':
    '{dir}: its summary.json is not one the importer wrote.',
  'cli.error.report-folder.unusable.csv': '{file} cannot be read ({reason}).',
  'cli.error.report-folder.unusable.no-report': '{dir} has no report.csv.',
  'cli.ledger.skipped.link': '{path} is a link: not followed.',
  'cli.ledger.skipped.creates-link': '{file} is not a file of its own (a link?).',
  'cli.ledger.skipped.creates-lines': '{file}: {count, plural, other {# lines}} not understood.',
  'cli.ledger.unkeyed':
    '{count, plural, one {# row} other {# rows}} of sheet {sheetId} ({dir}) could not be keyed: {why}; re-importing it could create {count, plural, one {it} other {them}} again.',
  'cli.ledger.unkeyed.no-reason': 'no reason known',

  // `--help` (src/cli/main.ts, src/cli/help.ts): the program, its commands and commander's own words.
  'cli.help.program.description':
    'Turns order sheets into property-inspection orders through the Order and File Service API.',
  'cli.help.heading.usage': 'Usage:',
  'cli.help.heading.arguments': 'Arguments:',
  'cli.help.heading.options': 'Options:',
  'cli.help.heading.commands': 'Commands:',
  'cli.help.usage.options': '[options]',
  'cli.help.usage.command': '[command]',
  'cli.help.help': 'display help for command',
  'cli.help.version': 'print the version and exit',
  'cli.help.after-error': '(run with --help for usage)',
  'cli.help.sheets':
    'sheets: Excel workbooks (.xlsx, .xlsm), CSV (.csv), JSON (.json) or NDJSON (.ndjson, .jsonl)',
  'cli.help.where-to':
    'Where orders go: API_BASE_URL with API_TOKEN or API_TOKEN_FILE, in the environment or the\n--config file; with none, the embedded sandbox. Several offices: "connections" in the --config\nfile. Redis: REDIS_URL (else 127.0.0.1:6379, else a private redis-server). Every setting:\ndocs/reference.md.',
  'cli.help.option.config': 'JSON config file of settings',
  'cli.help.option.mapping':
    'JSON mapping of your own column names (and words for values) to the API\'s, e.g. \'{ "columns": { "Straat": "address1" } }\'; without it, a mapping.json beside the sheet, then the config file\'s "mapping"',
  'cli.help.option.connection':
    "which of the config file's connections (its API, token and mapping); needed when it has several",
  'cli.help.option.json':
    'print one JSON summary per sheet on stdout (human output goes to stderr)',
  'cli.help.import.description':
    'Import sheets: create an order per valid row and attach its files, then write a report per sheet. Exit 0 all created or duplicate, 2 some invalid, failed or needs-review, 1 fatal.',
  'cli.help.import.no-workers':
    'only queue the sheets and wait: `order-importer worker` processes do the work',
  'cli.help.import.allow-duplicates': 'create orders even for rows imported before',
  'cli.help.watch.description':
    'The hot folder: take every sheet dropped into INBOX_DIR (and each scheduled folder), import it, serve the dashboard; until SIGINT/SIGTERM.',
  'cli.help.watch.no-dashboard': 'do not serve the dashboard',
  'cli.help.worker.description':
    'Run workers only, for scale-out: any number of processes on any hosts sharing one Redis.',
  'cli.help.ledger.description':
    "ledger rebuild: after Redis lost its data (a restart without AOF), rebuild each connection's duplicates ledger from the reports (REPORTS_DIR) and the record of creates (DATA_DIR/creates), so that rows imported before are duplicates again; imports are refused until it has run. Exit 0 rebuilt, 1 fatal.",
  'cli.help.ledger.argument': '"rebuild"',
  'cli.help.ledger.connection':
    "rebuild only this one of the config file's connections (default: every one)",
  'cli.help.dashboard.description':
    'Serve the dashboard alone (imports overview, queues, /healthz, /readyz, /metrics) for the watch and worker processes sharing Redis; it imports nothing.',
  'cli.help.status.description':
    "Read back the orders of imported sheets (each with its own connection's token) into each report's status.csv. Exit 0 all read, 2 some order or sheet could not be read, 1 fatal.",
  'cli.help.status.argument':
    'report folders or sheet ids; none: every sheet reported in the last STATUS_DAYS (those whose orders are all final, STATUS_FINAL, are not read again)',
  'cli.help.status.json':
    "print ['{ sheetId, orders, byStatus, changed }'] on stdout (human output goes to stderr)",
  'cli.help.validate.description':
    'Dry run: read, map and validate sheets and check their attachments, without any API call. Exit 0 all valid, 2 some invalid, 1 fatal.',
  'cli.help.sandbox.description':
    'Run the sandbox of the Order and File Service in the foreground and print its base URL and tokens.',
  // A setting's line: its help, the variable it is also read from, and its default.
  'cli.help.notes':
    '{help} ({notes, select, env {env {env}} default {default {shown}} other {env {env}; default {shown}}})',
  // `cli.help.setting.<key>`: in English, src/settings/table.ts's help (test/cli/help-words.test.ts).
  'cli.help.setting.apiBaseUrl': 'Order and File Service base URL',
  'cli.help.setting.apiToken': 'bearer token',
  'cli.help.setting.apiTokenFile': 'a file holding the bearer token',
  'cli.help.setting.redisUrl':
    'Redis to queue on: redis://host:port, rediss:// over TLS, a Sentinel set as redis+sentinel://host:port[,host:port…]/<master name>, a Cluster as redis+cluster://host:port[,host:port…]; an ACL user as user:password@ before the host',
  'cli.help.setting.dataDir':
    'root of the data folders (inbox/, work/, archive/, reports/, failed/, sheets/; sandbox/ and redis/ when those are embedded)',
  'cli.help.setting.inboxDir': 'watched folder',
  'cli.help.setting.inboxPolling':
    'poll the inbox instead of waiting for file events (network shares)',
  'cli.help.setting.inboxStableMs':
    'how long a sheet must stay unchanged before it is taken, in ms',
  'cli.help.setting.reportsDir': 'where reports go',
  'cli.help.setting.productsFile': 'product catalogue (JSON)',
  'cli.help.setting.concurrency': 'row jobs in flight per process',
  'cli.help.setting.apiRateLimit': 'max API requests per minute over all workers',
  'cli.help.setting.apiTimeoutMs': 'per-request timeout in ms',
  'cli.help.setting.apiWaitS': 'how long an API that is away or busy at start is waited for',
  'cli.help.setting.redisWaitS':
    'how long `import` waits for Redis when it goes away, before it stops',
  'cli.help.setting.ledgerDays': 'how long the duplicates ledger remembers a row imported',
  'cli.help.setting.statusDays':
    '`status` (and the scheduled refresh) reads back the sheets reported within this many days',
  'cli.help.setting.statusSyncCron':
    "when `watch` reads back the orders of the last STATUS_DAYS (cron, 5 fields or 6 with seconds; 'off' for never)",
  'cli.help.setting.statusFinal':
    'comma-separated order statuses that never change again: a sheet whose orders all have one is not read again by the scheduled refresh or by `status` without arguments',
  'cli.help.setting.maxAttachmentMb': 'largest attachment accepted, per file',
  'cli.help.setting.dashboardHost':
    'address the dashboard listens on (any other than loopback needs DASHBOARD_USER and DASHBOARD_PASSWORD)',
  'cli.help.setting.dashboardPort': 'port the dashboard listens on',
  'cli.help.setting.dashboardHosts':
    'comma-separated host names the dashboard answers besides localhost, 127.0.0.1, ::1 and --host; any other is refused',
  'cli.help.setting.metricsPort':
    'port on which `worker` serves /metrics, /healthz and /readyz (unset: none)',
  'cli.help.setting.metricsHost': 'address the METRICS_PORT server listens on',
  'cli.help.setting.dashboardUser': "the dashboard's login",
  'cli.help.setting.dashboardPassword': "the dashboard's password",
  'cli.help.setting.language':
    'language of what a person reads: nl, fr or en (log lines stay English)',
  'cli.help.setting.logLevel': 'log level',
  'cli.help.setting.queuePrefix':
    "prefix of every Redis key; a '{hash tag}' keeps them in one Cluster slot",
  'cli.help.setting.rowAttempts': 'attempts of a row job before it fails',
  'cli.help.setting.retryDelayMs': 'first retry delay of a row, in ms (doubling, with jitter)',
  'cli.help.setting.embeddedSandboxPlanningS':
    'without API_BASE_URL: the embedded sandbox plans each order (dates, inspectors, a new status) this long after it is created; 0: never',
  'cli.help.setting.jobLockMs':
    'how long a worker holds a job before a stall is declared and another worker resumes it',
  'cli.help.setting.notifyWebhookUrl':
    'where events (sheet.done, sheet.unreadable, orders.changed) are POSTed as JSON',
  'cli.help.setting.notifyWebhookSecret':
    'signs each webhook body: X-Order-Importer-Signature: sha256=<HMAC-SHA256 of the body>',
  'cli.help.setting.notifyEmailTo':
    'comma-separated addresses that get an e-mail per event (with NOTIFY_EMAIL_FROM and SMTP_URL)',
  'cli.help.setting.notifyEmailFrom': 'the sender of those e-mails',
  'cli.help.setting.smtpUrl':
    'the SMTP server of those e-mails: smtp://user:password@host:587 or smtps://… (its credentials are never shown)',
  'cli.help.setting.notifyRetryHours':
    'how long a notification that cannot be delivered is tried again',
  'cli.help.setting.sandboxHost': 'address to listen on',
  'cli.help.setting.sandboxPort': 'port to listen on, 0 for any free one',
  'cli.help.setting.sandboxDataDir': 'keep orders and files in this folder',
  'cli.help.setting.sandboxTokens':
    'accepted bearer token and its organisation; repeatable (the variable comma-separated)',
  'cli.help.setting.sandboxRateLimit': 'requests per window per token, then 429',
  'cli.help.setting.sandboxRateWindow': 'rate-limit window',
  'cli.help.setting.sandboxPostMaxSize': "PHP's post_max_size: larger bodies get a JSON 413",
  'cli.help.setting.sandboxProxyBodyLimit':
    "a front proxy's limit: larger bodies get nginx's HTML 413 (nginx's own is 1M)",
  'cli.help.setting.sandboxUploadMaxFilesize':
    "PHP's upload_max_filesize: a larger file gets 422 'failed to upload' (PHP's own is 2M)",
  'cli.help.setting.sandboxMaxFileUploads':
    "PHP's max_file_uploads: files past it are silently dropped (PHP's own is 20)",
  'cli.help.setting.sandboxPhpDefaults':
    "PHP's stock limits where not given: upload_max_filesize 2M, max_file_uploads 20, post_max_size 8M",
  'cli.help.setting.sandboxRedirectTrailingSlash':
    "answer /api/orders/ with Apache's 301 to /api/orders",
  'cli.help.setting.sandboxQuirks': 'return retrieved orders without the documented quirks',
  'cli.help.setting.sandboxPlanning':
    'plan each order this long after it is created: a date and an inspector per inspection, and a new status (scheduled, a few cancelled, later done); 0: never',
  'cli.help.setting.sandboxSeed': 'seed of the injected faults and of the planning',
  'cli.help.setting.sandboxLatency': 'delay added to every API request',
  'cli.help.setting.sandboxJitter': 'random extra delay, up to this much',
  'cli.help.setting.sandboxP503': 'probability of a 503 with Retry-After before any work',
  'cli.help.setting.sandboxRetryAfter': 'Retry-After of injected 503s',
  'cli.help.setting.sandboxPResetBefore': 'probability of a connection reset before any work',
  'cli.help.setting.sandboxP500After': 'probability of a 500 after an order or file is stored',
  'cli.help.setting.sandboxPResetAfter':
    'probability of a connection reset after an order or file is stored',
  // `cli.help.default.<key>`: a default said in words (one that is a value is shown as it is).
  'cli.help.default.apiBaseUrl': 'unset: the embedded sandbox',
  'cli.help.default.apiToken': "the sandbox's demo token when the sandbox is used",
  'cli.help.default.redisUrl': 'redis://127.0.0.1:6379, else a private redis-server',
  'cli.help.default.inboxPolling': 'off: file events',
  'cli.help.default.apiRateLimit':
    "learned from the API's X-RateLimit-* headers; 429s are obeyed either way",
  'cli.help.default.dashboardHosts': 'only those',
  'cli.help.default.language': 'from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en',
  'cli.help.default.notifyWebhookUrl': 'none',
  'cli.help.default.notifyWebhookSecret': 'unsigned',
  'cli.help.default.notifyEmailTo': 'none',
  'cli.help.default.sandboxDataDir': 'in memory',
  'cli.help.default.sandboxTokens': 'the demo token {token}',
  'cli.help.default.sandboxRateLimit': 'none',
  'cli.help.default.sandboxProxyBodyLimit': 'off',
  'cli.help.default.sandboxUploadMaxFilesize': 'off',
  'cli.help.default.sandboxMaxFileUploads': 'off',
  'cli.help.default.sandboxPlanning': 'never',
  'cli.commander.unknownOption':
    "error: unknown option ''{flag}''{suggestion, select, none {} other {\n(Did you mean {suggestion}?)}}",
  'cli.commander.unknownCommand':
    "error: unknown command ''{command}''{suggestion, select, none {} other {\n(Did you mean {suggestion}?)}}",
  'cli.commander.missingArgument': "error: missing required argument ''{argument}''",
  'cli.commander.optionMissingArgument': "error: option ''{option}'' argument missing",
  'cli.commander.excessArguments':
    'error: too many arguments. Expected {expected, plural, one {# argument} other {# arguments}} but got {got, plural, other {#}}.',
  'cli.status.nobody-told':
    'Orders changed in {count, plural, one {# sheet} other {# sheets}}, and no one was told: no notification is set for their office (NOTIFY_WEBHOOK_URL, or NOTIFY_EMAIL_TO with NOTIFY_EMAIL_FROM and SMTP_URL, in the environment or the config file; or a "notify" in the office’s connection entry). The changes are in each report’s status.csv.',
  'cli.status.told':
    'orders.changed delivered for {count, plural, one {# sheet} other {# sheets}}.',
  'cli.error.config.invalid.office-email':
    'the connection "{name}" has its own "notify.email" recipients, and its e-mails need NOTIFY_EMAIL_FROM and SMTP_URL (the sender and the SMTP server every office’s e-mails go through): set both, or leave "email" out of its "notify".',
  'cli.help.setting.inspectionMinutes':
    "how long an inspection lasts in the agenda's calendars (.ics, the offices' feeds), in minutes",
  'cli.error.dashboard.users-invalid.unreadable':
    'DASHBOARD_USERS_FILE {file} cannot be read ({reason}).',
  'cli.error.dashboard.users-invalid.too-large':
    'DASHBOARD_USERS_FILE {file} is larger than 1 MB: it is not a users file.',
  'cli.error.dashboard.users-invalid.json':
    'DASHBOARD_USERS_FILE {file} is not valid JSON ({mistake}).',
  'cli.error.dashboard.users-invalid.not-list':
    'DASHBOARD_USERS_FILE {file} must hold a JSON list of users, each with "user", "password" and "offices" (a list of offices, or "*").',
  'cli.error.dashboard.users-invalid.entry':
    'DASHBOARD_USERS_FILE {file}, entry {entry}: must be an object with "user", "password" and "offices", nothing else.',
  'cli.error.dashboard.users-invalid.user':
    'DASHBOARD_USERS_FILE {file}, entry {entry}: "user" must be a name of 1 to 100 characters, no ":".',
  'cli.error.dashboard.users-invalid.offices':
    'DASHBOARD_USERS_FILE {file}, entry {entry} ({user}): "offices" must be a list of office names or "*".',
  'cli.error.dashboard.users-invalid.password':
    'DASHBOARD_USERS_FILE {file}, entry {entry} ({user}): "password" is not a hash order-importer dashboard-user writes: {problem}.',
  'cli.error.dashboard.users-invalid.duplicate':
    'DASHBOARD_USERS_FILE {file}, entry {entry} ({user}): this user is already entry {earlier}.',
  'cli.error.dashboard-user.no-file':
    'order-importer dashboard-user writes into DASHBOARD_USERS_FILE: set it (in the environment or the config file) to the file the dashboard reads its users from.',
  'cli.error.dashboard-user.no-offices':
    'user {user} is new: say which offices they see with --offices (names of connections separated by commas, or "*" for all).',
  'cli.error.dashboard-user.bad-offices':
    '--offices {offices}: give office names (the connections’ names) separated by commas, or "*" for all.',
  'cli.error.dashboard-user.bad-name': 'user name {user}: 1 to 100 characters, no ":".',
  'cli.error.dashboard-user.no-password': 'no password was given on standard input.',
  'cli.error.dashboard-user.short-password':
    'the password is too short: at least {min} characters.',
  'cli.error.dashboard-user.mismatch': 'the two passwords are not the same: nothing was written.',
  'cli.help.dashboard-user.description':
    'Add a user of the dashboard to DASHBOARD_USERS_FILE, or change their password or offices; asks for the password (read from standard input when it is not a terminal).',
  'cli.help.dashboard-user.argument': "the user's login",
  'cli.help.dashboard-user.offices':
    'the offices the user sees: connection names separated by commas, or "*" for all (and /queues, /metrics); kept as they were when not given',
  'cli.help.setting.dashboardUsersFile':
    "the dashboard's users and the offices each sees (JSON, written by order-importer dashboard-user); replaces DASHBOARD_USER/DASHBOARD_PASSWORD",
  'cli.dashboard-user.password': 'Password for {user}:',
  'cli.dashboard-user.again': 'The same password again:',
  'cli.dashboard-user.written':
    '{done, select, added {Added} other {Changed}} dashboard user {user} in {file}: sees {all, select, yes {every office, /queues and /metrics} other {{offices}}}.',
  // A dashboard open to other machines without a password, refused before anything starts.
  'cli.error.dashboard.exposed':
    'the dashboard would listen on {host}, beyond this machine, without a password: set DASHBOARD_USER and DASHBOARD_PASSWORD, or DASHBOARD_USERS_FILE (or DASHBOARD_HOST=127.0.0.1).',
  'cli.error.dashboard.exposed.proxied':
    'the dashboard would be reached as {hosts} (DASHBOARD_HOSTS: through a proxy, from other machines) without a password: set DASHBOARD_USER and DASHBOARD_PASSWORD, or DASHBOARD_USERS_FILE.',

  // purge and retention
  'cli.help.setting.retentionDays':
    '`watch` removes once a day every sheet reported more than this many days ago (its report, archive, copies and records; 0 keeps them for ever)',
  'cli.help.purge.description':
    "Remove the personal data of the sheets reported before a date: their report folders, archived and work copies, and records in Redis (of this configuration's connections only; a sheet still being imported is never removed). The duplicates ledger stays: their rows are still duplicates if imported again. Exit code: 0 when done, 1 on a fatal error.",
  'cli.help.purge.before':
    'remove the sheets reported before this date (YYYY-MM-DD, or an ISO time)',
  'cli.help.purge.connection':
    'only the sheets of this connection of the config file (default: every one)',
  'cli.help.purge.dry-run': 'say what would be removed, and remove nothing',
  'cli.purge.sheet':
    '{dry, select, yes {Would remove} other {Removed}} sheet {name} ({sheetId}, office {office}, reported {finished}): {folders, plural, one {# folder} other {# folders}} and {records, plural, one {# record} other {# records}} in Redis.',
  'cli.purge.refused':
    "Left alone: {path} (not this sheet's own folder inside REPORTS_DIR or DATA_DIR, or a link).",
  'cli.purge.done':
    '{dry, select, yes {Would remove} other {Removed}} {count, plural, one {# sheet} other {# sheets}} reported before {before}; the duplicates ledger keeps their rows as imported.',
  'cli.retention.pass':
    'Retention (RETENTION_DAYS={days}): sheets reported before {before} are removed.',
  'cli.error.purge.bad-date':
    'order-importer purge --before {date}: not a date (write it as 2025-01-31).',
  // The rest of the errors a command can end with: ports, the product catalogue, the data
  // folder's marker, a token no request can send, schedules, the API read by `status`.
  'cli.error.dashboard.port-unavailable.port':
    'The dashboard cannot listen on {host}:{port} ({code}): set DASHBOARD_PORT or --port.',
  'cli.error.dashboard.port-unavailable.no-dashboard':
    'The dashboard cannot listen on {host}:{port} ({code}): set DASHBOARD_PORT, or --no-dashboard.',
  'cli.error.metrics.port-unavailable':
    'METRICS_PORT: cannot listen on {host}:{port} ({code}): choose another port (or METRICS_HOST).',
  'cli.error.sandbox.port-unavailable':
    'Cannot listen on {host}:{port} ({code}): choose another --port.',
  'cli.error.inbox.symbolic-link':
    'The inbox of connection "{name}" ({dir}) is a symbolic link: the hot folder follows no link. Make it a folder, or point INBOX_DIR at the share.',
  'cli.error.connections.same-api':
    'Connections "{a}" and "{b}" have the same API ({url}) and the same token: they are one connection, one organisation. Give them one entry (its inbox\'s subfolders may each carry their own mapping.json), or each office its own token.',
  'cli.error.schedule.invalid.cron':
    'schedule "{name}": "{cron}" is not a cron pattern ({problem}).',
  'cli.error.schedule.invalid.unknown':
    'no schedule "{name}" here: its scan is not this process\'s',
  'cli.error.schedule.invalid.other-inbox':
    'Schedule "{name}" of connection "{office}" scans {dir}, which leads into the inbox of "{other}" ({otherDir}): that office\'s sheets would be sent with the token of "{office}". Give the schedule a folder of its own.',
  'cli.error.status.schedule-invalid':
    'STATUS_SYNC_CRON "{cron}" is not a cron pattern ({problem}).',
  'cli.error.installation.marker-unusable.vanished': '{path} vanished as it was written.',
  'cli.error.installation.marker-unusable.link': '{path} is a link: it must be a file of its own.',
  'cli.error.installation.marker-unusable.damaged':
    '{path} is damaged: it names this data folder, so it is never rewritten by hand; restore it from a backup, or remove it if this data folder was never used with a Redis before.',
  'cli.error.catalogue.invalid.entry':
    'Product catalogue {source}: entry {entry} {problem}; expected a JSON array of \'{ "id", "name", "category" }\'.',
  'cli.error.catalogue.invalid.empty':
    'Product catalogue {source}: the file must list at least one product; expected a JSON array of \'{ "id", "name", "category" }\'.',
  'cli.error.catalogue.invalid.not-list':
    'Product catalogue {source}: the file {problem}; expected a JSON array of \'{ "id", "name", "category" }\'.',
  'cli.error.catalogue.invalid.repeated':
    'Product catalogue {source}: entry {entry} repeats the product id "{id}".',
  'cli.error.catalogue.invalid.unreadable': 'Product catalogue {file} cannot be read: {reason}',
  'cli.error.catalogue.invalid.json': 'Product catalogue {file} is not valid JSON: {mistake}',
  'cli.error.api.token-unfit':
    '{source, select, variable {API_TOKEN} file {API_TOKEN_FILE {file}} other {The token file of connection "{connection}" ({file})}} holds {character, select, line_break {a line break} other {a character a request header cannot carry ({character})}} inside the token, which no request can send: keep the token alone on one line (a line break at its end is fine).',
  'cli.error.api.wait-stopped': 'Stopped while waiting for the API at {url}.',
  'cli.error.sandbox.identity-unreadable':
    '{file} does not hold a sandbox id: remove it (the sandbox there is then taken for a new one).',
  'cli.error.status.api-unusable.auth':
    'The API refused the token ({reason}): check API_TOKEN / API_TOKEN_FILE, or the token file of the connection.',
  'cli.error.status.api-unusable.config':
    'The API is not where the settings say ({reason}): check API_BASE_URL, or the apiBaseUrl of the connection.',
  // Why an import stopped for every row (src/rows/stop-import.ts), with the API's own words.
  'cli.stop.reason.auth':
    'the API refused the token ({detail}): check API_TOKEN / API_TOKEN_FILE. The import is paused; nothing more is sent.',
  'cli.stop.reason.config': '{detail}',
  'cli.error.machine.access':
    "{folder}: this process may not write there ({code}). Let the user it runs as write to that folder (chown or chmod), or set DATA_DIR (or the folder's own setting) to a folder it may write.",
  'cli.error.machine.full':
    'the disk of {folder} is full ({code}): free space there, or move the folder to a larger disk, then start again.',
  'cli.error.machine.files':
    'too many open files ({code}) at {folder}: raise the limit of open files (ulimit -n, or LimitNOFILE= in the systemd unit), then start again.',
  'cli.outage.locks-lost':
    "{count, plural, one {# job's lock was} other {# jobs' locks were}} lost while Redis was away: {count, plural, one {it is taken over and resumes} other {they are taken over and resume}} from the last recorded step.",
  'cli.error.purge.bad-date.future':
    'order-importer purge --before {date}: after now, so every sheet reported so far would be removed; give a date up to now ({now} at the latest).',
  'cli.error.machine.database':
    'the disk of {folder} is full ({code}): the embedded sandbox cannot write its database there. Free space on that disk, or set DATA_DIR to a folder on a larger disk, then start again.',
  'cli.error.redis.unavailable.refused':
    'REDIS_URL {url}: Redis refused the user and password ({reason}): check them in REDIS_URL, and that the user is on (ACL SETUSER … on).',
  'cli.error.redis.unavailable.certificate':
    'REDIS_URL {url}: the certificate of that Redis is not trusted ({reason}): {ca, select, none {set REDIS_TLS_CA_FILE to the CA certificate (PEM) that signed it} other {REDIS_TLS_CA_FILE is not the CA that signed it, or the certificate is not made out for that host}}.',
  'cli.error.redis.unavailable.no-sentinel':
    'REDIS_URL {url}: no sentinel answers ({reason}): start the sentinels, or check their hosts and ports in REDIS_URL.',
  'cli.error.redis.unavailable.no-master':
    'REDIS_URL {url}: the sentinels know no master named "{name}" ({known, select, none {they watch none} other {they watch: {known}}}): end REDIS_URL with the name their `sentinel monitor` gives it.',
  'cli.error.config.invalid.tls-ca-unreadable':
    'REDIS_TLS_CA_FILE {file} cannot be used: {reason}.',
  'cli.error.config.invalid.tls-ca-without-tls':
    'REDIS_TLS_CA_FILE is set, and REDIS_URL {url} is not spoken to over TLS: write it rediss:// (or rediss+sentinel://), or unset REDIS_TLS_CA_FILE.',
  'cli.help.setting.redisTlsCaFile':
    'the CA certificate (PEM) that signed the certificate of a rediss:// Redis, when no CA of the system did',
  'cli.help.default.redisTlsCaFile': "the system's CAs",
  'cli.error.redis.unavailable.cluster':
    'REDIS_URL {url}: no node of the Redis Cluster answers ({problem}): start the Cluster, or check its nodes in REDIS_URL.',
  'cli.error.redis.unavailable.not-cluster':
    'REDIS_URL {url} names a Redis Cluster, but its nodes are no Cluster ({problem}): name a single server as redis://host:port.',
} as const;
