/**
 * The dashboard (`watch`'s, or `dashboard` alone): `/` the imports overview (one line per sheet,
 * refreshing itself), `/sheets/<sheetId>` each sheet's rows, `/search` across the latest
 * reports, `/queues` bull-board, `/healthz` for supervisors, and each report's files and failed/
 * bundle (zip). It only reads: every request other than GET or HEAD is refused, and
 * bull-board is read-only. It answers only its own host names (see hosts.ts). On a non-loopback
 * address it refuses to start without basic-auth credentials (except for /healthz).
 */
import type { Queue } from 'bullmq';
import Fastify from 'fastify';

import { loadPageAssets } from './assets.js';
import { mountBoard } from './board.js';
import { guard } from './guard.js';
import { allowedHosts, LOOPBACK_HOSTS } from './hosts.js';
import type { OverviewSources } from './overview.js';
import { reportRoutes } from './reports.js';
import { pageRoutes } from './routes.js';

export interface DashboardOptions extends OverviewSources {
  host: string;
  port: number;
  user?: string;
  password?: string;
  /** Host names answered besides the loopback ones and `host` (DASHBOARD_HOSTS). */
  hosts?: readonly string[];
  /** Whether Redis and the API answer; api is null when this process cannot see the API. */
  health(): Promise<{ redis: boolean; api: boolean | null }>;
  queues: Queue[];
}

export interface RunningDashboard {
  /** Where to open it on this machine (localhost when it listens on every address). */
  url: string;
  /** The host names it answers. */
  hosts: string[];
  close(): Promise<void>;
}

export class DashboardError extends Error {
  override name = 'DashboardError';
}

/**
 * Why the dashboard must not start with these settings (open beyond this machine without a
 * password), or undefined when it may. Callers check it before starting anything else.
 */
export function exposureProblem(
  options: Pick<DashboardOptions, 'host' | 'user' | 'password'>,
): string | undefined {
  const guarded = options.user !== undefined && options.password !== undefined;
  if (LOOPBACK_HOSTS.includes(options.host) || guarded) return undefined;
  return `the dashboard would listen on ${options.host}, beyond this machine, without a password: set DASHBOARD_USER and DASHBOARD_PASSWORD (or DASHBOARD_HOST=127.0.0.1).`;
}

export async function startDashboard(options: DashboardOptions): Promise<RunningDashboard> {
  const problem = exposureProblem(options);
  if (problem !== undefined) throw new DashboardError(problem);
  const assets = await loadPageAssets();
  const app = Fastify({ logger: false });
  const hosts = allowedHosts(options.host, options.hosts ?? []);
  guard(app, options, hosts);
  await mountBoard(app, options.queues);
  pageRoutes(app, options, assets);
  app.get('/healthz', async (_request, reply) => {
    const health = await options.health();
    return reply.code(health.redis && health.api !== false ? 200 : 503).send(health);
  });
  reportRoutes(app, async (sheetId) => {
    const sheet =
      options.sheet === undefined
        ? (await options.overview()).find((s) => s.sheetId === sheetId)
        : await options.sheet(sheetId);
    return sheet?.reportDir;
  });

  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${browsable(options.host)}:${port}`,
    hosts: [...hosts],
    close: () => app.close(),
  };
}

/** The listening address as a URL's host; every-address ones as localhost, which it answers. */
function browsable(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
