/**
 * `npm run bench:validate`: generates a 1,000,000-row CSV (BENCH_ROWS), all of it valid, and the
 * same sheet with every row invalid, then measures in separate processes raw csv-parse and the
 * `validate` command on each: rows per second and peak memory.
 * Targets (issue 11): validate at least 50 % of raw csv-parse's speed, peak RSS at most 200 MB, on
 * both sheets.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { generateSheet } from './generate.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const MAX_RSS_MB = 200;
const MIN_RATIO = 0.5;
const here = dirname(fileURLToPath(import.meta.url));

interface Measured {
  rows: number;
  ms: number;
  maxRssBytes: number;
  code?: number;
  valid?: number;
  invalid?: number;
}

function run(script: string, sheet: string): Measured {
  const out = execFileSync(process.execPath, [join(here, script), sheet], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out) as Measured;
}

const rate = (m: Measured) => (m.rows / m.ms) * 1000;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/** One line of the table, and whether the targets are met (raw csv-parse has none). */
function line(name: string, m: Measured, raw: Measured): { cells: string[]; met: boolean } {
  const ratio = rate(m) / rate(raw);
  const own = m === raw;
  const met = own || (ratio >= MIN_RATIO && m.maxRssBytes <= MAX_RSS_MB * 1024 * 1024);
  const cells = [
    name,
    String(m.rows),
    (m.ms / 1000).toFixed(1),
    String(Math.round(rate(m))),
    own ? '' : `${(ratio * 100).toFixed(0)} %`,
    mb(m.maxRssBytes),
    own ? '' : met ? 'met' : 'NOT met',
  ];
  return { cells, met };
}

const dir = await mkdtemp(join(tmpdir(), 'bench-validate-'));
try {
  process.stdout.write(`Generating 2 × ${ROWS.toLocaleString('en')} rows…\n`);
  const sheet = await generateSheet(dir, ROWS);
  const invalidSheet = await generateSheet(dir, ROWS, { allInvalid: true, name: 'invalid.csv' });
  const { size } = await stat(sheet);
  process.stdout.write(`Sheets: ${(size / 1024 / 1024).toFixed(0)} MB each; load ${load()}\n\n`);

  const raw = run('raw-csv.js', sheet);
  const valid = run('validate-run.js', sheet);
  const invalid = run('validate-run.js', invalidSheet);
  if (valid.rows !== ROWS || valid.invalid !== 0 || invalid.invalid !== ROWS) {
    throw new Error(
      `validate saw ${valid.rows} rows (${valid.invalid} invalid) and ${invalid.rows} (${invalid.invalid} invalid): the bench sheets are wrong`,
    );
  }
  const lines = [
    line('raw csv-parse', raw, raw),
    line('validate', valid, raw),
    line('all invalid', invalid, raw),
  ];
  const header = ['', 'rows', 'seconds', 'rows/s', 'of raw', 'peak RSS (MB)', 'targets'];
  for (const cells of [header, ...lines.map((l) => l.cells)]) {
    process.stdout.write(`${cells.map((cell) => cell.padStart(14)).join('')}\n`);
  }
  process.stdout.write(
    `\nTargets: ≥ ${MIN_RATIO * 100} % of raw csv-parse's rows/s, ≤ ${MAX_RSS_MB} MB peak RSS. Load after: ${load()}\n`,
  );
  process.exitCode = lines.every((l) => l.met) ? 0 : 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
