import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { forward } from './proxy.js';

/** What the proxy answers to one request instead of the API's own answer. */
export interface HugeAnswer {
  status: number;
  /** The body's first bytes; the rest is spaces up to `bytes`. */
  head: string;
  /** Whether the request reaches the API first (its own answer then dropped). */
  forwarded: boolean;
}

/** Picks the requests answered with a huge body: the n-th (from 1) of its method and route. */
export type HugeChoice = (method: string, path: string, n: number) => HugeAnswer | undefined;

/**
 * A real HTTP server in front of the sandbox that answers the requests `choose` picks with a body
 * of `bytes` (64 MB by default) generated as it is sent, written only as fast as the client reads
 * it, and counts what it managed to write before the client hung up.
 */
export interface HugeAnswerProxy {
  url: string;
  /** Body bytes handed to the socket, per huge answer, in order. */
  readonly written: number[];
  /** How many huge answers were written to their end. */
  readonly finished: number;
  close(): Promise<void>;
}

export async function hugeAnswerProxy(
  target: string,
  choose: HugeChoice,
  bytes = 64 * 1024 * 1024,
): Promise<HugeAnswerProxy> {
  const base = new URL(target);
  const seen = new Map<string, number>();
  const written: number[] = [];
  let finished = 0;
  const server = createServer((incoming, reply) => {
    const key = `${incoming.method} ${incoming.url}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const huge = choose(incoming.method ?? '', incoming.url ?? '', n);
    if (huge === undefined) {
      forward(incoming, reply, base);
      return;
    }
    const index = written.push(0) - 1;
    const send = () => {
      stream(reply, huge, bytes, (count) => (written[index] = count)).then(
        (ended) => {
          if (ended) finished += 1;
        },
        () => undefined,
      );
    };
    if (huge.forwarded) sendOn(incoming, base, send);
    else incoming.resume().on('end', send);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    written,
    get finished() {
      return finished;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Sends the request on to the API and calls `then` once its answer has come and been dropped. */
function sendOn(incoming: IncomingMessage, target: URL, then: () => void): void {
  const onward = request(
    new URL(incoming.url ?? '/', target),
    { method: incoming.method, headers: { ...incoming.headers, host: target.host } },
    (answer) => answer.resume().on('end', then),
  );
  onward.on('error', then);
  incoming.pipe(onward);
}

/** Writes the huge body with backpressure; true when all of it was written. */
async function stream(
  reply: ServerResponse,
  huge: HugeAnswer,
  bytes: number,
  count: (written: number) => void,
): Promise<boolean> {
  reply.writeHead(huge.status, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let written = 0;
  const closed = new Promise<false>((resolve) =>
    reply.once('close', () => {
      resolve(false);
    }),
  );
  const write = (part: Buffer) => {
    written += part.length;
    count(written);
    return reply.write(part);
  };
  let part = Buffer.from(huge.head);
  while (written < bytes) {
    if (reply.destroyed) return false;
    if (!write(part) && !(await drained(reply, closed))) return false;
    part = chunk;
  }
  reply.end('}');
  return true;
}

function drained(reply: ServerResponse, closed: Promise<false>): Promise<boolean> {
  return Promise.race([
    new Promise<true>((resolve) =>
      reply.once('drain', () => {
        resolve(true);
      }),
    ),
    closed,
  ]);
}
