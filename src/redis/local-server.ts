import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FREE_PORT_TRIES, PRIVATE_REDIS_START } from '../policy.js';

export interface LocalRedisOptions {
  /** Port to listen on; 0 takes a free one. @defaultValue 0 */
  port?: number;
  /** Data folder (the AOF and any dump go there). @defaultValue the current folder */
  dir?: string;
  /** Keep an append-only file so that a restart loses nothing. @defaultValue false */
  appendOnly?: boolean;
  /** The redis-server executable. @defaultValue `redis-server` from PATH */
  binary?: string;
  /** How long to wait for it to answer PING, in ms. @defaultValue 10000 */
  startTimeoutMs?: number;
}

/** A redis-server child process of ours. */
export interface LocalRedis {
  url: string;
  port: number;
  process: ChildProcess;
  /** SIGTERM, then wait for it to exit (Redis flushes its AOF on the way out). */
  stop(): Promise<void>;
}

/** True when a `redis-server` can be started from PATH. */
export function redisServerAvailable(binary = 'redis-server'): boolean {
  const probe = spawnSync(binary, ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

export async function freePort(random: () => number = Math.random): Promise<number> {
  // Below the kernel's range for outgoing connections: a port from that range may be given to any
  // client socket (a Redis connection, an HTTP request) between now and the moment it is bound.
  const low = Math.max(LISTEN_PORTS_FROM + 1, await ephemeralLow());
  for (let tries = 0; tries < FREE_PORT_TRIES; tries++) {
    const port = LISTEN_PORTS_FROM + Math.floor(random() * (low - LISTEN_PORTS_FROM));
    if ((await listenable(port)) !== undefined) return port;
  }
  const port = await listenable(0);
  if (port === undefined) throw new Error('no free port found');
  return port;
}

/** Where ports to listen on are looked for, up to the ephemeral range. */
const LISTEN_PORTS_FROM = 10_000;

/** The first port of the kernel's ephemeral range (Linux's default where it cannot be read). */
async function ephemeralLow(): Promise<number> {
  // No such file off Linux: its default range is as good a guess as any.
  const text = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(
    () => '32768 60999',
  );
  const low = Number(text.trim().split(/\s+/)[0]);
  return Number.isInteger(low) && low > 0 ? low : 32768;
}

/** The port listened on and closed again (`port` 0: the kernel's pick); undefined when taken. */
async function listenable(port: number): Promise<number | undefined> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => {
      resolve(false);
    });
    server.listen(port, '127.0.0.1', () => {
      resolve(true);
    });
  });
  if (!listening) return undefined;
  const address = server.address();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return address === null || typeof address === 'string' ? undefined : address.port;
}

/** Starts a private redis-server bound to 127.0.0.1 and resolves once it answers PING. */
export async function startLocalRedis(options: LocalRedisOptions = {}): Promise<LocalRedis> {
  const port = options.port || (await freePort());
  const dir = options.dir ?? process.cwd();
  await mkdir(dir, { recursive: true });
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.appendOnly ? 'yes' : 'no',
    '--daemonize',
    'no',
    // BullMQ needs keys kept, never evicted.
    '--maxmemory-policy',
    'noeviction',
  ];
  const child = spawn(options.binary ?? 'redis-server', args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));

  const deadline = Date.now() + (options.startTimeoutMs ?? PRIVATE_REDIS_START.withinMs);
  for (;;) {
    if (await answersPing(port)) break;
    const failure = await Promise.race([
      exited.then((code) => new Error(`redis-server exited with code ${code}: ${output.trim()}`)),
      spawnError,
      sleep(PRIVATE_REDIS_START.everyMs).then(() => null),
    ]);
    if (failure) throw failure;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server on port ${port} did not answer in time: ${output.trim()}`);
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One raw PING, so that waiting for start-up does not depend on a client's retry policy. */
async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(PRIVATE_REDIS_START.pingMs, () => {
      done(false);
    });
    socket.once('error', () => {
      done(false);
    });
    socket.once('data', (data) => {
      done(data.toString().startsWith('+PONG'));
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}
