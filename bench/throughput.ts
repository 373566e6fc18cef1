/**
 * `npm run bench:throughput`: the importer against the sandbox with 100 ms added to every
 * request, at concurrency 32, on a generated 6,000-row sheet; beside it, in the same run and
 * against the same sandbox, the API-bound limit (api-limit.ts: a 32-wide pool sending the same
 * rows' requests and nothing else). Targets (issue 10): the importer's rows/s at least 0.9 of that
 * limit; its first create at most 0.5 s after the sheet is read. The machine's load is printed
 * too: on a busy machine both figures drop, the ratio less so.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { Agent } from 'undici';

import { ApiClient } from '../src/api/client.js';
import { loadCatalogue } from '../src/orders/catalogue.js';
import { defaultProductsFile } from '../src/package-root.js';
import { rowRequests, sendAll } from './api-limit.js';
import { generateSheet } from './generate.js';
import { runImporter } from './importer-run.js';
import { type SandboxProcess, startSandboxProcess } from './sandbox-process.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 6000);
const LATENCY_MS = 100;
const WIDTH = 32;

async function apiBoundMs(sandbox: SandboxProcess, sheet: string, dir: string) {
  const catalogue = await loadCatalogue(defaultProductsFile());
  const rows = await rowRequests(sheet, catalogue);
  if (rows.length !== ROWS) throw new Error(`the bench sheet has ${rows.length} valid rows`);
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: WIDTH * 2 });
  try {
    const api = new ApiClient({
      baseUrl: sandbox.url,
      token: sandbox.token,
      timeoutMs: 30_000,
      dispatcher,
    });
    return await sendAll(api, rows, dir, WIDTH);
  } finally {
    await dispatcher.close();
  }
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const print = (line: string) => process.stdout.write(`${line}\n`);

const dir = await mkdtemp(join(tmpdir(), 'bench-throughput-'));
const sandbox = await startSandboxProcess(LATENCY_MS);
try {
  const sheet = await generateSheet(dir, ROWS);
  print(
    `${ROWS.toLocaleString('en')} rows (one file each), ${LATENCY_MS} ms added per request, width ${WIDTH}`,
  );
  print(`load before: ${load()} (${cpus().length} cores)`);
  const limitMs = await apiBoundMs(sandbox, sheet, dirname(sheet));
  const run = await runImporter({
    api: sandbox,
    sheet,
    dir,
    catalogue: await loadCatalogue(defaultProductsFile()),
    concurrency: WIDTH,
  });
  if (run.counts.created !== ROWS) throw new Error(`rows: ${JSON.stringify(run.counts)}`);
  const rate = (ms: number) => (ROWS / ms) * 1000;
  const ratio = rate(run.allFinalMs) / rate(limitMs);
  const between = rate(run.createsMs) / rate(limitMs);
  const ratioOk = ratio >= 0.9;
  const firstOk = run.firstCreateMs <= 500;
  print(`API-bound limit:  ${rate(limitMs).toFixed(1)} rows/s (${(limitMs / 1000).toFixed(1)} s)`);
  print(
    `importer:         ${rate(run.allFinalMs).toFixed(1)} rows/s (${(run.allFinalMs / 1000).toFixed(1)} s from the sheet read to every row final)`,
  );
  print(
    `ratio:            ${ratio.toFixed(3)} (target ≥ 0.9): ${ratioOk ? 'met' : 'NOT met'}; between first create and last row: ${between.toFixed(3)}`,
  );
  print(
    `first create:     ${(run.firstCreateMs / 1000).toFixed(3)} s after the sheet was read (target ≤ 0.5 s): ${firstOk ? 'met' : 'NOT met'}; reading it took ${(run.submitMs / 1000).toFixed(3)} s`,
  );
  print(`load after: ${load()}`);
  process.exitCode = ratioOk && firstOk ? 0 : 1;
} finally {
  await sandbox.stop();
  await rm(dir, { recursive: true, force: true });
}
