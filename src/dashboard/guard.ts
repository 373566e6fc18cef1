/**
 * Who the dashboard answers, checked before any route: only its own host names (see hosts.ts),
 * only reads, and beyond loopback only with a login: the one DASHBOARD_USER, or the users of
 * DASHBOARD_USERS_FILE (users.ts), each let in as the viewer of their offices (viewer.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { PageAssets } from './assets.js';
import { say, titled } from './html.js';
import { foreignHostMessage, hostOfHeader } from './hosts.js';
import type { DashboardLanguages } from './language.js';
import { sendFramed } from './pages.js';
import { hashPassword, PasswordChecks } from './password.js';
import type { DashboardUser } from './users.js';
import { decorateViewer, SEES_ALL, SEES_NONE, type Viewer, viewerOfOffices } from './viewer.js';

/**
 * Who may log in: the users of a users file, else the one user and password (both set), else
 * no one is asked (the dashboard listens on loopback).
 */
export interface Credentials {
  user?: string;
  password?: string;
  users?: readonly DashboardUser[];
}

/**
 * The checks, in this order: only our own host names (even /healthz: a rebinding page must learn
 * nothing), only reads, and with credentials a login (but on the open paths, below), which sets
 * the request's viewer; then what only those who see every office may open (/queues, /metrics).
 */
export function guard(
  app: FastifyInstance,
  credentials: Credentials,
  hosts: ReadonlySet<string>,
  pages: LoginPage,
): void {
  decorateViewer(app);
  app.addHook('onRequest', refuseForeignHosts(hosts, pages.languages));
  app.addHook('onRequest', refuseWrites(pages.languages));
  const login = loginOf(credentials);
  if (login === undefined) {
    app.addHook('onRequest', async (request) => {
      request.viewer = SEES_ALL;
    });
    return;
  }
  const check = basicAuth(
    login,
    pages,
    credentials.users === undefined ? 'dashboard.login.text' : 'dashboard.login.users',
  );
  app.addHook('onRequest', async (request, reply) => {
    if (isOpenPath(request.url)) {
      request.viewer = SEES_NONE;
      return undefined;
    }
    return check(request, reply);
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!forAllOnly(request) || viewerOfRequest(request).all) return undefined;
    // As a path that does not exist: a user of some offices learns nothing of these pages.
    reply.callNotFound();
    return reply;
  });
}

/** Paths answered without a login: supervisors' probes, and the calendar feeds with their key. */
export const OPEN_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** An office's calendar feed (`/agenda/<office>.ics?key=…`): it checks its own key. */
const AGENDA_FEED = /^\/agenda\/[^/?#]+\.ics$/;

/** Whether a request's URL is one answered without a login (OPEN_PATHS, an office's feed). */
export function isOpenPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return OPEN_PATHS.has(path) || AGENDA_FEED.test(path);
}

/** Only for those who see every office: bull-board and the metrics, which name every office. */
function forAllOnly(request: FastifyRequest): boolean {
  // The route as matched, and the path as written: a spelling the router decodes is caught too.
  const paths = [request.routeOptions.url ?? '', request.url.split('?')[0] ?? ''];
  return paths.some(
    (path) => path === '/metrics' || path === '/queues' || path.startsWith('/queues/'),
  );
}

function viewerOfRequest(request: FastifyRequest): Viewer {
  return request.viewer ?? SEES_NONE;
}

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

/** Who a user and password let in, or undefined for no one. */
type Login = (user: string, password: string) => Promise<Viewer | undefined>;

function loginOf(credentials: Credentials): Login | undefined {
  if (credentials.users !== undefined) return usersLogin(credentials.users);
  const { user, password } = credentials;
  if (user === undefined || password === undefined) return undefined;
  const expected = Buffer.from(`${user}:${password}`);
  return async (givenUser, givenPassword) => {
    const given = Buffer.from(`${givenUser}:${givenPassword}`);
    const ok = given.length === expected.length && timingSafeEqual(given, expected);
    return ok ? SEES_ALL : undefined;
  };
}

/**
 * The users of a users file, each password checked against its scrypt hash, a few at a time
 * (PasswordChecks). An unknown user costs a hash too, so that the time taken does not tell which
 * users exist.
 */
function usersLogin(users: readonly DashboardUser[]): Login {
  const byName = new Map(users.map((u) => [u.user, u]));
  const stranger = hashPassword(randomBytes(16).toString('hex'));
  const checks = new PasswordChecks();
  return async (user, password) => {
    const known = byName.get(user);
    const hash = known?.password ?? (await stranger);
    const ok = await checks.verify(password, hash);
    return ok && known !== undefined ? viewerOfOffices(known.offices) : undefined;
  };
}

/**
 * Logins already checked, by a keyed hash of the Authorization header (never the header
 * itself): a page and its assets, and the overview asking again every few seconds, would
 * otherwise cost a scrypt each. Bounded; the oldest goes first.
 */
class CheckedLogins {
  readonly #key = randomBytes(32);
  readonly #viewers = new Map<string, Viewer>();

  constructor(private readonly max = 1000) {}

  #name(header: string): string {
    return createHmac('sha256', this.#key).update(header).digest('base64');
  }

  get(header: string): Viewer | undefined {
    return this.#viewers.get(this.#name(header));
  }

  set(header: string, viewer: Viewer): void {
    if (this.#viewers.size >= this.max) {
      const oldest = this.#viewers.keys().next().value;
      if (oldest !== undefined) this.#viewers.delete(oldest);
    }
    this.#viewers.set(this.#name(header), viewer);
  }
}

/**
 * Basic auth on every request; a browser asks for it in a box of its own, and shows the page
 * when the box is closed. The request is let in as the viewer its user is.
 */
function basicAuth(
  login: Login,
  { assets, languages }: LoginPage,
  text: 'dashboard.login.text' | 'dashboard.login.users',
) {
  const checked = new CheckedLogins();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const viewer = checked.get(header) ?? (await logIn(login, header));
    if (viewer !== undefined) {
      checked.set(header, viewer);
      request.viewer = viewer;
      return undefined;
    }
    const words = languages.of(request);
    const heading = say(words, 'dashboard.login.heading');
    void reply.header('www-authenticate', 'Basic realm="order-importer", charset="UTF-8"');
    return sendFramed(reply, assets, { words, url: request.url }, 401, {
      title: titled(words, { html: heading }),
      main: `<h1>${heading}</h1>\n<p class="sub">${say(words, text)}</p>`,
    });
  };
}

/** The viewer a Basic Authorization header lets in, if any. */
async function logIn(login: Login, header: string): Promise<Viewer | undefined> {
  if (!header.startsWith('Basic ') || header.length > 4096) return undefined;
  const text = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  return login(text.slice(0, colon), text.slice(colon + 1));
}
