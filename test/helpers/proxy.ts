import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server in front of another one, that answers its first requests with a 503. */
export interface FlakyProxy {
  url: string;
  port: number;
  /** Requests received so far, the refused ones included. */
  readonly received: number;
  close(): Promise<void>;
}

export interface FlakyProxyOptions {
  /** Base URL the requests go on to. */
  target: string;
  /** How many requests get a 503 before the proxy forwards. @defaultValue 0 */
  refuse?: number;
  /** Retry-After of those 503s, in seconds. @defaultValue 1 */
  retryAfterS?: number;
  /** Port to listen on. @defaultValue 0, any free one */
  port?: number;
}

/** Sends a request on to `target` as it came, and its answer back as it comes. */
export function forward(incoming: IncomingMessage, reply: ServerResponse, target: URL): void {
  const onward = request(
    new URL(incoming.url ?? '/', target),
    { method: incoming.method, headers: { ...incoming.headers, host: target.host } },
    (answer) => {
      reply.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(reply);
    },
  );
  onward.on('error', () => {
    reply.destroy();
  });
  incoming.pipe(onward);
}

export async function flakyProxy(options: FlakyProxyOptions): Promise<FlakyProxy> {
  const target = new URL(options.target);
  let received = 0;
  const server = createServer((incoming, reply) => {
    received += 1;
    if (received <= (options.refuse ?? 0)) {
      reply.writeHead(503, {
        'content-type': 'text/html',
        'retry-after': String(options.retryAfterS ?? 1),
      });
      reply.end('<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>');
      return;
    }
    forward(incoming, reply, target);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get received() {
      return received;
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
