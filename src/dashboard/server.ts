/**
 * The dashboard (`watch`'s, or `dashboard` alone): `/` the imports overview (one line per sheet,
 * refreshing itself), `/sheets/<sheetId>` each sheet's rows, `/search` across the latest
 * reports, `/queues` bull-board, `/metrics` for Prometheus, `/healthz` and `/readyz` for
 * supervisors, and each report's files and failed/
 * bundle (zip). It only reads: every request other than GET or HEAD is refused, and
 * bull-board is read-only. It answers only its own host names (see hosts.ts). On a non-loopback
 * address it refuses to start without basic-auth credentials (asked everywhere but /healthz and
 * /readyz, which tell only up or down, and the agenda's feeds, which check their own key; /metrics
 * too is behind them). With a users file, each user sees the sheets of their offices only, and
 * only those who see every office /queues and /metrics (guard.ts, viewer.ts).
 */
import type { Queue } from 'bullmq';
import Fastify, { type FastifyInstance } from 'fastify';

import {
  type Health,
  type HealthFound,
  healthOf,
  httpStatus,
  type MetricsSource,
  type Readiness,
} from '../metrics/health.js';
import { loadPageAssets } from './assets.js';
import { mountBoard } from './board.js';
import { type Credentials, guard } from './guard.js';
import { allowedHosts, exposureProblem } from './hosts.js';
import { DashboardLanguages, languageHook, type Speech } from './language.js';
import type { DashboardOffice } from './overview.js';
import { type PageSources, pageRoutes } from './routes.js';

export interface DashboardOptions extends PageSources {
  host: string;
  port: number;
  user?: string;
  password?: string;
  /** DASHBOARD_USERS_FILE's users, read; in place of `user` and `password` when given. */
  users?: Credentials['users'];
  /** Host names answered besides the loopback ones and `host` (DASHBOARD_HOSTS). */
  hosts?: readonly string[];
  /** Whether this process can do its work (Redis, the API), with the reasons when not. */
  health(): Promise<HealthFound>;
  /** Whether work may be sent its way; none: ready whenever healthy. */
  readiness?(): Promise<Readiness>;
  /** The process's metrics, served at /metrics; none: /metrics is not served. */
  metrics?: MetricsSource;
  queues: Queue[];
  /**
   * The offices of this configuration: only their sheets are listed, counted, searched and
   * handed out, and their queues are shown by office name (offices.ts); none: the sheets the
   * sources give, all of them.
   */
  offices?: readonly DashboardOffice[];
  /**
   * What the pages are in when a request asks for no language of its own (`?lang=`, the
   * switch's cookie, Accept-Language): the process's setting; English without it.
   */
  language?: Speech;
}

export interface RunningDashboard {
  /** Where to open it on this machine (localhost when it listens on every address). */
  url: string;
  /** The host names it answers. */
  hosts: string[];
  close(): Promise<void>;
}

export async function startDashboard(options: DashboardOptions): Promise<RunningDashboard> {
  const problem = exposureProblem(options);
  if (problem !== undefined) throw problem;
  const assets = await loadPageAssets();
  const app = Fastify({ logger: false });
  const hosts = allowedHosts(options.host, options.hosts ?? []);
  const languages = new DashboardLanguages(options.language);
  languageHook(app, languages);
  guard(app, options, hosts, { assets, languages });
  await mountBoard(app, options.queues, options.offices);
  pageRoutes(app, options, assets, languages, options.offices);
  healthRoutes(app, options);

  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${browsable(options.host)}:${port}`,
    hosts: [...hosts],
    close: () => app.close(),
  };
}

/** /healthz, /readyz and /metrics: what supervisors and Prometheus ask. */
function healthRoutes(
  app: FastifyInstance,
  options: Pick<DashboardOptions, 'health' | 'readiness' | 'metrics'>,
): void {
  app.get('/healthz', async (_request, reply) => {
    const health = healthOf(await options.health());
    return reply.code(httpStatus(health)).header('cache-control', 'no-store').send(health);
  });
  app.get('/readyz', async (_request, reply) => {
    const ready: Readiness = options.readiness
      ? await options.readiness()
      : readinessOf(healthOf(await options.health()));
    return reply.code(httpStatus(ready)).header('cache-control', 'no-store').send(ready);
  });
  const { metrics } = options;
  if (metrics === undefined) return;
  app.get('/metrics', async (_request, reply) =>
    reply
      .type(metrics.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.text()),
  );
}

function readinessOf(health: Health): Readiness {
  return { status: health.status === 'ok' ? 'ready' : 'unavailable', reasons: health.reasons };
}

/** The listening address as a URL's host; every-address ones as localhost, which it answers. */
function browsable(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
