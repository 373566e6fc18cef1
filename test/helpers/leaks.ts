/**
 * What a test file left running: a server still listening, a child process not ended, a
 * connection to Redis still open (a BullMQ worker or queue, a client never quit), keys still
 * under one of the file's Redis prefixes. test/helpers/leak-guard.ts fails each file that leaves
 * any, so that files can share a process's neighbours and a Redis server.
 */
import { ChildProcess } from 'node:child_process';
import { Server, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { Redis } from 'ioredis';

/** A Redis the file used, and the prefix its keys hold. */
export interface UsedRedis {
  url: string;
  prefix: string;
}

export interface LeakCheck {
  /** The handles alive before the file ran (activeHandles()); they are not the file's. */
  before: ReadonlySet<unknown>;
  redises: readonly UsedRedis[];
  /** How long what is closing may take to be gone: a quit or a kill completes a moment later. */
  graceMs: number;
}

/** The objects that keep this process alive: servers, sockets, child processes, timers. */
export function activeHandles(): Set<unknown> {
  // Node's own list; getActiveResourcesInfo() names the kinds only, not which server or socket.
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return new Set(handles);
}

/** Each leak in a line; waits up to graceMs for what is still closing, then tells what stays. */
export async function findLeaks(check: LeakCheck): Promise<string[]> {
  const deadline = Date.now() + check.graceMs;
  for (;;) {
    const leaks = [...counted(leakedHandles(check)), ...(await leakedKeys(check.redises))];
    if (leaks.length === 0 || Date.now() >= deadline) return leaks;
    await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
  }
}

/** `3 × a connection to Redis at port 6379` rather than the same line three times. */
function counted(lines: string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return [...counts].map(([line, count]) => (count === 1 ? line : `${count} × ${line}`));
}

function leakedHandles(check: LeakCheck): string[] {
  const redisPorts = new Set(check.redises.map((redis) => new URL(redis.url).port));
  const leaks: string[] = [];
  for (const handle of activeHandles()) {
    if (check.before.has(handle)) continue;
    if (handle instanceof Server && handle.listening) {
      const address = handle.address();
      const where = typeof address === 'string' ? address : `port ${address?.port}`;
      leaks.push(`a server listening on ${where}`);
    } else if (handle instanceof ChildProcess && handle.exitCode === null) {
      leaks.push(`a child process (pid ${handle.pid}, ${handle.spawnfile})`);
    } else if (
      handle instanceof Socket &&
      !handle.destroyed &&
      redisPorts.has(String(handle.remotePort))
    ) {
      leaks.push(`a connection to Redis at port ${handle.remotePort}`);
    }
  }
  return leaks;
}

async function leakedKeys(redises: readonly UsedRedis[]): Promise<string[]> {
  const leaks: string[] = [];
  for (const { url, prefix } of redises) {
    const keys = await keysHolding(url, prefix);
    if (keys === undefined || keys.length === 0) continue;
    const count = `${keys.length} Redis key${keys.length === 1 ? '' : 's'}`;
    leaks.push(`${count} holding ${prefix}, such as ${keys.slice(0, 3).join(', ')}`);
  }
  return leaks;
}

/** The keys holding `prefix`; undefined when that Redis is gone (a private server, stopped). */
async function keysHolding(url: string, prefix: string): Promise<string[] | undefined> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    if (/ECONNREFUSED/.test((error as Error).message)) return undefined;
    throw error;
  }
  try {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  } finally {
    client.disconnect();
  }
}
