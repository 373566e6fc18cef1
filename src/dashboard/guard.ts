/**
 * Who the dashboard answers, checked before any route: only its own host names (see hosts.ts),
 * only reads, and beyond loopback only with the password.
 */
import { timingSafeEqual } from 'node:crypto';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { FEED_PATH } from './agenda-routes.js';
import type { PageAssets } from './assets.js';
import { say, titled } from './html.js';
import { foreignHostMessage, hostOfHeader } from './hosts.js';
import type { DashboardLanguages } from './language.js';
import { sendFramed } from './pages.js';

/** Basic-auth credentials; both set, or the dashboard listens on loopback without any. */
export interface Credentials {
  user?: string;
  password?: string;
}

/**
 * The checks, in this order: only our own host names (even /healthz: a rebinding page must learn
 * nothing), only reads, and with credentials the password (but /healthz and /readyz, which
 * supervisors probe without one, and which tell only up or down; /metrics asks for it).
 */
export function guard(
  app: FastifyInstance,
  credentials: Credentials,
  hosts: ReadonlySet<string>,
  pages: LoginPage,
): void {
  app.addHook('onRequest', refuseForeignHosts(hosts, pages.languages));
  app.addHook('onRequest', refuseWrites(pages.languages));
  if (credentials.user === undefined || credentials.password === undefined) return;
  const check = basicAuth(credentials.user, credentials.password, pages);
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // An office's calendar feed asks for its own key instead (agenda-routes.ts).
    if (OPEN_PATHS.has(path) || FEED_PATH.test(path)) return undefined;
    return check(request, reply);
  });
}

const OPEN_PATHS = new Set(['/healthz', '/readyz']);

/**
 * Refuses a request whose Host header is not one of `hosts`, with 421 and plain words in the
 * reader's language.
 */
function refuseForeignHosts(hosts: ReadonlySet<string>, languages: DashboardLanguages) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.host;
    const name = hostOfHeader(header);
    if (name !== undefined && hosts.has(name)) return undefined;
    const words = languages.of(request);
    return reply
      .code(421)
      .type('text/plain; charset=utf-8')
      .header('content-language', words.language)
      .header('cache-control', 'no-store')
      .send(foreignHostMessage(words, header));
  };
}

/** The dashboard changes nothing: only GET and HEAD are answered; others are told so. */
function refuseWrites(languages: DashboardLanguages) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return undefined;
    const words = languages.of(request);
    return reply
      .code(405)
      .header('allow', 'GET, HEAD')
      .type('text/plain; charset=utf-8')
      .header('content-language', words.language)
      .send(`${words.t('dashboard.writeRefused')}\n`);
  };
}

/** What the page asking for the password is made of: it is in the reader's language. */
export interface LoginPage {
  assets: PageAssets;
  languages: DashboardLanguages;
}

/**
 * Basic auth on every request, the password compared in constant time. A browser asks for it in
 * a box of its own, and shows the page when the box is closed.
 */
function basicAuth(user: string, password: string, { assets, languages }: LoginPage) {
  const expected = Buffer.from(`${user}:${password}`);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Basic ')
      ? Buffer.from(header.slice(6), 'base64')
      : Buffer.alloc(0);
    const ok = given.length === expected.length && timingSafeEqual(given, expected);
    if (!ok) {
      const words = languages.of(request);
      const heading = say(words, 'dashboard.login.heading');
      void reply.header('www-authenticate', 'Basic realm="order-importer", charset="UTF-8"');
      return sendFramed(reply, assets, { words, url: request.url }, 401, {
        title: titled(words, { html: heading }),
        main: `<h1>${heading}</h1>\n<p class="sub">${say(words, 'dashboard.login.text')}</p>`,
      });
    }
  };
}
