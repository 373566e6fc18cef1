/** What a person reads in English: sheets. The key set of every language's sheets.ts. */
export const sheets = {
  'sheets.line': 'line {line}',
  'sheets.atLine': 'line {line}: {message}',
  'sheets.mappingUnusable': '{reason}',
  'sheets.empty': 'the sheet is empty: it needs a header row and at least one order.',
  'sheets.utf16':
    'the sheet is saved as UTF-16 ("Unicode text"); save it as "CSV UTF-8" or "CSV (semicolon delimited)" instead.',
  'sheets.binary':
    'this is not a text sheet (it holds binary data; an Excel workbook must be named .xlsx).',
  'sheets.strayBytes':
    'the sheet is UTF-8 except for bytes on {where} that are not UTF-8 (text pasted from another encoding, or a damaged file): correct those characters and save the sheet as UTF-8 (in Excel: "CSV UTF-8").',
  'sheets.strayBytes.line': 'line {line}',
  'sheets.strayBytes.lines': 'lines {lines} and {last}',
  'sheets.strayBytes.more':
    'lines {lines} and {more, plural, one {# more line} other {# more lines}}',
  'sheets.format.refused':
    'this is {kind, select, xls {an old-style Excel workbook (.xls)} xlsb {a binary Excel workbook (.xlsb)} ods {an OpenDocument spreadsheet (.ods)} other {a Numbers spreadsheet}}, which the importer does not read: save it as .xlsx or CSV.',
  'sheets.format.unknown':
    '"{extension}" is not a sheet format: use .csv, .xlsx, .json, .ndjson or .jsonl.',
  'sheets.unreadableFormat': 'the sheet cannot be read as a sheet of its format.',
  'sheets.changedBeforeRead':
    'the sheet changed after it was queued: queue it again to import its new content.',
  'sheets.mappingFile':
    '{file} is a mapping (column names and words for the sheets beside it), not a sheet of orders: it is read for those sheets, never imported itself.',
  'sheets.header.noField':
    'the header row names no order field ({shown}){mapped, select, yes { (the mapping {mapping} maps none of them)} other {}}: the row above the orders must name the columns, e.g. address1, city, order_products; or map your own names in {target}, like {example}.',
  'sheets.header.noFieldHinted':
    'the header row names no order field ({shown}){mapped, select, yes { (the mapping {mapping} maps none of them)} other {}}: the row above the orders must name the columns, e.g. address1, city, order_products. To map your own names, {advice}.',
  'sheets.header.cellErrors': 'the header row has {errors}.',
  'sheets.mapping.source':
    '{kind, select, flag {--mapping {file}} beside {{file} (beside the sheet)} connection {{file} (the connection\'s mapping)} other {{file} (the config file\'s "mapping")}}',
  'sheets.csv.noHeader': 'the sheet has no header row: it holds only blank lines.',
  'sheets.csv.emptyHeader': 'the header row is empty: the first row must name the columns.',
  'sheets.csv.quoteNotClosed':
    'a quoted cell is never closed: a `"` opens a cell that runs to the end of the file.',
  'sheets.csv.recordTooLarge':
    'a record is larger than 1 MB: probably a `"` that opens a cell and is never closed.',
  'sheets.csv.textAfterQuote':
    'a quoted cell has text after its closing quote; write a quote inside a quoted cell as "".',
  'sheets.csv.quoteInCell': 'a quote opens in the middle of a cell.',
  'sheets.csv.unreadable': 'the CSV cannot be read ({detail}).',
  'sheets.json.emptyArray': 'the JSON array is empty: there is no order in it.',
  'sheets.json.lineTooLarge': 'a line is larger than 1 MB: one order per line is expected.',
  'sheets.json.allBlank': 'the sheet holds no order: every line is blank.',
  'sheets.json.broken': 'the JSON is broken in order {order}: {detail}',
  'sheets.json.orderTooLarge': 'an order in the JSON array is larger than 1 MB.',
  'sheets.json.empty': 'the sheet is empty.',
  'sheets.json.notClosed': 'the JSON array is not closed: the file ends before its final `]`.',
  'sheets.json.notArray':
    'a .json sheet must be a JSON array of orders: [ {example} ] (one object per line is .ndjson).',
  'sheets.json.afterComma': 'unexpected "{character}" after a comma in the JSON array.',
  'sheets.json.textAfterEnd': 'there is more text after the end of the JSON array.',
  'sheets.workbook.saveAgain': 'open it in Excel and save it again as .xlsx, or save it as CSV.',
  'sheets.workbook.fix': '{problem}: {fix}',
  'sheets.workbook.notWorkbook': 'this file is not an Excel workbook (.xlsx)',
  'sheets.workbook.ods': 'it is an OpenDocument (.ods) file: save it as .xlsx or CSV.',
  'sheets.workbook.zipWithoutBook': 'it is a zip file without a workbook in it',
  'sheets.workbook.emptyFile': 'the workbook is empty (0 bytes).',
  'sheets.workbook.passwordOrXls':
    'the workbook is password-protected (or is an old-style .xls renamed): remove the password in Excel (File > Info > Protect Workbook) and save it as .xlsx, or save it as CSV.',
  'sheets.workbook.encrypted':
    'the workbook is encrypted (password-protected): remove its password in Excel and save it as .xlsx, or save it as CSV.',
  'sheets.workbook.tooManyParts': 'the workbook holds {count} parts, too many for a workbook',
  'sheets.workbook.twoParts':
    'the workbook has two parts named {part}, so it cannot be told which one Excel shows',
  'sheets.workbook.noPart': 'the workbook has no part {part}',
  'sheets.workbook.packedOddly': 'the workbook is packed in a way Excel does not use',
  'sheets.workbook.damaged': 'the workbook is damaged',
  'sheets.workbook.cutShort':
    'the workbook is damaged or incomplete (cut short while it was copied?)',
  'sheets.workbook.partNotUnpacked': 'the workbook is damaged (its part {part} cannot be unpacked)',
  'sheets.workbook.sheetLeadsNowhere':
    'the workbook is damaged (its sheet "{sheet}" leads to no part)',
  'sheets.workbook.worksheetGone': 'the workbook is damaged (its worksheet "{sheet}" is missing)',
  'sheets.workbook.partNotXml':
    'the workbook is damaged (its part {part} is not well-formed XML: {detail})',
  'sheets.workbook.worksheetNotXml':
    'the workbook is damaged (its worksheet or its texts are not well-formed XML: {detail})',
  'sheets.workbook.tooBig':
    "the workbook's {part} is {megabytes} MB once unpacked, more than the {limit} MB the importer reads: save it as CSV instead.",
  'sheets.workbook.part.worksheet': 'worksheet "{sheet}"',
  'sheets.workbook.part.named': '{part} part',
  'sheets.workbook.part.file': '{part}',
  'sheets.workbook.stoppedEarly': 'the workbook reader stopped early.',
  'sheets.workbook.memory':
    'the workbook needs more than {megabytes} MB of memory to read (a very large table of texts): save it as CSV instead.',
  'sheets.workbook.unreadable':
    'the workbook cannot be read ({detail}): open it in Excel and save it again as .xlsx, or save it as CSV.',
  'sheets.workbook.noWorksheet':
    'the workbook holds no worksheet (only charts, or its list of sheets is empty)',
  'sheets.workbook.worksheetNotFound':
    'the workbook has no worksheet "{wanted}" (the mapping\'s "worksheet"); its worksheets are {listed}.',
  'sheets.workbook.rowOutOfOrder':
    "the worksheet's row {row} is out of order or beyond Excel's last row: the workbook is damaged; open it in Excel and save it again as .xlsx, or save it as CSV.",
  'sheets.workbook.cellBeyond':
    'the worksheet has a cell "{cell}" beyond Excel\'s last column: the workbook is damaged; open it in Excel and save it again as .xlsx, or save it as CSV.',
  'sheets.failed.cannotBeRead': '{name} cannot be read, so no order was made from it:',
  'sheets.failed.readWith': 'It was read with the mapping {mapping}.',
  'sheets.failed.fix': 'Fix the sheet and drop it into the inbox again.',
  'sheets.failed.notTaken': 'cannot be read, so it was moved to {folder}: {reason}',
  'sheets.notTaken.linkedSheet':
    '{path} is a symbolic link: the hot folder takes no linked sheet and reads nothing through a link. It stays where it is; put the file itself in the inbox.',
  'sheets.notTaken.inLinkedFolder':
    '{path} is in {folder}, a symbolic link to a folder: the hot folder does not follow links. It stays where it is; put the folder itself in the inbox.',
  'sheets.notTaken.linkedFolder':
    '{path} is a symbolic link to a folder: the hot folder does not follow links, so nothing in it is taken. Put the folder itself in the inbox.',
  'sheets.notTaken.attachmentLink': '{sheet}: {why} It stays in the inbox, and its row is refused.',
  'sheets.notTaken.outside':
    '{path} is in no office\'s folder, so it is not imported: with "connections" in the config file, a sheet is taken only from its connection\'s subfolder of the inbox: {folders}. It stays where it is; move it (with its documents) into one of them.',
  'sheets.notTaken.format':
    '{name} is a spreadsheet format the importer does not read (it stays where it is): save it as .xlsx or CSV (UTF-8) and drop that instead.',
  'sheets.notTaken.mapping':
    '{path} is not taken until its mapping can be used: {reason} It stays in the inbox, and is taken once the mapping is fixed.',
  'sheets.describe.xlsx': 'Excel workbook, worksheet "{worksheet}"',
  'sheets.describe.text': '{format}, {encoding}',
  'sheets.describe.csv': 'CSV, {delimiter}-separated, {encoding}',
  'sheets.describe.tab': 'tab',
} as const;
