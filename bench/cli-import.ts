/**
 * One `order-importer import SHEET` as people run it: the built CLI (bin/ → dist/) in a process
 * of its own, configured through the environment only (the shell's own is not passed on, so that
 * a LOG_LEVEL or API_RATE_LIMIT set there cannot change what is measured), its log at the default
 * level, its stdout and stderr pipes that are read to the end (a pipe nobody reads would stall
 * its writes; a terminal or /dev/null would time something users do not run). Timed from spawn
 * to exit; its CPU is what the kernel counted for it once it was reaped (proc-cpu.ts), so this
 * runs in a process that has no other child ending meanwhile (a contestant, second-sheet.ts).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

import { packageRoot } from '../src/package-root.js';
import { reapedChildrenCpuMs } from './proc-cpu.js';

export interface CliImportOptions {
  api: { url: string; token: string };
  redisUrl: string;
  /** QUEUE_PREFIX: the benchmark's keys are found (and removed) by it. */
  prefix: string;
  /** DATA_DIR and, below it, REPORTS_DIR. */
  dataDir: string;
  concurrency: number;
  sheet: string;
  /** BENCH_CPU_PROF: where the CLI writes a V8 CPU profile (node --cpu-prof). */
  cpuProfileDir?: string;
}

export interface CliImport {
  /** Exit code (0: every row created or duplicate). */
  code: number | null;
  /** Date.now() at spawn, to set against the sandbox's request log. */
  spawnedAt: number;
  /** From spawn to exit. */
  ms: number;
  /** User and system CPU of the CLI's process. */
  cpuMs: number;
  /** What it wrote to stderr: its log and announcements. */
  stderrBytes: number;
  stderrLines: number;
  /** The sheet's rows by status, from the report's summary.json. */
  counts: Record<string, number>;
}

const COUNTED = ['total', 'created', 'invalid', 'failed', 'needsReview', 'duplicate'] as const;

export async function cliImport(options: CliImportOptions): Promise<CliImport> {
  const reportsDir = join(options.dataDir, 'reports');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    API_BASE_URL: options.api.url,
    API_TOKEN: options.api.token,
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: options.prefix,
    DATA_DIR: options.dataDir,
    REPORTS_DIR: reportsDir,
    CONCURRENCY: String(options.concurrency),
  };
  const profile = options.cpuProfileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`]
    : [];
  // BENCH_CLI: another build's bin/order-importer.js, to set it against this one on one machine.
  const bin = process.env.BENCH_CLI ?? join(packageRoot(), 'bin', 'order-importer.js');
  const cpuBefore = await reapedChildrenCpuMs();
  const spawnedAt = Date.now();
  const started = performance.now();
  const child = spawn(process.execPath, [...profile, bin, 'import', options.sheet], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr = { bytes: 0, lines: 0, tail: '' };
  child.stderr.on('data', (chunk: Buffer) => {
    stderr.bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) stderr.lines += 1;
    stderr.tail = (stderr.tail + chunk.toString('utf8')).slice(-4000);
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout = (stdout + text).slice(-4000);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  const ms = performance.now() - started;
  const cpuMs = (await reapedChildrenCpuMs()) - cpuBefore;
  if (code !== 0) {
    throw new Error(`order-importer import exited with ${String(code)}: ${stderr.tail || stdout}`);
  }
  const counts = await reportCounts(reportsDir, options.sheet);
  return {
    code,
    spawnedAt,
    ms,
    cpuMs,
    stderrBytes: stderr.bytes,
    stderrLines: stderr.lines,
    counts,
  };
}

/** The counts of the sheet's newest report (`<name>-<sheetId>`: the id begins with its date). */
async function reportCounts(reportsDir: string, sheet: string): Promise<Record<string, number>> {
  const name = basename(sheet, extname(sheet));
  const folders = (await readdir(reportsDir)).filter((f) => f.startsWith(`${name}-`)).sort();
  const newest = folders.at(-1);
  if (newest === undefined) throw new Error(`no report of ${sheet} in ${reportsDir}`);
  const summary = JSON.parse(
    await readFile(join(reportsDir, newest, 'summary.json'), 'utf8'),
  ) as Record<string, unknown>;
  return Object.fromEntries(COUNTED.map((k) => [k, Number(summary[k] ?? 0)]));
}
