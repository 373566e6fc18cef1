/**
 * `npm run bench:rate`: how close a fleet of worker processes runs to the API's rate limit, and
 * how many of its requests the API refuses (429), with the limit set (API_RATE_LIMIT) and
 * without it (learned from the answers' X-RateLimit-* headers). The sandbox runs in a process of
 * its own with a Laravel throttle of 100 requests per 10 s and 100 ms added to every request;
 * the workers are the built CLI's `worker` processes on one Redis prefix; a sheet is submitted
 * once and every row followed to its outcome. Figures are the API's side (rate-figures.ts says
 * how "% of the limit" is computed). Targets (issue 11): ≥ 95 % of the limit and ≤ 1 % of the
 * requests 429, with the limit set or learned, with 3 workers and with 1.
 * The machine's load is printed with the figures: other runs on the machine make them noisy.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { request } from 'undici';

import { generateSheet } from './generate.js';
import { benchRedisUrl, removeKeys } from './private-redis.js';
import { type LoggedRequest, type RateFigures, rateFigures } from './rate-figures.js';
import { importOnce } from './rate-import.js';
import { startWorkerFleet } from './rate-workers.js';
import { startSandboxProcess } from './sandbox-process.js';

export interface RateLimitRun {
  /** API_RATE_LIMIT set to the sandbox's limit (true), or left to be learned (false). */
  advertised: boolean;
  workers: number;
  /** Rows of the sheet, two requests each (its order, its one file). @defaultValue 500 */
  rows?: number;
  /** @defaultValue 100 */
  limit?: number;
  /** @defaultValue 10,000 */
  windowMs?: number;
  /** Added by the sandbox to every request. @defaultValue 100 */
  latencyMs?: number;
  /** Rows in flight per worker process. @defaultValue 8 */
  concurrency?: number;
  /** A folder to keep the sandbox's log of requests and the workers' logs in, to study a run. */
  keepLogsIn?: string;
  /** The Redis the fleet shares. @defaultValue REDIS_URL, else 127.0.0.1:6379 */
  redisUrl?: string;
}

export interface RateLimitFigures extends RateFigures {
  limit: number;
  windowMs: number;
  workers: number;
  advertised: boolean;
  /** From the sheet submitted until every row has its outcome. */
  seconds: number;
  /** What the workers' logs said of the rate limit (the limit learned, once). */
  said: string[];
}

/** What the runs under way have to undo (stopped by a signal, the bench undoes it first). */
const running = new Set<() => Promise<void>>();

