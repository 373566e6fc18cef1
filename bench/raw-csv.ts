/** Child process: raw csv-parse over a sheet, the speed the validator is measured against. */
import { createReadStream } from 'node:fs';

import { parse } from 'csv-parse';

const path = process.argv[2] ?? '';
const started = performance.now();
let rows = 0;
const parser = createReadStream(path)
  .setEncoding('utf8')
  .pipe(parse({ delimiter: ',' }));
for await (const record of parser as AsyncIterable<string[]>) {
  if (record.length > 0) rows += 1;
}
const ms = performance.now() - started;
process.stdout.write(
  JSON.stringify({ rows: rows - 1, ms, maxRssBytes: process.resourceUsage().maxRSS * 1024 }),
);
