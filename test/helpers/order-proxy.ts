import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { forward } from './proxy.js';

/** What the proxy answers for one order's GET instead of the API's own answer. */
export type OrderFault = { status: number; body: string; headers?: Record<string, string> };

/**
 * A real HTTP server in front of the sandbox that forwards every request, except the GETs of the
 * orders given a fault, which it answers itself (a 503, a body that is no order).
 */
export interface OrderProxy {
  url: string;
  faults: Map<number, OrderFault>;
  /** The order ids whose GET reached the proxy, in order. */
  readonly gets: number[];
  close(): Promise<void>;
}

export async function orderProxy(target: string): Promise<OrderProxy> {
  const base = new URL(target);
  const faults = new Map<number, OrderFault>();
  const gets: number[] = [];
  const server = createServer((incoming, reply) => {
    const id = /^\/api\/orders\/(\d+)$/.exec(incoming.url ?? '')?.[1];
    if (incoming.method === 'GET' && id !== undefined) {
      gets.push(Number(id));
      const fault = faults.get(Number(id));
      if (fault !== undefined) {
        reply.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        reply.end(fault.body);
        return;
      }
    }
    forward(incoming, reply, base);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    faults,
    gets,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
