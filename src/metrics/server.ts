/**
 * `worker`'s metrics port (METRICS_PORT): `/metrics`, `/healthz` and `/readyz`, nothing else (any
 * other path is 404, any other method 405). It tells only counts and up or down, no sheet or
 * order: it has no password, and listens where METRICS_HOST says (every address by default, for
 * a scraper or a supervisor on another host or in another container).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { type HealthSources, httpStatus } from './health.js';
import type { Metrics } from './metrics.js';

export interface MetricsServerOptions extends HealthSources {
  host: string;
  port: number;
  metrics: Metrics;
}

export interface RunningMetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(
  options: MetricsServerOptions,
): Promise<RunningMetricsServer> {
  const server = createServer((request, response) => {
    answer(options, request, response).catch((error: unknown) => {
      // A scrape that fails says so to its scraper; the process goes on.
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`${error instanceof Error ? error.message : String(error)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shown = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

async function answer(
  options: MetricsServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  const text = 'text/plain; charset=utf-8';
  if (path !== '/metrics' && path !== '/healthz' && path !== '/readyz') {
    send(response, 404, text, 'Not found: this port serves /metrics, /healthz and /readyz.\n');
  } else if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    send(response, 405, text, 'Only GET and HEAD.\n');
  } else if (path === '/metrics') {
    send(response, 200, options.metrics.contentType, await options.metrics.text());
  } else {
    const state = path === '/healthz' ? await options.health() : await options.readiness();
    send(response, httpStatus(state), 'application/json; charset=utf-8', JSON.stringify(state));
  }
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}
