import { once } from 'node:events';
import { connect } from 'node:net';

/** One command the server ran, as MONITOR tells it. */
export interface MonitoredCommand {
  /** `lua` for the commands a script runs, else the client's address. */
  source: string;
  /** The command's name (lower case) and arguments. */
  args: string[];
}

/**
 * MONITOR on a plain socket of its own: ioredis's monitor mode may take the first lines for
 * replies to its own commands on a busy server ("Command queue state error").
 */
export async function monitorRedis(
  url: string,
  onCommand: (command: MonitoredCommand) => void,
): Promise<{ stop(): void }> {
  const { hostname, port, password } = new URL(url);
  const socket = connect(Number(port || 6379), hostname);
  await once(socket, 'connect');
  if (password !== '') socket.write(`AUTH ${decodeURIComponent(password)}\r\n`);
  socket.write('MONITOR\r\n');
  let pending = '';
  // Watching starts once the server has said OK to MONITOR (and to AUTH): a command run before
  // that is not shown, and a test waiting for it would wait for ever.
  let oks = password === '' ? 1 : 2;
  let watching = () => {};
  const started = new Promise<void>((resolve) => (watching = resolve));
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\r\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (oks > 0 && line === '+OK' && --oks === 0) watching();
      const command = parseLine(line);
      if (command) onCommand(command);
    }
  });
  await started;
  return { stop: () => socket.destroy() };
}

/** `+1795708725.489970 [0 127.0.0.1:54088] "evalsha" "…" "1"`; undefined for `+OK`. */
function parseLine(line: string): MonitoredCommand | undefined {
  const match = /^\+\d+\.\d+ \[\d+ ([^\]]+)\] (.*)$/.exec(line);
  if (!match) return undefined;
  const args = [...(match[2] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '');
  return { source: match[1] ?? '', args: [(args[0] ?? '').toLowerCase(), ...args.slice(1)] };
}

/** What one of our scripts' calls declared as its keys, and the keys its commands touched. */
export interface ScriptCall {
  declared: string[];
  touched: string[];
}

/**
 * Our own scripts' calls (they name an `:importer:` key) among monitored commands: MONITOR shows
 * a script's commands, as `lua`, right after its EVAL.
 */
export function scriptCalls(commands: readonly MonitoredCommand[]): ScriptCall[] {
  const calls: ScriptCall[] = [];
  let current: ScriptCall | undefined;
  for (const { source, args } of commands) {
    const [name = '', ...rest] = args;
    if (source !== 'lua') {
      current = undefined;
      if (name !== 'evalsha' && name !== 'eval') continue;
      const declared = rest.slice(2, 2 + Number(rest[1]));
      if (!declared.some((key) => key.includes(':importer:'))) continue;
      current = { declared, touched: [] };
      calls.push(current);
    } else if (current !== undefined) {
      current.touched.push(...keysOfCommand(name, rest));
    }
  }
  return calls;
}

/** The keys a command of our scripts names: the first argument, or all of them for a few. */
function keysOfCommand(name: string, args: readonly string[]): string[] {
  if (name === 'time') return [];
  if (name === 'del' || name === 'unlink' || name === 'exists') return [...args];
  return args.length > 0 ? [args[0] as string] : [];
}
