/**
 * Worker processes of the product, as a fleet runs them: the built CLI's `worker` command, one
 * process each, configured through the environment only (the inherited environment is not
 * passed on, so that an API_RATE_LIMIT of the shell cannot leak into a run meant without it).
 * Each one's log goes to a file of its own, read back for what the pace said.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { packageRoot } from '../src/package-root.js';

export interface WorkerFleetOptions {
  api: { url: string; token: string };
  redisUrl: string;
  /** QUEUE_PREFIX: every process of the fleet on the same one. */
  prefix: string;
  /** DATA_DIR: the sheets' copies and the reports, shared by the fleet. */
  dataDir: string;
  workers: number;
  concurrency: number;
  /** API_RATE_LIMIT (requests per minute); unset when undefined. */
  apiRateLimit: number | undefined;
}

export interface WorkerFleet {
  /** Every worker's log lines (pino JSON and the CLI's announcements), read from their files. */
  logs(): Promise<string[]>;
  /** Stops every worker (SIGTERM, then SIGKILL after `graceMs`); never throws. */
  stop(graceMs?: number): Promise<void>;
}

const READY_MS = 60_000;

/** Starts `workers` worker processes and resolves once every one said it is ready. */
export async function startWorkerFleet(options: WorkerFleetOptions): Promise<WorkerFleet> {
  const children: ChildProcess[] = [];
  const files = Array.from({ length: options.workers }, (_, i) =>
    join(options.dataDir, `worker-${i + 1}.log`),
  );
  const fleet: WorkerFleet = {
    logs: async () =>
      (await Promise.all(files.map((file) => readFile(file, 'utf8').catch(() => ''))))
        .flatMap((text) => text.split('\n'))
        .filter((line) => line !== ''),
    stop: (graceMs = 15_000) => Promise.all(children.map((c) => stopChild(c, graceMs))).then(),
  };
  try {
    await Promise.all(
      files.map((file) => {
        const child = spawnWorker(options, file);
        children.push(child);
        return untilReady(child);
      }),
    );
  } catch (error) {
    await fleet.stop(2000);
    throw error;
  }
  return fleet;
}

function spawnWorker(options: WorkerFleetOptions, logFile: string): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    API_BASE_URL: options.api.url,
    API_TOKEN: options.api.token,
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: options.prefix,
    DATA_DIR: options.dataDir,
    CONCURRENCY: String(options.concurrency),
    LOG_LEVEL: 'info',
    ...(options.apiRateLimit !== undefined && { API_RATE_LIMIT: String(options.apiRateLimit) }),
  };
  const bin = join(packageRoot(), 'bin', 'order-importer.js');
  const child = spawn(process.execPath, [bin, 'worker'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.pipe(createWriteStream(logFile));
  return child;
}

/** Until the worker announces it is ready; fails if it exits first or takes over a minute. */
function untilReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString('utf8')).slice(-4096);
      if (/^Worker ready/m.test(seen)) done();
    };
    const onExit = (code: number | null) => {
      done(new Error(`a worker exited before it was ready (exit code ${String(code)}): ${seen}`));
    };
    const timer = setTimeout(() => {
      done(new Error(`a worker was not ready within ${READY_MS / 1000} s: ${seen}`));
    }, READY_MS);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}
