/**
 * The dashboard (`watch`'s, or `dashboard` alone): `/` the imports overview (one line per sheet,
 * refreshing itself), `/queues` bull-board, `/healthz` for supervisors, and each report's files
 * and failed/ bundle (zip). It only reads: every request other than GET or HEAD is refused, and
 * bull-board is read-only. It answers only its own host names (see hosts.ts). On a non-loopback
 * address it refuses to start without basic-auth credentials (except for /healthz).
 */
import { timingSafeEqual } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { finished, PassThrough } from 'node:stream';

import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import yazl from 'yazl';

import { lstatIfThere, statIfThere } from '../intake/files.js';
import { AttachmentRefused, type OpenedFile, openInside } from '../orders/open-attachment.js';
import type { SheetProgress } from '../store/progress.js';
import { allowedHosts, foreignHostMessage, hostOfHeader, LOOPBACK_HOSTS } from './hosts.js';
import { type NotTakenSheet, overviewPage } from './page.js';

export interface DashboardOptions {
  host: string;
  port: number;
  user?: string;
  password?: string;
  /** Host names answered besides the loopback ones and `host` (DASHBOARD_HOSTS). */
  hosts?: readonly string[];
  /** The sheets, newest first. */
  overview(): Promise<SheetProgress[]>;
  /** Sheets the hot folder left where they were, and why; shown on `/` when there are any. */
  notTaken?: () => Promise<NotTakenSheet[]>;
  /** Whether Redis and the API answer; api is null when this process cannot see the API. */
  health(): Promise<{ redis: boolean; api: boolean | null }>;
  queues: Queue[];
  logger: Logger;
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
  const app = Fastify({ logger: false });
  const hosts = allowedHosts(options.host, options.hosts ?? []);
  guard(app, options, hosts);
  await mountBoard(app, options.queues);
  app.get('/', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(overviewPage(await notTakenNow(options))),
  );
  app.get('/api/imports', async () => ({ imports: await options.overview() }));
  app.get('/healthz', async (_request, reply) => {
    const health = await options.health();
    return reply.code(health.redis && health.api !== false ? 200 : 503).send(health);
  });
  app.get<{ Params: { sheetId: string; file: string } }>(
    '/reports/:sheetId/:file',
    async (request, reply) => {
      const { sheetId, file } = request.params;
      const type = REPORT_FILES[file];
      const dir = await reportDir(options, sheetId);
      const opened =
        type === undefined || dir === undefined ? undefined : await openReport(dir, file);
      if (type === undefined || opened === undefined)
        return reply.code(404).send({ message: `No ${file} for this sheet (yet).` });
      const [stem, extension] = file.split('.');
      const stream = opened.stream();
      finished(stream, () => void opened.close());
      return reply
        .type(type)
        .header('content-disposition', `attachment; filename="${stem}-${sheetId}.${extension}"`)
        .send(stream);
    },
  );
  app.get<{ Params: { sheetId: string } }>(
    '/reports/:sheetId/failed.zip',
    async (request, reply) => {
      const dir = await reportDir(options, request.params.sheetId);
      const failed = dir === undefined ? undefined : join(dir, 'failed');
      if (failed === undefined || !(await isDir(failed))) {
        return reply.code(404).send({ message: 'This sheet has no failed/ bundle.' });
      }
      return reply
        .type('application/zip')
        .header(
          'content-disposition',
          `attachment; filename="failed-${request.params.sheetId}.zip"`,
        )
        .send(await zipFolder(failed));
    },
  );

  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${browsable(options.host)}:${port}`,
    hosts: [...hosts],
    close: () => app.close(),
  };
}

/**
 * Who is answered, in this order: only our own host names (even /healthz: a rebinding page must
 * learn nothing), only reads, and beyond loopback only with the password (but /healthz, which
 * supervisors probe without one, and which tells only up or down).
 */
function guard(app: FastifyInstance, options: DashboardOptions, hosts: ReadonlySet<string>): void {
  app.addHook('onRequest', refuseForeignHosts(hosts));
  app.addHook('onRequest', refuseWrites);
  if (options.user === undefined || options.password === undefined) return;
  const check = basicAuth(options.user, options.password);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.split('?')[0] !== '/healthz') return check(request, reply);
    return undefined;
  });
}

/** bull-board under /queues, read-only. */
async function mountBoard(app: FastifyInstance, queues: Queue[]): Promise<void> {
  const board = new FastifyAdapter();
  createBullBoard({
    // Read-only hides bull-board's buttons and makes its API refuse them too (405); the method
    // hook refuses them whatever a later bull-board version adds.
    queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: true })),
    serverAdapter: board,
  });
  board.setBasePath('/queues');
  await app.register(board.registerPlugin(), { prefix: '/queues' });
}

/** The listening address as a URL's host; every-address ones as localhost, which it answers. */
function browsable(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Refuses a request whose Host header is not one of `hosts`, with 421 and plain words. */
function refuseForeignHosts(hosts: ReadonlySet<string>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.host;
    const name = hostOfHeader(header);
    if (name !== undefined && hosts.has(name)) return undefined;
    return reply
      .code(421)
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(foreignHostMessage(header));
  };
}

/** The dashboard changes nothing: only GET and HEAD are answered. */
async function refuseWrites(request: FastifyRequest, reply: FastifyReply) {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  return reply
    .code(405)
    .header('allow', 'GET, HEAD')
    .type('text/plain; charset=utf-8')
    .send(
      'The dashboard only shows the imports: it does not add, retry, change or remove jobs or queues.\n',
    );
}

/** The sheets not taken, or why they cannot be shown: the page is shown either way. */
async function notTakenNow(
  options: DashboardOptions,
): Promise<NotTakenSheet[] | Error | undefined> {
  if (options.notTaken === undefined) return undefined;
  try {
    return await options.notTaken();
  } catch (error) {
    options.logger.warn({ err: error }, 'the sheets not taken cannot be read');
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The report folder of a sheet, only when the sheet is one the overview knows. */
async function reportDir(options: DashboardOptions, sheetId: string): Promise<string | undefined> {
  const sheet = (await options.overview()).find((s) => s.sheetId === sheetId);
  return sheet?.reportDir;
}

/**
 * A report's file, opened as attachments are (never through a link), in a report folder that is
 * not a link itself; undefined when there is no such plain file.
 */
async function openReport(dir: string, file: string): Promise<OpenedFile | undefined> {
  if (!(await lstatIfThere(dir))?.isDirectory()) return undefined;
  try {
    return await openInside(dir, file);
  } catch (error) {
    if (error instanceof AttachmentRefused) return undefined;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The files of a report folder the dashboard hands out, with their media types. */
const REPORT_FILES: Record<string, string> = {
  'report.csv': 'text/csv; charset=utf-8',
  'needs-review.csv': 'text/csv; charset=utf-8',
  'summary.json': 'application/json; charset=utf-8',
};

async function isDir(path: string): Promise<boolean> {
  return (await statIfThere(path))?.isDirectory() ?? false;
}

/**
 * A folder as a zip stream, laid out as on disk, under a top folder named `failed/`. Only regular
 * files reached without any link go in, each opened as attachments are (open-attachment.ts) when
 * its turn comes: a failed/ that is a link, or a file or folder in it that is one, adds nothing.
 */
async function zipFolder(folder: string): Promise<PassThrough> {
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  // A file gone or swapped for a link since the walk: the download breaks off, never leaks.
  zip.on('error', (error: Error) => out.destroy(error));
  const root = dirname(folder);
  const walk = async (dir: string): Promise<void> => {
    // A Dirent is the entry itself: a link is neither a folder nor a file here.
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const inside = relative(root, path);
        zip.addReadStreamLazy(join('failed', relative(folder, path)), (done) => {
          openInside(root, inside).then(
            (file) => {
              const stream = file.stream();
              finished(stream, () => void file.close());
              done(null, stream);
            },
            (error: unknown) => {
              done(error, new PassThrough());
            },
          );
        });
      }
    }
  };
  if ((await lstat(folder).catch(() => undefined))?.isDirectory()) await walk(folder);
  zip.end();
  zip.outputStream.pipe(out);
  return out;
}

/** Basic auth on every request, the password compared in constant time. */
function basicAuth(user: string, password: string) {
  const expected = Buffer.from(`${user}:${password}`);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Basic ')
      ? Buffer.from(header.slice(6), 'base64')
      : Buffer.alloc(0);
    const ok = given.length === expected.length && timingSafeEqual(given, expected);
    if (!ok) {
      return reply
        .code(401)
        .header('www-authenticate', 'Basic realm="order-importer", charset="UTF-8"')
        .send({ message: 'Log in with DASHBOARD_USER and DASHBOARD_PASSWORD.' });
    }
  };
}
