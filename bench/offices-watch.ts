/**
 * One `order-importer watch` serving many offices, as people run it: the built CLI in a process
 * of its own, a config file with one connection per office (each its own token file and inbox
 * subfolder, all against one sandbox that accepts every token), a private Redis of its own so that
 * every client of that Redis but the benchmark's is the watch's. Measured from outside: the time
 * from spawn until it says it is watching, its resident memory, its Redis connections (CLIENT
 * LIST, sampled from spawn to the end), and its CPU over an idle window (/proc/<pid>/stat).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { Redis } from 'ioredis';

import { packageRoot } from '../src/package-root.js';
import { processCpuMs, processRssBytes } from './proc-cpu.js';

export interface OfficesWatchOptions {
  offices: number;
  /** Every office's token (the sandbox accepts each), at least `offices` of them. */
  tokens: readonly string[];
  apiUrl: string;
  redisUrl: string;
  /** QUEUE_PREFIX: the benchmark's keys are found (and removed) by it. */
  prefix: string;
  /** Where its config file, token files and data folder go. */
  dir: string;
  dashboardPort: number;
  /** After it says it is watching, before the idle window: what start-up left to do ends. */
  settleMs: number;
  /** How long its CPU is counted while nothing is dropped. */
  idleMs: number;
  /** How long it may take to say it is watching. */
  startTimeoutMs: number;
}

export interface OfficesWatchFigures {
  offices: number;
  /** From spawn until "Watching …". */
  startSeconds: number;
  /** Resident memory at the end of the idle window, and the most seen over the run. */
  rssMB: number;
  peakRssMB: number;
  /** Its Redis connections at the end of the idle window, and the most seen from spawn on. */
  redisConnections: number;
  peakRedisConnections: number;
  /** CPU over the idle window, in % of one core. */
  idleCpuPercent: number;
  /** From SIGTERM until it exited. */
  stopSeconds: number;
}

const MB = 1024 * 1024;
const SAMPLE_MS = 250;
const STOP_WAIT_MS = 120_000;

/** Writes the installation: a token file and a connection per office. */
async function writeInstallation(options: OfficesWatchOptions): Promise<string> {
  await mkdir(join(options.dir, 'tokens'), { recursive: true });
  const connections = [];
  for (let i = 0; i < options.offices; i++) {
    const token = options.tokens[i];
    if (token === undefined) throw new Error(`no token for office ${i}`);
    const tokenFile = join(options.dir, 'tokens', `office-${i}.token`);
    await writeFile(tokenFile, `${token}\n`, { mode: 0o600 });
    connections.push({
      name: `office-${i}`,
      apiBaseUrl: options.apiUrl,
      tokenFile,
      inbox: `office-${i}`,
    });
  }
  const config = join(options.dir, 'importer.json');
  await writeFile(config, JSON.stringify({ connections }, null, 2));
  return config;
}

/** The Redis clients other than the one asking. */
async function otherClients(redis: Redis): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.split('\n').filter((l) => l.trim() !== '').length - 1;
}

/** Samples connections and memory until `stop` is called; the highest seen. */
function sampler(redis: Redis, pid: number) {
  const peak = { connections: 0, rss: 0 };
  const state = { running: true };
  const loop = (async () => {
    while (state.running) {
      peak.connections = Math.max(peak.connections, await otherClients(redis));
      peak.rss = Math.max(peak.rss, await processRssBytes(pid).catch(() => 0));
      await sleep(SAMPLE_MS);
    }
  })();
  return {
    peak,
    stop: async () => {
      state.running = false;
      await loop;
    },
  };
}

/** Runs the watch, measures it, stops it. */
export async function measureOfficesWatch(
  options: OfficesWatchOptions,
): Promise<OfficesWatchFigures> {
  const config = await writeInstallation(options);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: options.prefix,
    DATA_DIR: join(options.dir, 'data'),
    DASHBOARD_PORT: String(options.dashboardPort),
  };
  const bin = process.env.BENCH_CLI ?? join(packageRoot(), 'bin', 'order-importer.js');
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
  const started = performance.now();
  // BENCH_CPU_PROF: where it writes a V8 CPU profile (node --cpu-prof), as the suite's children do.
  const folder = process.env.BENCH_CPU_PROF;
  const profile = folder ? ['--cpu-prof', `--cpu-prof-dir=${folder}`] : [];
  const child = spawn(process.execPath, [...profile, bin, 'watch', '--config', config], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid ?? 0;
  const samples = sampler(redis, pid);
  let stderr = '';
  const watching = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`not watching after ${options.startTimeoutMs} ms: ${stderr.slice(-2000)}`));
    }, options.startTimeoutMs);
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr = (stderr + text).slice(-1 << 16);
      if (/^Watching /m.test(stderr)) {
        clearTimeout(timer);
        resolve(performance.now() - started);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`watch exited with ${String(code)}: ${stderr.slice(-2000)}`));
    });
  });
  child.stdout.resume();
  try {
    const startMs = await watching;
    await sleep(options.settleMs);
    const cpuBefore = await processCpuMs(pid);
    await sleep(options.idleMs);
    const idleCpuMs = (await processCpuMs(pid)) - cpuBefore;
    const rss = await processRssBytes(pid);
    const connections = await otherClients(redis);
    const stopped = performance.now();
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), STOP_WAIT_MS);
    await exited;
    clearTimeout(killer);
    return {
      offices: options.offices,
      startSeconds: startMs / 1000,
      rssMB: rss / MB,
      peakRssMB: Math.max(samples.peak.rss, rss) / MB,
      redisConnections: connections,
      peakRedisConnections: Math.max(samples.peak.connections, connections),
      idleCpuPercent: (idleCpuMs / options.idleMs) * 100,
      stopSeconds: (performance.now() - stopped) / 1000,
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
    await samples.stop();
    redis.disconnect();
  }
}
