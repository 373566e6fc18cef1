/**
 * Child process: one contestant of a throughput measure (the importer, or one of its peers) sends
 * a sheet's rows to the sandbox, in a process of its own so that each starts as fresh as the
 * others and none shares its event loop or heap with the benchmark. The importer is the CLI, which
 * this process spawns (cli-import.ts) and times from spawn to exit. Prints its rows and time.
 */
import { dirname } from 'node:path';

import { childInput, endWithParent, printResult } from './child-side.js';
import { cliImport } from './cli-import.js';
import { clientPool, rowRequests } from './client-pool.js';
import { fetchPeer } from './fetch-peers.js';
import { requestTimes } from './sandbox-log.js';

export type ContestantKind = 'importer' | 'fetch-pool' | 'client-pool' | 'fetch-sequential';

export interface ContestantInput {
  kind: ContestantKind;
  api: { url: string; token: string };
  redisUrl: string;
  /** The importer's QUEUE_PREFIX (peers keep nothing in Redis). */
  prefix?: string;
  sheet: string;
  /** The importer's reports and sheet copies. */
  dir: string;
  /** Rows in flight (1 for the sequential loop). */
  width: number;
  /** The sequential loop stops after this long. */
  budgetMs?: number;
}

export interface ContestantResult {
  kind: ContestantKind;
  rows: number;
  ms: number;
  /** The importer's: from spawn until its first create reached the sandbox. */
  firstCreateMs?: number;
  /** The importer's: from spawn until its last request reached the sandbox. */
  lastRequestMs?: number;
  /** The importer's: what its process wrote to stderr (its log). */
  stderrLines?: number;
  stderrBytes?: number;
  /** The importer's rows by status. */
  counts?: Record<string, number>;
  /** The CPU spent sending them (user and system), in ms: the peer's process, or the CLI's. */
  cpuMs: number;
}

async function run(input: ContestantInput): Promise<ContestantResult> {
  if (input.kind === 'importer') return runCli(input);
  const cpu = process.cpuUsage();
  const result = await send(input);
  const used = process.cpuUsage(cpu);
  return { ...result, cpuMs: (used.user + used.system) / 1000 };
}

async function send(input: ContestantInput): Promise<Omit<ContestantResult, 'cpuMs'>> {
  const { kind, api, sheet, width } = input;
  const rows = await rowRequests(sheet);
  if (kind === 'client-pool') {
    return { kind, rows: rows.length, ms: await clientPool(api, rows, dirname(sheet), width) };
  }
  return { kind, ...(await fetchPeer(api, rows, dirname(sheet), width, input.budgetMs)) };
}

/** `order-importer import SHEET`, spawned and timed from spawn to exit; its CPU, not ours. */
async function runCli(input: ContestantInput): Promise<ContestantResult> {
  if (input.prefix === undefined) throw new Error('the importer needs its QUEUE_PREFIX');
  const done = await cliImport({
    api: input.api,
    redisUrl: input.redisUrl,
    prefix: input.prefix,
    dataDir: input.dir,
    concurrency: input.width,
    sheet: input.sheet,
    ...(process.env.BENCH_CPU_PROF && { cpuProfileDir: process.env.BENCH_CPU_PROF }),
  });
  const times = await requestTimes(input.api, done.spawnedAt);
  return {
    kind: 'importer',
    rows: done.counts.created ?? 0,
    ms: done.ms,
    firstCreateMs: times.firstCreateMs,
    lastRequestMs: times.lastRequestMs,
    stderrLines: done.stderrLines,
    stderrBytes: done.stderrBytes,
    counts: done.counts,
    cpuMs: done.cpuMs,
  };
}

endWithParent();
printResult(await run(childInput() as ContestantInput));
