/**
 * Which host names the dashboard answers. A web page the user visits can point a name of its
 * own at 127.0.0.1 (DNS rebinding) and then read the dashboard as if it were that site; the
 * browser still sends the page's name in `Host`, so answering only our own names stops it. And
 * whether it may listen beyond this machine at all: only with a password.
 */
import { UserError } from '../errors.js';
import type { Words } from '../language/words.js';

/** Loopback names: a rebinding page cannot make a browser send these for its own site. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '::1'];

/** Addresses that mean "every interface": not a name anyone browses to. */
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

const NAME = /^[a-z0-9._-]+$/;
const IPV6 = /^[0-9a-f:.]+$/;
const PORT = /^\d{1,5}$/;

/**
 * The host name of a `Host` header (or of a DASHBOARD_HOSTS entry, written the same way):
 * lower-case, without its port, IPv6 brackets or a final dot; undefined when it is not one.
 */
export function hostOfHeader(header: string | undefined): string | undefined {
  const text = header?.trim().toLowerCase() ?? '';
  let name: string;
  let port: string | undefined;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) return undefined;
    name = text.slice(1, end);
    const rest = text.slice(end + 1);
    if (rest !== '' && !rest.startsWith(':')) return undefined;
    port = rest === '' ? undefined : rest.slice(1);
    if (!IPV6.test(name)) return undefined;
  } else if (text.split(':').length > 2) {
    // A bare IPv6 address: not valid in a Host header, but how one writes it in a setting.
    if (!IPV6.test(text)) return undefined;
    name = text;
  } else {
    [name = '', port] = text.split(':');
    if (!NAME.test(name)) return undefined;
  }
  if (port !== undefined && !PORT.test(port)) return undefined;
  name = name.endsWith('.') ? name.slice(0, -1) : name;
  return name === '' ? undefined : name;
}

/**
 * The names the dashboard answers: the loopback names, the address it listens on when that is
 * one host (not every interface), and the extra names of DASHBOARD_HOSTS.
 */
export function allowedHosts(listenHost: string, extra: readonly string[]): Set<string> {
  const hosts = new Set(LOOPBACK_HOSTS);
  const own = hostOfHeader(listenHost.includes(':') ? `[${unbracket(listenHost)}]` : listenHost);
  if (own !== undefined && !WILDCARDS.has(own)) hosts.add(own);
  for (const entry of extra) {
    const name = hostOfHeader(entry);
    if (name !== undefined) hosts.add(name);
  }
  return hosts;
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * What a refused request is told, in the reader's words: plain words, and how to allow the name
 * if it is ours. Plain text: a page would give a rebinding site markup to work with.
 */
export function foreignHostMessage(words: Words, header: string | undefined): string {
  const named = header === undefined ? 'no' : 'yes';
  const host = header === undefined ? '' : JSON.stringify(header.slice(0, 200));
  return `${words.t('dashboard.foreignHost', { named, host })}\n`;
}

/**
 * Why the dashboard must not start with these settings, or undefined when it may: open without a
 * password beyond this machine, whether it listens there itself or a proxy serves it there under
 * the names of DASHBOARD_HOSTS (a proxy on this machine reaches it on loopback, so where it
 * listens says nothing of who is let in). Callers check it before starting anything else.
 */
export function exposureProblem(options: {
  host: string;
  user?: string;
  password?: string;
  /** A users file (its path, or its users read): every user logs in with a password. */
  users?: unknown;
  /** DASHBOARD_HOSTS: the names it is reached by besides the loopback ones. */
  hosts?: readonly string[];
}): UserError | undefined {
  const guarded =
    options.users !== undefined || (options.user !== undefined && options.password !== undefined);
  if (guarded) return undefined;
  if (!LOOPBACK_HOSTS.includes(options.host)) {
    return new UserError(
      'dashboard.exposed',
      `the dashboard would listen on ${options.host}, beyond this machine, without a password: set DASHBOARD_USER and DASHBOARD_PASSWORD, or DASHBOARD_USERS_FILE (or DASHBOARD_HOST=127.0.0.1).`,
      { values: { host: options.host } },
    );
  }
  const named = (options.hosts ?? []).filter((name) => !LOOPBACK_HOSTS.includes(name));
  if (named.length === 0) return undefined;
  const hosts = named.join(', ');
  return new UserError(
    'dashboard.exposed',
    `the dashboard would be reached as ${hosts} (DASHBOARD_HOSTS: through a proxy, from other machines) without a password: set DASHBOARD_USER and DASHBOARD_PASSWORD, or DASHBOARD_USERS_FILE.`,
    { variant: 'proxied', values: { hosts } },
  );
}
