/**
 * Waits on a spawned command (helpers/cli.ts) by its state, each with a deadline that names what
 * the command said when it runs out: for the tests that kill or restart Redis under an import.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { CliExit, CliProcess } from './cli.js';
import type { TestSandbox } from './sandbox.js';

/** The process's end, or an error naming what it said if it has not ended within `ms`. */
export async function endsWithin(cli: CliProcess, ms: number): Promise<CliExit> {
  // The deadline's timer is cancelled once the process has ended: none is left behind.
  const timer = new AbortController();
  const late = sleep(ms, 'late' as const, { signal: timer.signal }).catch(() => 'ended' as const);
  try {
    const outcome = await Promise.race([cli.finished, late]);
    if (outcome === 'late') throw new Error(`still running after ${ms} ms:\n${cli.stderr}`);
    if (outcome === 'ended') throw new Error('the deadline was cancelled before the process ended');
    return outcome;
  } finally {
    timer.abort();
  }
}

/** Resolves once the sandbox holds at least `count` orders (within 30 s, the import running). */
export async function ordersReach(
  sandbox: TestSandbox,
  count: number,
  cli: CliProcess,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await sandbox.api.listOrders()).length < count) {
    if (cli.child.exitCode !== null) throw new Error(`import ended early:\n${cli.stderr}`);
    if (Date.now() > deadline) throw new Error(`not ${count} orders in time:\n${cli.stderr}`);
    await sleep(50);
  }
}
