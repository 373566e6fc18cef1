/**
 * What a person reads in English: rows. The key set of every language's rows.ts.
 *
 * A row's problem names its column as the sheet names it (`{column}`: the sheet's own header, or
 * the field's API name when the sheet has no such column) and says what to write there.
 */
export const rows = {
  'rows.line': 'line {line}',

  // A required field the row lacks; `{hint}` is empty, or a `rows.hint.column` text.
  'rows.required.property_type':
    '{column} is required: the kind of property, e.g. "Rijwoning / Duplex"{hint}.',
  'rows.required.address1': '{column} is required: the street of the property{hint}.',
  'rows.required.address2':
    '{column} is required: the house number (and bus number) of the property{hint}.',
  'rows.required.city': '{column} is required: the city of the property{hint}.',
  'rows.required.postal_code': '{column} is required: the postal code of the property{hint}.',
  'rows.required.contact_name': '{column} is required: the name of the contact person{hint}.',
  'rows.required.contact_language':
    '{column} is required: the language of the contact person: nl, en or fr{hint}.',
  'rows.required.invoice_to':
    '{column} is required: who receives the invoice: tenant, salesman or other{hint}.',
  'rows.required.is_contact_owner':
    '{column} is required: who the contact person is: contact, yes or other{hint}.',
  'rows.required.order_products':
    '{column} is required: the products to order, e.g. EPC|ELEC-1.1{hint}.',
  // `{flag}`: the column of the field that says there is no such address.
  'rows.required.contact_email':
    '{column} is required: the e-mail address of the contact person; if there is none, set {flag} to yes.',
  'rows.required.inv_mail':
    '{column} is required: the e-mail address for the invoice; if there is none, set {flag} to yes.',
  // What a row lacking a field is told of an unknown column that looks like it.
  'rows.hint.column': '; if the column "{column}" holds it, {advice}',
  // The mapping to write for look-alike columns: `{entries}` is JSON, `{target}` a file.
  'rows.advice.add': 'add {entries} to {target}',
  'rows.advice.addToColumns': 'add {entries} to "columns" in {target}',
  'rows.advice.besideSheet': 'a mapping.json beside the sheet',

  // A product that needs a field of its own: `{id}` as the sheet writes it, `{product}` its name.
  'rows.conditional.breaker_boxes':
    '{column} is required because {id} ("{product}") is an electrical inspection: give the number of breaker boxes.',
  'rows.conditional.units':
    '{column} is required because {id} ("{product}") is priced per housing unit: give the number of units.',
  'rows.conditional.floors':
    '{column} is required because {id} ("{product}") is priced per floor: give the number of floors.',

  // A value that cannot be used: `{problem}` is one of the `rows.value.*` below.
  'rows.value.refused': '{column} {problem} (got "{value}").',
  'rows.value.refusedOrWord':
    '{column} {problem}, or one of its words under "values" in {file} (got "{value}").',
  'rows.value.notText': 'must be text',
  'rows.value.tooLong': 'is longer than {max} characters',
  'rows.value.notWhole': 'must be a whole number',
  'rows.value.atLeast': 'must be at least {min}',
  'rows.value.notFlag': 'must be yes or no (1/0, true/false, ja/nee, oui/non)',
  'rows.value.oneOf': 'must be one of {allowed}',
  'rows.value.invoiceTo':
    'must be one of "tenant" (the contact person), "salesman" (you, the API user), "other" (someone else)',
  'rows.value.isContactOwner':
    'must be one of "contact" (the contact person), "yes" (you, the API user), "other" (someone else)',
  'rows.value.notFiles': 'must be file paths separated by | (or a JSON list of paths)',
  'rows.email.invalid': '{column} is not a valid e-mail address (got "{value}").',

  'rows.products.none': '{column} lists no product: give at least one, e.g. EPC.',
  'rows.products.unknown': '{column} names an unknown product "{id}" (known: {known}).',
  'rows.products.quantity': 'the quantity of {id} in {column} {problem} (got "{value}").',
  'rows.products.notProduct':
    '{column} has "{value}", which is not a product: write ID or ID:QUANTITY.',

  'rows.reference.taken':
    '{column} "{reference}" is already used by row {row}: each row needs its own reference.',
  'rows.extraCells':
    'this row has {count, plural, one {# more cell} other {# more cells}} than the header has columns: {count, plural, one {name the column in the header or remove the cell} other {name the columns in the header or remove the cells}}.',

  // An attachment the row names: `{problem}` is one of the `rows.attachment.*` below.
  'rows.attachment.problem': '{column}: {problem}',
  'rows.attachment.missing':
    '"{path}" does not exist beside the sheet: a document is named relative to the sheet\'s folder, and dropped together with it.',
  'rows.attachment.unreadable': '"{path}" cannot be read ({code}).',
  'rows.attachment.folder': '"{path}" is a folder, not a document.',
  'rows.attachment.notFile': '"{path}" is not a regular file, not a document.',
  'rows.attachment.tooLarge':
    '"{path}" is {size} MB ({bytes} bytes), over the limit of {limit} MB ({limitBytes} bytes) per attachment (MAX_ATTACHMENT_MB).',
  'rows.attachment.invalidPath': '"{path}" is not a valid path.',
  'rows.attachment.absolute':
    '"{path}" is an absolute path: give the path relative to the sheet\'s folder.',
  'rows.attachment.outside':
    '"{path}" points outside the sheet\'s folder: attachments must be in that folder or below it.',
  'rows.attachment.link':
    '"{path}" is a symbolic link: attachments are never read through a link; put the file itself there.',
  'rows.attachment.linkOnTheWay':
    '"{path}" goes through {link}, a symbolic link: attachments are never read through a link; put the folder itself there.',
  'rows.attachment.hardLink':
    '"{path}" is a hard link (the same file has {names} names on the disk, maybe outside the sheet\'s folder, and attachments are read only from inside it): copy the file into the folder instead of linking it.',
  // A sheet's warnings (summary.json, validate).
  'rows.mapping.flag': '--mapping {file}',
  'rows.mapping.beside': '{file} (beside the sheet)',
  'rows.mapping.connection': "{file} (the connection's mapping)",
  'rows.mapping.config': '{file} (the config file\'s "mapping")',
  'rows.warning.mappingUsed': 'Read with the mapping {mapping}.',
  'rows.warning.mappingUsedFor': 'Read with the mapping {mapping}: {what}.',
  'rows.warning.mappedColumns': 'columns {columns}',
  'rows.warning.more': '{count} more',
  'rows.warning.noMappedColumn': 'none of its column names is in this sheet',
  'rows.warning.valueWords': 'words for the values of {fields}',
  'rows.warning.both': '{first}; {second}',
  'rows.warning.unknown':
    '{count, plural, one {Unknown column ignored: {list}: it is not an order field.} other {Unknown columns ignored: {list}: they are not order fields.}}',
  'rows.warning.mapIt':
    '{unknown} If one holds an order field under another name, map it in {target}, like {example}.',
  'rows.warning.didYouMean': '{unknown} Did you mean {guesses}? {advice}.',
  'rows.warning.nameless':
    '{count, plural, one {# row has} other {# rows have}} values in a column without a name (column {letters}); they are ignored: give the column a name in the header.',
  // What became of a row that was not created: report.csv's error column.
  'rows.outcome.refused': 'the API refused the order: {reason}',
  'rows.outcome.noMoreRetries': 'no more retries: {reason}',
  'rows.outcome.duplicate': 'already imported as order {orderId} (sheet {sheetId}, row {row}).',
  'rows.outcome.earlierUnknown':
    'an earlier import of this row (sheet {sheetId}, row {row}) has an unknown outcome: check whether that order exists before importing the row again.',
  'rows.outcome.unknown':
    'the order was sent {sentAt, select, none {at an unknown time} other {at {sentAt}}} but its outcome is unknown ({answer}). It may or may not exist: look for it at the inspection company (or in the API) before importing this row again; importing it blindly could create it twice.',
  'rows.outcome.filesMissing':
    'order {orderId} exists, but {count, plural, other {# of its files}} could not be attached: {refused}. Drop the row back from failed/ to attach them to the same order.',
  'rows.outcome.resent': 'sent again after an unclear answer, so possibly attached twice: {files}.',
  'rows.outcome.notProcessed':
    'not processed: no result was recorded for this row (see the warnings).',
  'rows.outcome.sheetChanged':
    'not imported: the sheet changed while it was imported (it was saved over, or removed), and its rows not yet queued then were refused so that no orders come from two versions of it. Queue the sheet again to import its new content.',
  // A row of a sheet whose content was imported before (`{sheetId}`), and what became of it then.
  'rows.again.made':
    "this sheet's content was imported before (sheet {sheetId}); order {orderId} was made for this row then.",
  'rows.again.done': "this sheet's content was imported before (sheet {sheetId}).",
  'rows.again.review':
    "this sheet's content was imported before (sheet {sheetId}); this row's outcome was unknown there (needs-review): check that import's needs-review.csv before anything else.",
  'rows.again.failed':
    "this sheet's content was imported before (sheet {sheetId}); no order was made for this row then (it failed): fix it from that import's failed/ folder.",
  'rows.again.partly':
    "this sheet's content was imported before (sheet {sheetId}); order {orderId} was made then but not all its documents: drop that import's failed/ folder back to finish it.",
  'rows.again.invalid':
    "this sheet's content was imported before (sheet {sheetId}); no order was made for this row then (it was invalid): fix it from that import's failed/ folder.",
  'rows.again.unknown':
    "this sheet's content was imported before (sheet {sheetId}); no order is known to have been made for this row.",
  // A report's warnings (summary.json).
  'rows.warning.changedSince':
    'the sheet has changed since it was imported: this report and failed/ are of the version imported (sha256 {sha}…), not of the file as it is now.',
  'rows.warning.bundlesChanged':
    'the sheet has changed since it was imported: failed/ and needs-review.csv were not written (report.csv lists every row).',
  'rows.warning.bundlesUnreadable':
    'the sheet could no longer be read: failed/ and needs-review.csv were not written ({reason}).',
  'rows.warning.mappingNotWritten':
    'failed/mapping.json was not written (an attachment there has that name): give failed/ the mapping before you drop it back.',
  'rows.warning.notCopied': 'row {row}: not copied into failed/: {reason}',
  'rows.warning.copyFailed': 'row {row}: "{path}" could not be copied into failed/ ({reason}).',
  'rows.outcome.notProcessedBecause': 'not processed: {reason}',
  'rows.outcome.gaveUp': 'the row job gave up: {reason}',
  'rows.outcome.gaveUpAfterSending':
    'the row job gave up ({reason}) after sending its create{sentAt, select, none {} other { at {sentAt}}}: the order may or may not exist.',
  'rows.warning.stopped': 'the sheet stopped being processed after row {row}: {reason}',
  'rows.clash': '"{first}" and "{second}" both give {field}; keep one of them.',
  'rows.attachment.moved':
    '"{path}" was reached through a symbolic link, or moved, while it was being opened: it was not read.',
  'rows.attachment.movedAway':
    '"{path}" was reached through a symbolic link, or moved, while it was being moved: it stays where it is.',
  'rows.outcome.stoppedBeforeRows': 'it stopped before its rows were read: {reason}',
  'rows.outcome.sheetJobGaveUp': 'the sheet job gave up: {reason}',
  'rows.outcome.noAnswerRecorded':
    'none recorded: the attempt that sent it stopped or never heard back',
} as const;
