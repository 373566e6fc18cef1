/**
 * Child process: one contestant of a throughput measure (the importer, or one of its peers) sends
 * a sheet's rows to the sandbox, in a process of its own so that each starts as fresh as the
 * others and none shares its event loop or heap with the benchmark. Prints its rows and time.
 */
import { dirname } from 'node:path';

import { loadCatalogue } from '../src/orders/catalogue.js';
import { defaultProductsFile } from '../src/package-root.js';
import { childInput, endWithParent, printResult } from './child-side.js';
import { clientPool, rowRequests } from './client-pool.js';
import { fetchPeer } from './fetch-peers.js';
import { runImporter } from './importer-run.js';

export type ContestantKind = 'importer' | 'fetch-pool' | 'client-pool' | 'fetch-sequential';

export interface ContestantInput {
  kind: ContestantKind;
  api: { url: string; token: string };
  redisUrl: string;
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
  /** The importer's: from the call to submit until the sheet is read and queued. */
  submitMs?: number;
  /** The importer's: from the sheet queued until its first create is sent. */
  firstCreateMs?: number;
  /** The importer's rows by status. */
  counts?: Record<string, number>;
  /** The CPU this process used to send them (user and system), in ms. */
  cpuMs: number;
}

async function run(input: ContestantInput): Promise<ContestantResult> {
  const cpu = process.cpuUsage();
  const result = await send(input);
  const used = process.cpuUsage(cpu);
  return { ...result, cpuMs: (used.user + used.system) / 1000 };
}

async function send(input: ContestantInput): Promise<Omit<ContestantResult, 'cpuMs'>> {
  const { kind, api, sheet, width } = input;
  if (kind === 'importer') {
    // The importer's Redis is the one of its environment (importer-run.ts): the benchmark's own.
    process.env.REDIS_URL = input.redisUrl;
    const catalogue = await loadCatalogue(defaultProductsFile());
    const done = await runImporter({ api, sheet, dir: input.dir, catalogue, concurrency: width });
    return {
      kind,
      rows: done.counts.created ?? 0,
      ms: done.allFinalMs,
      submitMs: done.submitMs,
      firstCreateMs: done.firstCreateMs,
      counts: done.counts,
    };
  }
  const rows = await rowRequests(sheet);
  if (kind === 'client-pool') {
    return { kind, rows: rows.length, ms: await clientPool(api, rows, dirname(sheet), width) };
  }
  return { kind, ...(await fetchPeer(api, rows, dirname(sheet), width, input.budgetMs)) };
}

endWithParent();
printResult(await run(childInput() as ContestantInput));
