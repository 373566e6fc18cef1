/** Child process: raw csv-parse over a sheet, the speed the validator is measured against. */
import { createReadStream } from 'node:fs';

import { parse } from 'csv-parse';

import { childInput, endWithParent, printResult } from './child-side.js';

endWithParent();
const path = (childInput() as { sheet: string }).sheet;
const cpu = process.cpuUsage();
const started = performance.now();
let rows = 0;
const parser = createReadStream(path)
  .setEncoding('utf8')
  .pipe(parse({ delimiter: ',' }));
for await (const record of parser as AsyncIterable<string[]>) {
  if (record.length > 0) rows += 1;
}
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
printResult({
  rows: rows - 1,
  ms,
  cpuMs: (used.user + used.system) / 1000,
  maxRssBytes: process.resourceUsage().maxRSS * 1024,
});
