/**
 * The benchmark's child processes: a measure about CPU or memory runs in a process of its own, so
 * that nothing else's work or heap is counted in it, and each contestant starts as fresh as the
 * others. A child is a script of bench/ that takes its input as one JSON argument and prints its
 * result as the last line of its output; it is stopped on cleanup, and ends by itself when the
 * benchmark's process is gone (child-side.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { onCleanup } from './cleanup.js';

const here = dirname(fileURLToPath(import.meta.url));
const STOP_GRACE_MS = 5000;

/** Runs `bench/<script>.js` to its end and returns its last line of output, parsed. */
export async function runChild<T>(
  script: string,
  input: unknown,
  nodeArgs: string[] = [],
): Promise<T> {
  const args = [...profiling(), ...nodeArgs, join(here, script), JSON.stringify(input)];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const forget = onCleanup(() => stop(child));
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    out = (out + text).slice(-(1 << 20));
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    err = (err + text).slice(-4000);
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  await forget();
  const last = out.trimEnd().split('\n').at(-1) ?? '';
  if (code !== 0) {
    const how = signal === null ? `exited with code ${code}` : `was ended by ${signal}`;
    throw new Error(`${script} ${how}: ${err.trim() || last}`);
  }
  return JSON.parse(last) as T;
}

/** BENCH_CPU_PROF=<folder>: every child writes a V8 CPU profile there (node --cpu-prof). */
function profiling(): string[] {
  const folder = process.env.BENCH_CPU_PROF;
  return folder ? ['--cpu-prof', `--cpu-prof-dir=${folder}`] : [];
}

/** SIGTERM, then SIGKILL if it has not ended in a few seconds; at once if it has ended already. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}