/** One run: a sandbox, a fleet, a sheet; everything removed afterwards, even on failure. */
export async function measureRateLimit(run: RateLimitRun): Promise<RateLimitFigures> {
  const { limit = 100, windowMs = 10_000, latencyMs = 100, rows = 500 } = run;
  const undo: Array<() => Promise<unknown>> = [];
  const cleanup = () => undoAll(undo);
  running.add(cleanup);
  try {
    const dir = await mkdtemp(join(tmpdir(), 'bench-rate-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    const tag = `bench-rate-${randomUUID()}`;
    const redisUrl = run.redisUrl ?? benchRedisUrl();
    // Removed once the fleet has stopped (undone in reverse): no worker writes them again.
    undo.push(() => removeKeys(redisUrl, tag));
    const sandbox = await startSandboxProcess(latencyMs, {
      rateLimit: limit,
      rateWindowMs: windowMs,
    });
    undo.push(() => sandbox.stop());
    const fleet = await startWorkerFleet({
      api: sandbox,
      redisUrl,
      prefix: `{${tag}}`,
      dataDir: dir,
      workers: run.workers,
      concurrency: run.concurrency ?? 8,
      apiRateLimit: run.advertised ? (limit * 60_000) / windowMs : undefined,
    });
    undo.push(() => fleet.stop());
    const sheet = await generateSheet(join(dir, 'in'), rows);
    const ms = await importOnce({ api: sandbox, redisUrl, tag, dir, sheet, rows });
    const lines = await fleet.logs();
    const log = await sandboxLog(sandbox);
    if (run.keepLogsIn !== undefined) await keepLogs(run.keepLogsIn, log, lines);
    return {
      limit,
      windowMs,
      workers: run.workers,
      advertised: run.advertised,
      seconds: ms / 1000,
      ...rateFigures(log, limit, windowMs),
      said: lines.filter((line) => /rate.limit|requests per window/i.test(line)),
    };
  } finally {
    running.delete(cleanup);
    await cleanup();
  }
}

/** Runs every step, the last one first, even when one fails; then says what failed. */
async function undoAll(steps: Array<() => Promise<unknown>>): Promise<void> {
  const errors: unknown[] = [];
  for (const step of steps.splice(0).reverse()) {
    try {
      await step();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, 'bench:rate could not clean up');
}

/** The sandbox's log of the API requests it answered (its own routes are not throttled). */
async function sandboxLog(api: { url: string; token: string }): Promise<LoggedRequest[]> {
  const answer = await request(`${api.url}/__sandbox/requests`, {
    headers: { authorization: `Bearer ${api.token}`, accept: 'application/json' },
  });
  if (answer.statusCode !== 200) throw new Error(`the sandbox's log: ${answer.statusCode}`);
  return ((await answer.body.json()) as { data: LoggedRequest[] }).data.filter((r) =>
    r.path.startsWith('/api/'),
  );
}

async function keepLogs(dir: string, log: LoggedRequest[], workerLines: string[]) {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'requests.json'), JSON.stringify(log));
  await writeFile(join(dir, 'workers.log'), `${workerLines.join('\n')}\n`);
}

/** A log line's message (pino writes JSON; the CLI's announcements are plain). */
function messageOf(line: string): string {
  try {
    return (JSON.parse(line) as { msg?: string }).msg ?? line;
  } catch (error) {
    if (error instanceof SyntaxError) return line;
    throw error;
  }
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const print = (line: string) => process.stdout.write(`${line}\n`);
const pct = (n: number) => (Number.isNaN(n) ? '—' : `${n.toFixed(1)} %`);

/** Stopped by a signal: the runs under way are undone (processes, Redis keys, files) first. */
function undoOnSignal(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void Promise.allSettled([...running].map((cleanup) => cleanup())).then(() =>
        process.exit(130),
      );
    });
  }
}

async function main(): Promise<void> {
  undoOnSignal();
  const rows = Number(process.env.BENCH_RATE_ROWS ?? 500);
  const keep = process.env.BENCH_RATE_LOGS;
  const scenarios: RateLimitRun[] = [
    { advertised: true, workers: 3, rows },
    { advertised: false, workers: 3, rows },
    { advertised: false, workers: 1, rows },
  ].map((s) => ({
    ...s,
    ...(keep && { keepLogsIn: join(keep, `${s.advertised ? 'set' : 'unset'}-${s.workers}`) }),
  }));
  print(`rate limit 100 per 10 s, 100 ms added per request, ${rows} rows of 2 requests each`);
  const before = load();
  print(`load before: ${before} (${cpus().length} cores)`);
  const results: (RateLimitFigures & { load: string })[] = [];
  for (const scenario of scenarios) {
    const figures = await measureRateLimit(scenario);
    results.push({ ...figures, load: load() });
    const name = `API_RATE_LIMIT ${scenario.advertised ? 'set' : 'unset'}, ${scenario.workers} worker(s)`;
    for (const line of figures.said) print(`${name}, a worker said: ${messageOf(line)}`);
  }
  print(
    '| API_RATE_LIMIT | workers | % of limit (first window too) | 429s | requests | s | load after |',
  );
  print('|---|---|---|---|---|---|---|');
  let met = true;
  for (const r of results) {
    const ok = r.percentOfLimit >= 95 && r.percent429 <= 1;
    met &&= ok;
    print(
      `| ${r.advertised ? 'set' : 'unset'} | ${r.workers} | ${pct(r.percentOfLimit)} (${pct(r.percentOfLimitWithFirst)}) | ${pct(r.percent429)} (${r.answered429}) | ${r.requests} | ${r.seconds.toFixed(1)} | ${r.load} |${ok ? '' : ' NOT met'}`,
    );
  }
  const after = load();
  print(`load after: ${after}`);
  const summary = results.map(({ said: _said, windows, ...r }) => ({
    ...r,
    windows: windows.map((w) => w.accepted),
  }));
  print(JSON.stringify({ loadBefore: before, loadAfter: after, results: summary }));
  process.exitCode = met ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  await main();
