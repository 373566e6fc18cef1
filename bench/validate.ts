/**
 * `npm run bench:validate`: generates a 1,000,000-row CSV, then measures in separate processes
 * raw csv-parse and the `validate` command on it: rows per second and peak memory of each.
 * Targets (issue 3): validate at least 50 % of raw csv-parse's speed, peak RSS at most 200 MB.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { generateSheet } from './generate.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
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

const dir = await mkdtemp(join(tmpdir(), 'bench-validate-'));
try {
  process.stdout.write(`Generating ${ROWS.toLocaleString('en')} rows…\n`);
  const sheet = await generateSheet(dir, ROWS);
  const { size } = await stat(sheet);
  process.stdout.write(`Sheet: ${sheet} (${(size / 1024 / 1024).toFixed(0)} MB)\n\n`);

  const raw = run('raw-csv.js', sheet);
  const validated = run('validate-run.js', sheet);
  if (validated.rows !== ROWS || validated.invalid !== 0) {
    throw new Error(
      `validate saw ${validated.rows} rows, ${validated.invalid} invalid: the bench sheet is wrong`,
    );
  }
  const rate = (m: Measured) => (m.rows / m.ms) * 1000;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const ratio = rate(validated) / rate(raw);
  const lines = [
    ['', 'rows', 'seconds', 'rows/s', 'peak RSS (MB)'],
    [
      'raw csv-parse',
      raw.rows,
      (raw.ms / 1000).toFixed(1),
      Math.round(rate(raw)),
      mb(raw.maxRssBytes),
    ],
    [
      'validate',
      validated.rows,
      (validated.ms / 1000).toFixed(1),
      Math.round(rate(validated)),
      mb(validated.maxRssBytes),
    ],
  ];
  for (const line of lines) {
    process.stdout.write(
      `${line.map((cell, i) => String(cell).padStart(i === 0 ? 14 : 14)).join('')}\n`,
    );
  }
  const speedOk = ratio >= 0.5;
  const memoryOk = validated.maxRssBytes <= 200 * 1024 * 1024;
  process.stdout.write(
    `\nvalidate / raw csv-parse = ${(ratio * 100).toFixed(0)} % (target ≥ 50 %): ${speedOk ? 'met' : 'NOT met'}\n` +
      `validate peak RSS = ${mb(validated.maxRssBytes)} MB (target ≤ 200 MB): ${memoryOk ? 'met' : 'NOT met'}\n`,
  );
  process.exitCode = speedOk && memoryOk ? 0 : 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
