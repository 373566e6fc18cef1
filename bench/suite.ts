/**
 * `npm run bench`: every figure of issue 11 measured against the sandbox in one run, the importer
 * beside its peers (a sequential `fetch` loop, a 32-wide `fetch` pool, a 32-wide pool of the
 * product's ApiClient) on the same sheet and sandbox; printed as a table with the machine's load,
 * then as one JSON document (the last line of the output). Exit code 1 when a target is not met
 * or a measure failed.
 *
 *   npm run bench -- --only validate,fast-api     some measures only
 *   npm run bench -- --scale 0.1                  every row count ÷ 10, for a quick run
 *   BENCH_CPU_PROF=/tmp/prof npm run bench …      each child process writes a CPU profile there
 *   BENCH_CLI=/other/bin/order-importer.js …       the importer measured is that build's CLI
 */
import { parseArgs } from 'node:util';

import { cleanUp, cleanUpOnSignals } from './cleanup.js';
import { type Line, loadNow, type Measure, progress, unmeasured } from './lines.js';
import { rateLimitAdvertised, rateLimitHeaders } from './measure-rate-limit.js';
import { secondSheetMeasure } from './measure-second-sheet.js';
import { fastApi, latencyBound } from './measure-throughput.js';
import { officesMeasure } from './measure-offices.js';
import { validateMeasure } from './measure-validate.js';
import { workbookMeasure } from './measure-workbook.js';
import { document, table } from './suite-output.js';

/** In the order. */
const MEASURES: Measure[] = [
  rateLimitAdvertised,
  rateLimitHeaders,
  latencyBound,
  validateMeasure,
  workbookMeasure,
  secondSheetMeasure,
  fastApi,
  officesMeasure,
];

const USAGE = `npm run bench [-- --only NAME[,NAME…]] [--scale FACTOR]
  --only     measures to run: ${MEASURES.map((m) => [m.name, ...(m.aliases ?? [])].join('|')).join(', ')}
  --scale    every row count multiplied by FACTOR (BENCH_SCALE; default 1, the issue's sizes)
BENCH_CPU_PROF=FOLDER writes a CPU profile of every measured child process (the importer, the
peers) into FOLDER, to open in Chrome's DevTools. BENCH_CLI=PATH measures the CLI at PATH (another
build's bin/order-importer.js) instead of this one's.`;

function options(): { selected: Measure[]; scale: number } {
  const { values } = parseArgs({
    options: {
      only: { type: 'string', multiple: true },
      scale: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const scale = Number(values.scale ?? process.env.BENCH_SCALE ?? 1);
  if (!(scale > 0)) throw new Error(`--scale must be a positive number\n${USAGE}`);
  const names = (values.only ?? []).flatMap((n) => n.split(',')).map((n) => n.trim());
  const unknown = names.filter(
    (n) => !MEASURES.some((m) => m.name === n || m.aliases?.includes(n)),
  );
  if (unknown.length > 0) throw new Error(`no measure named ${unknown.join(', ')}\n${USAGE}`);
  const selected =
    names.length === 0
      ? MEASURES
      : MEASURES.filter((m) => names.some((n) => m.name === n || m.aliases?.includes(n)));
  return { selected, scale };
}

async function runAll(selected: readonly Measure[], scale: number): Promise<Line[]> {
  const lines: Line[] = [];
  for (const measure of MEASURES) {
    if (!selected.includes(measure)) {
      lines.push(...unmeasured(measure, 'not run', 'left out by --only'));
      continue;
    }
    try {
      lines.push(...(await measure.run(scale)));
    } catch (error) {
      // One measure that breaks must not hide the others' figures; it fails the run all the same.
      const message = error instanceof Error ? error.message : String(error);
      progress(`${measure.name} failed: ${message}`);
      lines.push(...unmeasured(measure, 'failed', message.slice(0, 200)));
    }
  }
  return lines;
}

function optionsOrExit(): ReturnType<typeof options> {
  try {
    return options();
  } catch (error) {
    // A mistyped option is said plainly, without a stack trace; nothing has started yet.
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}

cleanUpOnSignals();
const { selected, scale } = optionsOrExit();
const startedAt = new Date();
const before = loadNow();
const print = (text: string) => process.stdout.write(`${text}\n`);
progress(`order-importer benchmark: ${selected.map((m) => m.name).join(', ')}; scale ${scale}`);
let lines: Line[];
try {
  lines = await runAll(selected, scale);
} finally {
  await cleanUp();
}
const after = loadNow();
const shown = lines.filter((l) => l.status !== 'not run');
print('');
print(
  `order-importer benchmark, scale ${scale}${scale === 1 ? " (the issue's sizes)" : ''}, Node ${process.version}, ${before.cores} cores`,
);
print(`load average (1, 5, 15 min) before: ${before.loadavg.join(' ')}`);
print('');
print(table(shown));
print(
  "ratio: the importer's rows/s ÷ the peer's; peers keep nothing durable (no queue, no record, no retry)",
);
print(`load average (1, 5, 15 min) after: ${after.loadavg.join(' ')}`);
const count = (status: Line['status']) => shown.filter((l) => l.status === status).length;
print(
  `${count('met')} met, ${count('NOT met')} NOT met, ${count('failed')} failed, ${count('not measured')} not measured`,
);
const doc = document(lines, { startedAt, scale, load: { before, after } });
print(JSON.stringify(doc));
process.exitCode = doc.allMet ? 0 : 1;
