/**
 * `redis-server` processes of a test's own, each from a config file in a temporary folder of its
 * own: a server with ACL users or TLS, a replica, a sentinel. Each is killed and its folder
 * removed by `stop()`; `stopAll()` stops every one a test file started (its afterEach/afterAll).
 * The shared server at 6379 is never touched.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';

import { freePort } from '../../src/redis/local-server.js';
import { eventually } from './eventually.js';

export interface RedisProcess {
  /** The port it answers on (its TLS port, for one that speaks TLS). */
  port: number;
  dir: string;
  process: ChildProcess;
  /** Whether it has exited (killed, or failed). */
  readonly ended: boolean;
  /** The last lines it wrote, for a failing test's message. */
  output(): string;
  /** Kills it (SIGKILL unless said) and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Kills it and removes its folder. */
  stop(): Promise<void>;
}

const started = new Set<RedisProcess>();

/** Stops every server this file started and has not stopped yet. */
export async function stopAll(): Promise<void> {
  await Promise.all([...started].map((server) => server.stop()));
}

export interface RedisServerOptions {
  /** Lines of its config file, besides port, bind, dir and no persistence. */
  conf?: readonly string[];
  /** A sentinel (`redis-server <conf> --sentinel`). */
  sentinel?: boolean;
  /** Its port for plain TCP; 0 for none (a TLS-only server says its `tls-port` in `conf`). */
  port?: number;
  /** How it is asked whether it answers: on this port over TLS with these options. */
  tls?: { port: number; options: ConnectionOptions };
}

/** Starts one and resolves once it answers (any answer: one with ACL users says NOAUTH). */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisProcess> {
  const port = options.port ?? (await freePort());
  const dir = await mkdtemp(join(tmpdir(), options.sentinel ? 'test-sentinel-' : 'test-redis-'));
  const conf = [
    `port ${port}`,
    'bind 127.0.0.1',
    `dir ${dir}`,
    ...(options.sentinel ? [] : ['save ""', 'appendonly no', 'maxmemory-policy noeviction']),
    ...(options.conf ?? []),
  ];
  const file = join(dir, options.sentinel ? 'sentinel.conf' : 'redis.conf');
  await writeFile(file, `${conf.join('\n')}\n`);
  const child = spawn('redis-server', [file, ...(options.sentinel ? ['--sentinel'] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  const server: RedisProcess = {
    port: options.tls?.port ?? port,
    dir,
    process: child,
    get ended() {
      return child.exitCode !== null || child.signalCode !== null;
    },
    output: () => output,
    kill: async (signal = 'SIGKILL') => {
      if (!server.ended) child.kill(signal);
      await exited;
    },
    stop: async () => {
      started.delete(server);
      // A stopped (SIGSTOP) process ends only once it runs again.
      if (!server.ended) child.kill('SIGCONT');
      await server.kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
  started.add(server);
  const asked = options.tls ?? { port, options: undefined };
  await eventually(
    async () => (server.ended ? 'ended' : (await answers(asked.port, asked.options)) || undefined),
    () => `redis-server on ${asked.port} does not answer: ${output}`,
    15_000,
  );
  if (server.ended) {
    await server.stop();
    throw new Error(`redis-server exited: ${output}`);
  }
  return server;
}

/** Whether something on `port` answers a PING with a reply of Redis's (+PONG, -NOAUTH…). */
export async function answers(port: number, tls?: ConnectionOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const socket =
      tls === undefined
        ? new Socket().connect(port, '127.0.0.1')
        : tlsConnect({ ...tls, port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => {
      done(false);
    });
    socket.once('error', () => {
      done(false);
    });
    socket.once('data', (data: Buffer) => {
      done(/^[+-]/.test(data.toString()));
    });
    socket.once(tls === undefined ? 'connect' : 'secureConnect', () => socket.write('PING\r\n'));
  });
}
